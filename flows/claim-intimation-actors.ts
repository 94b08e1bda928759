/*
 * claim-intimation's actors: intimate a credit-life or group-life claim, attach documents, and
 * read claims back. The staff desk reads claims through the same helpers.
 */
import { fromPromise } from 'xstate';
import type { Claim, PartnerClient } from '../src/api/index.js';
import type { ClaimLine, ClaimRequest, ClaimSummary, FoundClaim } from './claim-intimation.js';
import { heldCover } from './cover-status-actors.js';
import { type FlowDeps, firstPage } from './flow-deps.js';

function payableOf(claim: Claim): number | undefined {
  const payable = claim.payable as Record<string, unknown> | null | undefined;
  const total = payable?.totalPayable ?? payable?.payable ?? payable?.amount;
  return typeof total === 'number' ? total : undefined;
}

/** A claim as the flows keep it: id, number, status and payable amount when known. */
export function claimSummary(claim: Claim): ClaimSummary {
  const summary: ClaimSummary = {
    id: String(claim.id),
    number: claim.claimNumber,
    status: claim.status,
    currency: claim.currency ?? 'ZMW',
  };
  const payable = payableOf(claim);
  if (payable !== undefined) summary.payable = payable;
  return summary;
}

/** A claim of either line by id. */
export function getClaimOf(client: PartnerClient, line: ClaimLine, claimId: string) {
  return line === 'credit-life'
    ? client.call('getCreditLifeClaim', { path: { claimId } })
    : client.call('getGroupLifeClaim', { path: { claimId } });
}

/** The first `max` claims of a line. */
export async function listClaims(client: PartnerClient, line: ClaimLine, max: number) {
  return line === 'credit-life'
    ? firstPage(client.paginate('getCreditLifeClaims', { query: { PageSize: max } }), max)
    : firstPage(client.paginate('getGroupLifeClaims', { query: { PageSize: max } }), max);
}

/**
 * Staff type the policy number printed on the schedule (CL-…, GL-…); the insurer's id is used as
 * given when no policy carries that number.
 */
async function policyIdOf(client: PartnerClient, line: ClaimLine, typed: string): Promise<string> {
  const wanted = typed.toUpperCase();
  const policies =
    line === 'credit-life'
      ? client.paginate('getCreditLifePolicies', { query: { PageSize: 50 } })
      : client.paginate('getGroupLifePolicies', { query: { PageSize: 50 } });
  for await (const policy of policies) {
    if (policy.policyNumber?.toUpperCase() === wanted) return String(policy.id);
  }
  return typed;
}

/** A claim of either line by the number the user was given; the books are read to the end. */
export async function findClaimByNumber(
  client: PartnerClient,
  number: string,
): Promise<FoundClaim | null> {
  const wanted = number.toUpperCase();
  for (const line of ['credit-life', 'group-life'] as const) {
    const claims =
      line === 'credit-life'
        ? client.paginate('getCreditLifeClaims', { query: { PageSize: 50 } })
        : client.paginate('getGroupLifeClaims', { query: { PageSize: 50 } });
    for await (const claim of claims) {
      if (claim.claimNumber.toUpperCase() === wanted) return { ...claimSummary(claim), line };
    }
  }
  return null;
}

/** The actors claim-intimation invokes. */
export function claimIntimationActors(deps: FlowDeps) {
  const { client } = deps;
  return {
    intimateClaim: fromPromise(async ({ input }: { input: ClaimRequest }) => {
      const path = { policyId: await policyIdOf(client, input.line, input.policyId) };
      const claim =
        input.line === 'credit-life'
          ? await client.call('intimateCreditLifeClaim', {
              path,
              body: {
                ...(input.by === 'loanId'
                  ? { loanId: input.subject }
                  : { partnerLoanReference: input.subject }),
                // The sandbox and the spec name scopes of cover by their product names.
                claimType: input.claimType === 'disability' ? 'Permanent disability' : 'Death',
                lossDate: input.eventDate,
                description: input.details,
              },
            })
          : await client.call('intimateGroupLifeClaim', {
              path,
              body: {
                ...(input.by === 'memberId'
                  ? { memberId: input.subject }
                  : { nrcNumber: input.subject }),
                lossDate: input.eventDate,
                causeOfDeath: input.details,
              },
            });
      return claimSummary(claim);
    }),
    attachDocuments: fromPromise(
      async ({ input }: { input: { line: ClaimLine; claimId: string; urls: string[] } }) => {
        const body = { documents: input.urls.map((url) => ({ url })) };
        const path = { claimId: input.claimId };
        const claim =
          input.line === 'credit-life'
            ? await client.call('attachCreditLifeClaimDocuments', { path, body })
            : await client.call('attachGroupLifeClaimDocuments', { path, body });
        return claimSummary(claim);
      },
    ),
    trackClaims: fromPromise(async ({ input }: { input: { line: ClaimLine } }) =>
      (await listClaims(client, input.line, 5)).map(claimSummary),
    ),
    getClaim: fromPromise(async ({ input }: { input: { line: ClaimLine; claimId: string } }) =>
      claimSummary(await getClaimOf(client, input.line, input.claimId)),
    ),
    heldCover: fromPromise(async ({ input }: { input: { phone: string } }) =>
      heldCover(deps, input.phone),
    ),
    findClaim: fromPromise(async ({ input }: { input: { number: string } }) =>
      findClaimByNumber(client, input.number),
    ),
  };
}
