import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../../log/index.js';

/** Options of {@link createUssdGuard}. */
export interface UssdGuardOptions {
  /** Shared with the gateway; sent as header `x-ussd-secret` or query `?secret=`. */
  readonly secret: string;
  /** Gateway addresses allowed to call; empty allows any address that knows the secret. */
  readonly allowedIps: readonly string[];
  readonly logger: Logger;
  /** Called on each refusal (metrics). */
  readonly onReject?: (reason: 'ip' | 'secret') => void;
}

function sameSecret(given: string, expected: Buffer): boolean {
  const a = Buffer.from(given);
  // Compare equal-length buffers only; the length check itself leaks nothing useful.
  return a.length === expected.length && timingSafeEqual(a, expected);
}

/** The caller's address without the IPv4-mapped IPv6 prefix (`::ffff:10.0.0.1` → `10.0.0.1`). */
function plainIp(ip: string): string {
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}

/**
 * A fastify preHandler that lets only the USSD gateway in: a wrong or missing secret gets 401,
 * an address outside the allow-list 403, and neither reaches the engine.
 */
export function createUssdGuard(options: UssdGuardOptions) {
  const allowed = new Set(options.allowedIps.map(plainIp));
  const secret = Buffer.from(options.secret);
  // A callback hook, not an async one: it runs on every USSD request and never waits.
  return function ussdGuard(
    request: FastifyRequest,
    reply: FastifyReply,
    done: (error?: Error) => void,
  ): void {
    if (allowed.size > 0 && !allowed.has(plainIp(request.ip))) {
      options.onReject?.('ip');
      options.logger.warn(
        { channel: 'ussd', route: request.url.split('?')[0] },
        'ussd caller address not allowed',
      );
      reply.code(403).type('text/plain').send('Forbidden');
      return;
    }
    const header = request.headers['x-ussd-secret'];
    const query = (request.query as Record<string, unknown> | undefined)?.secret;
    const given = typeof header === 'string' ? header : typeof query === 'string' ? query : '';
    if (!sameSecret(given, secret)) {
      options.onReject?.('secret');
      options.logger.warn(
        { channel: 'ussd', route: request.url.split('?')[0] },
        'ussd request with a wrong secret',
      );
      reply.code(401).type('text/plain').send('Unauthorized');
      return;
    }
    done();
  };
}
