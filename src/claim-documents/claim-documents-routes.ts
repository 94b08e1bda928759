import { randomBytes } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { t } from '../conversation/index.js';
import { DOCUMENT_TYPES, decodeFileName } from '../files/index.js';
import type { Logger } from '../log/index.js';
import {
  type ClaimFileRefusalCode,
  ClaimFileRefusedError,
  type ClaimFiles,
  type KeptClaimFile,
} from './claim-files.js';
import {
  type LinkedClaim,
  type LinkedUpload,
  UploadLinkError,
  type UploadLinks,
} from './upload-links.js';
import { uploadPage } from './upload-page.js';

/** A claim as the page shows it: the number the customer was given and where it stands. */
export interface ClaimOnPage {
  readonly number: string;
  readonly status: string;
  /** Documents the insurer holds for it already. */
  readonly documents: number;
  /** The file just sent is held until staff confirm the claim (reported by someone else). */
  readonly held?: boolean;
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
  /** Checks, caps and stores each file (the same intake as the chat channels'). */
  readonly claimFiles: ClaimFiles;
  readonly insurer: ClaimDocumentsInsurer;
  readonly logger: Logger;
}

/** The HTTP status of each refusal. */
const REFUSAL_STATUS: Readonly<Record<ClaimFileRefusalCode, number>> = {
  FILE_TYPE_REFUSED: 415,
  FILE_TOO_LARGE: 413,
  CLAIM_FILES_FULL: 409,
};

const Params = z.object({ token: z.string().min(1).max(200) });

function refused(reply: FastifyReply, status: number, message: string) {
  return reply.code(status).send({ error: 'refused', message });
}

/**
 * The page's own policy: nothing loads but its inline script and style (by this response's
 * nonce), and it talks only to this origin.
 */
function pageSecurityPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Registers the claim documents page: `GET /d/:token` (a mobile web page with a file input) and
 * `POST /d/:token/files` (one file per request, raw body). The token is checked before the body is
 * read; a file is taken by {@link ClaimFiles} (its real type, its size, the claim's room) and its
 * signed URL posted to the insurer.
 */
export function registerClaimDocumentsRoutes(
  app: FastifyInstance,
  options: ClaimDocumentsRouteOptions,
): void {
  const { links, claimFiles, insurer, logger } = options;
  const maxBytes = claimFiles.maxFileBytes;
  const say = (error: ClaimFileRefusedError) => t(error.key, error.params, 'en');

  app.get('/d/:token', async (request, reply) => {
    const params = Params.safeParse(request.params);
    const nonce = randomBytes(16).toString('base64');
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', pageSecurityPolicy(nonce));
    try {
      if (!params.success)
        throw new UploadLinkError('LINK_MALFORMED', 'This link is not complete.');
      const claim = links.verify(params.data.token);
      const shown = await insurer.describe(claim);
      const types = Object.keys(DOCUMENT_TYPES);
      return reply.send(uploadPage({ claim: shown, maxBytes, types }, 'en', nonce));
    } catch (error) {
      if (error instanceof UploadLinkError) {
        return reply.code(403).send(uploadPage({ refusal: error.message }, 'en', nonce));
      }
      logger.warn({ err: error, route: '/d/:token' }, 'claim documents page: insurer unavailable');
      return reply
        .code(503)
        .send(
          uploadPage(
            { refusal: 'The insurer cannot be reached just now. Try again later.' },
            'en',
            nonce,
          ),
        );
    }
  });

  app.register(async (scope) => {
    // The claim each upload's token was signed for, found before its body is read.
    const claims = new WeakMap<FastifyRequest, LinkedUpload>();
    // Any type reaches the handler: the bytes, not the declared type, decide what is taken.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: maxBytes },
      (_req, body, done) => done(null, body),
    );
    // A forged or expired link is refused before a byte of its body is read; the connection is
    // closed, so the rest of the body is not read either.
    scope.addHook('onRequest', async (request, reply) => {
      const params = Params.safeParse(request.params);
      try {
        if (!params.success)
          throw new UploadLinkError('LINK_MALFORMED', 'This link is not complete.');
        claims.set(request, links.verify(params.data.token));
      } catch (error) {
        if (!(error instanceof UploadLinkError)) throw error;
        return refused(reply.header('connection', 'close'), 403, error.message);
      }
    });
    scope.setErrorHandler((error: FastifyError, _request, reply) => {
      if (error.statusCode === 413)
        return refused(reply, 413, say(claimFiles.refusal('FILE_TOO_LARGE')));
      // A body Fastify could not read (a malformed content type, a broken encoding): the
      // client's mistake, said plainly.
      if (typeof error.statusCode === 'number' && error.statusCode < 500) {
        return refused(reply, error.statusCode, 'The file could not be read. Please try again.');
      }
      logger.error({ err: error, route: '/d/:token/files' }, 'claim document upload failed');
      return refused(reply, 500, 'The file could not be sent. Please try again.');
    });
    scope.post('/d/:token/files', async (request, reply) => {
      const linked = claims.get(request);
      if (!linked) return refused(reply, 403, 'This link is not complete.');
      const claim: LinkedClaim = { line: linked.line, claimId: linked.claimId };
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const header = request.headers['x-file-name'];
      let kept: KeptClaimFile;
      try {
        kept = await claimFiles.keep({
          bytes: body,
          name: decodeFileName(typeof header === 'string' ? header : undefined),
          claim,
          // The phone the link was sent to owns the file: My data counts it and deletes it.
          owner: linked.owner,
        });
      } catch (error) {
        if (!(error instanceof ClaimFileRefusedError)) throw error;
        logger.info(
          { route: '/d/:token/files', bytes: body.length, refused: error.code },
          'claim document refused',
        );
        return refused(reply, REFUSAL_STATUS[error.code], say(error));
      }
      let after: ClaimOnPage;
      try {
        after = await insurer.attach(claim, kept.id);
      } catch (error) {
        // Not the claim's: its room is given back.
        await kept.release();
        logger.warn({ err: error, route: '/d/:token/files' }, 'claim document not attached');
        return refused(reply, 502, 'The insurer did not take the file just now. Please try again.');
      }
      logger.info(
        { route: '/d/:token/files', bytes: body.length, type: kept.contentType },
        'claim document sent',
      );
      return reply.send({
        fileName: kept.fileName,
        status: after.status,
        documents: after.documents,
        ...(after.held ? { held: true } : {}),
      });
    });
  });
}
