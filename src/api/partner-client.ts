import type { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Dispatcher, Pool } from 'undici';
import { z } from 'zod';
import type { Logger } from '../log/index.js';
import {
  CircuitBreakerOptions,
  type CircuitPermit,
  type CircuitState,
  type CircuitTransition,
  createCircuitBreaker,
} from './circuit-breaker.js';
import { contract, type OperationName } from './contract.js';
import type { AnyContractEntry } from './define-contract.js';
import {
  ApiAbortedError,
  ApiError,
  ApiNetworkError,
  ApiTimeoutError,
  ApiUnavailableError,
  apiErrorFromResponse,
  ResponseShapeError,
  ValidationError,
} from './errors.js';
import type {
  InputArgs,
  JsonOperationName,
  OperationItem,
  OperationOutput,
  PaginatedOperationName,
  StreamOperationName,
} from './operation-types.js';
import { outputIsInput } from './output-is-input.js';

/** Options of {@link createPartnerClient}. */
export interface PartnerClientOptions {
  /** Base URL including the version path, e.g. `https://partner.example.com/api/v1`. */
  readonly baseUrl: string;
  /** The partner's API key, sent as `Authorization: Bearer <apiKey>`. Never logged. */
  readonly apiKey: string;
  /** Per-attempt time limit in milliseconds. Default 10 000. */
  readonly timeoutMs?: number;
  /** Retries after the first attempt, where retrying is safe. Default 2. */
  readonly maxRetries?: number;
  /** First back-off delay in milliseconds; doubles per retry, with jitter. Default 250. */
  readonly retryBaseDelayMs?: number;
  /** Longest wait before a retry, including a server's Retry-After. Default 10 000. */
  readonly maxRetryDelayMs?: number;
  /** Replaces an operation's path template without a code change (e.g. for an assumed path). */
  readonly pathOverrides?: Partial<Record<OperationName, string>>;
  /** Keep-alive connections to the insurer. Default 16. */
  readonly connections?: number;
  /** Logs retries and failures with structured fields (never bodies, keys or personal data). */
  readonly logger?: Logger;
  /** Sent as `User-Agent`. Default `insurechat`. */
  readonly userAgent?: string;
  /**
   * Fails calls at once with ApiUnavailableError after repeated upstream failures (network
   * errors, timeouts at the client's own `timeoutMs`, 5xx; never 4xx, which are the caller's, nor
   * a shorter time limit a call asked for, which is the caller's), so users hear "try later" fast
   * while the insurer is down. On by default (5 failures, 30 000 ms open, 1 trial call);
   * `false` turns it off.
   */
  readonly circuitBreaker?: CircuitBreakerOptions | false;
  /** The clock in milliseconds, for the circuit breaker and Retry-After dates. Default Date.now. */
  readonly now?: () => number;
  /**
   * How long a catalogue answer (products, risk categories, payment gateways: the same for every
   * caller) is held and answered again without asking the insurer, per request path and query.
   * A failure is never held. Default 300 000 ms; 0 asks the insurer every time.
   */
  readonly catalogueTtlMs?: number;
  /**
   * Hears every failed exchange with the insurer (any error status, network failure, timeout,
   * malformed response), once per attempt, so the server can count them in metrics; the error's
   * `code` tells them apart. Not called for caller aborts or circuit-breaker rejections. A hook
   * that throws is logged and ignored.
   */
  readonly onUpstreamError?: (operation: OperationName, error: Error) => void;
}

/** Per-call options. */
export interface CallOptions {
  /** Aborts the call; an aborted call throws ApiAbortedError. */
  readonly signal?: AbortSignal;
  /** Overrides the client's per-attempt time limit for this call. */
  readonly timeoutMs?: number;
}

/** The typed Partner Insurance API client, derived from the contract table. */
export interface PartnerClient {
  /** Calls a JSON operation: validates the input, sends it, validates and returns the response. */
  call<N extends JsonOperationName>(
    name: N,
    ...args: InputArgs<N, CallOptions>
  ): Promise<OperationOutput<N>>;
  /** Iterates every item of every page of a paginated list, fetching pages as it goes. */
  paginate<N extends PaginatedOperationName>(
    name: N,
    ...args: InputArgs<N, CallOptions>
  ): AsyncIterable<OperationItem<N>>;
  /** Downloads a document or CSV (certificate, schedule, receipt, bordereau) as a stream. */
  download<N extends StreamOperationName>(
    name: N,
    ...args: InputArgs<N, CallOptions>
  ): Promise<Readable>;
  /** The path template in use for an operation (after overrides). */
  pathOf(name: OperationName): string;
  /** The circuit breaker's state, for readiness checks; always `closed` when it is off. */
  circuitState(): CircuitState;
  /** Closes the connection pool; in-flight calls finish first. */
  close(): Promise<void>;
}

