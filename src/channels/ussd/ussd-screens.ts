import { t } from '../../conversation/index.js';

/** The most characters a USSD screen may hold, footer included. */
export const USSD_MAX_CHARS = 182;

/** What the caller types to see the next screen of a paged Prompt. */
export const USSD_MORE_KEY = '98';
/** What the caller types to see the previous screen (on the first screen, the flow's "back"). */
export const USSD_BACK_KEY = '0';

/** A Prompt after the locale catalogue: its text and its choices' labels, in order. */
export interface RenderedPrompt {
  readonly text: string;
  readonly choices: readonly { readonly id: string; readonly label: string }[];
}

/** Splits one over-long line at spaces into pieces of at most `width` characters. */
function wrap(line: string, width: number): string[] {
  if (line.length <= width) return [line];
  const pieces: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    let rest = word;
    // A word longer than a whole screen (a URL) is cut where it must be.
    while (rest.length > width) {
      if (current) {
        pieces.push(current);
        current = '';
      }
      pieces.push(rest.slice(0, width));
      rest = rest.slice(width);
    }
    const candidate = current ? `${current} ${rest}` : rest;
    if (candidate.length <= width) {
      current = candidate;
    } else {
      pieces.push(current);
      current = rest;
    }
  }
  if (current) pieces.push(current);
  return pieces;
}

/**
 * Lays out a rendered Prompt as USSD screens of at most 182 characters. Choices are numbered by
 * position (1..n) across all screens. When it does not fit one screen, every screen but the last
 * ends with `98 More` and every screen but the first with `0 Back`; the footer counts.
 */
export function toUssdScreens(rendered: RenderedPrompt, locale: string): string[] {
  const more = `${USSD_MORE_KEY} ${t('ussd.more', undefined, locale)}`;
  const back = `${USSD_BACK_KEY} ${t('ussd.back', undefined, locale)}`;
  const text = rendered.text.trim();
  const lines = [
    ...(text ? text.split('\n').map((line) => line.trimEnd()) : []),
    ...rendered.choices.map((choice, index) => `${index + 1}. ${choice.label}`),
  ];

  const whole = lines.join('\n');
  if (whole.length <= USSD_MAX_CHARS) return [whole];

  // Reserve the fullest footer a page can carry; the last page's unused room is the price of a
  // single greedy pass that can never overflow.
  const firstBudget = USSD_MAX_CHARS - (more.length + 1);
  const laterBudget = firstBudget - (back.length + 1);
  const screens: string[][] = [];
  let page: string[] = [];
  let used = 0;
  const budget = (): number => (screens.length === 0 ? firstBudget : laterBudget);
  for (const line of lines) {
    for (const piece of wrap(line, laterBudget)) {
      const cost = used === 0 ? piece.length : piece.length + 1;
      if (used + cost > budget() && page.length > 0) {
        screens.push(page);
        page = [];
        used = 0;
      }
      page.push(piece);
      used += used === 0 ? piece.length : piece.length + 1;
    }
  }
  if (page.length > 0) screens.push(page);

  return screens.map((body, index) => {
    const footer: string[] = [];
    if (index < screens.length - 1) footer.push(more);
    if (index > 0) footer.push(back);
    return [...body, ...footer].join('\n');
  });
}
