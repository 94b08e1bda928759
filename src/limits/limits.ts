import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Principal } from '../access/index.js';
import { CodedError } from '../errors/index.js';
import { normaliseCaller, sameMsisdn } from '../msisdn/index.js';
import { keyedHasher } from '../privacy/index.js';
import { isCluster, type RedisConnection } from '../redis/index.js';
import type { LimitKind, LimitsConfig, LimitWindows } from './limit-config.js';

/** What a limited request reaches or looks up: a phone, or the NRC, claim number or plate typed. */
export interface LimitTarget {
  readonly kind: 'phone' | 'nrc' | 'claim' | 'plate';
  readonly value: string;
}

/** One request that costs money or reaches a person, as the limiter counts it. */
export interface LimitRequest {
  readonly kind: LimitKind;
  /** Who asks: a phone and staff are counted by who they are, nobody by `route`. */
  readonly principal: Principal;
  /** Where an anonymous caller is reached (its channel and address): its per-caller key. */
  readonly route?: { readonly channel: string; readonly address: string } | null | undefined;
  readonly target?: LimitTarget | undefined;
  /**
   * The target is the caller's own (the phone on record asking about its own cover): it is not
   * counted against the target. A phone target equal to the caller's phone is own anyway.
   */
  readonly own?: boolean | undefined;
}

/** Which count refused: the caller's, the target's, or none because the limiter failed. */
export type LimitScope = 'caller' | 'target' | 'error';

/** When to try again: the hour's window, the day's, or later (the limiter failed). */
export type LimitWindow = 'hour' | 'day' | 'later';

/** The limiter's answer for one request. */
export type LimitVerdict =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly scope: LimitScope; readonly window: LimitWindow };

/** Counts requests per caller and per target, in hour and day windows, shared by all instances. */
export interface Limits {
  /**
   * Counts `request` once in each of its windows and answers whether it may go ahead. A refused
   * request is not left counted where it was allowed (its other windows are given back).
   */
  take(request: LimitRequest): Promise<LimitVerdict>;
}

/** Raised by a flow's actor when the limiter refused: the flow shows "asked too often". */
export class LimitReachedError extends CodedError<'LIMIT_REACHED'> {
  override readonly name = 'LimitReachedError';
  readonly kind: LimitKind;
  readonly scope: LimitScope;
  readonly window: LimitWindow;

  constructor(kind: LimitKind, verdict: { scope: LimitScope; window: LimitWindow }) {
    super('LIMIT_REACHED', `limit reached: ${kind} per ${verdict.scope} (${verdict.window})`);
    this.kind = kind;
    this.scope = verdict.scope;
    this.window = verdict.window;
  }
}

/** Where the counts live and what hears about refusals. */
export interface LimitsOptions {
  readonly config: LimitsConfig;
  /** Shared by every instance (standalone, Sentinel or Cluster); without it, this process. */
  readonly redis?: RedisConnection | undefined;
  /** Key prefix of the deployment; the limiter's keys are `<prefix>limits:<kind>:…`. */
  readonly prefix: string;
  /** Keys the hash that names each caller and target: no phone or NRC is stored in clear. */
  readonly secret: string;
  /** Hears each refusal (a metric); never personal data. */
  readonly onRefused?: (kind: LimitKind, scope: LimitScope) => void;
  /** Hears each failure of the store (logged); the request is then refused or allowed, see docs/privacy-and-limits.md. */
  readonly onError?: (error: unknown, kind: LimitKind) => void;
}

const WINDOW_SECONDS: Readonly<Record<keyof LimitWindows, number>> = { hour: 3_600, day: 86_400 };
const WINDOWS = ['hour', 'day'] as const;

/** One counter: a kind's scope in one window. */
interface Counter {
  readonly scope: 'caller' | 'target';
  readonly window: keyof LimitWindows;
  /** The count a window allows. */
  readonly points: number;
  readonly seconds: number;
  /** `<prefix>limits:<kind>:<scope>:<window>`, the start of each of its keys. */
  readonly keyPrefix: string;
  /** Counts in this process's memory (no Redis). */
  readonly limiter?: RateLimiterAbstract | undefined;
}

/** A counter and the key it counts this request under. */
interface Step extends Counter {
  readonly key: string;
}

