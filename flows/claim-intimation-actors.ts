/*
 * claim-intimation's actors: intimate a credit-life or group-life claim, attach documents, and
 * read claims back. The staff desk reads claims through the same helpers.
 */
import { fromPromise } from 'xstate';
import type { Claim, PartnerClient } from '../src/api/index.js';
import type {
  ClaimLine,
  ClaimSummary,
  ClaimTerms,
  FoundClaim,
  IntimateInput,
} from './claim-intimation.js';
import { CoverUnavailableError, heldCover } from './cover-status-actors.js';
import { type FlowDeps, firstPage, orNotFound } from './flow-deps.js';
import { end } from './support.js';

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

/** A credit-life or group-life policy by its printed number (CL-…, GL-…); null when none. */
export async function policyByNumber(client: PartnerClient, line: ClaimLine, number: string) {
  const wanted = number.toUpperCase();
  const policies =
    line === 'credit-life'
      ? client.paginate('getCreditLifePolicies', { query: { PageSize: 50 } })
      : client.paginate('getGroupLifePolicies', { query: { PageSize: 50 } });
  for await (const policy of policies) {
    if (policy.policyNumber?.toUpperCase() === wanted) return policy;
  }
  return null;
}

/**
 * Staff type the policy number printed on the schedule (CL-…, GL-…); the insurer's id is used as
 * given when no policy carries that number.
 */
export async function policyIdOf(
  client: PartnerClient,
  line: ClaimLine,
  typed: string,
): Promise<string> {
  const policy = await policyByNumber(client, line, typed);
  return policy ? String(policy.id) : typed;
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

const names = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [])
    .map((item) =>
      typeof item === 'string'
        ? item
        : typeof item === 'object' && item !== null && 'name' in item
          ? String(item.name)
          : '',
    )
    .filter(Boolean);

/**
 * The claim terms of a credit-life policy's product: its scopes of cover (the claim types), what
 * each requires, and the notice the product allows. The product is the policy's when the policy
 * names it; otherwise the account's first credit-life product.
 */
export async function creditLifeClaimTerms(
  client: PartnerClient,
  policyId: string,
): Promise<ClaimTerms> {
  const [policy, products] = await Promise.all([
    orNotFound(client.call('getCreditLifePolicy', { path: { policyId } }), null),
    client.call('getCreditLifeProducts', {}),
  ]);
  const productId = (policy as Record<string, unknown> | null)?.productId;
  const product =
    products.find((candidate) => productId != null && String(candidate.id) === String(productId)) ??
    products[0];
  return {
    scopes: (product?.scopesOfCover ?? [])
      .filter((scope) => scope.name)
      .map((scope) => ({
        name: scope.name ?? '',
        requirements: names(scope.claimRequirements),
      })),
    notificationDays: product?.claimNotificationDays ?? null,
  };
}

/**
 * The claim's one confirmation: its number, what happens next and how to add documents, to the
 * user's own channel (an SMS with the upload link on USSD, a chat message elsewhere), and a note
 * to the staff desk. Never fails the claim, which exists already.
 */
async function confirmClaim(deps: FlowDeps, input: IntimateInput, claim: ClaimSummary) {
  const params = {
    number: claim.number,
    claimType: input.claimType ?? '',
    subject: input.label ?? '',
    documents: input.requirements || '-',
  };
  const sends: Promise<void>[] = [];
  if (input.route && deps.notify) {
    const link =
      input.phone && deps.claimUploads
        ? deps.claimUploads.link({ line: input.line, claimId: claim.id, number: claim.number })
        : null;
    sends.push(
      deps.notify(
        input.route,
        link
          ? end('claim.notice.link', params, [
              { kind: 'link', url: link, label: 'claim.uploadPage' },
            ])
          : end('claim.notice.chat', params),
      ),
    );
  }
  if (deps.staffNotice) {
    sends.push(
      deps.staffNotice(
        end('claim.staff.intimated', {
          number: claim.number,
          line: input.line,
          claimType: input.claimType ?? '',
          status: claim.status,
        }),
      ),
    );
  }
  await Promise.allSettled(sends);
}

/** The actors claim-intimation invokes. */
export function claimIntimationActors(deps: FlowDeps) {
  const { client } = deps;
  return {
    intimateClaim: fromPromise(async ({ input }: { input: IntimateInput }) => {
      const path = { policyId: await policyIdOf(client, input.line, input.policyId) };
      const claim =
        input.line === 'credit-life'
          ? await client.call('intimateCreditLifeClaim', {
              path,
              body: {
                ...(input.by === 'loanId'
                  ? { loanId: input.subject }
                  : { partnerLoanReference: input.subject }),
                // The scope of cover by the product's own name for it (Retrenchment, Death…).
                claimType: input.claimType ?? 'Death',
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
      const summary = claimSummary(claim);
      await confirmClaim(deps, input, summary);
      return summary;
    }),
    claimTerms: fromPromise(
      async ({ input }: { input: { line: ClaimLine; policyId: string } }): Promise<ClaimTerms> =>
        creditLifeClaimTerms(client, await policyIdOf(client, input.line, input.policyId)),
    ),
    sendUploadLink: fromPromise(
      async ({
        input,
      }: {
        input: { line: ClaimLine; claimId: string; number: string; phone: string };
      }) => {
        if (!deps.claimUploads || !deps.sms) throw new CoverUnavailableError('no upload page');
        const url = deps.claimUploads.link(input);
        await deps.sms(
          input.phone,
          end('claim.sms.upload', { number: input.number }, [
            { kind: 'link', url, label: 'claim.uploadPage' },
          ]),
        );
        return { sent: true };
      },
    ),
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
      heldCover(client, input.phone),
    ),
    findClaim: fromPromise(async ({ input }: { input: { number: string } }) =>
      findClaimByNumber(client, input.number),
    ),
  };
}
