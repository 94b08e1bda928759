import * as crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Why a webhook request was turned away: its source address, or its secret. */
export type WebhookRejection = 'ip' | 'secret';

/** Where an inbound webhook's caller puts the shared secret; the first one present is used. */
export interface WebhookSecretPlaces {
  /** A request header, e.g. `x-ussd-secret`. */
  readonly header?: string;
  /** A route parameter, e.g. `secret` of `/payments/callback/:secret`. */
  readonly param?: string;
  /** A query parameter, e.g. `?secret=`. */
  readonly query?: string;
}

/** Options of {@link createWebhookGuard}. */
export interface WebhookGuardOptions {
  /** The shared secret (the route's owner refuses an empty one where that matters). */
  readonly secret: string;
  /**
   * Source addresses allowed to call, compared after fastify's `trustProxy` rules and without an
   * IPv4-mapped IPv6 prefix. Empty or omitted: any address that knows the secret.
   */
  readonly allowedIps?: readonly string[] | undefined;
  /** Where the secret travels, in the order looked at: param, then header, then query. */
  readonly secretIn: WebhookSecretPlaces;
  /**
   * Answers a refused request (403 for `ip`, 401 for `secret` by convention) and logs or counts
   * it; each webhook keeps its own body shape. Must send the reply.
   */
  readonly reject: (request: FastifyRequest, reply: FastifyReply, reason: WebhookRejection) => void;
}

/** A fastify preHandler (callback style: it never waits, and runs on every request). */
export type WebhookGuard = (
  request: FastifyRequest,
  reply: FastifyReply,
  done: (error?: Error) => void,
) => void;

/** The caller's address without the IPv4-mapped IPv6 prefix (`::ffff:10.0.0.1` → `10.0.0.1`). */
function plainIp(ip: string): string {
  return ip.startsWith('::ffff:') ? ip.slice('::ffff:'.length) : ip;
}

/**
 * Node's one-shot `crypto.hash` (Node ≥ 20.12, which package.json's engines already require; not
 * yet in the installed @types/node): a guard runs on every USSD keypress, and a `Hash` object
 * costs about twice the one-shot's instructions for a secret's few bytes.
 */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, out: 'buffer') => Buffer })
  .hash;

function digest(value: string): Buffer {
  return oneShot
    ? oneShot('sha256', value, 'buffer')
    : crypto.createHash('sha256').update(value).digest();
}

function stringIn(record: unknown, name: string | undefined): string | undefined {
  if (name === undefined || typeof record !== 'object' || record === null) return undefined;
  const value = (record as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The one check every inbound webhook runs before its handler (USSD gateways, inbound SMS, the
 * insurer's payment callback): an address outside the allow-list is refused first, then a wrong
 * or missing secret; neither reaches the handler. Secrets are compared by their SHA-256 digests
 * with `timingSafeEqual`, so neither the time taken nor a length check says anything about them.
 */
export function createWebhookGuard(options: WebhookGuardOptions): WebhookGuard {
  const allowed = new Set((options.allowedIps ?? []).map(plainIp));
  const expected = digest(options.secret);
  const { header, param, query } = options.secretIn;
  return function webhookGuard(request, reply, done): void {
    if (allowed.size > 0 && !allowed.has(plainIp(request.ip))) {
      options.reject(request, reply, 'ip');
      return;
    }
    const given =
      stringIn(request.params, param) ??
      (header === undefined ? undefined : stringIn(request.headers, header)) ??
      stringIn(request.query, query) ??
      '';
    if (!crypto.timingSafeEqual(digest(given), expected)) {
      options.reject(request, reply, 'secret');
      return;
    }
    done();
  };
}