interface RawInput {
  readonly path?: Record<string, unknown>;
  readonly query?: Record<string, unknown>;
  readonly body?: unknown;
}

interface PreparedRequest {
  readonly entry: AnyContractEntry;
  readonly route: Route;
  readonly method: Dispatcher.HttpMethod;
  readonly path: string;
  readonly body: string | undefined;
  /** The caller's idempotency reference, when the operation carries one. */
  readonly reference: string | undefined;
}

const DEFAULTS = {
  timeoutMs: 10_000,
  maxRetries: 2,
  retryBaseDelayMs: 250,
  maxRetryDelayMs: 10_000,
  connections: 16,
  catalogueTtlMs: 300_000,
} as const;

/** What one client's calls share, set up once by {@link createPartnerClient}. */
interface ClientState {
  readonly options: PartnerClientOptions;
  readonly prefix: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly log: Logger | undefined;
  readonly now: () => number;
  readonly breaker: ReturnType<typeof createBreaker>;
  readonly pool: Pool;
  readonly headers: Readonly<Record<string, string>>;
  readonly bodyHeaders: Readonly<Record<string, string>>;
  readonly entries: Readonly<Record<string, AnyContractEntry>>;
  // Each operation is set up once, on its first call: its path split, its schemas compiled.
  readonly routes: Map<string, Route>;
  readonly catalogue: CatalogueAnswers;
}

/** Creates a client for the Partner Insurance API over one keep-alive undici Pool. */
export function createPartnerClient(options: PartnerClientOptions): PartnerClient {
  const state = createClientState(options);
  const { breaker, pool } = state;

  // Not async itself: the promise is send's, one layer fewer per call; what prepare throws is
  // still a rejection, never a throw at the caller.
  function call(name: string, input?: RawInput, callOptions?: CallOptions): Promise<unknown> {
    let request: PreparedRequest;
    try {
      request = prepare(state, name, input);
    } catch (error) {
      return Promise.reject(error);
    }
    if (request.entry.responseKind === 'stream') {
      return Promise.reject(
        new ValidationError({
          field: 'operation',
          message: `${name} returns a document: use download()`,
        }),
      );
    }
    if (request.route.catalogue) {
      const held = state.catalogue.held(request);
      if (held !== undefined) return Promise.resolve(held);
    }
    return send(state, request, callOptions, 'json');
  }

  async function download(
    name: string,
    input?: RawInput,
    callOptions?: CallOptions,
  ): Promise<Readable> {
    const request = prepare(state, name, input);
    return (await send(state, request, callOptions, 'stream')) as Readable;
  }

  async function* paginate(
    name: string,
    input?: RawInput,
    callOptions?: CallOptions,
  ): AsyncGenerator<unknown> {
    const first = input?.query?.PageNumber;
    let pageNumber = typeof first === 'number' ? first : 1;
    for (;;) {
      const page = (await call(
        name,
        { ...input, query: { ...input?.query, PageNumber: pageNumber } },
        callOptions,
      )) as { data: unknown[]; totalPages: number; pageNumber: number };
      yield* page.data;
      // Stop on the last page, and on an empty page so a wrong totalPages cannot loop forever.
      if (page.data.length === 0 || page.pageNumber >= page.totalPages) return;
      pageNumber = page.pageNumber + 1;
    }
  }

  // The implementations take untyped input (they are generic over the table); the interface
  // adds the per-operation types the table defines, so callers never see the untyped form.
  const client = {
    call,
    paginate,
    download,
    pathOf: (name: OperationName) => pathOf(state, name),
    circuitState: (): CircuitState => breaker?.state() ?? 'closed',
    close: () => pool.close(),
  };
  return client as unknown as PartnerClient;
}

