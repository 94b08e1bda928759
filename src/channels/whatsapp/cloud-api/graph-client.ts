import { request } from 'undici';
import type { z } from 'zod';
import { CodedError, CodedStatusError } from '../../../errors/index.js';
import type { WhatsAppMessage } from '../render-whatsapp-message.js';
import { MediaInfo, SendResult } from './webhook-payload.js';

/** Where a Graph API call failed: it answered an error, the network failed, or its body broke. */
export type GraphErrorCode = 'GRAPH_HTTP_ERROR' | 'GRAPH_NETWORK_ERROR' | 'GRAPH_BAD_RESPONSE';

/** Raised when a Graph API call (a send, a media read) did not succeed; `status` is HTTP's. */
export class WhatsAppGraphError extends CodedStatusError<GraphErrorCode> {
  override readonly name = 'WhatsAppGraphError';
}

/** A template message: its approved name, language and the body's named text parameters. */
export interface TemplateMessage {
  readonly type: 'template';
  readonly template: {
    readonly name: string;
    readonly language: { readonly code: string };
    readonly components: readonly {
      readonly type: 'body';
      readonly parameters: readonly {
        readonly type: 'text';
        /** The body's `{{name}}` this fills (a template approved with named parameters). */
        readonly parameter_name: string;
        readonly text: string;
      }[];
    }[];
  };
}

/** Options of {@link createGraphClient}. */
export interface GraphClientOptions {
  readonly apiUrl: string;
  readonly phoneNumberId: string;
  /** Sent as a bearer token; never logged (errors carry statuses, not requests). */
  readonly accessToken: string;
  /** Per-request time limit; default 10 000 ms (a customer is waiting). */
  readonly timeoutMs?: number;
}

/** The calls the channel makes to the Cloud API. */
export interface GraphClient {
  /** Sends one message to `to` (a wa_id); resolves its message id. */
  send(to: string, message: WhatsAppMessage | TemplateMessage): Promise<string>;
  /** Downloads a media object the customer sent, at most `maxBytes`. */
  download(mediaId: string, maxBytes: number): Promise<{ bytes: Uint8Array; mimeType: string }>;
}

/**
 * A Graph API client on plain undici, as the partner client is. No retries: a send is not
 * idempotent (a retry after a lost answer sends the customer the message twice).
 */
export function createGraphClient(options: GraphClientOptions): GraphClient {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const authorization = `Bearer ${options.accessToken}`;

  async function call<T>(url: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(url, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    } catch (cause) {
      throw new WhatsAppGraphError('GRAPH_NETWORK_ERROR', 'the Graph API could not be reached', {
        cause,
      });
    }
    const text = await response.body.text();
    const status = response.statusCode;
    if (status < 200 || status >= 300) {
      throw new WhatsAppGraphError('GRAPH_HTTP_ERROR', `the Graph API answered ${status}`, {
        status,
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
      const sent = await call(
        `${options.apiUrl}/${options.phoneNumberId}/messages`,
        SendResult,
        body,
      );
      return sent.messages[0]?.id ?? '';
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
