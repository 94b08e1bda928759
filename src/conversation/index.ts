// Channels: run turns and render what they return.
export { CHANNEL_NAMES } from './channel-names.js';
export {
  type ConversationEngine,
  createTurnEngine,
  ENGINE_PROMPTS,
  type TurnEngineOptions,
  TurnError,
  type TurnErrorCode,
} from './create-turn-engine.js';
// Flows: the flow contract, input validators and the bad-answer counter.
export {
  AUDIENCES,
  type Audience,
  AWAITING_INPUT,
  type FlowContextBase,
  type FlowDefinition,
  type FlowInput,
  type FlowOutput,
  type FlowRegistry,
  type FlowStart,
  type FlowStartInput,
  type TurnRoute,
  type Unfinished,
} from './flow.js';
// Channels: a conversation handed to a person (src/handoff implements it).
export {
  HANDOFF_AGREE,
  HANDOFF_CONSENT,
  HANDOFF_DECLINE,
  type Handoff,
  type HandoffFileForward,
  type HandoffForward,
  type HandoffOpening,
  type HandoffRequest,
  TALK_TO_A_PERSON,
} from './handoff.js';
// Rendering: the insurer's words in the caller's (one mapping, see insurer-words.ts).
export {
  INSURER_ARGUMENTS,
  type InsurerWord,
  type InsurerWordKind,
  insurerWordKey,
} from './insurer-words.js';
export {
  type CallerLanguages,
  CHOOSE_LANGUAGE,
  LANGUAGE_CHOICE_PREFIX,
  LANGUAGE_PROMPT,
  type LanguageHolder,
  LastLocales,
  localeOfChoice,
  supportedLocaleOf,
} from './language.js';
export {
  type Catalogue,
  DEFAULT_LOCALE,
  isStaffKey,
  LOCALE_NAMES,
  LOCALES,
  type MessageKey,
} from './locales/index.js';
export { nestedMessage, nestedMessageOf } from './nested-message.js';
// Channels and src/server: conversation policy as engine middleware, and the neutral update.
export {
  type ChatAnswer,
  type ChatCommand,
  type ChatFiles,
  type ChatInput,
  type ChatNotice,
  type ChatPolicyOptions,
  ChatUpdate,
  type ChatUpdateOptions,
  chatPolicies,
  chatUpdateOf,
  closesCall,
  DESK_WORDS,
  type DeskCommand,
  FileTooLargeError,
  fileStepPolicy,
  handoffPolicy,
  type IncomingFile,
  KEYPAD_DIAL,
  type KeypadCall,
  type KeypadChannel,
  type KeypadPolicyOptions,
  KeypadTurn,
  keypadPolicy,
  languagePolicy,
  type MenuShortcuts,
  menuShortcutPolicy,
  ownRequestOf,
  type StaffDesk,
  staffDeskPolicy,
} from './policy/index.js';
export { Attachment, Choice, InputKind, isPrompt, MessageParams, Prompt } from './prompt.js';
export {
  addMessages,
  type DateStyle,
  formatDate,
  type RenderedChoice,
  type RenderedPrompt,
  type RenderPrompt,
  renderKey,
  renderPrompt,
  t,
} from './render-prompt.js';
export { isReply, type PaymentProceedEvent, type PaymentSettledEvent, Reply } from './reply.js';
export { LATE, TurnBackstop } from './turn-backstop.js';
export type {
  ChannelAddress,
  ChannelName,
  SessionGlance,
  StartOptions,
  TurnEngine,
  TurnOptions,
  TurnPrefetch,
  VouchedCaller,
} from './turn-engine.js';
export {
  composeMiddleware,
  type TurnContext,
  type TurnMiddleware,
  type TurnRequest,
} from './turn-middleware.js';
export {
  type AmountOptions,
  type DateOptions,
  type DateRule,
  type Validation,
  validateAmount,
  validateDate,
  validateMsisdn,
  validateNrc,
  validatePlate,
} from './validators.js';
// Channels: "typing" shown while a turn is slow.
export {
  createTyping,
  TYPING_AFTER_MS,
  TYPING_EVERY_MS,
  type TypingOptions,
  type TypingTimers,
} from './while-slow.js';
