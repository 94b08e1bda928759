import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A Bot API in front of telegram-test-api that also serves files, as Telegram does. */
export interface TelegramFileApi {
  /** The API root to give the server (`TELEGRAM_API_ROOT`). */
  readonly url: string;
  /** Makes `fileId` downloadable: getFile names it, `/file/bot<token>/<path>` serves its bytes. */
  addFile(fileId: string, bytes: Uint8Array): void;
  /** How many times a file's bytes were downloaded. */
  downloads(fileId: string): number;
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * telegram-test-api has no getFile and no file downloads: this answers those two and passes
 * every other Bot API call to the emulator at `emulatorUrl` unchanged, so chats are read from the
 * emulator as usual.
 */
export async function startTelegramFileApi(emulatorUrl: string): Promise<TelegramFileApi> {
  const files = new Map<string, Uint8Array>();
  const downloaded = new Map<string, number>();
  const server: Server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://local').pathname;
    const body = await bodyOf(request);
    if (/^\/bot[^/]+\/getFile$/.test(path)) {
      const raw = body.toString('utf8');
      const fileId = (
        request.headers['content-type']?.includes('json')
          ? (JSON.parse(raw) as { file_id: string }).file_id
          : new URLSearchParams(raw).get('file_id')
      ) as string;
      const bytes = files.get(fileId);
      response.writeHead(bytes ? 200 : 400, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(
          bytes
            ? {
                ok: true,
                result: {
                  file_id: fileId,
                  file_unique_id: fileId,
                  file_size: bytes.byteLength,
                  file_path: `documents/${fileId}`,
                },
              }
            : { ok: false, error_code: 400, description: 'Bad Request: invalid file_id' },
        ),
      );
      return;
    }
    const download = /^\/file\/bot[^/]+\/documents\/(.+)$/.exec(path);
    if (download) {
      const fileId = decodeURIComponent(download[1] ?? '');
      const bytes = files.get(fileId);
      downloaded.set(fileId, (downloaded.get(fileId) ?? 0) + 1);
      response.writeHead(bytes ? 200 : 404, { 'content-type': 'application/octet-stream' });
      response.end(bytes ?? '');
      return;
    }
    const passed = await fetch(`${emulatorUrl}${request.url ?? '/'}`, {
      method: request.method ?? 'GET',
      headers: request.headers['content-type']
        ? { 'content-type': request.headers['content-type'] }
        : {},
      ...(request.method === 'GET' || request.method === 'HEAD' ? {} : { body }),
    });
    response.writeHead(passed.status, {
      'content-type': passed.headers.get('content-type') ?? 'application/json',
    });
    response.end(Buffer.from(await passed.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    addFile: (fileId, bytes) => files.set(fileId, bytes),
    downloads: (fileId) => downloaded.get(fileId) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