/** Reads the options, applies the defaults and opens the connection pool. */
function createClientState(options: PartnerClientOptions): ClientState {
  const base = new URL(options.baseUrl);
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const log = options.logger;
  const now = options.now ?? Date.now;
  const headers = {
    authorization: `Bearer ${options.apiKey}`,
    accept: 'application/json',
    'user-agent': options.userAgent ?? 'insurechat',
  };
  return {
    options,
    prefix: base.pathname.replace(/\/+$/, ''),
    timeoutMs,
    maxRetries: options.maxRetries ?? DEFAULTS.maxRetries,
    baseDelayMs: options.retryBaseDelayMs ?? DEFAULTS.retryBaseDelayMs,
    maxDelayMs: options.maxRetryDelayMs ?? DEFAULTS.maxRetryDelayMs,
    log,
    now,
    breaker: createBreaker(options.circuitBreaker, now, log),
    pool: new Pool(base.origin, {
      connections: options.connections ?? DEFAULTS.connections,
      keepAliveTimeout: 30_000,
      connectTimeout: timeoutMs,
    }),
    headers,
    bodyHeaders: { ...headers, 'content-type': 'application/json' },
    entries: contract,
    routes: new Map<string, Route>(),
    catalogue: new CatalogueAnswers(options.catalogueTtlMs ?? DEFAULTS.catalogueTtlMs, now),
  };
}

function pathOf(state: ClientState, name: OperationName): string {
  return state.options.pathOverrides?.[name] ?? contract[name].path;
}

function routeOf(state: ClientState, name: string): Route {
  let route = state.routes.get(name);
  if (route === undefined) {
    const entry = Object.hasOwn(state.entries, name) ? state.entries[name] : undefined;
    if (!entry)
      throw new ValidationError({ field: 'operation', message: `Unknown operation ${name}` });
    route = createRoute(entry, `${state.prefix}${pathOf(state, entry.name as OperationName)}`);
    state.routes.set(name, route);
  }
  return route;
}

function prepare(state: ClientState, name: string, input: RawInput | undefined): PreparedRequest {
  const route = routeOf(state, name);
  const entry = route.entry;
  const path = expandPath(route.template, pathParamsOf(route, input?.path));
  const search = route.query
    ? encodeQuery(parseOrThrow(route.query, input?.query ?? {}, 'query'))
    : '';
  const body = route.body
    ? route.bodyAsIs && route.body.validate(input?.body)
      ? input?.body
      : parseOrThrow(route.body, input?.body, 'body')
    : undefined;
  return {
    entry,
    route,
    method: entry.method,
    path: search === '' ? path : `${path}${search}`,
    body: body === undefined ? undefined : JSON.stringify(body),
    reference: body === undefined ? undefined : idempotencyReference(body),
  };
}

/** Sends one prepared request, retrying only where repeating it is safe. */
async function send(
  state: ClientState,
  request: PreparedRequest,
  callOptions: CallOptions | undefined,
  consume: Consume,
): Promise<unknown> {
  const limitMs = callOptions?.timeoutMs ?? state.timeoutMs;
  for (let attempt = 0; ; attempt++) {
    // Asked before every attempt, retries included: once the insurer is known to be down,
    // a retry would only keep the user waiting.
    const admission = state.breaker?.admit();
    if (admission?.admitted === false) {
      throw new ApiUnavailableError(
        { operation: request.entry.name, retryAfterMs: admission.retryAfterMs },
        { cause: admission.lastFailure },
      );
    }
    const permit = admission?.permit;
    let failure: Attempt;
    try {
      failure = await attemptOnce(state, request, callOptions?.signal, limitMs, consume);
    } catch (error) {
      permit?.release();
      throw error;
    }
    settle(state, permit, request.entry.name, failure, limitMs);
    if (failure.kind === 'ok') return failure.value;
    const delayMs = retryDelay(state, request, failure, attempt);
    if (delayMs === undefined) throw failure.error;
    state.log?.warn(
      {
        operation: request.entry.name,
        attempt: attempt + 1,
        delayMs,
        reason: failure.error.name,
      },
      'partner api retry',
    );
    await sleep(
      delayMs,
      undefined,
      callOptions?.signal ? { signal: callOptions.signal } : {},
    ).catch(() => {
      throw new ApiAbortedError({ operation: request.entry.name });
    });
  }
}

