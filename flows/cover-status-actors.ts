/*
 * cover-status's actors: who holds what, found through the Partner API. Every list is read to
 * its last page: a holder's cover may sit on the 12th policy of a long book. claim-intimation
 * starts a claim from the same holdings.
 */
import { fromPromise } from 'xstate';
import { accessTo, type Principal } from '../src/access/index.js';
import {
  ApiAbortedError,
  type CallOptions,
  type CoverState,
  type GroupLifePolicy,
  type PartnerClient,
  type PolicyRecord,
} from '../src/api/index.js';
import type { MessageParams, Prompt } from '../src/conversation/index.js';
import {
  type Completeness,
  type HoldingRef,
  type HoldingsIndex,
  refField,
} from '../src/holdings/index.js';
import type { HeldCover } from './claim-intimation.js';
import {
  type CoverAnswer,
  type Holding,
  type HoldingLine,
  holdingStatuses,
  statusParams,
} from './cover-status.js';
import { type FlowDeps, keep } from './flow-deps.js';
import { reportUnknownStatuses, statusWord } from './status-words.js';
import { end, isNotFound } from './support.js';

/** Raised when a flow asks for something the deployment cannot do (no SMS, no file store). */
export class CoverUnavailableError extends Error {
  override readonly name = 'CoverUnavailableError';
  readonly status = 503;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const day = (value: unknown): string => text(value).slice(0, 10);
const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

/** Statuses under which a person is on risk today. */
const IN_FORCE = new Set([
  'active',
  'ingrace',
  'approved',
  'partiallyreceipted',
  'receipted',
  'issued',
]);

/** Whether a holding's status means cover is in force (Pending, Closed, Lapsed are not). */
export function inForce(holding: Pick<Holding, 'status'>): boolean {
  return IN_FORCE.has(holding.status.toLowerCase().replace(/\s+/g, ''));
}

/** Everything one NRC holds, with the phones the insurer has on record for that person. */
interface Found {
  holdings: Holding[];
  phones: string[];
  /** Insurer calls the lookup made (the bench counts them). */
  calls: number;
  /**
   * The index could say "none": every list it is filled from was read lately. False after a
   * cold start or a Redis loss until the sync has run: nothing found is then unknown, not none.
   */
  indexComplete: boolean;
}

function policyHolding(line: HoldingLine, policy: PolicyRecord, covers: string): Holding {
  const holding: Holding = {
    line,
    number: policy.policyNumber ?? String(policy.id),
    status: policy.status,
    startDate: day(policy.startDate),
    endDate: day(policy.endDate),
    covers,
    currency: policy.currency ?? 'ZMW',
    policyId: String(policy.id),
  };
  if (policy.grossPremium != null) holding.amount = policy.grossPremium;
  return holding;
}

/**
 * A loan's own status, sharpened by its policy's cover state while the loan is Active: the cover
 * state's own word (Pending on a prepaid policy with an unpaid period, InGrace, Lapsed, or one we
 * never saw), never a word we made up. flows/status-words.ts puts it in the customer's words.
 */
function loanStatus(
  loanStatus: string,
  state: CoverState | null,
): { status: string; until?: string } {
  if (loanStatus.toLowerCase() !== 'active' || !state) return { status: loanStatus || 'Unknown' };
  const until = state.graceEndsAt ? day(state.graceEndsAt) : '';
  return statusWord('loan', state.status).key === 'status.inGrace' && until
    ? { status: state.status, until }
    : { status: state.status };
}

/**
 * The household as its principal knows it: the principal's name, then each other member covered
 * with their relationship. The spec leaves the household's member list unshown; the sandbox
 * returns `members` (fullName, relationship), read here loosely.
 */
function householdOf(client: Record<string, unknown>, members: unknown): string {
  const principal =
    text(client.fullName) ||
    [text(client.firstName), text(client.lastName)].filter(Boolean).join(' ');
  const others = (Array.isArray(members) ? members : [])
    .map(record)
    .filter((member) => text(member.fullName) && text(member.fullName) !== principal)
    .map((member) =>
      text(member.relationship)
        ? `${text(member.fullName)} (${text(member.relationship)})`
        : text(member.fullName),
    );
  return [principal, ...others].filter(Boolean).join(', ');
}

/** Most insurer calls one lookup makes, whatever the size of the insurer's book. */
export const MAX_CALLS_PER_LOOKUP = 10;
/** Most NRCs a phone's lookup reads (a phone shared by a household, say). */
const MAX_NRCS_PER_PHONE = 3;
/**
 * How long a lookup waits for the insurer's answers: within the USSD turn's 4 s deadline, with
 * room for the index read and the screen. A record unanswered by then is "not confirmed now".
 */
export const LOOKUP_BUDGET_MS = 3_000;

/** The insurer's calls one lookup may make: at most {@link MAX_CALLS_PER_LOOKUP}, all by one deadline. */
class CallBudget {
  private left = MAX_CALLS_PER_LOOKUP;
  private readonly deadline = AbortSignal.timeout(LOOKUP_BUDGET_MS);
  private readonly endsAt = Date.now() + LOOKUP_BUDGET_MS;
  /** Calls made, and the first failure that was not a 404 or the deadline (the insurer down). */
  made = 0;
  failure: unknown;
  answered = 0;

