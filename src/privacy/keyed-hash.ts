import { createHmac } from 'node:crypto';

/**
 * How personal data is named in storage keys (erasure tombstones, one-time codes, limit counts,
 * languages waiting for consent) and how short links are signed (claim documents): never in
 * clear, but by HMAC-SHA-256 truncated to 128 bits (22 base64url characters), under a key
 * derived from `secret` for `purpose` alone, so a hash made for one purpose is no signature of
 * anything else. One home, so every part names a phone or signs a link the same careful way.
 */
export function keyedHasher(secret: string, purpose: string): (text: string) => string {
  const key = createHmac('sha256', secret).update(purpose).digest();
  return (text) => createHmac('sha256', key).update(text).digest('base64url').slice(0, 22);
}