/** Tells the breaker and the error hook how an attempt ended; `limitMs` was its time limit. */
function settle(
  state: ClientState,
  permit: CircuitPermit | undefined,
  operation: string,
  outcome: Attempt,
  limitMs: number,
): void {
  if (outcome.kind === 'ok') {
    permit?.success();
    return;
  }
  const error = outcome.error;
  // The caller ended it: that says nothing about the insurer.
  if (error instanceof ApiAbortedError) {
    permit?.release();
    return;
  }
  if (error instanceof ApiTimeoutError && limitMs < state.timeoutMs) {
    // The caller's own limit, shorter than the client's, ran out (a USSD turn's lookup budget):
    // the insurer was slower than that caller could wait, which says nothing about whether it
    // is up. Counted, a slow but healthy insurer opened the circuit for every caller and for the
    // holdings sync, which then failed and left an emptied index cold (bench section 11).
    permit?.release();
  } else if (isUpstreamFailure(error)) permit?.failure(error);
  // A 4xx or a malformed 2xx still proves the insurer is up and answering.
  else permit?.success();
  reportUpstreamError(state, operation, error);
}

function reportUpstreamError(state: ClientState, operation: string, error: Error): void {
  if (!state.options.onUpstreamError) return;
  try {
    state.options.onUpstreamError(operation as OperationName, error);
  } catch (hookError) {
    // A metrics hook must never turn into the user's error.
    state.log?.warn({ operation, hookError: errorCode(hookError) }, 'partner api error hook threw');
  }
}

type Attempt =
  | { kind: 'ok'; value: unknown }
  | { kind: 'http'; error: ApiError }
  | { kind: 'network'; error: ApiNetworkError }
  | { kind: 'final'; error: Error };

async function attemptOnce(
  state: ClientState,
  request: PreparedRequest,
  signal: AbortSignal | undefined,
  limitMs: number,
  consume: Consume,
): Promise<Attempt> {
  const { log } = state;
  const operation = request.entry.name;
  if (signal?.aborted) return { kind: 'final', error: new ApiAbortedError({ operation }) };
  // One plain timer and one small cancel object per attempt: an AbortController costs ten
  // times as much on every call, and the caller's signal is only listened to when there is one.
  const cancel = new AttemptCancel();
  const timer = setTimeout(fireCancel, limitMs, cancel);
  const onAbort = signal ? fireCancel.bind(undefined, cancel) : undefined;
  if (signal && onAbort) signal.addEventListener('abort', onAbort, { once: true });
  try {
    const response = await state.pool.request({
      method: request.method,
      path: request.path,
      headers: request.body === undefined ? state.headers : state.bodyHeaders,
      body: request.body ?? null,
      // undici takes an EventEmitter-like signal and only calls the three methods it has.
      signal: cancel as unknown as EventEmitter,
      headersTimeout: limitMs,
      bodyTimeout: limitMs,
    });
    if (response.statusCode >= 300) {
      const rawBody = await response.body.text();
      const error = apiErrorFromResponse({
        status: response.statusCode,
        operation,
        rawBody,
        retryAfterSeconds: retryAfter(response.headers['retry-after'], state.now()),
      });
      // A 4xx is usually the caller's business (a lookup that found nothing); 5xx is ours to watch.
      const level = response.statusCode >= 500 ? 'warn' : 'debug';
      log?.[level]({ operation, status: response.statusCode }, 'partner api error response');
      return { kind: 'http', error };
    }
    return {
      kind: 'ok',
      value:
        consume === 'stream'
          ? response.body
          : state.catalogue.parse(request, await response.body.text()),
    };
  } catch (cause) {
    if (cause instanceof ResponseShapeError) return { kind: 'final', error: cause };
    if (signal?.aborted)
      return { kind: 'final', error: new ApiAbortedError({ operation }, { cause }) };
    if (cancel.aborted || isTimeout(cause)) {
      return {
        kind: 'final',
        error: new ApiTimeoutError({ operation, timeoutMs: limitMs }, { cause }),
      };
    }
    const sent = !NOT_SENT_CODES.has(errorCode(cause));
    log?.warn({ operation, sent, errorCode: errorCode(cause) }, 'partner api network failure');
    return { kind: 'network', error: new ApiNetworkError({ operation, sent }, { cause }) };
  } finally {
    clearTimeout(timer);
    if (signal && onAbort) signal.removeEventListener('abort', onAbort);
  }
}

