import { errorName, type Logger } from '../../log/index.js';
import {
  type CallerLanguages,
  CHOOSE_LANGUAGE,
  LANGUAGE_PROMPT,
  localeOfChoice,
} from '../language.js';
import type { TurnMiddleware } from '../turn-middleware.js';
import { chatUpdateOf } from './chat-update.js';
import { showStep } from './show-step.js';

/**
 * The language policy, one home for every chat channel: each update speaks the language the user
 * chose (read with the session, the engine's prefetch), else their app's when it is one of ours,
 * else the channel's default; the menu's "Language" shows the language screen, and a language
 * picked there is remembered and the step shown again in it. A store that fails is logged and
 * the update goes on in the language it had.
 */
export function languagePolicy(
  languages: CallerLanguages | undefined,
  log: Logger,
): TurnMiddleware {
  return async (context, next) => {
    const update = chatUpdateOf(context.options);
    if (!update) return next();
    const holder = { channel: update.options.channel, address: update.options.address };
    if (languages) {
      try {
        const chosen = await languages.chosen(holder);
        if (chosen !== undefined) update.locale = chosen;
      } catch (error) {
        log.warn({ event: 'language.unread', errorName: errorName(error) }, 'language not read');
      }
    }
    const { input } = update;
    if (input.kind !== 'choice') return next();
    if (input.id === CHOOSE_LANGUAGE && languages) return LANGUAGE_PROMPT;
    const picked = localeOfChoice(input.id);
    if (picked === undefined) return next();
    try {
      await languages?.choose(holder, picked);
    } catch (error) {
      // Not remembered: this answer is still in it, the next one as before.
      log.warn({ event: 'language.unsaved', errorName: errorName(error) }, 'language not saved');
    }
    update.locale = picked;
    update.languageChanged = true;
    // With no conversation at all the menu opens in the new language; a closing screen is left
    // as it is unless the chat shows the step again with every notice (`repeatStep`).
    const menu = update.options.repeatStep || context.session.prompt === undefined;
    return showStep(context, next, update, { lead: { key: 'language.changed' }, menu });
  };
}
