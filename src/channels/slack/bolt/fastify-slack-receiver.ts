import { createHash } from 'node:crypto';
import { type App, type Receiver, type ReceiverEvent, verifySlackRequest } from '@slack/bolt';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { Logger } from '../../../log/index.js';
import type { OnceSet } from '../../shared/index.js';

/** How far a request's timestamp may be from our clock, either way (Slack's own rule: 5 min). */
const MAX_CLOCK_SKEW_SECONDS = 5 * 60;

/** Options for {@link FastifySlackReceiver}. */
interface FastifySlackReceiverOptions {
  readonly signingSecret: string;
  readonly logger: Logger;
  /** Remembers requests already dispatched, so Slack's retries are handled once. */
  readonly seen: OnceSet;
  /** Answer Slack with an empty 200 if no listener acknowledged by then; default 2 500 ms. */
  readonly ackTimeoutMs?: number;
  /** Now in ms, for the signature's freshness check (Bolt allows five minutes); tests pin it. */
  readonly now?: () => number;
}

// Interactivity arrives as a form with one `payload` field holding JSON.
const InteractivePayload = z.looseObject({ type: z.string() });
const JsonBody = z.looseObject({});

type ParsedBody = Record<string, unknown>;

function parseBody(rawBody: string, contentType: string | undefined): ParsedBody | undefined {
  try {
    if (contentType?.includes('application/json')) {
      const parsed = JsonBody.safeParse(JSON.parse(rawBody));
      return parsed.success ? parsed.data : undefined;
    }
    const form = new URLSearchParams(rawBody);
    const payload = form.get('payload');
    if (payload !== null) {
      const parsed = InteractivePayload.safeParse(JSON.parse(payload));
      return parsed.success ? parsed.data : undefined;
    }
    return Object.fromEntries(form);
  } catch {
    return undefined;
  }
}

/** The id a retried request shares with its first attempt. */
function deliveryId(body: ParsedBody, rawBody: string): string {
  // Events carry an id; commands and actions carry a one-time trigger id inside the body, so
  // the same bytes mean the same delivery.
  if (typeof body.event_id === 'string') return `event:${body.event_id}`;
  return `body:${createHash('sha256').update(rawBody).digest('hex')}`;
}

/**
 * Bolt receiver on the shared fastify server. Chosen over handling slash commands directly so
 * Bolt's listeners, `respond` and Block Kit helpers stay in use; the transport concerns Bolt's
 * own HTTPReceiver would handle (signature on the raw body, freshness, retries) are done here,
 * because fastify has already parsed bodies by the time Bolt could see them.
 */
export class FastifySlackReceiver implements Receiver {
  readonly #options: FastifySlackReceiverOptions;
  readonly #inFlight = new Set<Promise<void>>();
  #app: App | undefined;

  constructor(options: FastifySlackReceiverOptions) {
    this.#options = options;
  }

  init(app: App): void {
    this.#app = app;
  }

  /** The fastify server is started by src/server; nothing to start here. */
  start(): Promise<void> {
    return Promise.resolve();
  }

  /** Waits for requests still being processed after their ack. */
  async stop(): Promise<void> {
    await Promise.allSettled([...this.#inFlight]);
  }

  /** Adds `POST path` with its own raw-body parser (encapsulated: other routes are unaffected). */
  register(fastify: FastifyInstance, path: string): void {
    void fastify.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
        done(null, body);
      });
      scope.post(path, async (request, reply) => {
        const rawBody = typeof request.body === 'string' ? request.body : '';
        const header = (name: string) => {
          const value = request.headers[name];
          return typeof value === 'string' ? value : undefined;
        };
        return this.#handle(rawBody, header, reply);
      });
    });
  }

  /** Why a request is not Slack's (Bolt's `verifySlackRequest` judges), or undefined when it is. */
  #rejection(
    rawBody: string,
    header: (name: string) => string | undefined,
  ): 'missing' | 'invalid' | undefined {
    const timestamp = header('x-slack-request-timestamp');
    const signature = header('x-slack-signature');
    // Bolt reads the headers as given: an absent one would surface as a TypeError, not a refusal.
    if (!timestamp || !signature || !/^\d+$/.test(timestamp)) return 'missing';
    const nowMs = (this.#options.now ?? Date.now)();
    // Bolt refuses a request older than five minutes but not one dated ahead: a captured request
    // signed for later could be replayed until then. Either way past the window is refused.
    if (Math.abs(nowMs / 1000 - Number(timestamp)) > MAX_CLOCK_SKEW_SECONDS) return 'invalid';
    try {
      verifySlackRequest({
        signingSecret: this.#options.signingSecret,
        body: rawBody,
        headers: {
          'x-slack-signature': signature,
          'x-slack-request-timestamp': Number(timestamp),
        },
        nowMilliseconds: nowMs,
      });
      return undefined;
    } catch {
      return 'invalid';
    }
  }

  async #handle(
    rawBody: string,
    header: (name: string) => string | undefined,
    reply: FastifyReply,
  ): Promise<FastifyReply> {
    const log = this.#options.logger;
    const rejected = this.#rejection(rawBody, header);
    if (rejected) {
      log.warn({ reason: rejected }, 'slack request rejected');
      return reply.code(401).send({ error: 'invalid signature' });
    }

    const body = parseBody(rawBody, header('content-type'));
    if (!body) return reply.code(400).send({ error: 'unreadable body' });
    if (body.type === 'url_verification') return reply.send({ challenge: body.challenge });
    if (body.ssl_check !== undefined) return reply.send();

    const retryNum = Number(header('x-slack-retry-num') ?? 0);
    if (!(await this.#options.seen.claim(deliveryId(body, rawBody)))) {
      log.info({ retryNum }, 'slack retry of a request already handled');
      return reply.header('x-slack-no-retry', '1').send();
    }
    const app = this.#app;
    if (!app) return reply.code(503).send({ error: 'slack app not initialised' });

    return new Promise<FastifyReply>((resolve) => {
      let answered = false;
      const answer = (payload: unknown) => {
        if (answered) return;
        answered = true;
        clearTimeout(timer);
        if (payload === undefined || payload === '') resolve(reply.send());
        else if (typeof payload === 'string') resolve(reply.type('text/plain').send(payload));
        else resolve(reply.type('application/json').send(payload));
      };
      // Slack gives up after 3 s; an empty 200 in time is better than a timeout shown to staff.
      const timer = setTimeout(() => answer(undefined), this.#options.ackTimeoutMs ?? 2_500);
      const retryReason = header('x-slack-retry-reason');
      const event: ReceiverEvent = {
        body,
        ack: async (response?: unknown) => answer(response),
        ...(retryNum > 0 ? { retryNum } : {}),
        ...(retryReason === undefined ? {} : { retryReason }),
      };
      const work = app
        .processEvent(event)
        .catch((error: unknown) => {
          // app.error has logged and apologised; the request itself still gets its 200.
          log.error(
            { errorName: error instanceof Error ? error.name : typeof error },
            'slack event failed',
          );
        })
        .finally(() => {
          answer(undefined);
          this.#inFlight.delete(work);
        });
      this.#inFlight.add(work);
    });
  }
}
