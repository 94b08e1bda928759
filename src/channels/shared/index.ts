// For every channel and src/server: what the channels share.

// Redelivery guards: each platform request (Telegram update, Slack retry) handled once.
export {
  MemoryOnceSet,
  type OnceSet,
  type OnceSetOptions,
  RedisOnceSet,
  StoreOnceSet,
} from './once-set.js';
// Rendering: the one render contract (a Prompt and a message key through the catalogue).
export { attachmentFileName, type RenderPrompt, renderKey } from './render-contract.js';
