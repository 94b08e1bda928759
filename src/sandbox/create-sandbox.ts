import { randomBytes, timingSafeEqual } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  type AnyContractEntry,
  contract,
  type OperationName,
  operationNames,
} from '../api/index.js';
import type { Logger } from '../log/index.js';
import type { SandboxCatalogue } from './catalogue.js';
import { advanceClaim } from './claims.js';
import { type Clock, systemClock } from './clock.js';
import { seedDemoBook } from './demo-book.js';
import { createHandlers, type HandlerInput, type Handlers } from './handlers.js';
import { createIdSource } from './ids.js';
import { seedLargeBook } from './large-book.js';
import { createPaymentEngine, type PaymentEngine } from './payment-engine.js';
import { conflictingPaymentMethods } from './payments.js';
import { DEFAULT_LEVY_RATE } from './premium.js';
import { type FieldErrors, SandboxHttpError } from './sandbox-error.js';
import { SandboxFile } from './sandbox-file.js';
import { seedState } from './seed.js';
import { createSmsOutbox, type SmsOutbox } from './sms-outbox.js';
import { missingSpecFields } from './spec-required.js';
import {
  type ClaimRecord,
  createEmptyState,
  type SandboxContext,
  type SandboxState,
} from './state.js';
import {
  cappedPageQuery,
  STRICT_DEFAULTS,
  type StrictInsurerOptions,
  strictAnswer,
  strictStatusCode,
} from './strict-insurer.js';

/** The published base path every operation is served under. */
export const SANDBOX_BASE_PATH = '/api/v1';

/** Options of {@link createSandbox}. */
export interface SandboxOptions {
  /** Bearer key partners must send; generated (`sbx_…`) when omitted. */
  readonly apiKey?: string;
  /** Insurance premium levy rate; default 0.05 (5%). */
  readonly levyRate?: number;
  /** Delay before a mobile-money payment settles; default 3000 ms. */
  readonly settleDelayMs?: number;
  /** How long a never-answered prompt (test MSISDN ending in 3) stays Pending; default 300 000 ms. */
  readonly expireAfterMs?: number;
  /** First retry delay of a failed webhook delivery, doubling per attempt; default 1000 ms. */
  readonly callbackRetryBaseMs?: number;
  /** Webhook deliveries attempted per payment before giving up; default 5. */
  readonly callbackMaxAttempts?: number;
  /** Where time comes from; default the wall clock. Tests pass a manual clock. */
  readonly clock?: Clock;
  /** The partner profile's `paymentCallbackUrl`; settable later with setPaymentCallbackUrl. */
  readonly callbackUrl?: string;
  readonly logger?: Logger;
  /** Start with the deterministic seed data and the demo book (DEMO_BOOK); default true. */
  readonly seed?: boolean;
  /**
   * Mobile-money payments settle within the request that starts them, as an insurer answering
   * Success (or Failed) at once would; default false (they settle after `settleDelayMs`).
   */
  readonly settleAtOnce?: boolean;
  /** Motor products and travel packages on offer; default the standard catalogue. */
  readonly catalogue?: Partial<SandboxCatalogue>;
  /**
   * The partner is set up for deferred billing, so PayLater (no payment object, or an empty one)
   * issues without collecting money; default false: PayLater is refused with 422, as the spec
   * allows it only for partners pre-configured for it.
   */
  readonly deferredBilling?: boolean;
  /**
   * Seeds a large book besides the demo book (see large-book.ts): this many travel and motor
   * policies, and as many members and loans on 50 master policies. Default none.
   */
  readonly bookSize?: number;
  /**
   * Every API answer this late, the request carried out first (a slow insurer); default the
   * strict insurer's `lateMs`, else 0. Settable later with setAnswerDelayMs.
   */
  readonly answerDelayMs?: number;
  /**
   * Answers as a real insurer may (see strict-insurer.ts): unknown extra fields, null optional
   * fields left out, a transaction status word the client has not seen, 201 or 200 to a POST,
   * pages capped at 50, every answer 1.5 s late. `true` takes the defaults; default off.
   */
  readonly strict?: boolean | StrictInsurerOptions;
  /**
   * A fault for tests: when it returns true for an operation, the request is carried out but its
   * answer is lost (the connection is closed before anything is sent back).
   */
  readonly loseAnswer?: (operation: OperationName) => boolean;
  /**
   * A fault for tests: the answer an operation sends instead of its own (a status word the
   * sandbox never uses, say); return the answer unchanged to leave it be.
   */
  readonly answerAs?: (operation: OperationName, answer: unknown) => unknown;
  /**
   * A fault for tests: how late one operation answers (ms), instead of the lateness every answer
   * has; undefined leaves that one. One read slower than those beside it (issue 38's parallel
   * reads) is told apart only this way.
   */
  readonly answerDelayFor?: (operation: OperationName) => number | undefined;
}

