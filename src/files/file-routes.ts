import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DOCUMENT_TYPES } from './document-type.js';
import { FileAccessError, type FileStore } from './file-store.js';

const FileParams = z.object({ id: z.string().max(64) });
const FileQuery = z.object({
  exp: z.string().max(20).optional(),
  sig: z.string().max(100).optional(),
});

/** Types a stored file is served as: the documents' own, and the CSV bordereaux staff download. */
const SERVED_TYPES: ReadonlySet<string> = new Set([...Object.keys(DOCUMENT_TYPES), 'text/csv']);

/**
 * Headers that keep a served file from ever rendering on the bot's origin: always a download
 * (`attachment`), never sniffed into another type, and sandboxed with nothing allowed should a
 * browser open it anyway. Whatever its bytes hold (a JPEG/HTML polyglot), no script of it runs here.
 */
export function fileResponseHeaders(meta: {
  readonly contentType: string;
  readonly fileName: string;
  readonly size: number;
}): Record<string, string> {
  // A type from before the bytes were checked (or none we serve) goes out as plain bytes.
  const type = SERVED_TYPES.has(meta.contentType) ? meta.contentType : 'application/octet-stream';
  return {
    'content-type': type,
    'content-length': String(meta.size),
    'content-disposition': contentDisposition(meta.fileName),
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cache-control': 'private, no-store',
  };
}

/**
 * `attachment` with an ASCII-only `filename` (anything else becomes `_`, quotes and backslashes
 * included) and the real name as RFC 5987 `filename*`.
 */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\w.\- ]/g, '_').slice(0, 150) || 'file';
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * Registers `GET /files/:id?exp=&sig=`: serves a stored file to whoever holds an unexpired signed
 * URL, always as a download ({@link fileResponseHeaders}); a forged, altered or expired link gets
 * 403, an unknown file 404.
 */
export function registerFileRoutes(app: FastifyInstance, store: FileStore): void {
  app.get('/files/:id', async (request, reply) => {
    const params = FileParams.safeParse(request.params);
    const query = FileQuery.safeParse(request.query);
    if (!params.success || !query.success) {
      return reply.code(400).send({ error: 'bad_request', message: 'Malformed file link.' });
    }
    try {
      store.verify(params.data.id, query.data.exp, query.data.sig);
      const file = await store.open(params.data.id);
      return reply.headers(fileResponseHeaders(file.meta)).send(file.body);
    } catch (error) {
      if (error instanceof FileAccessError) {
        const status = error.code === 'FILE_NOT_FOUND' ? 404 : 403;
        return reply.code(status).send({ error: error.code, message: error.message });
      }
      throw error;
    }
  });
}
