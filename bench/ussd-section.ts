import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { motorPurchaseInputs } from '../test/support/motor-purchase-inputs.js';
import { PLACEHOLDER_MOTOR_SCREENS } from './lib/motor-screens.js';
import { type ServerProcess, startServerProcess } from './lib/server-process.js';
import type { UssdStep } from './lib/ussd-load.js';
import { BENCH_GATEWAY_SECRET } from './servers/bench-env.js';
import { runUssdThroughput, type UssdContender, ussdThroughputReport } from './ussd-throughput.js';

/**
 * What the phone types at step `index` of the motor journey (0 is the dial): a new customer buying
 * for a car of its own up to the payment confirmation screen (see {@link motorPurchaseInputs}).
 */
export function journeyInput(msisdn: string, index: number): string {
  return index === 0 ? '' : (motorPurchaseInputs(msisdn)[index - 1] ?? '1');
}

const USSD_PATH = '/ussd/africastalking';
/** insurechat's real server. */
const INSURECHAT = 'insurechat';
const COMPARE = 'insurechat (compare)';
/** The same-work floor (bench/servers/floor-server.ts). */
export const FLOOR = 'same-work floor';
/** The floor with its GET and SET on a plain (unpipelined) connection, a reference row. */
export const PLAIN_FLOOR = 'floor on plain Redis (reference)';
/** Extra alternating pairs of insurechat and the floor at 100 connections (BENCH_FOCUS_PAIRS). */
const FOCUS_PAIRS = Math.max(0, Math.floor(Number(process.env.BENCH_FOCUS_PAIRS ?? 4) || 0));

/** The motor journey's steps: what the phone types, and the screen it must get back. */
export function journeySteps(screens: readonly string[]): UssdStep[] {
  return screens.map((screen, index) => {
    const expected = `CON ${withoutPlates(screen)}`;
    return {
      input: (phone) => journeyInput(phone.msisdn, index),
      expect: (body: string) => withoutPlates(body) === expected,
    };
  });
}

/**
 * A screen with its plates blanked: the pay screen names the phone's own car (issue 38), which
 * differs from the captured phone's; every other word must match.
 */
export function withoutPlates(screen: string): string {
  return screen.replace(/\b[A-Z]{2,3} \d{1,4}\b/g, '<plate>');
}

/** Options of the USSD section. */
export interface UssdSectionOptions {
  readonly redisUrl: string;
  readonly seconds: number;
  readonly pairs: number;
  readonly connectionLevels: readonly number[];
  readonly log: (line: string) => void;
}

/** A phone's walk: its number and what it types after the dial. */
export interface UssdWalk {
  /** Default: a new number each millisecond, unknown to the insurer. */
  readonly msisdn?: string;
  /** Default: {@link motorPurchaseInputs} of the number. */
  readonly inputs?: readonly string[];
  /**
   * Words of the screen the walk ends on. With them the walk is driven by what each screen asks
   * rather than by how many inputs there are: it stops at the first screen containing them (the
   * inputs left are not typed), and it fails when a screen asks again what the previous one
   * asked (an input that does not answer it: the journey's order is not the inputs' order) or
   * when the inputs run out first.
   */
  readonly until?: string;
}

/** A screen's question: its first line (the choices and any hint follow it). */
const questionOf = (screen: string): string => screen.split('\n', 1)[0] ?? '';

