import { setTimeout as wait } from 'node:timers/promises';
import { request } from 'undici';
import { z } from 'zod';
import { CodedError, CodedStatusError } from '../../../errors/index.js';
import type { TemplateMessage, WhatsAppMessage } from './messages.js';
import { MediaInfo, SendResult } from './webhook-payload.js';

/**
 * Where a Graph API call failed: it answered an error, it was still rate-limited after its
 * retries, the network failed, or its body broke.
 */
type GraphErrorCode =
  | 'GRAPH_HTTP_ERROR'
  | 'GRAPH_RATE_LIMITED'
  | 'GRAPH_NETWORK_ERROR'
  | 'GRAPH_BAD_RESPONSE';

/** Raised when a Graph API call (a send, a media read) did not succeed; `status` is HTTP's. */
export class WhatsAppGraphError extends CodedStatusError<GraphErrorCode> {
  override readonly name = 'WhatsAppGraphError';
  /** Meta's own error code from the answer's body (130429, 132015…), when it gave one. */
  readonly graphCode: number | undefined;

  constructor(
    code: GraphErrorCode,
    message: string,
    options: {
      readonly status?: number;
      readonly cause?: unknown;
      readonly graphCode?: number;
    } = {},
  ) {
    super(code, message, options);
    this.graphCode = options.graphCode;
  }
}

