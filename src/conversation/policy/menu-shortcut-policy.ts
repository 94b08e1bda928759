import type { TurnMiddleware } from '../turn-middleware.js';
import { chatUpdateOf } from './chat-update.js';

/** What {@link menuShortcutPolicy} knows of the product (given by src/server from flows/). */
export interface MenuShortcuts {
  /** The entry menu's flow id, which "menu" opens afresh. */
  readonly entryFlow: string;
  /**
   * True for a button of a message sent out of turn (a reminder's "Renew now" or "Stop
   * reminders"): it belongs to no step, so the menu opens afresh and picks it there.
   */
  isShortcut(choiceId: string): boolean;
}

/**
 * The reminder-shortcut policy, one home for every chat channel: the "menu" command drops the
 * conversation and opens the entry menu (taking its pick there, `/status`), and a reminder's
 * button does the same with its choice. The answer is a new screen.
 */
export function menuShortcutPolicy(shortcuts: MenuShortcuts): TurnMiddleware {
  return (context, next) => {
    const update = chatUpdateOf(context.options);
    if (!update) return next();
    const { input } = update;
    let pick: string | undefined;
    if (input.kind === 'command' && input.command === 'menu') pick = input.pick;
    else if (input.kind === 'choice' && shortcuts.isShortcut(input.id)) pick = input.id;
    else return next();
    update.answer = 'screen';
    context.request = {
      kind: 'start',
      flowId: shortcuts.entryFlow,
      ...(pick === undefined ? {} : { start: { pick } }),
    };
    return next();
  };
}
