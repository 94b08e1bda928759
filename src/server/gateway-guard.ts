import type { Logger } from '../log/index.js';
import { createWebhookGuard, type WebhookGuard, type WebhookRejection } from '../webhook/index.js';

/** Options of {@link createGatewayGuard}. */
interface GatewayGuardOptions {
  /** Shared with the gateway; sent as header `x-ussd-secret` or query `?secret=`. */
  readonly secret: string;
  /** Gateway addresses allowed to call; empty allows any address that knows the secret. */
  readonly allowedIps: readonly string[];
  readonly logger: Logger;
  /** Called on each refusal (metrics). */
  readonly onReject?: (reason: WebhookRejection) => void;
}

/**
 * The USSD gateway account's guard, shared by its USSD routes and its inbound-SMS callback: a
 * wrong or missing secret gets 401, an address outside the allow-list 403, and neither reaches
 * the engine.
 */
export function createGatewayGuard(options: GatewayGuardOptions): WebhookGuard {
  return createWebhookGuard({
    secret: options.secret,
    allowedIps: options.allowedIps,
    secretIn: { header: 'x-ussd-secret', query: 'secret' },
    reject(request, reply, reason) {
      options.onReject?.(reason);
      // The route without its query: the secret may travel there.
      const route = request.url.split('?')[0];
      if (reason === 'ip') {
        options.logger.warn({ channel: 'ussd', route }, 'ussd caller address not allowed');
        reply.code(403).type('text/plain').send('Forbidden');
      } else {
        options.logger.warn({ channel: 'ussd', route }, 'ussd request with a wrong secret');
        reply.code(401).type('text/plain').send('Unauthorized');
      }
    },
  });
}