/** Options of {@link createGraphClient}. */
interface GraphClientOptions {
  readonly apiUrl: string;
  readonly phoneNumberId: string;
  /** Sent as a bearer token; never logged (errors carry statuses, not requests). */
  readonly accessToken: string;
  /** Per-request time limit; default 10 000 ms (a customer is waiting). */
  readonly timeoutMs?: number;
  /** Tries of a rate-limited send (the first and its retries); default {@link RATE_LIMIT_TRIES}. */
  readonly rateLimitTries?: number;
  /** The first wait after a rate limit; each later one doubles, with jitter. Default 1 000 ms. */
  readonly rateLimitBackoffMs?: number;
  /** How the client waits between tries; tests pass one that returns at once. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** Tries of a send Meta answered with a rate limit, before it fails with `GRAPH_RATE_LIMITED`. */
export const RATE_LIMIT_TRIES = 4;

/**
 * Meta's rate-limit error codes: 130429 the number's throughput, 131056 the pair rate (one
 * business number to one customer), 80007 the business account's. Meta answers most of them with
 * HTTP 400, so the body's code is read; a plain HTTP 429 counts too.
 */
const RATE_LIMIT_CODES: ReadonlySet<number> = new Set([130429, 131056, 80007]);
const GraphErrorBody = z.object({ error: z.object({ code: z.number() }) });
const ReadResult = z.object({ success: z.boolean() });
/** A read receipt should come fast or not at all: it must never hold the reply back for long. */
const READ_TIMEOUT_MS = 3_000;

/** The calls the channel makes to the Cloud API. */
export interface GraphClient {
  /** Sends one message to `to` (a wa_id); resolves its message id. */
  send(to: string, message: WhatsAppMessage | TemplateMessage): Promise<string>;
  /**
   * Marks the customer's message `messageId` (a wamid) read and shows them the typing indicator,
   * which lasts until the next message is sent to them or 25 s. One try, no retries.
   */
  markRead(messageId: string): Promise<void>;
  /** Downloads a media object the customer sent, at most `maxBytes`. */
  download(mediaId: string, maxBytes: number): Promise<{ bytes: Uint8Array; mimeType: string }>;
}

/**
 * A Graph API client on plain undici, as the partner client is. A send is retried only when Meta
 * refused it for a rate limit (it was not sent, so it cannot arrive twice), inside the send so
 * one customer's messages stay in order; any other failure is not retried here, since a send is
 * not idempotent (a retry after a lost answer sends the customer the message twice).
 */
export function createGraphClient(options: GraphClientOptions): GraphClient {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const authorization = `Bearer ${options.accessToken}`;
  const tries = options.rateLimitTries ?? RATE_LIMIT_TRIES;
  const backoffMs = options.rateLimitBackoffMs ?? 1_000;
  const sleep = options.sleep ?? ((ms: number) => wait(ms));

  /** Runs `attempt` again after a rate limit: by default after 1, 2, 4 s, each ×0.5–1. */
  async function pacing<T>(attempt: () => Promise<T>): Promise<T> {
    for (let tried = 1; ; tried += 1) {
      try {
        return await attempt();
      } catch (error) {
        const limited = error instanceof WhatsAppGraphError && error.code === 'GRAPH_RATE_LIMITED';
        if (!limited || tried >= tries) throw error;
        // Jitter spreads the retries of many conversations limited at the same moment.
        await sleep(backoffMs * 2 ** (tried - 1) * (0.5 + Math.random() / 2));
      }
    }
  }

  async function call<T>(
    url: string,
    schema: z.ZodType<T>,
    body?: unknown,
    limitMs = timeoutMs,
  ): Promise<T> {
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(url, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        headersTimeout: limitMs,
        bodyTimeout: limitMs,
      });
    } catch (cause) {
      throw new WhatsAppGraphError('GRAPH_NETWORK_ERROR', 'the Graph API could not be reached', {
        cause,
      });
    }
    const text = await response.body.text();
    const status = response.statusCode;
    if (status < 200 || status >= 300) {
      const code = GraphErrorBody.safeParse(safeJson(text)).data?.error.code;
      if (status === 429 || (code !== undefined && RATE_LIMIT_CODES.has(code))) {
        throw new WhatsAppGraphError('GRAPH_RATE_LIMITED', `the Graph API rate-limited (${code})`, {
          status,
          ...(code === undefined ? {} : { graphCode: code }),
        });
      }
      throw new WhatsAppGraphError('GRAPH_HTTP_ERROR', `the Graph API answered ${status}`, {
        status,
        ...(code === undefined ? {} : { graphCode: code }),
      });
    }
    const parsed = schema.safeParse(safeJson(text));
    if (!parsed.success) {
      throw new WhatsAppGraphError('GRAPH_BAD_RESPONSE', 'the Graph API answer broke its schema', {
        status,
        cause: parsed.error,
      });
    }
    return parsed.data;
  }

  return {
    async send(to, message) {
      const body = { messaging_product: 'whatsapp', recipient_type: 'individual', to, ...message };
      const url = `${options.apiUrl}/${options.phoneNumberId}/messages`;
      const sent = await pacing(() => call(url, SendResult, body));
      return sent.messages[0]?.id ?? '';
    },
    async markRead(messageId) {
      const body = {
        messaging_product: 'whatsapp',
        status: 'read',
        message_id: messageId,
        typing_indicator: { type: 'text' },
      };
      const url = `${options.apiUrl}/${options.phoneNumberId}/messages`;
      await call(url, ReadResult, body, Math.min(READ_TIMEOUT_MS, timeoutMs));
    },
    async download(mediaId, maxBytes) {
      const info = await call(`${options.apiUrl}/${encodeURIComponent(mediaId)}`, MediaInfo);
      if ((info.file_size ?? 0) > maxBytes) throw new MediaTooLargeError();
      // The media URL wants the same bearer token; it is short-lived and never logged.
      const response = await request(info.url, {
        headers: { authorization },
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      }).catch((cause: unknown) => {
        throw new WhatsAppGraphError('GRAPH_NETWORK_ERROR', 'media could not be downloaded', {
          cause,
        });
      });
      if (response.statusCode !== 200) {
        await response.body.dump();
        throw new WhatsAppGraphError(
          'GRAPH_HTTP_ERROR',
          `media download answered ${response.statusCode}`,
          {
            status: response.statusCode,
          },
        );
      }
      const bytes = new Uint8Array(await response.body.arrayBuffer());
      if (bytes.byteLength > maxBytes) throw new MediaTooLargeError();
      return { bytes, mimeType: info.mime_type ?? 'application/octet-stream' };
    },
  };
}

/** Raised when a customer's file is larger than the channel takes. */
export class MediaTooLargeError extends CodedError<'WHATSAPP_MEDIA_TOO_LARGE'> {
  override readonly name = 'MediaTooLargeError';
  constructor(message = 'the file is larger than the channel takes') {
    super('WHATSAPP_MEDIA_TOO_LARGE', message);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
