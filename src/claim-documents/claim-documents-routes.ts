import { randomBytes } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DEFAULT_LOCALE, supportedLocaleOf, t } from '../conversation/index.js';
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
  type UploadLinkErrorCode,
  type UploadLinks,
} from './upload-links.js';
import { uploadPage } from './upload-page.js';

/** A claim as the page shows it: the number the customer was given and where it stands. */
export interface ClaimOnPage {
  readonly number: string;
  /** The insurer's own word (`Intimated`): the page shows it in the caller's words. */
  readonly status: string;
  /** The documents its scope of cover requires, as the insurer names them (none: not known). */
  readonly needed?: readonly string[];
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
  /**
   * The catalogue key of the customer's words for a claim status (flows/status-words.ts), shown
   * with the insurer's word as `insurerStatus`; without it the insurer's word is shown.
   */
  readonly statusWords?: (status: string) => string;
}

/** The HTTP status of each refusal. */
const REFUSAL_STATUS: Readonly<Record<ClaimFileRefusalCode, number>> = {
  FILE_TYPE_REFUSED: 415,
  FILE_TOO_LARGE: 413,
  CLAIM_FILES_FULL: 409,
};

const Params = z.object({ token: z.string().min(1).max(200) });
/** The page's language, as the link carries it (`?l=bem`); English when absent or unknown. */
const Query = z.object({ l: z.string().max(20).optional() }).catch({});

/** The language a request asks for: one insurechat speaks, else English. */
function localeOf(request: FastifyRequest): string {
  return supportedLocaleOf(Query.parse(request.query ?? {}).l) ?? DEFAULT_LOCALE;
}

/** Why a link was refused, in the catalogue's words. */
const LINK_REFUSAL: Readonly<Record<UploadLinkErrorCode, string>> = {
  LINK_MALFORMED: 'documents.page.linkMalformed',
  LINK_FORGED: 'documents.page.linkForged',
  LINK_EXPIRED: 'documents.page.linkExpired',
};

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
  const { links, claimFiles, insurer, logger, statusWords } = options;
  const maxBytes = claimFiles.maxFileBytes;
  const say = (error: ClaimFileRefusedError, locale: string) => t(error.key, error.params, locale);
  /** A claim status in the caller's words, the insurer's word kept where they name none. */
  const statusIn = (status: string, locale: string): string =>
    statusWords ? t(statusWords(status), { insurerStatus: status }, locale) : status;

  app.get('/d/:token', async (request, reply) => {
    const params = Params.safeParse(request.params);
    const nonce = randomBytes(16).toString('base64');
    const locale = localeOf(request);
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', pageSecurityPolicy(nonce));
    try {
      if (!params.success)
        throw new UploadLinkError('LINK_MALFORMED', 'This link is not complete.');
      const claim = links.verify(params.data.token);
      const described = await insurer.describe(claim);
      const shown = { ...described, status: statusIn(described.status, locale) };
      const types = Object.keys(DOCUMENT_TYPES);
      return reply.send(uploadPage({ claim: shown, maxBytes, types }, locale, nonce));
    } catch (error) {
      if (error instanceof UploadLinkError) {
        const refusal = t(LINK_REFUSAL[error.code], undefined, locale);
        return reply.code(403).send(uploadPage({ refusal }, locale, nonce));
      }
      logger.warn({ err: error, route: '/d/:token' }, 'claim documents page: insurer unavailable');
      const refusal = t('documents.page.unavailable', undefined, locale);
      return reply.code(503).send(uploadPage({ refusal }, locale, nonce));
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
        const refusal = t(LINK_REFUSAL[error.code], undefined, localeOf(request));
        return refused(reply.header('connection', 'close'), 403, refusal);
      }
    });
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      const locale = localeOf(request);
      if (error.statusCode === 413)
        return refused(reply, 413, say(claimFiles.refusal('FILE_TOO_LARGE'), locale));
      // A body Fastify could not read (a malformed content type, a broken encoding): the
      // client's mistake, said plainly.
      if (typeof error.statusCode === 'number' && error.statusCode < 500) {
        return refused(reply, error.statusCode, t('documents.page.unreadable', undefined, locale));
      }
      logger.error({ err: error, route: '/d/:token/files' }, 'claim document upload failed');
      return refused(reply, 500, t('documents.page.notSent', undefined, locale));
    });
    scope.post('/d/:token/files', async (request, reply) => {
      const locale = localeOf(request);
      const linked = claims.get(request);
      if (!linked) return refused(reply, 403, t('documents.page.linkMalformed', undefined, locale));
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
        return refused(reply, REFUSAL_STATUS[error.code], say(error, locale));
      }
      let after: ClaimOnPage;
      try {
        after = await insurer.attach(claim, kept.id);
      } catch (error) {
        // Not the claim's: its room is given back.
        await kept.release();
        logger.warn({ err: error, route: '/d/:token/files' }, 'claim document not attached');
        return refused(reply, 502, t('documents.page.notTaken', undefined, locale));
      }
      logger.info(
        { route: '/d/:token/files', bytes: body.length, type: kept.contentType },
        'claim document sent',
      );
      return reply.send({
        fileName: kept.fileName,
        status: statusIn(after.status, locale),
        documents: after.documents,
        ...(after.held ? { held: true } : {}),
      });
    });
  });
}