/** How long to wait before repeating a failed attempt, or undefined when it must not repeat. */
function retryDelay(
  state: ClientState,
  request: PreparedRequest,
  failure: Attempt,
  attempt: number,
): number | undefined {
  const { maxDelayMs } = state;
  if (failure.kind === 'ok' || failure.kind === 'final' || attempt >= state.maxRetries)
    return undefined;
  // The contract marks what moves money: the spec never promises that a repeated reference is
  // de-duplicated, so such a request is never sent twice here. Its caller looks the transaction
  // up by its reference before anything is sent again (src/payments).
  if (request.entry.startsPayment === true) return undefined;
  const backoff = Math.min(
    maxDelayMs,
    state.baseDelayMs * 2 ** attempt * (0.5 + Math.random() / 2),
  );
  const safeToRepeat = request.method === 'GET';
  if (failure.kind === 'network') {
    // The connection was refused (or never made), so the insurer never saw the request:
    // sending it again cannot do anything twice, whatever the method.
    if (!failure.error.sent) return backoff;
    // A GET only reads; repeating one after a dropped connection is harmless.
    if (safeToRepeat) return backoff;
    // Anything else may have been acted on (a payment may have started): never repeat blindly.
    return undefined;
  }
  const status = failure.error.status;
  // 429 and 503 mean "not now": the request was not acted on. Repeat it when it only reads, or
  // when it carries the caller's idempotency reference so the insurer can tell a repeat apart.
  if ((status === 429 || status === 503) && (safeToRepeat || request.reference !== undefined)) {
    const asked = failure.error.retryAfterSeconds;
    if (asked === undefined) return backoff;
    const askedMs = asked * 1000;
    return askedMs <= maxDelayMs ? askedMs : undefined;
  }
  // Other 5xx on a GET (a gateway or server hiccup) are worth one more read.
  if (status >= 500 && safeToRepeat) return backoff;
  return undefined;
}

/** How an attempt reads a 2xx body: parsed and validated JSON, or the raw stream. */
type Consume = 'json' | 'stream';

/**
 * Cancels one attempt. undici accepts an EventEmitter with an `aborted` flag as its signal: it
 * checks for `on`, listens once for `abort` and takes its listener off when the request ends.
 * An attempt has one request, so one listener slot does, without an EventEmitter's set-up and
 * `once` wrapper on every call.
 */
class AttemptCancel {
  aborted = false;
  private listener: (() => void) | undefined = undefined;

  on(_event: 'abort', listener: () => void): this {
    this.listener = listener;
    return this;
  }

  once(event: 'abort', listener: () => void): this {
    return this.on(event, listener);
  }

  removeListener(_event: 'abort', listener: () => void): this {
    if (this.listener === listener) this.listener = undefined;
    return this;
  }

  fire(): void {
    if (this.aborted) return;
    this.aborted = true;
    const listener = this.listener;
    this.listener = undefined;
    listener?.();
  }
}

function fireCancel(cancel: AttemptCancel): void {
  cancel.fire();
}

/** A path template split at its `{param}` placeholders: literal, name, literal, name, …, literal. */
interface PathTemplate {
  readonly literals: readonly string[];
  readonly names: readonly string[];
}

function compilePath(template: string): PathTemplate {
  const literals: string[] = [];
  const names: string[] = [];
  let from = 0;
  for (const match of template.matchAll(/\{([^}]+)\}/g)) {
    literals.push(template.slice(from, match.index));
    names.push(match[1] ?? '');
    from = match.index + match[0].length;
  }
  literals.push(template.slice(from));
  return { literals, names };
}

/**
 * An operation as the client calls it, built on its first call: the contract entry, its path
 * template split, and its schemas compiled (`z.compile`: a generated fast path for valid input;
 * invalid input falls back to zod's own parser, so results and errors stay the schema's own).
 */
interface Route {
  readonly entry: AnyContractEntry;
  readonly template: PathTemplate;
  /** The path schema is exactly one non-empty string per placeholder. */
  readonly plainPath: boolean;
  readonly pathParams: z.ZodType;
  readonly query: z.ZodType | undefined;
  readonly body: z.ZodType | undefined;
  /** A body that passes the check is sent as given: its parse would be a copy of it. */
  readonly bodyAsIs: boolean;
  readonly response: z.ZodType;
  /** A response that passes the check is returned as read: its parse would be a copy of it. */
  readonly responseAsIs: boolean;
  /** A catalogue read: its answer is checked once per distinct body ({@link CatalogueAnswers}). */
  readonly catalogue: boolean;
}

