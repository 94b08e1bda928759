// For src/server: configure and mount the WhatsApp Cloud API channel; its engine middleware.

// For tests and other adapters: the pieces, each usable alone.
export {
  createGraphClient,
  type GraphClient,
  InboundMessage,
  kindOf,
  MediaTooLargeError,
  type MessageKind,
  MessageStatus,
  RATE_LIMIT_TRIES,
  signatureOf,
  type TemplateMessage,
  verifySignature,
  WebhookBody,
  type WebhookEvents,
  WhatsAppGraphError,
} from './cloud-api/index.js';
export {
  clip,
  PAGE_PREFIX,
  splitText,
  toWhatsAppMessages,
  WHATSAPP_LIMITS,
  type WhatsAppMessage,
} from './render-whatsapp-message.js';
export { type TypedCommand, typedCommand } from './typed-command.js';
export {
  type Answer,
  createWhatsAppChannel,
  type WhatsAppChannel,
  type WhatsAppChannelOptions,
} from './whatsapp-channel.js';
export {
  type WhatsAppConfig,
  WhatsAppEnv,
  whatsappConfigOf,
} from './whatsapp-config.js';
export { ChatReply, whatsappEngineMiddleware } from './whatsapp-engine-middleware.js';
export {
  createSeenMessages,
  createWhatsAppInbox,
  SEEN_RETENTION_MS,
  type SeenMessages,
  TURN_ATTEMPTS,
  type WhatsAppInbox,
  type WhatsAppInboxOptions,
} from './whatsapp-inbox.js';
export {
  createWhatsAppNotifier,
  type WhatsAppNotifier,
  type WhatsAppNotifierOptions,
} from './whatsapp-notifier.js';
export {
  createWhatsAppStore,
  type DeliveryStatus,
  HeldMessage,
  isDeliveryStatus,
  SERVICE_WINDOW_SECONDS,
  type WhatsAppStore,
  whatsappPersonalData,
} from './whatsapp-store.js';
export {
  placeholdersOf,
  type TemplateDefinition,
  templateOf,
  templatesMarkdown,
  WHATSAPP_TEMPLATES,
} from './whatsapp-templates.js';
export { type WhatsAppWiring, type WiredWhatsApp, wireWhatsApp } from './wire-whatsapp.js';
