import { attachClaimDocuments, openClaim } from './claims.js';
import { requireDate } from './clients.js';
import { toCsv } from './csv.js';
import { addDays, addMonths, ageOn, daysBetween, isoDate } from './dates.js';
import { type PageInput, paginate, paginateViews } from './paginate.js';
import { roundMoney, withLevy } from './premium.js';
import { invalid, notFound, ruleBroken } from './sandbox-error.js';
import type {
  GroupLifeBatchRecord,
  GroupLifePolicyRecord,
  GroupLifeQuotationRecord,
  Json,
  MemberRecord,
  SandboxContext,
} from './state.js';

/** A census row. */
interface MemberRowInput {
  readonly fullName: string;
  readonly nrcNumber: string;
  readonly dateOfBirth: string;
  readonly annualSalary: number;
}

/** Group-life quotations negotiated for the account. */
export function listGroupLifeQuotations(ctx: SandboxContext): Json[] {
  return [...ctx.state.groupLifeQuotations.values()];
}

/** A group-life quotation's full rate terms. */
export function getGroupLifeQuotation(ctx: SandboxContext, id: string): GroupLifeQuotationRecord {
  const quotation = ctx.state.groupLifeQuotations.get(id);
  if (!quotation) throw notFound('Group-life quotation', id);
  return quotation;
}

/**
 * Opens a group-life policy on an approved quotation: the age-rate table is frozen at creation and
 * the policyholder is the quotation's corporate client, which cannot be changed.
 */
export function createGroupLifePolicy(
  ctx: SandboxContext,
  body: { quotationId: string | number; startDate?: string | undefined; clientId?: unknown },
): GroupLifePolicyRecord {
  const quotation = getGroupLifeQuotation(ctx, String(body.quotationId));
  if (quotation.status !== 'Approved') {
    throw ruleBroken(
      'A group-life policy can only be opened on an approved quotation',
      'quotationId',
    );
  }
  if (body.clientId !== undefined && body.clientId !== quotation.clientId) {
    throw ruleBroken(
      "The policyholder is the quotation's corporate client and cannot be changed",
      'clientId',
    );
  }
  const now = ctx.clock.now();
  const start = body.startDate ? requireDate(body.startDate, 'startDate') : now;
  const id = ctx.ids.next('glp');
  const policy: GroupLifePolicyRecord = {
    id,
    policyNumber: `GL-${isoDate(now).slice(0, 4)}-${String(ctx.ids.seq('gl-policy')).padStart(6, '0')}`,
    status: 'Active',
    clientId: quotation.clientId,
    quotationId: quotation.id,
    salaryMultiple: quotation.salaryMultiple,
    freeCoverLimit: quotation.freeCoverLimit,
    ageRates: quotation.ageRates.map((rate) => ({ ...rate })),
    currency: quotation.currency,
    startDate: isoDate(start),
    endDate: isoDate(addDays(addMonths(start, 12), -1)),
    createdAt: now.toISOString(),
  };
  ctx.state.groupLifePolicies.set(id, policy);
  return policy;
}

/** A group-life policy by id. */
export function getGroupLifePolicy(ctx: SandboxContext, id: string): GroupLifePolicyRecord {
  const policy = ctx.state.groupLifePolicies.get(id);
  if (!policy) throw notFound('Group-life policy', id);
  return policy;
}

/** Group-life policies, paginated. */
export function listGroupLifePolicies(ctx: SandboxContext, query: PageInput) {
  return paginate([...ctx.state.groupLifePolicies.values()], query);
}

interface PricedMember {
  readonly row: MemberRowInput;
  readonly age: number;
  readonly sumAssured: number;
  /** The part of the sum assured on risk without underwriting: up to the free cover limit. */
  readonly coveredAmount: number;
  readonly freeCoverExcess: number;
  /** Premium of the whole sum assured (what a census quote shows). */
  readonly premium: number;
  /** Premium of the cover on risk (what an enrolment charges until the excess is underwritten). */
  readonly coveredPremium: number;
  readonly insurable: boolean;
}

