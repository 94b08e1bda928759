import { randomInt } from 'node:crypto';
import autocannon from 'autocannon';

/** One simulated handset: its own gateway session id and MSISDN. */
export interface Phone {
  readonly sessionId: string;
  /** International form without the plus, as Africa's Talking sends it with one: `+2609…`. */
  readonly msisdn: string;
  /** A number unique to this phone within the bench process (for unique NRCs, names...). */
  readonly serial: number;
}

/** One screen of a scripted USSD journey: what the phone types and what it must see back. */
export interface UssdStep {
  /** The newest input; `''` for the dial. Gateways send every input so far joined by `*`. */
  readonly input: (phone: Phone) => string;
  /** Whether the answer is the screen this step should show. */
  readonly expect: (body: string) => boolean;
}

/** Options of one load run. */
export interface UssdLoadOptions {
  readonly url: string;
  readonly path: string;
  readonly connections: number;
  readonly durationSeconds: number;
  readonly steps: readonly UssdStep[];
  readonly headers?: Record<string, string>;
  readonly serviceCode?: string;
  /** Counts the answers it is true for (a "still working" screen), in `matched`. */
  readonly classify?: (body: string) => boolean;
  /** Requests per second over all connections (open-loop pacing); unpaced when undefined. */
  readonly rate?: number;
}

/** What one load run measured. */
export interface UssdLoadResult {
  /** Turns answered 200 with the expected screen. */
  readonly turns: number;
  readonly turnsPerSecond: number;
  /** Journeys that reached the last step. */
  readonly journeys: number;
  /** Connection errors, timeouts and non-2xx answers. */
  readonly errors: number;
  /** Answers that were 200 but not the screen the step expected. */
  readonly wrongScreens: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly durationSeconds: number;
  /** The first unexpected answer, to show what went wrong. */
  readonly firstWrongScreen: string | undefined;
  /** Answers `classify` was true for. */
  readonly matched: number;
}

let phoneSerial = randomInt(0, 1_000_000);

/** A new simulated handset, unique within this bench process. */
export function newPhone(): Phone {
  phoneSerial += 1;
  const serial = phoneSerial;
  // Airtel-style 097 numbers; the last digit 0 keeps clear of the sandbox's outcome numbers.
  const national = `97${String(serial % 1_000_000).padStart(6, '0')}0`;
  return { sessionId: `bench-${process.pid}-${serial}`, msisdn: `+260${national}`, serial };
}

/** The p-th percentile of an ascending list (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

/**
 * Drives many simulated phones through a scripted USSD journey with autocannon: each connection
 * is one phone at a time, sending the Africa's Talking form body with every input so far, and
 * starting a new phone (new session id and MSISDN) after the last step.
 */
export async function runUssdLoad(options: UssdLoadOptions): Promise<UssdLoadResult> {
  let turns = 0;
  let journeys = 0;
  let wrongScreens = 0;
  let firstWrongScreen: string | undefined;
  let matched = 0;
  const latencies: number[] = [];
  const serviceCode = options.serviceCode ?? '*384*4628#';
  const lastStep = options.steps.length - 1;

  const requests: autocannon.Request[] = options.steps.map((step, index) => ({
    method: 'POST',
    path: options.path,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...options.headers },
    setupRequest: (request, context) => {
      if (index === 0 || context.phone === undefined) {
        context.phone = newPhone();
        context.inputs = [];
        context.ok = true;
      }
      const phone = context.phone as Phone;
      const inputs = context.inputs as string[];
      if (index > 0) inputs.push(step.input(phone));
      const body = new URLSearchParams({
        sessionId: phone.sessionId,
        serviceCode,
        phoneNumber: phone.msisdn,
        networkCode: '64502',
        text: inputs.join('*'),
      }).toString();
      return { ...request, body };
    },
    onResponse: (status, body, context) => {
      if (status !== 200) return;
      if (options.classify?.(body)) matched += 1;
      if (context.ok !== true) return;
      if (step.expect(body)) {
        turns += 1;
        if (index === lastStep) journeys += 1;
      } else {
        wrongScreens += 1;
        // The rest of this journey would only repeat the same mistake.
        context.ok = false;
        firstWrongScreen ??= `step ${index}: ${body.slice(0, 200)}`;
      }
    },
  }));

  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    pipelining: 1,
    timeout: 20,
    requests,
    ...(options.rate === undefined ? {} : { overallRate: options.rate }),
  });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, ms: number) => {
    if (statusCode === 200) latencies.push(ms);
  });
  const result = await instance;
  latencies.sort((a, b) => a - b);
  return {
    turns,
    turnsPerSecond: turns / result.duration,
    journeys,
    errors: result.errors + result.non2xx,
    wrongScreens,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    durationSeconds: result.duration,
    firstWrongScreen,
    matched,
  };
}
