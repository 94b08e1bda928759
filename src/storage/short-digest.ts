const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * `n.toString(36)` for a whole number from 0 to 2^53 − 1, without the engine's general radix
 * conversion (most of the digest's cost). `%` and the division by 36 of what is left are exact
 * on such numbers.
 */
export function base36(n: number): string {
  let rest = n;
  let out = '';
  do {
    const digit = rest % 36;
    out = BASE36[digit] + out;
    rest = (rest - digit) / 36;
  } while (rest > 0);
  return out;
}

/**
 * A short fixed-size digest of a string that may grow long (a USSD gateway's history grows with
 * the call), to keep in its place. It only tells one string from another that is not chosen to
 * collide, so a 53-bit string hash (cyrb53) does, without a crypto hash object per call; the
 * length is kept beside it. Digests are stored: the function must not change.
 */
export function shortDigest(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return `${base36(text.length)}.${base36(4294967296 * (2097151 & h2) + (h1 >>> 0))}`;
}