/** One request of a call to a bench server's Africa's Talking route, as the gateway sends it. */
export function postUssd(
  url: string,
  call: { readonly sessionId: string; readonly msisdn: string; readonly text: string },
): Promise<Response> {
  return fetch(`${url}${USSD_PATH}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-ussd-secret': BENCH_GATEWAY_SECRET,
    },
    body: new URLSearchParams({
      sessionId: call.sessionId,
      serviceCode: '*384*4628#',
      phoneNumber: call.msisdn,
      networkCode: '64502',
      text: call.text,
    }),
  });
}

/** Walks one phone through insurechat and returns the screens it saw (without `CON `). */
export async function captureScreens(url: string, walk: UssdWalk = {}): Promise<string[]> {
  const msisdn = walk.msisdn ?? `+26097${String(Date.now() % 10_000_000).padStart(7, '0')}`;
  const sessionId = `capture-${msisdn}-${randomUUID()}`;
  const inputs: string[] = [];
  const screens: string[] = [];
  const typed = ['', ...(walk.inputs ?? motorPurchaseInputs(msisdn))];
  for (const [index, input] of typed.entries()) {
    const previous = screens.at(-1);
    if (previous !== undefined && walk.until !== undefined && previous.includes(walk.until)) {
      return screens;
    }
    if (previous !== undefined) inputs.push(input);
    const response = await postUssd(url, { sessionId, msisdn, text: inputs.join('*') });
    const body = await response.text();
    if (response.status !== 200 || !body.startsWith('CON ')) {
      throw new Error(
        `insurechat journey broke at step ${screens.length}: ${response.status} ${body}`,
      );
    }
    const screen = body.slice(4);
    if (
      walk.until !== undefined &&
      previous !== undefined &&
      questionOf(screen) === questionOf(previous)
    ) {
      throw new Error(
        `the walk's input ${index} (${JSON.stringify(input)}) does not answer ${JSON.stringify(previous)}: ${JSON.stringify(screen)}`,
      );
    }
    screens.push(screen);
  }
  if (walk.until !== undefined && !screens.at(-1)?.includes(walk.until)) {
    throw new Error(
      `the walk's inputs ran out before ${JSON.stringify(walk.until)}, on ${JSON.stringify(screens.at(-1))}`,
    );
  }
  return screens;
}

/** Bytes of the largest session record under a prefix (the captured journey's last state). */
async function largestRecordBytes(
  redisUrl: string,
  prefix: string,
  kind: 'hash' | 'string' = 'hash',
): Promise<number | undefined> {
  const redis = new Redis(redisUrl);
  try {
    let largest: number | undefined;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) {
        if ((await redis.type(key)) !== kind) continue;
        const data = kind === 'hash' ? await redis.hget(key, 'd') : await redis.get(key);
        if (data !== null) largest = Math.max(largest ?? 0, Buffer.byteLength(data));
      }
    } while (cursor !== '0');
    return largest;
  } finally {
    redis.disconnect();
  }
}

/**
 * USSD throughput: insurechat's real server, the physical baseline and ussd-menu-builder, each in
 * its own process, serving the same screens (captured from insurechat when it runs).
 */
