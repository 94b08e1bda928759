// Conversation policy as engine middleware: what every chat channel, and USSD, used to decide
// itself.

export { type ChatPolicyOptions, chatPolicies } from './chat-policies.js';
export {
  type ChatAnswer,
  type ChatCommand,
  type ChatInput,
  type ChatNotice,
  ChatUpdate,
  type ChatUpdateOptions,
  chatUpdateOf,
  FileTooLargeError,
  type IncomingFile,
  ownRequestOf,
} from './chat-update.js';
export { type ChatFiles, fileStepPolicy } from './file-step-policy.js';
export { handoffPolicy } from './handoff-policy.js';
export { type KeypadPolicyOptions, keypadPolicy } from './keypad-policy.js';
export {
  closesCall,
  KEYPAD_DIAL,
  type KeypadCall,
  type KeypadChannel,
  KeypadTurn,
} from './keypad-turn.js';
export { languagePolicy } from './language-policy.js';
export { type MenuShortcuts, menuShortcutPolicy } from './menu-shortcut-policy.js';
export {
  DESK_WORDS,
  type DeskCommand,
  type StaffDesk,
  staffDeskPolicy,
} from './staff-desk-policy.js';
