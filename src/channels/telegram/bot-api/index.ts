// Telegram Bot API's own: the grammY client with its upload, throttling and retry transformers,
// the sender and its Bot API errors, file downloads, chat actions, the "/" menu, and the webhook
// and polling transports.
// Platform code beside the channel's adapter, which imports it through this folder.
export { type ChatTyping, chatTyping } from './chat-action.js';
export { setCommandMenu } from './command-menu.js';
export { downloadFile } from './file-download.js';
export { createTelegramBot, TELEGRAM_API_ROOT, type TelegramBotOptions } from './telegram-bot.js';
export { describeTelegramError } from './telegram-errors.js';
export { startPolling } from './telegram-polling.js';
export {
  createTelegramSender,
  type TelegramDocument,
  type TelegramMessage,
  type TelegramSender,
} from './telegram-sender.js';
export { registerTelegramWebhook, setTelegramWebhook } from './telegram-webhook.js';
