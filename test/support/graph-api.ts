import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One message insurechat sent through the local Graph API, as posted (`to`, `type`, …). */
export interface GraphSent {
  readonly to: string;
  readonly type: string;
  readonly id: string;
  readonly [field: string]: unknown;
}

/** One read receipt insurechat posted: the customer's message id and the typing indicator. */
export interface GraphRead {
  readonly message_id: string;
  readonly typing_indicator?: { readonly type: string };
  /** How many messages had been sent (to anyone) when it came: its place among the sends. */
  readonly sentBefore: number;
}

/** A local WhatsApp Cloud API: records every message sent, serves media a test uploaded. */
export interface GraphApi {
  /** The root to set as `WHATSAPP_API_URL` (like `https://graph.facebook.com/v21.0`). */
  readonly url: string;
  /** Every message sent, oldest first. */
  readonly sent: GraphSent[];
  /** Every read receipt (`status: read`), oldest first; they are not messages, so not in `sent`. */
  readonly reads: GraphRead[];
  /** Makes bytes downloadable as media `id` (a photo the customer "sent"). */
  addMedia(id: string, bytes: Uint8Array, mimeType: string): void;
  /**
   * Answers the next sends with this HTTP status and Graph error code instead (a refused
   * template, an outage, a rate limit: `failNext(1, 400, 130429)`); read receipts are not sends.
   */
  failNext(count: number, status?: number, code?: number): void;
  /** Answers the next read receipts with HTTP 500. */
  failReads(count: number): void;
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Starts the local Graph API on a free port. It checks the bearer token on every call, as the
 * real one does, and answers sends with a `wamid.` id.
 */
export async function startGraphApi(options: {
  readonly phoneNumberId: string;
  readonly accessToken: string;
}): Promise<GraphApi> {
  const sent: GraphSent[] = [];
  const media = new Map<string, { bytes: Uint8Array; mimeType: string }>();
  const reads: GraphRead[] = [];
  let failures = { count: 0, status: 500, code: 131000 };
  let readFailures = 0;
  let url = '';
  const server: Server = createServer(async (request, response) => {
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.headers.authorization !== `Bearer ${options.accessToken}`) {
      return reply(401, { error: { message: 'Invalid OAuth access token', code: 190 } });
    }
    const path = new URL(request.url ?? '/', 'http://local').pathname.replace(/^\/v[\d.]+/, '');
    if (request.method === 'POST' && path === `/${options.phoneNumberId}/messages`) {
      const body = JSON.parse(await bodyOf(request)) as { to: string; type: string };
      if ((body as { status?: string }).status === 'read') {
        if (readFailures > 0) {
          readFailures -= 1;
          return reply(500, { error: { message: 'refused', code: 131000 } });
        }
        reads.push({ ...(body as unknown as GraphRead), sentBefore: sent.length });
        return reply(200, { success: true });
      }
      if (failures.count > 0) {
        failures = { ...failures, count: failures.count - 1 };
        return reply(failures.status, { error: { message: 'refused', code: failures.code } });
      }
      const id = `wamid.test${sent.length + 1}`;
      sent.push({ ...body, id });
      return reply(200, {
        messaging_product: 'whatsapp',
        contacts: [{ input: body.to, wa_id: body.to }],
        messages: [{ id }],
      });
    }
    const download = /^\/media-bytes\/(.+)$/.exec(path);
    const file = download ? media.get(decodeURIComponent(download[1] ?? '')) : undefined;
    if (request.method === 'GET' && file) {
      response.writeHead(200, { 'content-type': file.mimeType });
      return response.end(file.bytes);
    }
    const info = media.get(decodeURIComponent(path.slice(1)));
    if (request.method === 'GET' && info) {
      return reply(200, {
        messaging_product: 'whatsapp',
        url: `${url}/media-bytes/${encodeURIComponent(path.slice(1))}`,
        mime_type: info.mimeType,
        file_size: info.bytes.byteLength,
        id: path.slice(1),
      });
    }
    return reply(404, { error: { message: 'Unknown path', code: 100 } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v21.0`;
  return {
    url,
    sent,
    reads,
    addMedia: (id, bytes, mimeType) => media.set(id, { bytes, mimeType }),
    failNext: (count, status = 500, code = 131000) => {
      failures = { count, status, code };
    },
    failReads: (count) => {
      readFailures = count;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive sockets the server's undici pool holds open would delay the close.
        server.closeAllConnections();
      }),
  };
}