/**
 * Adds ARGV[1] to each key, a new key living ARGV[1 + i] seconds (its window), and answers the
 * counts: the windows of one caller or target in one call. Their keys share a hash tag, so on
 * Redis Cluster they are in one slot.
 */
const COUNT_SCRIPT = `local out = {}
for i, key in ipairs(KEYS) do
  redis.call('set', key, 0, 'EX', ARGV[i + 1], 'NX')
  out[i] = redis.call('incrby', key, ARGV[1])
end
return out`;

/** The connection with the counting script defined on it. */
interface CountingConnection {
  /** `keys` counted by `delta`, each new one living its window's seconds: their counts. */
  insurechatLimitCount(count: number, ...keysThenArgs: (string | number)[]): Promise<number[]>;
}

/**
 * The smaller of two counts where 0 means "no limit": an anonymous caller gets the stricter of
 * the kind's per-caller count and the anonymous cap.
 */
function stricter(a: number, b: number): number {
  if (a === 0) return b;
  if (b === 0) return a;
  return Math.min(a, b);
}

/**
 * Builds the limiter over Redis (RateLimiterRedis: one atomic script per count, single-key, so
 * it runs on Redis Cluster too) or, without Redis, over this process's memory.
 */
export function createLimits(options: LimitsOptions): Limits {
  const { config, redis } = options;
  const hashed = keyedHasher(options.secret, 'limits');
  // On Redis a command waits out a short reconnection like every other (the connection's own
  // retries), then fails: see `take` for what a failure decides.
  const counting = redis ? defineCounting(redis) : undefined;
  // One Redis holds every key: a request's caller and target windows go in one script call. A
  // Cluster's slots differ between them, so there each key's windows are a call of their own.
  const oneCall = redis !== undefined && !isCluster(redis);
  const counter = (
    scope: 'caller' | 'target',
    window: keyof LimitWindows,
    name: string,
    points: number,
  ): Counter => {
    const keyPrefix = `${options.prefix}limits:${name}`;
    const seconds = WINDOW_SECONDS[window];
    return {
      scope,
      window,
      points,
      seconds,
      keyPrefix,
      limiter: counting
        ? undefined
        : new RateLimiterMemory({ keyPrefix, points, duration: seconds }),
    };
  };
  const counters = (
    kind: LimitKind,
    scope: 'caller' | 'target',
    windows: LimitWindows,
    name: string,
  ): Counter[] =>
    WINDOWS.filter((window) => windows[window] > 0).map((window) =>
      counter(scope, window, `${kind}:${name}:${window}`, windows[window]),
    );
  const built = new Map<string, { caller: Counter[]; anonymous: Counter[]; target: Counter[] }>();
  for (const kind of ['sms', 'code', 'payment', 'lookup'] as const) {
    const limits = config[kind];
    const anonymous = {
      hour: stricter(limits.caller.hour, config.anonymous.hour),
      day: stricter(limits.caller.day, config.anonymous.day),
    };
    built.set(kind, {
      caller: counters(kind, 'caller', limits.caller, 'caller'),
      anonymous: counters(kind, 'caller', anonymous, 'anonymous'),
      target: counters(kind, 'target', limits.target, 'target'),
    });
  }

  const stepsOf = (request: LimitRequest): Step[] => {
    const kinds = built.get(request.kind);
    if (!kinds) return [];
    const { principal } = request;
    // One hash per caller or target, shared by its windows.
    const caller = hashed(callerForm(request));
    const steps: Step[] = (principal.kind === 'nobody' ? kinds.anonymous : kinds.caller).map(
      (counter) => ({ ...counter, key: caller }),
    );
    const target = request.target;
    // An attacker must not lock a holder out: the holder's own requests, and staff's, are never
    // counted against the holder.
    if (target && principal.kind !== 'staff' && !isOwn(request)) {
      const form = hashed(targetForm(target));
      steps.push(...kinds.target.map((counter) => ({ ...counter, key: form })));
    }
    return steps;
  };

  /**
   * Adds `delta` to each step's count and answers the counts, one result per step. On Redis the
   * steps are counted in one script call (on a Cluster, one per key: its windows).
   */
  async function count(
    steps: readonly Step[],
    delta: 1 | -1,
  ): Promise<PromiseSettledResult<number>[]> {
    if (!counting) {
      return Promise.allSettled(steps.map((step) => countInMemory(step, delta)));
    }
    const out: PromiseSettledResult<number>[] = new Array(steps.length);
    const calls: Promise<void>[] = [];
    let start = 0;
    while (start < steps.length) {
      const key = (steps[start] as Step).key;
      let end = start + 1;
      while (end < steps.length && (oneCall || (steps[end] as Step).key === key)) end += 1;
      const group = steps.slice(start, end);
      const first = start;
      calls.push(
        counting
          .insurechatLimitCount(
            group.length,
            ...group.map((step) => `${step.keyPrefix}:{${step.key}}`),
            delta,
            ...group.map((step) => step.seconds),
          )
          .then(
            (counts) => {
              group.forEach((_, i) => {
                out[first + i] = { status: 'fulfilled', value: Number(counts[i]) };
              });
            },
            (reason: unknown) => {
              group.forEach((_, i) => {
                out[first + i] = { status: 'rejected', reason };
              });
            },
          ),
      );
      start = end;
    }
    await Promise.all(calls);
    return out;
  }

  return {
    async take(request) {
      const steps = stepsOf(request);
      const results = await count(steps, 1);
      const refused: Step[] = [];
      const failed: unknown[] = [];
      const allowed: Step[] = [];
      results.forEach((result, i) => {
        const step = steps[i] as Step;
        if (result.status === 'rejected') failed.push(result.reason);
        else if (result.value > step.points) refused.push(step);
        else allowed.push(step);
      });
      if (refused.length === 0 && failed.length === 0) return { allowed: true };
      // Give back what this request took where it was allowed: counts say what went ahead.
      await count(allowed, -1);
      if (refused.length > 0) {
        // "Tomorrow" when a day's count refused: an hour would not be enough.
        const first = refused.find((step) => step.window === 'day') ?? (refused[0] as Step);
        options.onRefused?.(request.kind, first.scope);
        return { allowed: false, scope: first.scope, window: first.window };
      }
      for (const error of failed) options.onError?.(error, request.kind);
      // Fail closed for what reaches another person; a lookup, or an SMS to the caller's own
      // phone, goes ahead (the insurer's answers still pass the access rule).
      if (request.kind === 'lookup' || isOwn(request)) return { allowed: true };
      options.onRefused?.(request.kind, 'error');
      return { allowed: false, scope: 'error', window: 'later' };
    },
  };
}

