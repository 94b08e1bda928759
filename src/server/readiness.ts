import { request } from 'undici';
import type { CircuitState, PartnerClient } from '../api/index.js';

/** One dependency `/readyz` checks; resolves when reachable, throws when not. */
export interface ReadinessCheck {
  readonly name: string;
  check(): Promise<void>;
}

/** Readiness of Redis: a PING answered. */
export function redisReadiness(redis: { ping(): Promise<string> }): ReadinessCheck {
  return {
    name: 'redis',
    async check() {
      await redis.ping();
    },
  };
}

/**
 * Readiness of the insurer: any HTTP answer below 500 from its base URL (even 401 or 404) proves
 * the network path and the service are up; credentials are the client's concern.
 */
export function upstreamReadiness(baseUrl: string, timeoutMs = 2000): ReadinessCheck {
  return {
    name: 'upstream',
    async check() {
      const response = await request(baseUrl, {
        method: 'GET',
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      await response.body.dump();
      if (response.statusCode >= 500) throw new Error(`upstream answered ${response.statusCode}`);
    },
  };
}

/**
 * Readiness of the insurer as the client sees it: not ready while its circuit breaker is open
 * (calls fail at once with "try later"), ready when closed or half-open (a trial call is let
 * through, and a ready instance is what lets it happen).
 */
export function circuitReadiness(client: Pick<PartnerClient, 'circuitState'>): ReadinessCheck {
  return {
    name: 'upstreamCircuit',
    async check() {
      const state: CircuitState = client.circuitState();
      if (state === 'open') throw new Error('the upstream circuit is open');
    },
  };
}

/** Runs every check at once; each result is `ok` or `down`, never the error text. */
export async function runReadiness(
  checks: readonly ReadinessCheck[],
): Promise<{ ready: boolean; checks: Record<string, 'ok' | 'down'> }> {
  const results = await Promise.allSettled(checks.map((check) => check.check()));
  const summary: Record<string, 'ok' | 'down'> = {};
  checks.forEach((check, index) => {
    summary[check.name] = results[index]?.status === 'fulfilled' ? 'ok' : 'down';
  });
  return { ready: Object.values(summary).every((state) => state === 'ok'), checks: summary };
}
