// For src/server: the WhatsApp Cloud API channel's parts (its Graph client, its message handling
// and its webhook), which src/server/build-whatsapp.ts composes; its engine middleware; its
// renderer, which src/push's notifier sends with. The rest is for the channel's tests.
export {
  createGraphClient,
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
export { registerWhatsAppWebhook } from './whatsapp-webhook.js';