/** What a route takes from its contract entry alone, the same for every client. */
type CompiledEntry = Pick<
  Route,
  'pathParams' | 'query' | 'body' | 'bodyAsIs' | 'response' | 'responseAsIs' | 'catalogue'
>;

/**
 * Each entry's schemas compiled once per process, not once per client: generating the fast path
 * is most of setting up a route, and a process that makes many clients (the tests make one per
 * sandbox insurer, hundreds per file) would repeat it for each. A compiled schema is a clone of
 * the entry's, holding no state of its own, so clients can share it.
 */
const compiledEntries = new WeakMap<AnyContractEntry, CompiledEntry>();

function compiledEntry(entry: AnyContractEntry): CompiledEntry {
  let compiled = compiledEntries.get(entry);
  if (compiled === undefined) {
    compiled = {
      pathParams: z.compile(entry.pathParams),
      query: entry.query && z.compile(entry.query),
      body: entry.body && z.compile(entry.body),
      bodyAsIs: entry.body !== undefined && outputIsInput(entry.body),
      response: z.compile(entry.response),
      responseAsIs: outputIsInput(entry.response),
      catalogue: CATALOGUE_OPERATIONS.has(entry.name),
    };
    compiledEntries.set(entry, compiled);
  }
  return compiled;
}

function createRoute(entry: AnyContractEntry, template: string): Route {
  const split = compilePath(template);
  return {
    entry,
    template: split,
    plainPath: sameNames(split.names, entry.pathParams.shape),
    ...compiledEntry(entry),
  };
}

/**
 * The validated path parameters. Every contract path schema is "each placeholder a non-empty
 * string, nothing else kept", so input that plainly meets it skips zod; anything else goes
 * through the schema, which gives the same result or the same error as before.
 */
function pathParamsOf(
  route: Route,
  input: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const names = route.template.names;
  if (typeof input === 'object' && input !== null && route.plainPath) {
    let plain = true;
    for (const name of names) {
      const value = input[name];
      if (typeof value !== 'string' || value.length === 0) {
        plain = false;
        break;
      }
    }
    if (plain) return input;
  }
  return parseOrThrow(route.pathParams, input ?? {}, 'path');
}

/** True when the path schema is exactly one `z.string().min(1)` per template placeholder. */
function sameNames(names: readonly string[], shape: Record<string, z.ZodType>): boolean {
  const keys = Object.keys(shape);
  return (
    keys.length === names.length &&
    names.every((name) => {
      const field = shape[name];
      return field !== undefined && isNonEmptyString(field);
    })
  );
}

function isNonEmptyString(schema: z.ZodType): boolean {
  const def = schema._zod.def;
  if (def.type !== 'string') return false;
  const checks = def.checks ?? [];
  return (
    checks.length === 1 &&
    checks[0]?._zod.def.check === 'min_length' &&
    (checks[0]._zod.def as { minimum?: unknown }).minimum === 1
  );
}

/** Builds the client's breaker from its options; undefined when turned off. */
function createBreaker(
  config: CircuitBreakerOptions | false | undefined,
  now: () => number,
  log: Logger | undefined,
) {
  if (config === false) return undefined;
  const parsed = CircuitBreakerOptions.safeParse(config ?? {});
  if (!parsed.success) throw ValidationError.fromZod(parsed.error, 'circuitBreaker');
  return createCircuitBreaker(parsed.data, {
    now,
    onTransition: (change: CircuitTransition) => {
      const fields = {
        circuit: 'partner-api',
        from: change.from,
        to: change.to,
        consecutiveFailures: change.consecutiveFailures,
        ...(change.to === 'open'
          ? { reason: errorCode(change.cause) || 'unknown', openMs: parsed.data.openMs }
          : {}),
      };
      if (change.to === 'open') log?.warn(fields, 'partner api circuit opened');
      else if (change.to === 'half-open') log?.info(fields, 'partner api circuit half-open');
      else log?.info(fields, 'partner api circuit closed');
    },
  });
}

/** Network failures, timeouts and 5xx: the insurer is down or struggling, not the caller wrong. */
function isUpstreamFailure(error: Error): boolean {
  if (error instanceof ApiError) return error.status >= 500;
  return error instanceof ApiNetworkError;
}

/** Network error codes raised before the request left this process. */
const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function errorCode(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return '';
}

function isTimeout(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
}

