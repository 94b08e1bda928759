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
 * The insurer as the documents page needs it, through the Partner API client; files are posted
 * as claim evidence, the same way a chat's are.
 */
export function partnerClaimDocuments(
  client: PartnerClient,
  evidence: Pick<ClaimEvidence, 'attach'>,
): ClaimDocumentsInsurer {
  return {
    async describe({ line, claimId }: LinkedClaim) {
      const path = { claimId };
      return onPage(
        line === 'credit-life'
          ? await client.call('getCreditLifeClaim', { path })
          : await client.call('getGroupLifeClaim', { path }),
      );
    },
    async attach(claim: LinkedClaim, fileId: string) {
      // Held for staff on a claim to verify: the page says the file is kept, not sent.
      const after = await evidence.attach(claim, fileId);
      return after.held ? { ...onPage(after), held: true } : onPage(after);
    },
  };
}