  /** The call's answer; `gone` on 404; `unconfirmed` when out of calls, time, or it failed. */
  async ask<T>(
    call: (options: CallOptions) => Promise<T>,
  ): Promise<T | typeof GONE | typeof UNCONFIRMED> {
    if (this.left <= 0 || this.deadline.aborted) return UNCONFIRMED;
    this.left -= 1;
    this.made += 1;
    try {
      const answer = await call({
        signal: this.deadline,
        timeoutMs: Math.max(1, this.endsAt - Date.now()),
      });
      this.answered += 1;
      return answer;
    } catch (error) {
      if (isNotFound(error)) {
        this.answered += 1;
        return GONE;
      }
      if (!this.deadline.aborted && !(error instanceof ApiAbortedError)) this.failure ??= error;
      return UNCONFIRMED;
    }
  }

  /** Shares one call among the records that need it (a master policy's status). */
  once<T>(): (
    key: string,
    call: (options: CallOptions) => Promise<T>,
  ) => ReturnType<CallBudget['ask']> {
    const asked = new Map<string, ReturnType<CallBudget['ask']>>();
    return (key, call) => {
      let answer = asked.get(key);
      if (!answer) {
        answer = this.ask(call);
        asked.set(key, answer);
      }
      return answer as never;
    };
  }
}
const GONE = Symbol('gone');
const UNCONFIRMED = Symbol('unconfirmed');

/** A record the index names that the insurer did not confirm in time: shown as such. */
function unconfirmedHolding(ref: HoldingRef): Holding {
  const holding: Holding = {
    line: ref.line,
    number: ref.number || ref.policyId,
    status: '',
    startDate: '',
    endDate: '',
    covers: '',
    currency: 'ZMW',
    policyId: ref.policyId,
    unconfirmed: true,
  };
  if (ref.line === 'group-life') holding.subjectId = ref.memberId;
  if (ref.line === 'credit-life') holding.subjectId = ref.loanId;
  return holding;
}

/** Asks the insurer about one record the index names; null when it no longer has it. */
async function confirm(
  client: PartnerClient,
  budget: CallBudget,
  shared: {
    groupLife: ReturnType<CallBudget['once']>;
    creditLife: ReturnType<CallBudget['once']>;
  },
  ref: HoldingRef,
): Promise<Holding | null> {
  switch (ref.line) {
    case 'motor': {
      const policy = await budget.ask((options) =>
        client.call('getMotorPolicy', { path: { policyId: ref.policyId } }, options),
      );
      if (policy === GONE) return null;
      if (policy === UNCONFIRMED) return unconfirmedHolding(ref);
      const plates = (policy as Record<string, unknown>).registrationNumbers;
      const plate =
        text(policy.registrationNumber) || (Array.isArray(plates) ? text(plates[0]) : '');
      return policyHolding('motor', policy, plate);
    }
    case 'travel': {
      const policy = await budget.ask((options) =>
        client.call('getTravelPolicy', { path: { policyId: ref.policyId } }, options),
      );
      if (policy === GONE) return null;
      if (policy === UNCONFIRMED) return unconfirmedHolding(ref);
      return policyHolding('travel', policy, text((policy as Record<string, unknown>).destination));
    }
    case 'group-life': {
      const path = { policyId: ref.policyId };
      const [member, master] = await Promise.all([
        budget.ask((options) =>
          client.call('getCoveredMember', { path: { ...path, memberId: ref.memberId } }, options),
        ),
        shared.groupLife(ref.policyId, (options) =>
          client.call('getGroupLifePolicy', { path }, options),
        ) as Promise<GroupLifePolicy | typeof GONE | typeof UNCONFIRMED>,
      ]);
      if (member === GONE) return null;
      if (member === UNCONFIRMED) return unconfirmedHolding(ref);
      const policy = typeof master === 'symbol' ? undefined : master;
      const entry: Holding = {
        line: 'group-life',
        number: policy?.policyNumber ?? ref.number,
        status: member.status ?? policy?.status ?? 'Unknown',
        startDate: day(policy?.startDate),
        endDate: day(policy?.endDate),
        covers: member.fullName ?? '',
        currency: policy?.currency ?? 'ZMW',
        policyId: ref.policyId,
        subjectId: String(member.id),
      };
      if (member.sumAssured != null) {
        // Cover above the free cover limit is not on risk until underwritten (spec, Errors 7):
        // the screen shows what the cover pays, and says the rest waits for underwriting.
        const excess = member.freeCoverExcess ?? 0;
        entry.amount = member.sumAssured - Math.max(0, excess);
        if (excess > 0) entry.awaitingUnderwriting = excess;
      }
      return entry;
    }
    case 'credit-life': {
      const path = { policyId: ref.policyId };
      const loan = await budget.ask((options) =>
        client.call('getCoveredLoan', { path: { ...path, loanId: ref.loanId } }, options),
      );
      if (loan === GONE) return null;
      if (loan === UNCONFIRMED) return unconfirmedHolding(ref);
      const answer =
        loan.status === 'Active'
          ? await (shared.creditLife(ref.policyId, (options) =>
              client.call('getCreditLifePolicyStatus', { path }, options),
            ) as Promise<CoverState | typeof GONE | typeof UNCONFIRMED>)
          : null;
      const state = answer === null || typeof answer === 'symbol' ? null : answer;
      const { status: shown, until } = loanStatus(loan.status ?? '', state);
      const entry: Holding = {
        line: 'credit-life',
        number: loan.partnerLoanReference ?? ref.number,
        status: shown,
        startDate: day(loan.startDate),
        endDate: day(loan.endDate),
        covers: ref.policyNumber ?? ref.policyId,
        currency: 'ZMW',
        policyId: ref.policyId,
        subjectId: String(loan.id),
      };
      if (until) entry.until = until;
      if (loan.amount != null) entry.amount = loan.amount;
      return entry;
    }
  }
}

/** The funeral household whose principal holds this NRC (a direct look-up), if any. */
async function household(
  client: PartnerClient,
  budget: CallBudget,
  nrc: string,
): Promise<{ holding: Holding; phone: string } | null> {
  const found = await budget.ask((options) =>
    client.call('getGroupFuneralHouseholdByNrc', { query: { nrcNumber: nrc } }, options),
  );
  if (typeof found === 'symbol') return null;
  const principal = record(found.client);
  const policy = record(found.policy);
  const holding: Holding = {
    line: 'funeral',
    number: text(policy.policyNumber),
    status: text(policy.status) || 'Unknown',
    startDate: day(policy.startDate),
    endDate: day(policy.endDate),
    covers: householdOf(principal, found.members),
    currency: text(policy.currency) || 'ZMW',
  };
  if (typeof policy.grossPremium === 'number') holding.amount = policy.grossPremium;
  return { holding, phone: text(principal.phoneNumber) };
}

/** Who to look up: the phone asking (My cover) or an NRC typed. */
export type CoverSubject = { readonly phone: string } | { readonly nrc: string };

/**
 * What the index says `subject` holds, each record confirmed by the insurer: one index read, then
 * at most {@link MAX_CALLS_PER_LOOKUP} calls made at once within {@link LOOKUP_BUDGET_MS}, whatever
 * the size of the insurer's book. A record the insurer no longer has (404) is dropped from the
 * index; one it does not confirm in time is kept and shown as not confirmed now. Fails only when
 * the insurer confirmed nothing and failed (down): the flow then offers Try again.
 */
export async function findCover(deps: FlowDeps, subject: CoverSubject): Promise<Found> {
  const index = deps.holdings ?? NO_INDEX;
  const client = deps.client;
  const byPhone = 'phone' in subject ? await index.ofPhone(subject.phone) : undefined;
  const nrcs = byPhone
    ? byPhone.nrcs.slice(0, MAX_NRCS_PER_PHONE)
    : ['nrc' in subject ? subject.nrc : ''];
  const entries = await index.ofNrcs(nrcs);
  const phones = entries.flatMap((entry) => entry.phones);
  // Each record once, wherever the index has it (a policy bought with a phone and an NRC).
  const refs = new Map<string, { ref: HoldingRef; nrcs: string[] }>();
  const add = (ref: HoldingRef, nrc?: string) => {
    const key = refField(ref);
    const held = refs.get(key) ?? { ref, nrcs: [] };
    if (nrc) held.nrcs.push(nrc);
    refs.set(key, held);
  };
  for (const ref of byPhone?.refs ?? []) add(ref);
  entries.forEach((entry, i) => {
    for (const ref of entry.refs) add(ref, nrcs[i]);
  });

  const budget = new CallBudget();
  const shared = { groupLife: budget.once(), creditLife: budget.once() };
  // Households first: they are found by NRC alone, not named by the index.
  const households = nrcs.map((nrc) => household(client, budget, nrc));
  const held = [...refs.values()].map(async ({ ref, nrcs: where }) => {
    const holding = await confirm(client, budget, shared, ref);
    if (holding === null) {
      const from =
        byPhone && 'phone' in subject ? { phone: subject.phone, nrcs: where } : { nrcs: where };
      await index.drop(ref, from).catch(() => undefined);
    }
    return holding;
  });
  const [funeral, records] = await Promise.all([Promise.all(households), Promise.all(held)]);
  if (budget.answered === 0 && budget.failure !== undefined) throw budget.failure;
  const holdings: Holding[] = [];
  for (const found of funeral) {
    if (!found) continue;
    holdings.push(found.holding);
    if (found.phone) phones.push(found.phone);
  }
  holdings.push(...records.filter((holding): holding is Holding => holding !== null));
  // Read only when nothing was found: what was found is shown whatever the index's age.
  const indexComplete = holdings.length > 0 || (await index.completeness()).complete;
  return { holdings, phones, calls: budget.made, indexComplete };
}

/** The answer's mark when nothing found can be told apart from nothing held (index behind). */
function unknownIf(found: Found): { unknown?: true } {
  return found.indexComplete ? {} : { unknown: true };
}

/** Without an index (a flow test's deps), only the direct look-ups are made. */
const NO_INDEX: Pick<HoldingsIndex, 'ofPhone' | 'ofNrcs' | 'drop' | 'completeness'> = {
  ofPhone: async () => ({ nrcs: [], refs: [] }),
  ofNrcs: async (nrcs) => nrcs.map(() => ({ refs: [], phones: [] })),
  drop: async () => undefined,
  // No index to be behind: the direct look-ups are the whole answer.
  completeness: async () => ({ complete: true, lists: {} as Completeness['lists'] }),
};

function unique(holdings: Holding[]): Holding[] {
  const seen = new Set<string>();
  return holdings.filter((holding) => {
    const key = `${holding.line}:${holding.policyId ?? ''}:${holding.number}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Latest date any in-force cover runs to (grace end for cover in grace). */
function coveredUntil(holdings: Holding[]): string {
  return (
    holdings
      .filter(inForce)
      .map((holding) => holding.until ?? holding.endDate)
      .filter(Boolean)
      .sort()
      .at(-1) ?? ''
  );
}

/** The SMS listing each holding, one line each; dates stay ISO for rendering to write. */
function detailsSms(holdings: Holding[]): Prompt {
  const notes = holdings.map((h) => {
    const params: MessageParams = {
      line: h.line,
      number: h.number,
      ...statusParams(h),
      startDate: h.startDate || '?',
      endDate: h.endDate || '?',
      covers: h.covers ? `, ${h.covers}` : '',
    };
    return h.until
      ? { key: 'cover.sms.holdingUntil', params: { ...params, until: h.until } }
      : { key: 'cover.sms.holding', params };
  });
  return { ...end('cover.sms.details'), notes };
}

/** The actors cover-status invokes. */
export function coverStatusActors(deps: FlowDeps) {
  const { client } = deps;
  return {
    lookupMine: fromPromise(
      async ({ input }: { input: { phone: string } }): Promise<CoverAnswer> => {
        const found = await findCover(deps, { phone: input.phone });
        const holdings = unique(found.holdings);
        reportUnknownStatuses(deps.onUnknownStatus, holdingStatuses(holdings));
        return { access: 'full', holdings, ...unknownIf(found) };
      },
    ),
    lookupCover: fromPromise(
      async ({ input }: { input: { nrc: string; principal: Principal } }): Promise<CoverAnswer> => {
        const found = await findCover(deps, { nrc: input.nrc });
        const holdings = unique(found.holdings);
        reportUnknownStatuses(deps.onUnknownStatus, holdingStatuses(holdings));
        const access = accessTo(input.principal, { type: 'policy', phones: found.phones });
        if (access.learns === 'everything')
          return { access: 'full', holdings, ...unknownIf(found) };
        // A stranger to this NRC learns only whether cover exists and until when.
        const until = coveredUntil(holdings);
        return {
          access: 'limited',
          covered: holdings.some(inForce),
          until,
          canSendDetails: deps.sms !== undefined && found.phones.length > 0,
          ...unknownIf(found),
        };
      },
    ),
    sendDetails: fromPromise(async ({ input }: { input: { nrc: string } }) => {
      if (!deps.sms) throw new CoverUnavailableError('SMS is not configured');
      const found = await findCover(deps, { nrc: input.nrc });
      const phone = found.phones[0];
      if (!phone) throw new CoverUnavailableError('no phone on record');
      await deps.sms(phone, detailsSms(unique(found.holdings)));
      return { sent: true };
    }),
    certificate: fromPromise(
      async ({
        input,
      }: {
        input: { line: HoldingLine; policyId: string; number: string; phone?: string };
      }) => {
        if (!deps.files) throw new CoverUnavailableError('no file store');
        const body =
          input.line === 'motor'
            ? client.download('getMotorPolicyCertificate', { path: { policyId: input.policyId } })
            : client.download('getTravelPolicyCertificate', { path: { policyId: input.policyId } });
        const url = await keep(deps, `${input.number}-certificate.pdf`, 'application/pdf', body);
        if (!url) throw new CoverUnavailableError('no file store');
        // A USSD screen cannot show a link: it goes by SMS to the caller's own phone.
        if (input.phone && deps.sms) {
          await deps.sms(
            input.phone,
            end('cover.sms.certificate', { number: input.number }, [
              { kind: 'link', url, label: 'cover.certificate' },
            ]),
          );
        }
        return { url };
      },
    ),
  };
}

/**
 * The loans and memberships in force that a phone's holder may claim against: found from the NRCs
 * on record for that phone, never typed.
 */
export async function heldCover(deps: FlowDeps, phone: string): Promise<HeldCover[]> {
  const found = await findCover(deps, { phone });
  return unique(found.holdings)
    .filter(inForce)
    .flatMap((h): HeldCover[] => {
      if (!h.policyId || !h.subjectId) return [];
      if (h.line === 'credit-life') {
        return [
          {
            line: h.line,
            policyId: h.policyId,
            by: 'loanId',
            subject: h.subjectId,
            number: h.number,
            covers: h.covers,
          },
        ];
      }
      if (h.line === 'group-life') {
        return [
          {
            line: h.line,
            policyId: h.policyId,
            by: 'memberId',
            subject: h.subjectId,
            number: h.number,
            covers: h.covers,
          },
        ];
      }
      return [];
    });
}