/** Prices census rows against the policy's frozen age-rate table; mid-term rows are pro-rated. */
function priceMembers(
  ctx: SandboxContext,
  policy: GroupLifePolicyRecord,
  rows: readonly MemberRowInput[],
  midTermAddition: boolean,
): PricedMember[] {
  const policyStart = new Date(policy.startDate);
  const policyEnd = addDays(new Date(policy.endDate), 1);
  const now = ctx.clock.now();
  const from = midTermAddition && now > policyStart ? now : policyStart;
  const fraction = midTermAddition
    ? Math.max(0, daysBetween(from, policyEnd)) / Math.max(1, daysBetween(policyStart, policyEnd))
    : 1;
  return rows.map((row, index) => {
    const age = ageOn(requireDate(row.dateOfBirth, `members.${index}.dateOfBirth`), from);
    const band = policy.ageRates.find((rate) => age >= rate.fromAge && age <= rate.toAge);
    const sumAssured = roundMoney(row.annualSalary * policy.salaryMultiple);
    const coveredAmount = Math.min(sumAssured, policy.freeCoverLimit);
    const priceOf = (amount: number) =>
      band ? roundMoney(((amount * band.ratePerMille) / 1000) * fraction) : 0;
    return {
      row,
      age,
      sumAssured,
      coveredAmount,
      freeCoverExcess: roundMoney(sumAssured - coveredAmount),
      premium: priceOf(sumAssured),
      coveredPremium: priceOf(coveredAmount),
      insurable: band !== undefined,
    };
  });
}

function memberView(member: MemberRecord, freeCoverLimit: number): Json {
  const excess = roundMoney(Math.max(0, member.sumAssured - freeCoverLimit));
  return {
    ...member,
    coveredAmount: member.status === 'Pending' ? 0 : roundMoney(member.sumAssured - excess),
    freeCoverExcess: excess,
    underwriting: excess > 0 ? 'Pending' : 'NotRequired',
  };
}

/**
 * Enrols a batch. It is approved straight through (Approved, members on risk, premium owed as
 * outstandingPremium, no money collected) unless a member is outside the policy's age table: then
 * it is not approved (Pending) and none of its members is covered. A member whose sum assured
 * exceeds the free cover limit does not hold the batch back: they are on risk up to the limit and
 * only the excess awaits underwriting (errors rule 7); the batch charges the cover on risk.
 * Mid-term additions are pro-rated.
 */
export function enrolBatch(
  ctx: SandboxContext,
  policyId: string,
  body: {
    members: readonly MemberRowInput[];
    currency?: string | undefined;
    exchangeRate?: number | undefined;
    midTermAddition?: boolean | undefined;
  },
): GroupLifeBatchRecord {
  const policy = getGroupLifePolicy(ctx, policyId);
  const midTerm = body.midTermAddition ?? false;
  const priced = priceMembers(ctx, policy, body.members, midTerm);
  const approved = priced.every((member) => member.insurable);
  const id = ctx.ids.next('glb');
  const net = roundMoney(priced.reduce((sum, member) => sum + member.coveredPremium, 0));
  const premium = withLevy(net, ctx.levyRate);
  const batch: GroupLifeBatchRecord = {
    id,
    number: `GLB-${String(ctx.ids.seq('gl-batch')).padStart(6, '0')}`,
    policyId,
    status: approved ? 'Approved' : 'Pending',
    type: midTerm ? 'MidTermAddition' : 'Enrolment',
    memberIds: [],
    totalMembers: priced.length,
    netPremium: premium.basicPremium,
    levy: premium.levyPremium,
    grossPremium: premium.grossPremium,
    amountReceipted: 0,
    outstandingPremium: premium.grossPremium,
    currency: body.currency ?? policy.currency,
    exchangeRate: body.exchangeRate ?? 1,
    createdAt: ctx.clock.now().toISOString(),
  };
  for (const member of priced) {
    const memberId = ctx.ids.next('mem');
    ctx.state.members.set(memberId, {
      id: memberId,
      policyId,
      batchId: id,
      fullName: member.row.fullName,
      nrcNumber: member.row.nrcNumber,
      dateOfBirth: member.row.dateOfBirth,
      annualSalary: member.row.annualSalary,
      sumAssured: member.sumAssured,
      premium: member.coveredPremium,
      status: approved ? 'Active' : 'Pending',
      removedAt: null,
    });
    batch.memberIds.push(memberId);
  }
  ctx.state.groupLifeBatches.set(id, batch);
  return batch;
}

