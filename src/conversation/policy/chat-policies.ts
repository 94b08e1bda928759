import type { Logger } from '../../log/index.js';
import type { Handoff } from '../handoff.js';
import type { CallerLanguages } from '../language.js';
import { composeMiddleware, type TurnMiddleware } from '../turn-middleware.js';
import { chatUpdateOf } from './chat-update.js';
import { type ChatFiles, fileStepPolicy } from './file-step-policy.js';
import { handoffPolicy } from './handoff-policy.js';
import { languagePolicy } from './language-policy.js';
import { type MenuShortcuts, menuShortcutPolicy } from './menu-shortcut-policy.js';

/** What the conversation policies are built over. */
export interface ChatPolicyOptions {
  /** Human handoff; may be attached after the engine is built. Nobody is available without it. */
  readonly handoff?: (() => Handoff | undefined) | undefined;
  /** The language each user chose; without it every user gets their app's (or the default). */
  readonly languages?: CallerLanguages | undefined;
  /** Where files go; without it a file gets "cannot take files here". */
  readonly files?: ChatFiles | undefined;
  readonly shortcuts: MenuShortcuts;
  readonly logger: Logger;
}

/**
 * Every chat channel's conversation policies, in the order they decide (add them with
 * `engine.use` before any channel's own middleware): the language first (every answer is in it),
 * then a person, then the menu and a reminder's buttons, then a file. A turn without a
 * `ChatUpdate` passes through them all.
 */
export function chatPolicies(options: ChatPolicyOptions): TurnMiddleware[] {
  const handoff = options.handoff ?? (() => undefined);
  const policies = [
    languagePolicy(options.languages, options.logger),
    handoffPolicy(handoff),
    menuShortcutPolicy(options.shortcuts),
    fileStepPolicy(options.files),
  ];
  // One layer, not four: a turn without a ChatUpdate (every USSD keypress) passes on with one
  // check, where each async policy would cost it a promise and two microtask ticks of its own.
  return [
    (context, next) =>
      chatUpdateOf(context.options) ? composeMiddleware(policies, next)(context) : next(),
  ];
}
