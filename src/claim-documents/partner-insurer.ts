import type { Claim, PartnerClient } from '../api/index.js';
import type { ClaimDocumentsInsurer, ClaimOnPage } from './claim-documents-routes.js';
import type { LinkedClaim } from './upload-links.js';

const onPage = (claim: Claim): ClaimOnPage => ({
  number: claim.claimNumber,
  status: claim.status,
  documents: claim.documents?.length ?? 0,
});

/** The insurer as the documents page needs it, through the Partner API client. */
export function partnerClaimDocuments(client: PartnerClient): ClaimDocumentsInsurer {
  return {
    async describe({ line, claimId }: LinkedClaim) {
      const path = { claimId };
      return onPage(
        line === 'credit-life'
          ? await client.call('getCreditLifeClaim', { path })
          : await client.call('getGroupLifeClaim', { path }),
      );
    },
    async attach({ line, claimId }: LinkedClaim, document: { url: string; name: string }) {
      const path = { claimId };
      const body = { documents: [document] };
      return onPage(
        line === 'credit-life'
          ? await client.call('attachCreditLifeClaimDocuments', { path, body })
          : await client.call('attachGroupLifeClaimDocuments', { path, body }),
      );
    },
  };
}
