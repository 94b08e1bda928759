// For src/server: build the channel and mount it (and, for tests, the render contract it takes).
export type { RenderPrompt } from '../shared/index.js';
export {
  createTelegramChannel,
  type TelegramChannel,
  type TelegramChannelOptions,
} from './telegram-channel.js';
// For src/server: the engine middleware the channel's taps need (`engine.use`).
export { telegramEngineMiddleware } from './telegram-engine-middleware.js';
