import { ApiNotFoundError, type Claim, type PartnerClient } from '../api/index.js';
import { CodedError } from '../errors/index.js';
import type { ClaimReport, ClaimReporter, FileStore } from '../files/index.js';
import type { ClaimReports } from './claim-reports.js';
import type { LinkedClaim } from './upload-links.js';

/** A document as the insurer's "attach supporting documents" takes it. */
export interface ClaimDocument {
  readonly url: string;
  readonly name?: string;
}

/** Why a file could not be posted to a claim. */
export type ClaimEvidenceErrorCode = 'DOCUMENT_NOT_STORED';

/** Raised when a file to post is not one the file store keeps (a URL it did not sign). */
export class ClaimEvidenceError extends CodedError<ClaimEvidenceErrorCode> {
  override readonly name = 'ClaimEvidenceError';
}

/**
 * Posts documents to a claim through the spec's "attach supporting documents" of the claim's
 * line: the one place those operations are called. Resolves the claim after.
 */
export async function postClaimDocuments(
  client: PartnerClient,
  claim: LinkedClaim,
  documents: readonly ClaimDocument[],
): Promise<Claim> {
  const path = { claimId: claim.claimId };
  const body = { documents: documents.map((document) => ({ ...document })) };
  return claim.line === 'credit-life'
    ? client.call('attachCreditLifeClaimDocuments', { path, body })
    : client.call('attachGroupLifeClaimDocuments', { path, body });
}

/** Who sends a file: a phone on record for the claim's member or borrower posts at once. */
export interface EvidenceSender {
  readonly onRecord: boolean;
}

/** The claim after a file was given to it; `held` when the file waits for staff to confirm. */
export type EvidenceResult = Claim & { readonly held?: boolean };

/** Stored files as a claim's evidence: what the insurer is given, on every channel. */
export interface ClaimEvidence {
  /**
   * Records stored file `fileId` as evidence of `claim` (kept while the claim needs it), then
   * posts the file's kept link (no expiry) with its name. Resolves the claim after. A claim
   * reported by someone not on record is to verify: a file from anyone but a phone on record
   * (`from`) is kept and held, not posted, until staff confirm ({@link ClaimEvidence.release}).
   */
  attach(claim: LinkedClaim, fileId: string, from?: EvidenceSender): Promise<EvidenceResult>;
  /**
   * The same for a file known by a URL the store signed (what a chat upload hands the flow);
   * throws {@link ClaimEvidenceError} for any other URL: the insurer holds only links we keep.
   */
  attachUpload(claim: LinkedClaim, url: string, from?: EvidenceSender): Promise<EvidenceResult>;
  /**
   * Staff confirmed the claim: the files held for it are posted now. Resolves how many were
   * posted; undefined when insurechat holds no report of the claim.
   */
  release(claim: LinkedClaim, member: string): Promise<{ posted: number } | undefined>;
}

/**
 * {@link ClaimEvidence} over the file store and the Partner API client; with `reports`, files for
 * a claim to verify are held (without, every file is posted: flows on their own, old wiring).
 */
export function createClaimEvidence(
  client: PartnerClient,
  files: Pick<FileStore, 'keepFor' | 'link' | 'idOf'>,
  reports?: ClaimReports,
): ClaimEvidence {
  const post = async (claim: LinkedClaim, fileId: string, name: string): Promise<Claim> =>
    postClaimDocuments(client, claim, [{ url: files.link(fileId), name }]);
  const attach = async (
    claim: LinkedClaim,
    fileId: string,
    from?: EvidenceSender,
  ): Promise<EvidenceResult> => {
    const meta = await files.keepFor(fileId, claim);
    if (reports && from?.onRecord !== true && (await reports.hold(claim, fileId))) {
      const path = { claimId: claim.claimId };
      const now =
        claim.line === 'credit-life'
          ? await client.call('getCreditLifeClaim', { path })
          : await client.call('getGroupLifeClaim', { path });
      return { ...now, held: true };
    }
    return post(claim, fileId, meta.fileName);
  };
  return {
    attach,
    async attachUpload(claim, url, from) {
      const id = files.idOf(url);
      if (!id) throw new ClaimEvidenceError('DOCUMENT_NOT_STORED', 'the upload is not a kept file');
      return attach(claim, id, from);
    },
    async release(claim, member) {
      const confirmed = await reports?.confirm(claim, member);
      if (!confirmed) return undefined;
      // keepFor again reads each file's name (and keeps it for the claim, as it already is).
      for (const id of confirmed.files) {
        const meta = await files.keepFor(id, claim);
        await post(claim, id, meta.fileName);
        await reports?.posted(claim, id);
      }
      return { posted: confirmed.files.length };
    },
  };
}

/**
 * The file sweep's question to the insurer: is the claim still reported, and in what status?
 * Only a 404 in the insurer's own error body is "no longer reported"; anything else that is not
 * an answer (down, slow, a proxy's page, a body out of shape) is unknown, and unknown keeps.
 */
export function insurerClaimReport(client: PartnerClient): ClaimReporter {
  return async (claim): Promise<ClaimReport> => {
    const path = { claimId: claim.claimId };
    try {
      const found =
        claim.line === 'credit-life'
          ? await client.call('getCreditLifeClaim', { path })
          : await client.call('getGroupLifeClaim', { path });
      return found.status ? { kind: 'reported', status: found.status } : { kind: 'unknown' };
    } catch (error) {
      if (error instanceof ApiNotFoundError && error.body?.message !== undefined) {
        return { kind: 'gone' };
      }
      return { kind: 'unknown' };
    }
  };
}