/** A batch as returned. */
export function groupLifeBatchView(batch: GroupLifeBatchRecord): Json {
  const { memberIds: _ids, ...rest } = batch;
  return rest;
}

/** Quotes a census against the frozen table without enrolling; nothing persists. */
export function quoteCensus(
  ctx: SandboxContext,
  policyId: string,
  rows: readonly MemberRowInput[],
): Json {
  const policy = getGroupLifePolicy(ctx, policyId);
  const priced = priceMembers(ctx, policy, rows, false);
  const premium = withLevy(
    priced.reduce((sum, member) => sum + member.premium, 0),
    ctx.levyRate,
  );
  return {
    totalMembers: priced.length,
    netPremium: premium.basicPremium,
    levy: premium.levyPremium,
    grossPremium: premium.grossPremium,
    currency: policy.currency,
    freeCoverExcess: roundMoney(priced.reduce((sum, member) => sum + member.freeCoverExcess, 0)),
    members: priced.map((member, index) => ({
      id: index + 1,
      fullName: member.row.fullName,
      nrcNumber: member.row.nrcNumber,
      annualSalary: member.row.annualSalary,
      sumAssured: member.sumAssured,
      freeCoverExcess: member.freeCoverExcess,
      status: member.insurable ? 'Quoted' : 'OutsideAgeTable',
    })),
  };
}

/** A batch by id. */
export function getGroupLifeBatch(ctx: SandboxContext, id: string): GroupLifeBatchRecord {
  const batch = ctx.state.groupLifeBatches.get(id);
  if (!batch) throw notFound('Enrolment batch', id);
  return batch;
}

/** The batches of a policy, paginated. */
export function listGroupLifeBatches(ctx: SandboxContext, policyId: string, query: PageInput) {
  getGroupLifePolicy(ctx, policyId);
  return paginate(
    [...ctx.state.groupLifeBatches.values()]
      .filter((batch) => batch.policyId === policyId)
      .map(groupLifeBatchView),
    query,
  );
}

/** A member on a policy by id or NRC (the live record first). */
function findMember(
  ctx: SandboxContext,
  policyId: string,
  by: { memberId?: string | number | undefined; nrcNumber?: string | undefined },
): MemberRecord {
  const policy = getGroupLifePolicy(ctx, policyId);
  if (by.memberId !== undefined) {
    // By id: one record, read as a database would, not by scanning every member of every policy.
    const member = ctx.state.members.get(String(by.memberId));
    if (!member || member.policyId !== policy.id) throw notFound('Member', String(by.memberId));
    return member;
  }
  const candidates = [...ctx.state.members.values()].filter(
    (member) =>
      member.policyId === policy.id &&
      (by.memberId !== undefined
        ? member.id === String(by.memberId)
        : member.nrcNumber === by.nrcNumber),
  );
  const rank = { Active: 0, Pending: 1, Removed: 2 } as const;
  const member = candidates.sort((a, b) => rank[a.status] - rank[b.status])[0];
  if (!member) throw notFound('Member', String(by.memberId ?? by.nrcNumber));
  return member;
}

/** A member as returned. */
export function memberOf(
  ctx: SandboxContext,
  policyId: string,
  by: { memberId?: string | number | undefined; nrcNumber?: string | undefined },
): Json {
  const policy = getGroupLifePolicy(ctx, policyId);
  return memberView(findMember(ctx, policyId, by), policy.freeCoverLimit);
}

/** Searches the members of a policy. */
export function searchMembers(
  ctx: SandboxContext,
  policyId: string,
  query: PageInput & { nrcNumber?: string | undefined; Query?: string | undefined },
) {
  const policy = getGroupLifePolicy(ctx, policyId);
  const members = [...ctx.state.members.values()].filter(
    (member) =>
      member.policyId === policyId &&
      (query.nrcNumber === undefined || member.nrcNumber === query.nrcNumber) &&
      (query.Query === undefined ||
        member.fullName.toLowerCase().includes(query.Query.toLowerCase())),
  );
  return paginateViews(members, query, (member) => memberView(member, policy.freeCoverLimit));
}

