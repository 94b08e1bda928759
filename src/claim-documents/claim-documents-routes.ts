import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { FileStore } from '../files/index.js';
import type { Logger } from '../log/index.js';
import { type LinkedClaim, UploadLinkError, type UploadLinks } from './upload-links.js';
import { uploadPage } from './upload-page.js';

/** A claim as the page shows it: the number the customer was given and where it stands. */
export interface ClaimOnPage {
  readonly number: string;
  readonly status: string;
  /** Documents the insurer holds for it already. */
  readonly documents: number;
}

/** What the routes need from the insurer (the Partner API client provides it). */
export interface ClaimDocumentsInsurer {
  describe(claim: LinkedClaim): Promise<ClaimOnPage>;
  /**
   * Posts a stored file to the claim (the spec's way) as its evidence: its kept link and name
   * (see `ClaimEvidence.attach`). Resolves the claim after.
   */
  attach(claim: LinkedClaim, fileId: string): Promise<ClaimOnPage>;
}

/** Options of {@link registerClaimDocumentsRoutes}. */
export interface ClaimDocumentsRouteOptions {
  readonly links: UploadLinks;
  readonly files: FileStore;
  readonly insurer: ClaimDocumentsInsurer;
  readonly logger: Logger;
  /** Largest file accepted, in bytes. Default 10 MiB, the file store's own limit. */
  readonly maxBytes?: number;
}

/** The file types a claim document may be: photos from a phone's camera, and PDF scans. */
export const ACCEPTED_TYPES: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/heif': 'heif',
  'application/pdf': 'pdf',
};

/** Default largest document: 10 MiB. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

const Params = z.object({ token: z.string().min(1).max(200) });
const FileName = z
  .string()
  .max(200)
  .transform((name) => name.replace(/[^\w.\- ]/g, '_').trim());

function refused(reply: FastifyReply, status: number, message: string) {
  return reply.code(status).send({ error: 'refused', message });
}

/**
 * Registers the claim documents page: `GET /d/:token` (a mobile web page with a file input) and
 * `POST /d/:token/files` (one file per request, raw body with its own content type). A file is
 * checked for type and size, kept in the file store, and its signed URL posted to the insurer.
 */
export function registerClaimDocumentsRoutes(
  app: FastifyInstance,
  options: ClaimDocumentsRouteOptions,
): void {
  const maxBytes = options.maxBytes ?? MAX_DOCUMENT_BYTES;
  const { links, files, insurer, logger } = options;

  app.get('/d/:token', async (request, reply) => {
    const params = Params.safeParse(request.params);
    reply.type('text/html; charset=utf-8').header('cache-control', 'private, no-store');
    try {
      if (!params.success)
        throw new UploadLinkError('LINK_MALFORMED', 'This link is not complete.');
      const claim = links.verify(params.data.token);
      const shown = await insurer.describe(claim);
      return reply.send(uploadPage({ claim: shown, maxBytes, types: Object.keys(ACCEPTED_TYPES) }));
    } catch (error) {
      if (error instanceof UploadLinkError) {
        return reply.code(403).send(uploadPage({ refusal: error.message }));
      }
      logger.warn({ err: error, route: '/d/:token' }, 'claim documents page: insurer unavailable');
      return reply
        .code(503)
        .send(uploadPage({ refusal: 'The insurer cannot be reached just now. Try again later.' }));
    }
  });

  app.register(async (scope) => {
    // Any type reaches the handler, which refuses what a claim cannot take with a clear message.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: maxBytes },
      (_req, body, done) => done(null, body),
    );
    scope.setErrorHandler((error: FastifyError, _request, reply) => {
      if (error.statusCode === 413) {
        return refused(
          reply,
          413,
          `Too large: a file may be at most ${maxBytes / 1024 / 1024} MB.`,
        );
      }
      // A body Fastify could not read (a malformed content type, a broken encoding): the
      // client's mistake, said plainly.
      if (typeof error.statusCode === 'number' && error.statusCode < 500) {
        return refused(reply, error.statusCode, 'The file could not be read. Please try again.');
      }
      logger.error({ err: error, route: '/d/:token/files' }, 'claim document upload failed');
      return refused(reply, 500, 'The file could not be sent. Please try again.');
    });
    scope.post('/d/:token/files', async (request, reply) => {
      const params = Params.safeParse(request.params);
      if (!params.success) return refused(reply, 403, 'This link is not complete.');
      let claim: LinkedClaim;
      try {
        claim = links.verify(params.data.token);
      } catch (error) {
        if (error instanceof UploadLinkError) return refused(reply, 403, error.message);
        throw error;
      }
      const type = String(request.headers['content-type'] ?? '')
        .split(';')[0]
        ?.trim()
        .toLowerCase();
      const extension = type ? ACCEPTED_TYPES[type] : undefined;
      if (!type || !extension) {
        return refused(
          reply,
          415,
          'Only photos (JPEG, PNG, WebP, HEIC) and PDF files can be sent.',
        );
      }
      const body = request.body;
      if (!Buffer.isBuffer(body) || body.length === 0) {
        return refused(reply, 400, 'The file is empty.');
      }
      const named = FileName.safeParse(
        decodeURIComponent(String(request.headers['x-file-name'] ?? '')),
      );
      const fileName = (named.success && named.data) || `document.${extension}`;
      // Kept as the claim's evidence from the start: while the insurer reports the claim.
      const { id } = await files.put(body, { contentType: type, fileName, claim });
      let after: ClaimOnPage;
      try {
        after = await insurer.attach(claim, id);
      } catch (error) {
        logger.warn({ err: error, route: '/d/:token/files' }, 'claim document not attached');
        return refused(reply, 502, 'The insurer did not take the file just now. Please try again.');
      }
      logger.info({ route: '/d/:token/files', bytes: body.length, type }, 'claim document sent');
      return reply.send({ fileName, status: after.status, documents: after.documents });
    });
  });
}
