import type { Claim, PartnerClient } from '../api/index.js';
import type { ClaimDocumentsInsurer, ClaimOnPage } from './claim-documents-routes.js';
import type { ClaimEvidence } from './claim-evidence.js';
import type { LinkedClaim } from './upload-links.js';

const onPage = (claim: Claim): ClaimOnPage => ({
  number: claim.claimNumber,
  status: claim.status,
  documents: claim.documents?.length ?? 0,
});

/**
 * The documents a claim's scope of cover requires, as the insurer names them (the flows' claim
 * terms: flows/claim-intimation-actors.ts `claimDocumentsNeeded`).
 */
export type ClaimDocumentsNeeded = (
  line: LinkedClaim['line'],
  claim: Claim,
) => Promise<readonly string[]>;

/**
 * The insurer as the documents page needs it, through the Partner API client; files are posted
 * as claim evidence, the same way a chat's are. With `needed`, the page lists the documents the
 * claim's scope requires.
 */
export function partnerClaimDocuments(
  client: PartnerClient,
  evidence: Pick<ClaimEvidence, 'attach'>,
  needed?: ClaimDocumentsNeeded,
): ClaimDocumentsInsurer {
  return {
    async describe({ line, claimId }: LinkedClaim) {
      const path = { claimId };
      const claim =
        line === 'credit-life'
          ? await client.call('getCreditLifeClaim', { path })
          : await client.call('getGroupLifeClaim', { path });
      // The list is a help, not the page: without it the page still takes files.
      const list = needed ? await needed(line, claim).catch(() => []) : [];
      return list.length > 0 ? { ...onPage(claim), needed: list } : onPage(claim);
    },
    async attach(claim: LinkedClaim, fileId: string) {
      // Held for staff on a claim to verify: the page says the file is kept, not sent.
      const after = await evidence.attach(claim, fileId);
      return after.held ? { ...onPage(after), held: true } : onPage(after);
    },
  };
}
