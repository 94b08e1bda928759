// For src/server and src/main.ts: build the channel and mount it.

// Rendering, exported for tests and for the channel-neutral renderer's shape.
export {
  documentFileName,
  type RenderPrompt,
  renderKey,
  type TelegramMessage,
  toTelegramMessage,
} from './render-telegram-message.js';
export {
  createTelegramChannel,
  TELEGRAM_COMMANDS,
  type TelegramChannel,
  type TelegramChannelOptions,
  TelegramFileError,
  TelegramUpdateError,
} from './telegram-channel.js';