/** A running (or ready to listen) sandbox insurer. */
export interface Sandbox {
  /** The fastify instance; `app.inject` works without listening. */
  readonly app: FastifyInstance;
  /** Listens on `port` (0 or omitted: a free port) on 127.0.0.1; resolves the base URL incl. /api/v1. */
  listen(port?: number, host?: string): Promise<{ url: string; origin: string }>;
  /** Stops timers and the server. */
  close(): Promise<void>;
  /** The in-memory data, for tests. */
  readonly state: SandboxState;
  readonly clock: Clock;
  readonly apiKey: string;
  readonly payments: PaymentEngine;
  /** Sets the partner profile's `paymentCallbackUrl` (null: no webhooks). */
  setPaymentCallbackUrl(url: string | null): void;
  /** SMS accepted on the Africa's Talking-style endpoint. */
  readonly smsOutbox: SmsOutbox;
  /** Makes every API answer `ms` late from now on (0: on time). */
  setAnswerDelayMs(ms: number): void;
  /**
   * Moves the claim with this printed number to `status`, as the insurer's own staff would (the
   * spec leaves check, approve and settle to the insurer); undefined when no claim has it.
   */
  advanceClaim(number: string, status: string): ClaimRecord | undefined;
}

function fieldErrors(issues: readonly z.core.$ZodIssue[], prefix: string): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || prefix || 'body';
    const list = errors[key] ?? [];
    list.push(issue.message);
    errors[key] = list;
  }
  return errors;
}

/** Query strings arrive as text: turn numeric and boolean text into what the schema expects. */
function coerceQuery(schema: z.ZodObject, raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const field = schema.shape[key] as z.ZodType | undefined;
    if (typeof value !== 'string' || !field || field.safeParse(value).success) {
      out[key] = value;
      continue;
    }
    if (value.trim() !== '' && Number.isFinite(Number(value))) out[key] = Number(value);
    else if (value === 'true' || value === 'false') out[key] = value === 'true';
    else out[key] = value;
  }
  return out;
}

function parsePart(
  schema: z.ZodType | undefined,
  value: unknown,
  prefix: string,
  errors: FieldErrors,
): unknown {
  if (!schema) return prefix === 'query' || prefix === 'path' ? {} : undefined;
  const result = schema.safeParse(value ?? (prefix === 'body' ? undefined : {}));
  if (result.success) return result.data;
  Object.assign(errors, fieldErrors(result.error.issues, prefix === 'body' ? '' : prefix));
  return undefined;
}

