// Inbound webhooks' authentication, for every route a platform or the insurer calls us on
// (USSD gateways, inbound SMS, payment callbacks): one shared-secret and address check.

export {
  createWebhookGuard,
  type WebhookGuard,
  type WebhookGuardOptions,
  type WebhookRejection,
  type WebhookSecretPlaces,
} from './webhook-guard.js';
