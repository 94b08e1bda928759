/*
 * staff-desk's actors: policies, claims, transactions, households, batches and bordereaux for
 * insurance staff on Slack.
 */
import { fromPromise } from 'xstate';
import type { Claim } from '../src/api/index.js';
import { checkPlate } from './checks.js';
import type { ClaimLine } from './claim-intimation.js';
import { claimSummary, getClaimOf, listClaims } from './claim-intimation-actors.js';
import { household } from './cover-status-actors.js';
import { type FlowDeps, firstPage, keep, orNotFound } from './flow-deps.js';
import type { StaffClaim, StaffPolicy, StaffTransaction } from './staff-desk.js';

function staffClaim(line: ClaimLine, claim: Claim): StaffClaim {
  const summary = claimSummary(claim);
  const out: StaffClaim = {
    id: summary.number,
    line,
    status: summary.status,
    currency: summary.currency,
  };
  const amount = summary.payable ?? claim.amountClaimed ?? undefined;
  if (amount != null) out.amount = amount;
  return out;
}

/** The actors staff-desk invokes. */
export function staffDeskActors(deps: FlowDeps) {
  const { client } = deps;
  return {
    findPolicy: fromPromise(async ({ input }: { input: { query: string } }) => {
      const plate = checkPlate(input.query);
      const byPlate = plate.ok
        ? await orNotFound(
            client.call('getMotorPolicyByRegistration', {
              query: { registrationNumber: plate.value },
            }),
            [],
          )
        : [];
      const policy =
        byPlate[0] ??
        (await orNotFound(
          client.call('getMotorPolicy', { path: { policyId: input.query } }),
          null,
        )) ??
        (await firstPage(client.paginate('getPolicies', { query: { PageSize: 50 } }), 200)).find(
          (p) => p.policyNumber === input.query,
        );
      if (!policy) {
        throw Object.assign(new Error('policy not found'), { name: 'NotFound', status: 404 });
      }
      const out: StaffPolicy = {
        policyNumber: policy.policyNumber ?? String(policy.id),
        status: policy.status,
        product: String(policy.productId ?? ''),
        startDate: (policy.startDate ?? '').slice(0, 10),
        endDate: (policy.endDate ?? '').slice(0, 10),
        currency: policy.currency ?? 'ZMW',
      };
      if (policy.grossPremium != null) out.premium = policy.grossPremium;
      return out;
    }),
    getClaim: fromPromise(async ({ input }: { input: { claimId: string } }) => {
      const credit = await orNotFound(getClaimOf(client, 'credit-life', input.claimId), null);
      if (credit) return staffClaim('credit-life', credit);
      return staffClaim('group-life', await getClaimOf(client, 'group-life', input.claimId));
    }),
    trackClaims: fromPromise<StaffClaim[], Record<string, never>>(async () => {
      const [credit, group] = await Promise.all([
        listClaims(client, 'credit-life', 5),
        listClaims(client, 'group-life', 5),
      ]);
      return [
        ...credit.map((c) => staffClaim('credit-life', c)),
        ...group.map((c) => staffClaim('group-life', c)),
      ];
    }),
    transactionStatus: fromPromise(async ({ input }: { input: { reference: string } }) => {
      const path = { reference: input.reference };
      const [txn, log] = await Promise.all([
        client.call('getTransactionStatus', { path }),
        orNotFound(client.call('getCallbackLogs', { path }), []),
      ]);
      const last = log.at(-1);
      const out: StaffTransaction = {
        reference: txn.reference,
        status: txn.status,
        amount: txn.amount ?? 0,
        currency: txn.currency ?? 'ZMW',
        deliveries: log.length,
      };
      if (last)
        out.lastDelivery = last.statusCode != null ? String(last.statusCode) : (last.error ?? '');
      return out;
    }),
    householdByNrc: fromPromise(async ({ input }: { input: { nrc: string } }) =>
      household(client, input.nrc),
    ),
    getBatch: fromPromise(async ({ input }: { input: { policyId: string; batchId: string } }) => {
      const credit = await orNotFound(
        client.call('getCreditLifeBatch', { path: { scheduleId: input.batchId } }),
        null,
      );
      if (credit) {
        return {
          line: 'credit-life' as const,
          number: credit.number ?? String(credit.id),
          status: credit.status,
          count: credit.totalLoans ?? credit.loans?.length ?? 0,
          grossPremium: credit.grossPremium ?? 0,
          outstandingPremium: credit.outstandingPremium ?? 0,
          currency: credit.currency ?? 'ZMW',
        };
      }
      const group = await client.call('getGroupLifeBatch', { path: { batchId: input.batchId } });
      return {
        line: 'group-life' as const,
        number: group.number ?? String(group.id),
        status: group.status,
        count: group.totalMembers ?? 0,
        grossPremium: group.grossPremium ?? 0,
        outstandingPremium: group.outstandingPremium ?? 0,
        currency: group.currency ?? 'ZMW',
      };
    }),
    bordereau: fromPromise(async ({ input }: { input: { policyId: string } }) => {
      const fileName = `bordereau-${input.policyId}.csv`;
      const url = await keep(
        deps,
        fileName,
        'text/csv',
        client.download('getCreditLifeBordereau', { path: { policyId: input.policyId } }),
      );
      if (!url) {
        throw Object.assign(new Error('no file store'), { name: 'NoFileStore', status: 503 });
      }
      return { url, fileName };
    }),
  };
}
