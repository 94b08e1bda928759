import { createHmac, timingSafeEqual } from 'node:crypto';

/** Why a request failed Slack's signature check. */
export type SlackSignatureFailure = 'missing' | 'stale' | 'mismatch';

/** Raised when a request does not carry a valid, fresh Slack signature. */
export class SlackSignatureError extends Error {
  override readonly name = 'SlackSignatureError';
  readonly code: SlackSignatureFailure;

  constructor(code: SlackSignatureFailure, message: string) {
    super(message);
    this.code = code;
  }
}

/** What {@link verifySlackSignature} checks. */
export interface SlackSignatureInput {
  readonly signingSecret: string;
  /** The request body exactly as received: a re-serialised body would not match. */
  readonly rawBody: string;
  /** `X-Slack-Request-Timestamp`, seconds since the epoch. */
  readonly timestamp: string | undefined;
  /** `X-Slack-Signature`, `v0=<hex>`. */
  readonly signature: string | undefined;
  /** Now, in ms; tests pin it. Default `Date.now()`. */
  readonly nowMs?: number;
  /** Oldest accepted request age; default 300 s, Slack's own replay window. */
  readonly toleranceSeconds?: number;
}

/** Computes Slack's `v0=` signature of a request body (HMAC-SHA256 of `v0:<ts>:<body>`). */
export function signSlackRequest(
  signingSecret: string,
  timestamp: string,
  rawBody: string,
): string {
  const digest = createHmac('sha256', signingSecret)
    .update(`v0:${timestamp}:${rawBody}`)
    .digest('hex');
  return `v0=${digest}`;
}

/**
 * Verifies a Slack request signature in constant time and rejects requests older (or further in
 * the future) than the tolerance, so a captured request cannot be replayed.
 * Throws {@link SlackSignatureError}.
 */
export function verifySlackSignature(input: SlackSignatureInput): void {
  const { timestamp, signature } = input;
  if (!timestamp || !signature) throw new SlackSignatureError('missing', 'Slack signature missing');
  const seconds = Number(timestamp);
  if (!Number.isInteger(seconds)) throw new SlackSignatureError('missing', 'bad Slack timestamp');
  const ageSeconds = Math.abs((input.nowMs ?? Date.now()) / 1_000 - seconds);
  if (ageSeconds > (input.toleranceSeconds ?? 300)) {
    throw new SlackSignatureError('stale', 'Slack request too old');
  }
  const expected = Buffer.from(signSlackRequest(input.signingSecret, timestamp, input.rawBody));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new SlackSignatureError('mismatch', 'Slack signature mismatch');
  }
}
