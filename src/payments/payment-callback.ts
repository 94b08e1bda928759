import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PaymentWebhook } from '../api/index.js';
import { createWebhookGuard } from '../webhook/index.js';
import { callbackReference, type PaymentService } from './payment-service.js';

/** Options of {@link registerPaymentCallback}. */
export interface PaymentCallbackOptions {
  /**
   * The shared secret in the callback URL (`/payments/callback/<secret>`) or the
   * `x-callback-secret` header. Required and non-empty: the webhook itself is not signed.
   */
  readonly secret: string;
  /** When set, only these source addresses may call (after the server's `trustProxy` rules). */
  readonly allowedIps?: readonly string[];
  readonly service: Pick<PaymentService, 'accept'>;
}

/** Path of the callback route; the secret may also travel as the last path segment. */
export const PAYMENT_CALLBACK_PATH = '/payments/callback';

/**
 * Registers `POST /payments/callback/:secret` (and `POST /payments/callback` with the
 * `x-callback-secret` header) for the insurer's payment webhook. Wrong secret → 401, source not
 * allowed → 403, unreadable body → 400, all without effect; otherwise 200 at once, and the body is
 * handled after the answer (its errors are logged, never returned).
 */
export function registerPaymentCallback(
  fastify: FastifyInstance,
  options: PaymentCallbackOptions,
): void {
  if (options.secret.length === 0) throw new RangeError('The payment callback secret is empty');
  const guard = createWebhookGuard({
    secret: options.secret,
    allowedIps: options.allowedIps,
    secretIn: { param: 'secret', header: 'x-callback-secret' },
    reject(request, reply, reason) {
      if (reason === 'ip') {
        request.log.warn({ ip: request.ip }, 'payment callback from a source not allowed');
        reply.code(403).send({ error: 'forbidden' });
      } else {
        request.log.warn('payment callback with a wrong secret rejected');
        reply.code(401).send({ error: 'unauthorized' });
      }
    },
  });

  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const parsed = PaymentWebhook.safeParse(request.body);
    if (!parsed.success || callbackReference(parsed.data) === undefined) {
      const fields = parsed.success
        ? ['partnerReference']
        : parsed.error.issues.map((i) => i.path.join('.'));
      request.log.warn({ fields }, 'payment callback body rejected');
      return reply.code(400).send({ error: 'invalid payment callback', fields });
    }
    options.service.accept(parsed.data);
    return reply.code(200).send({ received: true });
  };

  // The secret may sit in the URL: keep fastify's per-request info lines (which carry the URL)
  // out of the logs for these routes.
  const route = { logLevel: 'warn', preHandler: guard } as const;
  fastify.post(`${PAYMENT_CALLBACK_PATH}/:secret`, route, handler);
  fastify.post(PAYMENT_CALLBACK_PATH, route, handler);
}