function sameKey(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function toFastifyPath(template: string): string {
  return `${SANDBOX_BASE_PATH}${template.replace(/\{([^}]+)\}/g, ':$1')}`;
}

const THREE_DS_PAGE = (status: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>Sandbox 3-D Secure</title></head><body><h1>Sandbox 3-D Secure</h1><p>Payment ${status}. You can close this page and return to the chat.</p></body></html>`;

/**
 * Creates the sandbox insurer: every operation of the contract table served over fastify with the
 * spec's state rules, in-memory data seeded deterministically, payments that settle by test
 * MSISDN and POST the partner's callback URL, plus an Africa's Talking-style SMS endpoint.
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const apiKey = options.apiKey ?? `sbx_${randomBytes(18).toString('base64url')}`;
  const clock = options.clock ?? systemClock;
  const ids = createIdSource();
  const state = createEmptyState();
  let callbackUrl: string | null = options.callbackUrl ?? null;
  const payments = createPaymentEngine({
    clock,
    logger: options.logger,
    settleDelayMs: options.settleDelayMs ?? 3000,
    expireAfterMs: options.expireAfterMs ?? 300_000,
    callbackRetryBaseMs: options.callbackRetryBaseMs ?? 1000,
    callbackMaxAttempts: options.callbackMaxAttempts ?? 5,
    callbackUrl: () => callbackUrl,
    newId: (prefix) => ids.next(prefix).toUpperCase(),
    settleAtOnce: options.settleAtOnce ?? false,
  });
  const ctx: SandboxContext = {
    state,
    clock,
    ids,
    levyRate: options.levyRate ?? DEFAULT_LEVY_RATE,
    payments,
    deferredBilling: options.deferredBilling ?? false,
    catalogue: options.catalogue,
  };
  if (options.seed ?? true) {
    seedState(ctx);
    seedDemoBook(ctx);
    if (options.bookSize) seedLargeBook(ctx, options.bookSize);
  }
  const smsOutbox = createSmsOutbox(() => clock.now());
  const handlers = createHandlers(ctx);

  const strict =
    options.strict === true
      ? STRICT_DEFAULTS
      : options.strict
        ? { ...STRICT_DEFAULTS, ...options.strict }
        : undefined;
  // One lateness for both a slow insurer and the strict one: the request is carried out, then
  // answered this late (a caller that gave up may have changed something all the same).
  let answerDelayMs = options.answerDelayMs ?? strict?.lateMs ?? 0;

  const app = Fastify({ logger: false });
  void app.register(formbody);
  answerErrors(app, options.logger);
  serveOperations(app, { handlers, apiKey, strict, options, answerDelayMs: () => answerDelayMs });

  // Card 3-D Secure: visiting the page completes the payment.
  app.get<{ Params: { txn: string } }>('/sandbox/3ds/:txn', async (request, reply) => {
    const transaction = payments.completeCard(request.params.txn);
    if (!transaction) return reply.status(404).type('text/html').send(THREE_DS_PAGE('not found'));
    return reply.type('text/html').send(THREE_DS_PAGE(transaction.status.toLowerCase()));
  });
  serveSms(app, smsOutbox);

  return {
    app,
    async listen(port = 0, host = '127.0.0.1') {
      await app.listen({ port, host });
      const address = app.server.address();
      const actual = typeof address === 'object' && address ? address.port : port;
      const origin = `http://${host}:${actual}`;
      return { url: `${origin}${SANDBOX_BASE_PATH}`, origin };
    },
    async close() {
      payments.close();
      await app.close();
    },
    state,
    clock,
    apiKey,
    payments,
    setPaymentCallbackUrl(url) {
      callbackUrl = url;
    },
    setAnswerDelayMs(ms) {
      answerDelayMs = ms;
    },
    advanceClaim: (number, status) => advanceClaim(ctx, number, status),
    smsOutbox,
  };
}

/** Answers thrown sandbox errors with their status and body, anything else as a 500. */
function answerErrors(app: FastifyInstance, logger: Logger | undefined): void {
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof SandboxHttpError) {
      return reply.status(error.status).send(error.toBody());
    }
    const status =
      typeof (error as { statusCode?: unknown }).statusCode === 'number'
        ? (error as { statusCode: number }).statusCode
        : 500;
    if (status >= 500) {
      logger?.error({ err: error, url: request.routeOptions.url }, 'sandbox handler failed');
    }
    return reply.status(status).send({
      status,
      message: status >= 500 ? 'Internal sandbox error' : (error as Error).message,
      errors: {},
    });
  });
  app.setNotFoundHandler((_request, reply) =>
    reply.status(404).send({ status: 404, message: 'No such operation', errors: {} }),
  );
}

/** What every contract operation's route needs from the sandbox around it. */
interface OperationServing {
  readonly handlers: Handlers;
  readonly apiKey: string;
  readonly strict: Required<StrictInsurerOptions> | undefined;
  readonly options: SandboxOptions;
  /** Read per request: {@link Sandbox.setAnswerDelayMs} changes it while the sandbox runs. */
  readonly answerDelayMs: () => number;
}