/** Validates one part of the input; a field error names the field, a whole-part error the part. */
function parseOrThrow(
  schema: z.ZodType,
  value: unknown,
  part: 'path' | 'query' | 'body',
): Record<string, unknown> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw ValidationError.fromZod(parsed.error, undefined, part);
  return parsed.data as Record<string, unknown>;
}

function expandPath(template: PathTemplate, params: Record<string, unknown>): string {
  const { literals, names } = template;
  let path = literals[0] ?? '';
  for (let i = 0; i < names.length; i++) {
    path += encodeURIComponent(String(params[names[i] ?? ''] ?? ''));
    path += literals[i + 1] ?? '';
  }
  return path;
}

function encodeQuery(query: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/** The caller's idempotency reference: `reference`, or `payment.reference` for batch bodies. */
function idempotencyReference(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as { reference?: unknown; payment?: { reference?: unknown } };
  if (typeof record.reference === 'string') return record.reference;
  if (typeof record.payment?.reference === 'string') return record.payment.reference;
  return undefined;
}

function retryAfter(header: string | string[] | undefined, nowMs: number): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - nowMs) / 1000);
}

/**
 * Catalogue reads whose answer is the same for every caller (products, risk categories, payment
 * gateways): the insurer's reference data, read on almost every journey.
 */
const CATALOGUE_OPERATIONS: ReadonlySet<string> = new Set<OperationName>([
  'getMotorProducts',
  'getMotorProduct',
  'getMotorRiskCategories',
  'getCreditLifeProducts',
  'getProducts',
  'getTravelProducts',
  'getTravelProduct',
  'getLifeProducts',
  'getLifeProduct',
  'getPaymentGateways',
]);
const MAX_CATALOGUE_ANSWERS = 64;

/**
 * The catalogue answers of one client. Each is held for `ttlMs` from when the insurer sent it,
 * and answered again meanwhile without a call: reference data every purchase reads (a USSD
 * purchase read products and risk categories on two of its turns, about a third of their work).
 * After that, and for every other operation, the insurer is asked; each catalogue answer is
 * still validated only once while the insurer sends the very same bytes (frozen, as every
 * caller shares it). Any other body, and every other operation, is parsed and checked against
 * the contract. Only an answer that passed the contract is held.
 */
class CatalogueAnswers {
  private readonly last = new Map<
    string,
    { readonly text: string; readonly value: unknown; readonly at: number }
  >();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  /** The answer held for this request while it is fresh; undefined when the insurer is to be asked. */
  held(request: PreparedRequest): unknown {
    if (this.ttlMs <= 0) return undefined;
    const known = this.last.get(keyOf(request));
    return known !== undefined && this.now() - known.at < this.ttlMs ? known.value : undefined;
  }

  parse(request: PreparedRequest, text: string): unknown {
    const route = request.route;
    if (!route.catalogue) return parseResponse(route, text);
    const key = keyOf(request);
    const known = this.last.get(key);
    const at = this.now();
    if (known !== undefined && known.text === text) {
      this.last.set(key, { ...known, at });
      return known.value;
    }
    const value = deepFreeze(parseResponse(route, text));
    if (this.last.size >= MAX_CATALOGUE_ANSWERS && known === undefined) this.last.clear();
    this.last.set(key, { text, value, at });
    return value;
  }
}

/** A catalogue request's key: the operation and its path with the query. */
function keyOf(request: PreparedRequest): string {
  return `${request.route.entry.name} ${request.path}`;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

function parseResponse(route: Route, text: string): unknown {
  const entry = route.entry;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new ResponseShapeError(
      { operation: entry.name, path: '', message: 'the body is not JSON' },
      { cause },
    );
  }
  // The common case checks without copying; a failure is parsed again for zod's own issues.
  if (route.responseAsIs && route.response.validate(json)) return json;
  const parsed = route.response.safeParse(json);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  throw new ResponseShapeError(
    {
      operation: entry.name,
      path: first ? first.path.map(String).join('.') : '',
      message: first?.message ?? 'does not match the schema',
      issues: parsed.error.issues,
    },
    { cause: parsed.error },
  );
}

/** The first `max` items of a paginated listing ({@link PartnerClient.paginate}); stops reading there. */
export async function firstOf<T>(items: AsyncIterable<T>, max: number): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) {
    out.push(item);
    if (out.length >= max) break;
  }
  return out;
}
