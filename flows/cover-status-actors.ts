/*
 * cover-status's actors: a person's cover by NRC across group funeral, group life and credit
 * life. The staff desk reads households through the same helper.
 */
import { fromPromise } from 'xstate';
import type { CoverState as ApiCoverState, PartnerClient } from '../src/api/index.js';
import type {
  CoverLookup,
  CoverState,
  HouseholdCover,
  LifeCover,
  LoanCover,
} from './cover-status.js';
import { type FlowDeps, firstPage, orNotFound } from './flow-deps.js';

const MAX_POLICIES_SCANNED = 5;

function coverWord(
  state: ApiCoverState,
): Pick<LoanCover, 'cover' | 'graceEndsAt' | 'unpaidPeriods'> {
  const unpaid = state.unpaidPeriods?.length ?? 0;
  const s = state.status.toLowerCase();
  const cover: CoverState = s.includes('grace')
    ? 'grace'
    : s.includes('laps')
      ? 'lapsed'
      : unpaid > 0
        ? 'arrears'
        : 'active';
  return {
    cover,
    unpaidPeriods: unpaid,
    ...(state.graceEndsAt ? { graceEndsAt: state.graceEndsAt.slice(0, 10) } : {}),
  };
}

/** A group-funeral household by its principal's NRC; null when there is none. */
export async function household(
  client: PartnerClient,
  nrc: string,
): Promise<HouseholdCover | null> {
  const found = await orNotFound(
    client.call('getGroupFuneralHouseholdByNrc', { query: { nrcNumber: nrc } }),
    null,
  );
  if (!found) return null;
  const c = (found.client ?? {}) as Record<string, unknown>;
  const p = (found.policy ?? {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const name = text(c.fullName) || [text(c.firstName), text(c.lastName)].filter(Boolean).join(' ');
  return {
    principal: name,
    policyNumber: text(p.policyNumber),
    status: text(p.status),
    startDate: text(p.startDate).slice(0, 10),
    endDate: text(p.endDate).slice(0, 10),
    premium: typeof p.grossPremium === 'number' ? p.grossPremium : 0,
    currency: text(p.currency) || 'ZMW',
  };
}

/** The actors cover-status invokes. */
export function coverStatusActors(deps: FlowDeps) {
  const { client } = deps;
  return {
    lookupCover: fromPromise(
      async ({ input }: { input: { nrc: string } }): Promise<CoverLookup> => {
        const [home, lifePolicies, creditPolicies] = await Promise.all([
          household(client, input.nrc),
          firstPage(client.paginate('getGroupLifePolicies'), MAX_POLICIES_SCANNED),
          firstPage(client.paginate('getCreditLifePolicies'), MAX_POLICIES_SCANNED),
        ]);
        const life: LifeCover[] = [];
        for (const policy of lifePolicies) {
          const member = await orNotFound(
            client.call('getCoveredMemberByNrc', {
              path: { policyId: String(policy.id) },
              query: { nrcNumber: input.nrc },
            }),
            null,
          );
          if (!member) continue;
          const entry: LifeCover = {
            policyNumber: policy.policyNumber ?? String(policy.id),
            status: member.status ?? policy.status ?? '',
            currency: policy.currency ?? 'ZMW',
          };
          if (member.sumAssured != null) entry.sumAssured = member.sumAssured;
          life.push(entry);
        }
        const loans: LoanCover[] = [];
        for (const policy of creditPolicies) {
          const policyId = String(policy.id);
          const found = await firstPage(
            client.paginate('searchCoveredLoans', {
              path: { policyId },
              query: { nrcNumber: input.nrc },
            }),
            3,
          );
          if (found.length === 0) continue;
          const state = await client.call('getCreditLifePolicyStatus', { path: { policyId } });
          for (const loan of found) {
            loans.push({
              reference: loan.partnerLoanReference ?? String(loan.id),
              amount: loan.amount ?? 0,
              currency: policy.currency ?? 'ZMW',
              endDate: (loan.endDate ?? '').slice(0, 10),
              ...coverWord(state),
            });
          }
        }
        return { household: home, life, loans };
      },
    ),
  };
}