/** Takes members off cover by a deletion endorsement; no pro-rata refund. */
export function takeMembersOffCover(
  ctx: SandboxContext,
  policyId: string,
  body: {
    memberIds?: readonly (string | number)[] | undefined;
    nrcNumbers?: readonly string[] | undefined;
    effectiveDate?: string | undefined;
  },
): Json {
  const identities =
    body.memberIds !== undefined
      ? body.memberIds.map((memberId) => ({ memberId }))
      : (body.nrcNumbers ?? []).map((nrcNumber) => ({ nrcNumber }));
  const members = identities.map((identity) => findMember(ctx, policyId, identity));
  for (const member of members) {
    if (member.status === 'Removed')
      throw ruleBroken(`Member ${member.id} is already off cover`, 'memberIds');
  }
  const at = body.effectiveDate
    ? requireDate(body.effectiveDate, 'effectiveDate').toISOString()
    : ctx.clock.now().toISOString();
  for (const member of members) {
    member.status = 'Removed';
    member.removedAt = at;
  }
  return {
    removed: members.length,
    endorsementId: ctx.ids.next('end'),
    endorsementType: 'Deletion',
    refundAmount: 0,
    items: members.map((member) => ({ id: member.id, status: member.status, refundAmount: 0 })),
  };
}

/** Intimates a death claim against a covered member; the payout is the member's sum assured. */
export function intimateGroupLifeClaim(
  ctx: SandboxContext,
  policyId: string,
  body: {
    memberId?: string | number | undefined;
    nrcNumber?: string | undefined;
    lossDate: string;
    causeOfDeath?: string | undefined;
    description?: string | undefined;
    intimatedByPhone?: string | undefined;
  },
): Json {
  const policy = getGroupLifePolicy(ctx, policyId);
  const member = findMember(ctx, policyId, body);
  const lossDate = requireDate(body.lossDate, 'lossDate');
  if (member.status === 'Pending') {
    throw ruleBroken('The member is in a Pending batch and not covered', 'memberId');
  }
  if (member.status === 'Removed' && member.removedAt && lossDate >= new Date(member.removedAt)) {
    throw ruleBroken('The member was off cover on the date of death', 'lossDate');
  }
  if (lossDate < new Date(policy.startDate)) {
    throw invalid('Validation failed', { lossDate: ['Before the policy start date'] });
  }
  // Cover above the free cover limit is not on risk until underwritten: the payout stops there.
  const onRisk = Math.min(member.sumAssured, policy.freeCoverLimit);
  return openClaim(ctx, 'group-life', policyId, {
    memberId: member.id,
    nrcNumber: member.nrcNumber,
    claimType: 'Death',
    lossDate: body.lossDate,
    intimatedByPhone: body.intimatedByPhone ?? null,
    description: body.description ?? body.causeOfDeath ?? null,
    amountClaimed: onRisk,
    currency: policy.currency,
    payable: {
      sumAssured: member.sumAssured,
      coveredAmount: onRisk,
      awaitingUnderwriting: roundMoney(member.sumAssured - onRisk),
      totalPayable: onRisk,
    },
  });
}

/** Attaches documents to a group-life claim (first upload: Intimated → Documented). */
export function attachGroupLifeDocuments(
  ctx: SandboxContext,
  claimId: string,
  documents: readonly { url: string; name?: string | undefined }[],
): Json {
  return attachClaimDocuments(ctx, 'group-life', claimId, documents);
}

/** The member register (bordereau) as CSV. */
export function groupLifeBordereau(ctx: SandboxContext, policyId: string): string {
  const policy = getGroupLifePolicy(ctx, policyId);
  const members = [...ctx.state.members.values()].filter((member) => member.policyId === policyId);
  return toCsv(
    [
      'policyNumber',
      'memberId',
      'fullName',
      'nrcNumber',
      'annualSalary',
      'sumAssured',
      'premium',
      'status',
      'batchId',
    ],
    members.map((member) => [
      policy.policyNumber,
      member.id,
      member.fullName,
      member.nrcNumber,
      member.annualSalary,
      member.sumAssured,
      member.premium,
      member.status,
      member.batchId,
    ]),
  );
}

/** The covered household of a group-funeral principal, by NRC. */
export function householdByNrc(ctx: SandboxContext, nrcNumber: string): Json {
  const household = ctx.state.households.get(nrcNumber.trim());
  if (!household) throw notFound('Household for principal', 'with that NRC');
  return household;
}
