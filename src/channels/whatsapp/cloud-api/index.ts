// WhatsApp Cloud API's own: the Graph client, the webhook's payload schemas and its signature
// check. Platform code beside the channel's adapter, which imports it through this folder.
export {
  createGraphClient,
  type GraphClient,
  MediaTooLargeError,
  RATE_LIMIT_TRIES,
  type TemplateMessage,
  WhatsAppGraphError,
} from './graph-client.js';
export { signatureOf, verifySignature } from './verify-signature.js';
export {
  eventsOf,
  InboundMessage,
  kindOf,
  loggable,
  type MessageKind,
  MessageStatus,
  TemplateStatusUpdate,
  WebhookBody,
  type WebhookEvents,
} from './webhook-payload.js';
