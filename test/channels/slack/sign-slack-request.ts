import { createHmac } from 'node:crypto';

/**
 * Signs a request body the way Slack does (`v0=` HMAC-SHA256 of `v0:<ts>:<body>`), so tests can
 * send requests the channel must accept; the channel itself verifies with Bolt.
 */
export function signSlackRequest(
  signingSecret: string,
  timestamp: string,
  rawBody: string,
): string {
  return `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${rawBody}`).digest('hex')}`;
}