/** Defines the counting script on the shared connection (once per connection and name). */
function defineCounting(redis: RedisConnection): CountingConnection {
  redis.defineCommand('insurechatLimitCount', { lua: COUNT_SCRIPT });
  return redis as unknown as CountingConnection;
}

/** Counts one step in this process's memory; a refusal carries the count too. */
async function countInMemory(step: Step, delta: 1 | -1): Promise<number> {
  const limiter = step.limiter as RateLimiterAbstract;
  if (delta < 0) return (await limiter.reward(step.key)).consumedPoints;
  try {
    return (await limiter.consume(step.key)).consumedPoints;
  } catch (error) {
    if (error instanceof RateLimiterRes) return error.consumedPoints;
    throw error;
  }
}

/** True when the request's target is the caller's own. */
function isOwn(request: LimitRequest): boolean {
  if (request.own) return true;
  const { principal, target } = request;
  return (
    principal.kind === 'phone' &&
    target?.kind === 'phone' &&
    sameMsisdn(principal.phone, target.value)
  );
}

/** The caller as one string before hashing: a phone in one form, a staff member, or an address. */
function callerForm(request: LimitRequest): string {
  const { principal, route } = request;
  if (principal.kind === 'phone') {
    return `phone:${normaliseCaller(principal.phone) ?? principal.phone}`;
  }
  if (principal.kind === 'staff') return `staff:${principal.member}`;
  // Nobody without an address shares one count with every other such caller: the strictest.
  return route ? `nobody:${route.channel}:${route.address}` : 'nobody:';
}

/** A target in one form: `0971…` and `260971…` alike, an NRC by its digits, a plate without spaces. */
function targetForm(target: LimitTarget): string {
  if (target.kind === 'phone') {
    return `phone:${normaliseCaller(target.value) ?? target.value.replace(/\D/g, '')}`;
  }
  if (target.kind === 'nrc') return `nrc:${target.value.replace(/\D/g, '')}`;
  return `${target.kind}:${target.value.toUpperCase().replace(/[^A-Z0-9]/g, '')}`;
}
