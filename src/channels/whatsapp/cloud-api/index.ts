// WhatsApp Cloud API's own: the Graph client, the messages it sends and Meta's limits on them,
// the message templates registered with Meta, the webhook's payload schemas and its verification
// (signature, subscription check). Platform code beside the channel's adapter, which imports it
// through this folder.
export {
  createGraphClient,
  type GraphClient,
  MediaTooLargeError,
  RATE_LIMIT_TRIES,
  WhatsAppGraphError,
} from './graph-client.js';
export {
  isTemplateError,
  isUnusable,
  placeholdersOf,
  statusOfTemplateError,
  type TemplateDefinition,
  templateMessage,
  templateOf,
  templatesMarkdown,
  WHATSAPP_TEMPLATES,
} from './message-templates.js';
export {
  type Row,
  SERVICE_WINDOW_SECONDS,
  type TemplateMessage,
  WHATSAPP_LIMITS,
  type WhatsAppMessage,
} from './messages.js';
export { signatureOf, subscriptionChallenge, verifySignature } from './verify-signature.js';
export {
  eventsOf,
  InboundMessage,
  kindOf,
  loggable,
  MessageStatus,
  parseWebhook,
  TemplateStatusUpdate,
} from './webhook-payload.js';
