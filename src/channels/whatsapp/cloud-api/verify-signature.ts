import { createHmac, timingSafeEqual } from 'node:crypto';

/** The HMAC-SHA256 of the raw body under the app secret: what Meta signs, in one place. */
const digestOf = (rawBody: string | Buffer, appSecret: string): Buffer =>
  createHmac('sha256', appSecret).update(rawBody).digest();

/**
 * True when `header` (`X-Hub-Signature-256: sha256=<hex>`) is the HMAC-SHA256 of the raw body
 * under the app secret, compared in constant time. A missing or malformed header is false.
 */
export function verifySignature(rawBody: Buffer, header: unknown, appSecret: string): boolean {
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  const expected = digestOf(rawBody, appSecret);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The header Meta would send for `rawBody` (tests and the local Graph API sign with it). */
export function signatureOf(rawBody: string | Buffer, appSecret: string): string {
  return `sha256=${digestOf(rawBody, appSecret).toString('hex')}`;
}

/**
 * Meta's subscription check (the webhook's GET): the `hub.challenge` to echo when `hub.mode` is
 * `subscribe` and `hub.verify_token` is ours; undefined when the check fails.
 */
export function subscriptionChallenge(
  query: Readonly<Record<string, unknown>>,
  verifyToken: string,
): string | undefined {
  const token = query['hub.verify_token'];
  if (query['hub.mode'] !== 'subscribe' || typeof token !== 'string' || token !== verifyToken) {
    return undefined;
  }
  return String(query['hub.challenge'] ?? '');
}
