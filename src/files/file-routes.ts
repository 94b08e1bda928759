import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { FileAccessError, type FileStore } from './file-store.js';

const FileParams = z.object({ id: z.string().max(64) });
const FileQuery = z.object({
  exp: z.string().max(20).optional(),
  sig: z.string().max(100).optional(),
});

/**
 * Registers `GET /files/:id?exp=&sig=`: serves a stored file to whoever holds an unexpired signed
 * URL; a forged, altered or expired link gets 403, an unknown file 404.
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
      // The name comes from a user's upload: keep it ASCII-safe inside the header.
      const safeName = file.meta.fileName.replace(/[^\w.\- ]/g, '_');
      return reply
        .header('content-type', file.meta.contentType)
        .header('content-length', file.meta.size)
        .header('content-disposition', `inline; filename="${safeName}"`)
        .header('cache-control', 'private, no-store')
        .send(file.body);
    } catch (error) {
      if (error instanceof FileAccessError) {
        const status = error.code === 'FILE_NOT_FOUND' ? 404 : 403;
        return reply.code(status).send({ error: error.code, message: error.message });
      }
      throw error;
    }
  });
}