export async function runUssdSection(options: UssdSectionOptions): Promise<string> {
  const servers: ServerProcess[] = [];
  const contenders: UssdContender[] = [];
  const notes: string[] = [];
  try {
    let screens: readonly string[] = PLACEHOLDER_MOTOR_SCREENS;
    let snapshotBytes = 1500;
    // One sandbox insurer in a process of its own serves every contender that calls one, so
    // each server's CPU column is its own; the sandbox's CPU per turn is listed apart.
    const sandbox = await startServerProcess(
      'sandbox',
      new URL('./servers/sandbox-server.ts', import.meta.url),
      {},
    );
    servers.push(sandbox);
    const upstreamEnv = {
      BENCH_PARTNER_API_URL: String(sandbox.info.baseUrl),
      BENCH_PARTNER_API_KEY: String(sandbox.info.apiKey),
    };
    const insurechatPrefix = `bench:${randomUUID()}:insurechat:`;
    try {
      const insurechat = await startServerProcess(
        'insurechat',
        new URL('./servers/insurechat-server.ts', import.meta.url),
        {
          REDIS_URL: options.redisUrl,
          BENCH_PREFIX: insurechatPrefix,
          BENCH_SCREENS: '["-"]',
          ...upstreamEnv,
        },
      );
      servers.push(insurechat);
      screens = await captureScreens(insurechat.url);
      snapshotBytes =
        (await largestRecordBytes(options.redisUrl, insurechatPrefix)) ?? snapshotBytes;
      contenders.push({
        name: INSURECHAT,
        server: insurechat,
        prefix: insurechatPrefix,
        path: USSD_PATH,
        headers: { 'x-ussd-secret': BENCH_GATEWAY_SECRET },
        steps: journeySteps(screens),
        upstream: sandbox,
      });
      notes.push(
        `insurechat: the real \`createServer\` (Redis sessions, the sandbox insurer in a process of its own over loopback HTTP, logging silenced); its session store has a Redis connection of its own whose socket holds its writes until the next tick (cork/uncork), so the scripts that concurrent turns send in one event-loop turn leave in one socket write (each still waits only for its own reply: the round-trip column counts them one by one); the floor's GET and SET go over a connection with ioredis auto-pipelining, which batches the same way at more cost per command; ${screens.length} turns per journey; the baseline's snapshot is the size of insurechat's record at the last screen (${snapshotBytes} B).`,
      );
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      options.log(`  insurechat server not measured: ${reason}`);
      notes.push(
        `insurechat: not measured (${reason}); the other servers serve placeholder screens.`,
      );
    }
    // BENCH_COMPARE_WITH: a checkout (e.g. an earlier commit's `git archive`) whose own
    // insurechat server runs as one more contender, "insurechat (compare)", for before/after
    // figures made alternately in one run.
    const compareDir = process.env.BENCH_COMPARE_WITH;
    if (compareDir) {
      const comparePrefix = `bench:${randomUUID()}:compare:`;
      const compare = await startServerProcess(
        COMPARE,
        pathToFileURL(`${compareDir.replace(/\/+$/, '')}/bench/servers/insurechat-server.ts`),
        {
          REDIS_URL: options.redisUrl,
          BENCH_PREFIX: comparePrefix,
          BENCH_SCREENS: '["-"]',
          ...upstreamEnv,
        },
      );
      servers.push(compare);
      contenders.push({
        name: COMPARE,
        server: compare,
        prefix: comparePrefix,
        path: USSD_PATH,
        headers: { 'x-ussd-secret': BENCH_GATEWAY_SECRET },
        steps: journeySteps(screens),
        upstream: sandbox,
      });
      notes.push(`${COMPARE}: the insurechat server of ${compareDir}, for before/after figures.`);
    }
    const startFloor = async (name: string, prefix: string, env: Record<string, string>) => {
      const started = await startServerProcess(
        name,
        new URL('./servers/floor-server.ts', import.meta.url),
        {
          REDIS_URL: options.redisUrl,
          BENCH_PREFIX: prefix,
          BENCH_SCREENS: JSON.stringify(screens),
          ...upstreamEnv,
          ...env,
        },
      );
      servers.push(started);
      return started;
    };
    const floorPrefix = `bench:${randomUUID()}:floor:`;
    const floor = await startFloor(FLOOR, floorPrefix, {});
    // The floor must show what insurechat shows, screen by screen, before it is measured.
    const floorScreens = await captureScreens(floor.url).catch((error: unknown) => [
      error instanceof Error ? error.message : String(error),
    ]);
    const firstDifference = screens.findIndex((screen, index) => floorScreens[index] !== screen);
    const floorRecordBytes = await largestRecordBytes(options.redisUrl, floorPrefix, 'string');
    notes.push(
      firstDifference === -1 && floorScreens.length === screens.length
        ? `${FLOOR}: its ${floorScreens.length} screens checked equal to insurechat's, screen by screen, before the runs (and every answer under load, in the wrong-screens column); its record ${floorRecordBytes ?? '?'} B against insurechat's ${snapshotBytes} B.`
        : `${FLOOR}: its screens DIFFER from insurechat's from screen ${firstDifference + 1}: ${JSON.stringify(floorScreens[firstDifference] ?? 'none')} against ${JSON.stringify(screens[firstDifference] ?? 'none')}.`,
    );
    contenders.push({
      name: FLOOR,
      server: floor,
      prefix: floorPrefix,
      path: USSD_PATH,
      steps: journeySteps(screens),
      upstream: sandbox,
    });
    // For reference only: the floor as it was before it shared insurechat's Redis transport,
    // each GET and SET its own socket write; at 100 connections only.
    const plainPrefix = `bench:${randomUUID()}:floor-plain:`;
    const plainFloor = await startFloor(PLAIN_FLOOR, plainPrefix, { BENCH_FLOOR_PLAIN_REDIS: '1' });
    contenders.push({
      name: PLAIN_FLOOR,
      server: plainFloor,
      prefix: plainPrefix,
      path: USSD_PATH,
      steps: journeySteps(screens),
      upstream: sandbox,
      onlyAt: [100],
    });
    notes.push(
      `${FLOOR}: the same fastify + @fastify/formbody stack, one Redis GET and one SET of the record per turn on a connection of its own with ioredis auto-pipelining (the transport insurechat's session store uses), the real flow machines with each caller's actor kept in a Map, the same insurer calls made with bare \`undici.request\` and \`body.json()\`, the screens laid out by the USSD channel's own renderer; no lock, ordering, deadline, validation, retries or logging.`,
      `${PLAIN_FLOOR} (reference only, at 100 connections): the same floor with its GET and SET on a plain connection, one socket write each, as the floor was measured before; no target is quoted against it.`,
    );
    const shared = {
      REDIS_URL: options.redisUrl,
      BENCH_SCREENS: JSON.stringify(screens),
      BENCH_SNAPSHOT_BYTES: String(snapshotBytes),
    };
    const baselinePrefix = `bench:${randomUUID()}:baseline:`;
    const baseline = await startServerProcess(
      'baseline',
      new URL('./servers/baseline-server.ts', import.meta.url),
      { ...shared, BENCH_PREFIX: baselinePrefix },
    );
    servers.push(baseline);
    const fixedScreen = screens.reduce((a, b) => (b.length > a.length ? b : a));
    contenders.push({
      name: 'baseline',
      server: baseline,
      prefix: baselinePrefix,
      path: USSD_PATH,
      steps: screens.map(() => ({
        input: () => '1',
        expect: (body: string) => body === `CON ${fixedScreen}`,
      })),
    });
    const menuPrefix = `bench:${randomUUID()}:umb:`;
    const menu = await startServerProcess(
      'ussd-menu-builder',
      new URL('./servers/menu-builder-server.ts', import.meta.url),
      { ...shared, BENCH_PREFIX: menuPrefix },
    );
    servers.push(menu);
    const menuSteps = journeySteps(screens);
    contenders.push({
      name: 'ussd-menu-builder',
      server: menu,
      prefix: menuPrefix,
      path: USSD_PATH,
      steps: menuSteps,
    });
    notes.push(
      'baseline: the same fastify + @fastify/formbody stack answering the longest of those screens after one Redis GET and one SET (EX) of a snapshot that size.',
      'ussd-menu-builder: the same screens as a state chain, a new menu per request (its README shares one menu, which mixes up concurrent sessions), session in a Redis hash (EXPIRE on start, HSET of each answer).',
    );
    // BENCH_USSD_CONTENDERS (comma list of names) narrows the runs while iterating.
    const wanted = (process.env.BENCH_USSD_CONTENDERS ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name.length > 0);
    const measured =
      wanted.length === 0 ? contenders : contenders.filter((c) => wanted.includes(c.name));
    const runs = await runUssdThroughput({
      redisUrl: options.redisUrl,
      contenders: measured,
      connectionLevels: options.connectionLevels,
      pairs: options.pairs,
      focus: { connections: 100, names: [INSURECHAT, FLOOR], extraPairs: FOCUS_PAIRS },
      seconds: options.seconds,
      // Long enough at every level for both servers' actor caches (1,000 sessions) to fill, so
      // the runs compare steady states rather than one server still growing its heap.
      warmupSeconds: options.seconds,
      log: options.log,
    });
    const report = ussdThroughputReport(
      runs,
      measured.map((c) => c.name),
      options.connectionLevels,
    );
    return `${report}\nSet-up:\n\n${notes.map((note) => `- ${note}`).join('\n')}\n`;
  } finally {
    for (const server of servers) await server.stop();
  }
}
