import { timingSafeEqual } from 'node:crypto';
import { DEFAULT_LOCALE, supportedLocaleOf } from '../conversation/index.js';
import { CodedError } from '../errors/index.js';
import type { FileClaim } from '../files/index.js';
import { normaliseCaller } from '../msisdn/index.js';
import { keyedHasher } from '../privacy/index.js';

/** The claim a link was signed for: the claim its files are kept for (one schema, FileClaim). */
export type LinkedClaim = FileClaim;

/** The book a claim is on, as the link carries it. */
export type ClaimDocumentsLine = LinkedClaim['line'];

/** A claim as a link names it: with the phone it was sent to, whose uploads are theirs. */
export interface LinkedUpload extends LinkedClaim {
  /**
   * The owner of what is uploaded through the link, as the file store records it (a keyed hash
   * of the phone the link was sent to, see {@link UploadLinks.ownerOf}); absent on links sent to
   * no phone and on links signed before owners were carried.
   */
  readonly owner?: string;
}

/** Why a documents link was refused. */
export type UploadLinkErrorCode = 'LINK_MALFORMED' | 'LINK_FORGED' | 'LINK_EXPIRED';

/** Raised when a documents link is malformed, forged or expired. */
export class UploadLinkError extends CodedError<UploadLinkErrorCode> {
  override readonly name = 'UploadLinkError';
}

/** Options of {@link createUploadLinks}. */
export interface UploadLinkOptions {
  /** HMAC key; the same on every instance (FILES_SIGNING_SECRET). */
  readonly signingSecret: string;
  /** Base URL the links start with (PUBLIC_URL). */
  readonly publicUrl: () => string;
  /** How long a link works. Default 7 days: the claim's documents seldom take longer to find. */
  readonly ttlSeconds?: number;
  /** Clock in epoch ms; tests pass a manual one. */
  readonly now?: () => number;
}

/** Links to a claim's documents page: short, signed, for one claim, expiring. */
export interface UploadLinks {
  /**
   * The absolute link for this claim, `<PUBLIC_URL>/d/<token>`; with `phone`, the files sent
   * through it are that phone's (My data counts and deletes them). The token carries a short
   * keyed hash of the phone, never the phone. With `locale` other than English, the page's
   * language follows as `?l=bem` (unsigned: it only picks the words).
   */
  link(
    claim: LinkedClaim & {
      readonly phone?: string | undefined;
      readonly locale?: string | undefined;
    },
  ): string;
  /** The claim a token was signed for; throws {@link UploadLinkError} when it does not hold. */
  verify(token: string): LinkedUpload;
  /** The file store's owner of uploads through links sent to `phone`; undefined: not a phone. */
  ownerOf(phone: string): string | undefined;
}

/** Default life of a documents link: seven days. */
export const UPLOAD_LINK_TTL_SECONDS = 7 * 24 * 3600;

const LINE_CODES: Record<ClaimDocumentsLine, string> = { 'credit-life': 'c', 'group-life': 'g' };
const TOKEN =
  /^([cg])\.([A-Za-z0-9_-]{1,64})\.([0-9a-z]{1,12})(?:\.([A-Za-z0-9_-]{12}))?\.([A-Za-z0-9_-]{22})$/;
/** The file store's owner of a link's uploads: `upload:` and the token's owner reference. */
const OWNER_PREFIX = 'upload:';

/** Creates the signer and checker of documents links. */
export function createUploadLinks(options: UploadLinkOptions): UploadLinks {
  const now = options.now ?? Date.now;
  const ttl = options.ttlSeconds ?? UPLOAD_LINK_TTL_SECONDS;
  // A key of its own, derived: a file URL's signature can never pass as a documents link's.
  const sign = keyedHasher(options.signingSecret, 'claim-documents');
  // 72 bits of a keyed hash: tells the owners of a book apart without naming the phone.
  const ownerRef = (phone: string): string | undefined => {
    const msisdn = normaliseCaller(phone);
    return msisdn ? sign(`owner:${msisdn}`).slice(0, 12) : undefined;
  };
  return {
    link(claim) {
      const exp = Math.floor(now() / 1000 + ttl).toString(36);
      const owner = claim.phone === undefined ? undefined : ownerRef(claim.phone);
      const payload = `${LINE_CODES[claim.line]}.${claim.claimId}.${exp}${owner ? `.${owner}` : ''}`;
      const language = supportedLocaleOf(claim.locale);
      const query = language && language !== DEFAULT_LOCALE ? `?l=${language}` : '';
      return `${options.publicUrl().replace(/\/+$/, '')}/d/${payload}.${sign(payload)}${query}`;
    },
    ownerOf(phone) {
      const ref = ownerRef(phone);
      return ref ? `${OWNER_PREFIX}${ref}` : undefined;
    },
    verify(token) {
      const match = TOKEN.exec(token);
      if (!match) throw new UploadLinkError('LINK_MALFORMED', 'This link is not complete.');
      const [, code, claimId = '', exp = '', owner, sig = ''] = match;
      const expected = Buffer.from(sign(`${code}.${claimId}.${exp}${owner ? `.${owner}` : ''}`));
      const given = Buffer.from(sig);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
        throw new UploadLinkError('LINK_FORGED', 'This link is not valid.');
      }
      if (Number.parseInt(exp, 36) * 1000 < now()) {
        throw new UploadLinkError('LINK_EXPIRED', 'This link has expired.');
      }
      const line = code === 'g' ? 'group-life' : 'credit-life';
      return owner ? { line, claimId, owner: `${OWNER_PREFIX}${owner}` } : { line, claimId };
    },
  };
}
