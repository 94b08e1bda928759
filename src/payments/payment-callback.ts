import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PaymentWebhook } from '../api/index.js';
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

const SECRET_HEADER = 'x-callback-secret';

// Hashing first gives equal lengths, so the comparison time says nothing about the secret.
function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

function normaliseIp(ip: string): string {
  return ip.startsWith('::ffff:') ? ip.slice('::ffff:'.length) : ip;
}

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
  const allowed = options.allowedIps?.map(normaliseIp);

  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    if (allowed && !allowed.includes(normaliseIp(request.ip))) {
      request.log.warn({ ip: request.ip }, 'payment callback from a source not allowed');
      return reply.code(403).send({ error: 'forbidden' });
    }
    const params = request.params as { secret?: unknown };
    const header = request.headers[SECRET_HEADER];
    const given =
      typeof params.secret === 'string' ? params.secret : typeof header === 'string' ? header : '';
    if (!sameSecret(given, options.secret)) {
      request.log.warn('payment callback with a wrong secret rejected');
      return reply.code(401).send({ error: 'unauthorized' });
    }
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
  fastify.post(`${PAYMENT_CALLBACK_PATH}/:secret`, { logLevel: 'warn' }, handler);
  fastify.post(PAYMENT_CALLBACK_PATH, { logLevel: 'warn' }, handler);
}
