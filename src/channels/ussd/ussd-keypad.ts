import {
  type KeypadChannel,
  type LastLocales,
  type Prompt,
  type RenderedPrompt,
  t,
  type Unfinished,
} from '../../conversation/index.js';
import type { RenderPrompt } from '../shared/index.js';
import { ussdInputToReply } from './ussd-input.js';
import { toUssdScreens, USSD_BACK_KEY, USSD_MORE_KEY } from './ussd-screens.js';

/** Choice id of the extra "Use this number" line on a contact prompt. */
const USE_CALLER_NUMBER = 'ussd.useCallerNumber';

/**
 * The USSD keypad, shared by every request of one core: Prompts as screens of at most 182
 * characters, the resume offer, what a key means on a screen, and the language each phone was
 * last seen in.
 */
export class UssdKeypad implements KeypadChannel {
  readonly name = 'ussd';
  readonly more = USSD_MORE_KEY;
  readonly back = USSD_BACK_KEY;
  /** The resume offer's choices, as {@link resumeScreensOf} numbers them. */
  readonly resumeKeys = { continue: '1', restart: '2' };
  /** The resume offer's pages per locale, laid out once each. */
  private readonly resumeLayouts = new Map<string, string[]>();

  constructor(
    private readonly render: RenderPrompt,
    readonly locales: LastLocales,
  ) {}

  /** A Prompt as USSD screens; a contact prompt gets a "Use this number" line. */
  screensOf(prompt: Prompt, locale: string): string[] {
    const rendered = this.render(prompt, locale);
    if (prompt.input !== 'contact') return toUssdScreens(rendered, locale);
    const useMine = { id: USE_CALLER_NUMBER, label: t('ussd.useMyNumber', undefined, locale) };
    return toUssdScreens({ text: rendered.text, choices: [...rendered.choices, useMine] }, locale);
  }

  /**
   * The "Continue / Start again" offer after a dropped call, naming under its title what is
   * unfinished when the flow says (laid out each time: it carries the caller's answers).
   */
  resumeScreensOf(locale: string, unfinished?: Unfinished): string[] {
    if (unfinished) {
      const what = t(unfinished.key, unfinished.params, locale);
      const title = `${t('ussd.resumeTitle', undefined, locale)}\n${what}`;
      return toUssdScreens(resumeOffer(title, locale), locale);
    }
    let screens = this.resumeLayouts.get(locale);
    if (!screens) {
      screens = toUssdScreens(
        resumeOffer(t('ussd.resumeTitle', undefined, locale), locale),
        locale,
      );
      this.resumeLayouts.set(locale, screens);
    }
    return screens;
  }

  /** What a key means on a screen (the function itself: no call of its own per keypress). */
  readonly replyOf = ussdInputToReply;
}

function resumeOffer(title: string, locale: string): RenderedPrompt {
  return {
    text: title,
    choices: [
      { id: 'continue', label: t('ussd.resumeContinue', undefined, locale) },
      { id: 'restart', label: t('ussd.resumeRestart', undefined, locale) },
    ],
  };
}