/** Serves every operation of the contract table: key check, validation, handler, answer. */
function serveOperations(app: FastifyInstance, serving: OperationServing): void {
  const { handlers, apiKey, strict, options, answerDelayMs } = serving;
  let posts = 0;
  for (const name of operationNames) {
    const entry = contract[name] as AnyContractEntry;
    app.route({
      method: entry.method,
      url: toFastifyPath(entry.path),
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const auth = request.headers.authorization ?? '';
        if (!auth.startsWith('Bearer ') || !sameKey(auth.slice('Bearer '.length), apiKey)) {
          throw new SandboxHttpError(401, 'Missing or invalid API key');
        }
        const errors: FieldErrors = {};
        const params = parsePart(entry.pathParams, request.params, 'path', errors);
        const rawQuery = (request.query ?? {}) as Record<string, unknown>;
        const coerced = entry.query ? coerceQuery(entry.query, rawQuery) : rawQuery;
        const query = parsePart(
          entry.query,
          strict && entry.paginated ? cappedPageQuery(coerced, strict.maxPageSize) : coerced,
          'query',
          errors,
        );
        // The spec's own required fields first, read apart from the client's schemas.
        Object.assign(errors, missingSpecFields(name, request.body));
        Object.assign(errors, conflictingPaymentMethods(name, request.body));
        const body = parsePart(entry.body, request.body, 'body', errors);
        if (Object.keys(errors).length > 0) {
          throw new SandboxHttpError(400, 'Validation failed', errors);
        }
        const handler = handlers[name] as (input: HandlerInput<OperationName>) => unknown;
        const own = handler({
          params,
          query,
          body,
          origin: `${request.protocol}://${request.host}`,
        } as HandlerInput<OperationName>);
        const result = options.answerAs ? options.answerAs(name, own) : own;
        const delayMs = options.answerDelayFor?.(name) ?? answerDelayMs();
        if (delayMs > 0) await delay(delayMs);
        if (options.loseAnswer?.(name)) {
          // Carried out, never answered: the caller sees the connection drop.
          reply.hijack();
          request.raw.socket.destroy();
          return reply;
        }
        if (result instanceof SandboxFile) {
          return reply
            .header('content-type', result.contentType)
            .header('content-disposition', `attachment; filename="${result.filename}"`)
            .send(result.data);
        }
        // The OpenAPI document gives 200 for every operation, creates included.
        if (!strict) return reply.status(200).send(result);
        if (entry.method === 'POST') posts += 1;
        return reply
          .status(strictStatusCode(entry.method, posts))
          .send(strictAnswer(entry, result));
      },
    });
  }
}

/** Africa's Talking-style SMS, so USSD users' payment outcomes are visible without a gateway. */
function serveSms(app: FastifyInstance, smsOutbox: SmsOutbox): void {
  app.post('/version1/messaging', async (request, reply) => {
    const key = request.headers.apikey;
    if (typeof key !== 'string' || key === '') {
      return reply.status(401).send({ status: 401, message: 'Missing apiKey header', errors: {} });
    }
    const form = (request.body ?? {}) as Record<string, unknown>;
    const to = typeof form.to === 'string' ? form.to : '';
    const message = typeof form.message === 'string' ? form.message : '';
    const errors: FieldErrors = {};
    if (typeof form.username !== 'string' || form.username === '') errors.username = ['Required'];
    if (to === '') errors.to = ['Required'];
    if (message === '') errors.message = ['Required'];
    if (Object.keys(errors).length > 0) {
      return reply.status(400).send({ status: 400, message: 'Validation failed', errors });
    }
    const from = typeof form.from === 'string' && form.from !== '' ? form.from : null;
    const recipients = to
      .split(',')
      .map((number) => number.trim())
      .filter(Boolean)
      .map((number) => {
        const sms = smsOutbox.add({ to: number, from, message });
        return {
          statusCode: 101,
          number,
          status: 'Success',
          cost: 'ZMW 0.0000',
          messageId: sms.messageId,
        };
      });
    return reply.status(201).send({
      SMSMessageData: {
        Message: `Sent to ${recipients.length}/${recipients.length} Total Cost: ZMW 0.0000`,
        Recipients: recipients,
      },
    });
  });

  app.get<{ Querystring: { to?: string } }>('/sandbox/sms-outbox', async (request) => ({
    messages: smsOutbox.list(request.query.to),
  }));
}
