// For src/server: configure and mount the WhatsApp Cloud API channel; its engine middleware; its
// store, whose part of "My data" src/server erases. The rest is for the channel's tests.
export {
  type GraphClient,
  InboundMessage,
  placeholdersOf,
  RATE_LIMIT_TRIES,
  signatureOf,
  type TemplateMessage,
  templateOf,
  templatesMarkdown,
  verifySignature,
  WHATSAPP_LIMITS,
  WHATSAPP_TEMPLATES,
  type WhatsAppMessage,
} from './cloud-api/index.js';
export { PAGE_PREFIX, toWhatsAppMessages } from './render-whatsapp-message.js';
export { typedCommand } from './typed-command.js';
export { createWhatsAppChannel } from './whatsapp-channel.js';
export { ChatReply, whatsappEngineMiddleware } from './whatsapp-engine-middleware.js';
export { createWhatsAppNotifier } from './whatsapp-notifier.js';
export { createWhatsAppStore } from './whatsapp-store.js';
export { type WhatsAppConfig, type WiredWhatsApp, wireWhatsApp } from './wire-whatsapp.js';
