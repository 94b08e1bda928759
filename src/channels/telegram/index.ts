// For src/server and src/main.ts: build the channel and mount it.

// Rendering, exported for tests (the render contract itself is src/channels/shared's).
export {
  type RenderPrompt,
  type TelegramMessage,
  toTelegramMessage,
} from './render-telegram-message.js';
export {
  createTelegramChannel,
  type TelegramChannel,
  type TelegramChannelOptions,
} from './telegram-channel.js';
export { TELEGRAM_COMMANDS } from './telegram-commands.js';
// For src/server: the engine middleware the channel's taps and step reads need (`engine.use`).
export { telegramEngineMiddleware } from './telegram-engine-middleware.js';
export { TelegramFileError, TelegramUpdateError } from './telegram-errors.js';
export {
  TYPING_AFTER_MS,
  TYPING_EVERY_MS,
  type TypingOptions,
  type TypingTimers,
} from './telegram-typing.js';
