import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { newPhone, type Phone, percentile, type UssdLoadOptions } from './ussd-load.js';

/** Options of {@link runUssdCallers}: a load run's, with callers instead of connections. */
export interface UssdCallersOptions
  extends Pick<
    UssdLoadOptions,
    'url' | 'path' | 'durationSeconds' | 'steps' | 'headers' | 'classify'
  > {
  /** Callers walking the journey at once, each on a connection of its own. */
  readonly callers: number;
  /** Callers start at random moments over this window, as real callers do (not in lockstep). */
  readonly startSpreadMs: number;
  /** The handset of each new journey; default a new number no record holds ({@link newPhone}). */
  readonly phone?: () => Phone;
}

/** What a callers run measured; latency is per answer, from the moment its request started. */
export interface UssdCallersResult {
  readonly turns: number;
  readonly journeys: number;
  readonly errors: number;
  readonly wrongScreens: number;
  readonly matched: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** How late the generator's own timers fired (p99, ms): a starved generator shows here. */
  readonly generatorLagP99Ms: number;
}

/**
 * Concurrent callers walking a USSD journey, each its own loop: dial, answer each screen as soon
 * as it arrives, start a new phone after the last one, until the time is up (answers still in
 * flight then are waited for and counted). Unlike autocannon's connections, the callers start
 * spread over `startSpreadMs`, so a slow upstream does not answer them all in the same instant;
 * and each latency is taken from the start of its own request.
 */
export async function runUssdCallers(options: UssdCallersOptions): Promise<UssdCallersResult> {
  const dispatcher = new Agent({ connections: options.callers, pipelining: 1 });
  const endAt = performance.now() + options.durationSeconds * 1000;
  const latencies: number[] = [];
  const lags: number[] = [];
  let turns = 0;
  let journeys = 0;
  let errors = 0;
  let wrongScreens = 0;
  let matched = 0;
  const headers = { 'content-type': 'application/x-www-form-urlencoded', ...options.headers };

  // The generator's own health: a 10 ms timer that fires late means answers are read late too.
  let lagTimer: NodeJS.Timeout | undefined;
  const watchLag = (expectedAt: number) => {
    lagTimer = setTimeout(() => {
      const now = performance.now();
      lags.push(now - expectedAt);
      if (now < endAt) watchLag(now + 10);
    }, 10);
  };
  watchLag(performance.now() + 10);

  const caller = async () => {
    await sleep(Math.random() * options.startSpreadMs);
    while (performance.now() < endAt) {
      const phone = (options.phone ?? newPhone)();
      const inputs: string[] = [];
      for (const [index, step] of options.steps.entries()) {
        if (performance.now() >= endAt) return;
        if (index > 0) inputs.push(step.input(phone));
        const body = new URLSearchParams({
          sessionId: phone.sessionId,
          serviceCode: '*384*4628#',
          phoneNumber: phone.msisdn,
          networkCode: '64502',
          text: inputs.join('*'),
        }).toString();
        const startedAt = performance.now();
        let text: string;
        try {
          const response = await request(`${options.url}${options.path}`, {
            method: 'POST',
            headers,
            body,
            dispatcher,
            headersTimeout: 20_000,
            bodyTimeout: 20_000,
          });
          text = await response.body.text();
          if (response.statusCode !== 200) {
            errors += 1;
            break;
          }
        } catch {
          errors += 1;
          break;
        }
        latencies.push(performance.now() - startedAt);
        if (options.classify?.(text)) matched += 1;
        if (!step.expect(text)) {
          wrongScreens += 1;
          break; // the rest of this journey would only repeat the mistake
        }
        turns += 1;
        if (index === options.steps.length - 1) journeys += 1;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: options.callers }, caller));
  } finally {
    clearTimeout(lagTimer);
    await dispatcher.close();
  }
  latencies.sort((a, b) => a - b);
  lags.sort((a, b) => a - b);
  return {
    turns,
    journeys,
    errors,
    wrongScreens,
    matched,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: latencies.at(-1) ?? Number.NaN,
    generatorLagP99Ms: percentile(lags, 99),
  };
}
