/*
 * cover-status's actors: who holds what, found through the Partner API. Every list is read to
 * its last page: a holder's cover may sit on the 12th policy of a long book. claim-intimation
 * starts a claim from the same holdings.
 */
import { fromPromise } from 'xstate';
import {
  accessTo,
  type HeldIndividual,
  NO_REGISTRATIONS,
  type OnRecord,
  onRecordAmong,
  type Principal,
  principalOf,
  type RecordOwners,
} from '../src/access/index.js';
import {
  ApiAbortedError,
  ApiTimeoutError,
  type CallOptions,
  type CoverState,
  type GroupLifePolicy,
  type OperationName,
  type PartnerClient,
  type PolicyRecord,
} from '../src/api/index.js';
import { type MessageParams, nestedMessage, type Prompt } from '../src/conversation/index.js';
import {
  type Completeness,
  type HoldingRef,
  type HoldingsIndex,
  refField,
} from '../src/holdings/index.js';
import type { HeldCover, HeldCoverAnswer } from './claim-intimation.js';
import type { CoverAsked } from './cover-status.js';
import {
  type CoverAnswer,
  type Holding,
  type HoldingLine,
  holdingStatuses,
  STATUS_SUBJECT,
  statusParams,
  truthOf,
  type UnknownAnswerReporter,
  type UnknownReason,
} from './cover-status.js';
import { type FlowDeps, keep, withinLimits } from './flow-deps.js';
import { ownerLookup } from './record-owners.js';
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

/**
 * Whether a holding's status means cover is in force (Pending, Closed, Lapsed are not); a status
 * not read never is.
 */
export function inForce(holding: Pick<Holding, 'status' | 'unknown'>): boolean {
  if (holding.unknown) return false;
  return IN_FORCE.has(holding.status.toLowerCase().replace(/\s+/g, ''));
}

/** Everything one NRC or phone holds, and who is on record for each record (src/access's rule). */
interface Found {
  holdings: Holding[];
  /** Who is on record for each of `holdings`: asked with the principal before anything is shown. */
  owners: Map<Holding, RecordOwners>;
  /** By NRC: the phones on record for it (the insurer's own individuals and household). */
  phones: string[];
  /** The NRC the insurer's record of a holding names (a loan's borrower, a member), else ''. */
  nrcOf: (holding: Holding) => string;
  /** Insurer calls the lookup made (the bench counts them). */
  calls: number;
  /**
   * A look-up that finds records by itself (the household by NRC, or a direct path asked because
   * the index was cold or behind) was not answered: records may be missing from `holdings`, so
   * "none" cannot be said.
   */
  missed: boolean;
  /**
   * `missed` but for the travel cover of a client on record, which no direct path reads: a claim
   * is never made on travel, so the claim start reads this.
   */
  missedBesidesTravel: boolean;
  /**
   * The index could say "none": every list it is filled from was read lately. False after a
   * cold start or a Redis loss until the sync has run: the insurer is then asked directly.
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
  if (loanStatus.toLowerCase() !== 'active' || !state) return { status: loanStatus };
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
/** More insurer calls a lookup may make on the direct paths when the index cannot answer. */
const MAX_DIRECT_CALLS = 30;
/** Most direct-path calls in flight at once (the master policies' searches fan out). */
const DIRECT_PARALLEL = 8;
/** Size of the one page read of a direct path's list; a longer list is not all read: unknown. */
const DIRECT_PAGE_SIZE = 50;

/**
 * What one insurer call told: its answer, `none` (404: the insurer does not have it), or
 * `unknown` (out of calls or time, or it failed): never read as "none".
 */
type Answer<T> =
  | { readonly kind: 'found'; readonly value: T }
  | { readonly kind: 'none' }
  | { readonly kind: 'unknown'; readonly reason: Exclude<UnknownReason, 'unseen'> };

/** One call shared by `key` among the records that need it. */
type SharedCall<T> = (
  key: string,
  operation: OperationName,
  call: (options: CallOptions) => Promise<T>,
) => Promise<Answer<T>>;

/** The insurer's calls one lookup may make: at most {@link MAX_CALLS_PER_LOOKUP}, all by one deadline. */
class CallBudget {
  private left = MAX_CALLS_PER_LOOKUP;
  /** Calls in flight, and those waiting for a slot once {@link CallBudget.direct} bounds them. */
  private running = 0;
  private limit = Number.POSITIVE_INFINITY;
  private readonly waiting: (() => void)[] = [];
  private readonly deadline = AbortSignal.timeout(LOOKUP_BUDGET_MS);
  private readonly endsAt = Date.now() + LOOKUP_BUDGET_MS;
  /** Calls made, and the first failure that was not a 404 or the deadline (the insurer down). */
  made = 0;
  failure: unknown;
  answered = 0;

  constructor(private readonly report: UnknownAnswerReporter | undefined) {}

  /** What `operation` told, within the lookup's calls and time. */
  async ask<T>(
    operation: OperationName,
    call: (options: CallOptions) => Promise<T>,
  ): Promise<Answer<T>> {
    if (this.left <= 0 || this.deadline.aborted) return this.unknown(operation, 'late');
    this.left -= 1;
    await this.slot();
    if (this.deadline.aborted) {
      this.release();
      return this.unknown(operation, 'late');
    }
    this.made += 1;
    try {
      const value = await call({
        signal: this.deadline,
        timeoutMs: Math.max(1, this.endsAt - Date.now()),
      });
      this.answered += 1;
      return { kind: 'found', value };
    } catch (error) {
      if (isNotFound(error)) {
        this.answered += 1;
        return { kind: 'none' };
      }
      const late =
        this.deadline.aborted ||
        error instanceof ApiAbortedError ||
        error instanceof ApiTimeoutError;
      if (!late) this.failure ??= error;
      return this.unknown(operation, late ? 'late' : 'failed');
    } finally {
      this.release();
    }
  }

  /**
   * The index cannot answer: the direct paths may make {@link MAX_DIRECT_CALLS} more calls, at
   * most {@link DIRECT_PARALLEL} at once, by the same deadline.
   */
  direct(): void {
    this.left += MAX_DIRECT_CALLS;
    this.limit = DIRECT_PARALLEL;
  }

  private async slot(): Promise<void> {
    if (this.running < this.limit) {
      this.running += 1;
      return;
    }
    // The slot is handed over by release(), never counted twice.
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }

  /** An answer that cannot be read as the truth (`reason`): reported, and unknown. */
  unknown(
    operation: OperationName,
    reason: Exclude<UnknownReason, 'unseen'>,
  ): Extract<Answer<never>, { kind: 'unknown' }> {
    this.report?.(operation, reason);
    return { kind: 'unknown', reason };
  }

  /** Shares one call among the records that need it (a master policy's status). */
  once<T>(): SharedCall<T> {
    const asked = new Map<string, Promise<Answer<T>>>();
    return (key, operation, call) => {
      let answer = asked.get(key);
      if (!answer) {
        answer = this.ask(operation, call);
        asked.set(key, answer);
      }
      return answer;
    };
  }
}

/** A record the index names whose status was not read (`reason`): shown as such. */
function unknownHolding(ref: HoldingRef, reason: UnknownReason): Holding {
  const holding: Holding = {
    line: ref.line,
    number: ref.number || ref.policyId,
    status: '',
    startDate: '',
    endDate: '',
    covers: '',
    currency: 'ZMW',
    policyId: ref.policyId,
    unknown: reason,
  };
  if (ref.line === 'group-life') holding.subjectId = ref.memberId;
  if (ref.line === 'credit-life') holding.subjectId = ref.loanId;
  return holding;
}

/**
 * `holding`, marked unknown when its status is a word never seen (it is never in force); the
 * copy keeps the original's owner hint.
 */
function seen(holding: Holding, hints: Hints): Holding {
  if (holding.unknown || statusWord(STATUS_SUBJECT[holding.line], holding.status).known) {
    return holding;
  }
  const marked: Holding = { ...holding, unknown: 'unseen' };
  hints.set(marked, hints.get(holding) ?? NO_HINT);
  return marked;
}

/**
 * What names the people on record for a holding, as the insurer's record says: the policy's client
 * (or the policyholder it carries) for motor and travel, the NRC covered for the others; '' where
 * the record did not say. src/access turns it into phones (see {@link ownersOf}).
 */
interface OwnerHint {
  readonly clientId: string;
  readonly holderPhone: string;
  readonly nrc: string;
}

/** The owner hints of the holdings one lookup read, by holding. */
type Hints = Map<Holding, OwnerHint>;

const NO_HINT: OwnerHint = { clientId: '', holderPhone: '', nrc: '' };

/** The hint of a motor or travel policy: its client, or the policyholder it carries. */
function policyHint(policy: PolicyRecord): OwnerHint {
  return {
    clientId: text(policy.clientId),
    holderPhone: text(record(record(policy).policyHolder).phone),
    nrc: '',
  };
}

/** Asks the insurer about one record the index names; null when it no longer has it. */
async function confirm(
  client: PartnerClient,
  budget: CallBudget,
  shared: {
    groupLife: SharedCall<GroupLifePolicy>;
    creditLife: SharedCall<CoverState>;
  },
  ref: HoldingRef,
  hints: Hints,
): Promise<Holding | null> {
  const holding = await confirmed(client, budget, shared, ref, hints);
  if (holding && !hints.has(holding)) hints.set(holding, NO_HINT);
  return holding;
}

async function confirmed(
  client: PartnerClient,
  budget: CallBudget,
  shared: {
    groupLife: SharedCall<GroupLifePolicy>;
    creditLife: SharedCall<CoverState>;
  },
  ref: HoldingRef,
  hints: Hints,
): Promise<Holding | null> {
  const hinted = (holding: Holding, hint: OwnerHint): Holding => {
    hints.set(holding, hint);
    return holding;
  };
  switch (ref.line) {
    case 'motor': {
      const answer = await budget.ask('getMotorPolicy', (options) =>
        client.call('getMotorPolicy', { path: { policyId: ref.policyId } }, options),
      );
      if (answer.kind === 'none') return null;
      if (answer.kind === 'unknown') return unknownHolding(ref, answer.reason);
      const policy = answer.value;
      const plates = (policy as Record<string, unknown>).registrationNumbers;
      const plate =
        text(policy.registrationNumber) || (Array.isArray(plates) ? text(plates[0]) : '');
      return hinted(policyHolding('motor', policy, plate), policyHint(policy));
    }
    case 'travel': {
      const answer = await budget.ask('getTravelPolicy', (options) =>
        client.call('getTravelPolicy', { path: { policyId: ref.policyId } }, options),
      );
      if (answer.kind === 'none') return null;
      if (answer.kind === 'unknown') return unknownHolding(ref, answer.reason);
      const policy = answer.value;
      return hinted(
        policyHolding('travel', policy, text((policy as Record<string, unknown>).destination)),
        policyHint(policy),
      );
    }
    case 'group-life': {
      const path = { policyId: ref.policyId };
      const [answer, master] = await Promise.all([
        budget.ask('getCoveredMember', (options) =>
          client.call('getCoveredMember', { path: { ...path, memberId: ref.memberId } }, options),
        ),
        shared.groupLife(ref.policyId, 'getGroupLifePolicy', (options) =>
          client.call('getGroupLifePolicy', { path }, options),
        ),
      ]);
      if (answer.kind === 'none') return null;
      if (answer.kind === 'unknown') return unknownHolding(ref, answer.reason);
      const member = answer.value;
      const policy = master.kind === 'found' ? master.value : undefined;
      // The member's own word; else the master policy's, which must then have been read.
      if (!member.status && master.kind === 'unknown') return unknownHolding(ref, master.reason);
      const entry: Holding = {
        line: 'group-life',
        number: policy?.policyNumber ?? ref.number,
        status: member.status ?? policy?.status ?? '',
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
      return hinted(entry, { ...NO_HINT, nrc: text(member.nrcNumber) });
    }
    case 'credit-life': {
      const path = { policyId: ref.policyId };
      // The policy's cover state is read beside the loan, not after it (issue 38: one insurer
      // call in series per turn): most loans listed are Active and need it; one read per policy,
      // shared by its loans, is all a loan that is not costs.
      const coverState = shared.creditLife(ref.policyId, 'getCreditLifePolicyStatus', (options) =>
        client.call('getCreditLifePolicyStatus', { path }, options),
      );
      const answer = await budget.ask('getCoveredLoan', (options) =>
        client.call('getCoveredLoan', { path: { ...path, loanId: ref.loanId } }, options),
      );
      if (answer.kind === 'none') return null;
      if (answer.kind === 'unknown') return unknownHolding(ref, answer.reason);
      const loan = answer.value;
      // An Active loan is on risk only as far as its policy's cover state says: that state not
      // read (late, failed, no longer there) leaves the loan's cover unknown, never "in force".
      const cover = loan.status === 'Active' ? await coverState : null;
      const state = cover?.kind === 'found' ? cover.value : null;
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
      if (cover?.kind === 'unknown') entry.unknown = cover.reason;
      // The policy of a loan on cover gone from the insurer (404): nothing to read the loan by.
      if (cover?.kind === 'none') {
        entry.unknown = budget.unknown('getCreditLifePolicyStatus', 'failed').reason;
      }
      return hinted(entry, { ...NO_HINT, nrc: text(loan.nrcNumber) });
    }
  }
}

/** The funeral household whose principal holds this NRC (a direct look-up), if any. */
async function household(
  client: PartnerClient,
  budget: CallBudget,
  nrc: string,
): Promise<Answer<{ holding: Holding; principal: HeldIndividual }>> {
  const answer = await budget.ask('getGroupFuneralHouseholdByNrc', (options) =>
    client.call('getGroupFuneralHouseholdByNrc', { query: { nrcNumber: nrc } }, options),
  );
  if (answer.kind !== 'found') return answer;
  const found = answer.value;
  const principal = record(found.client);
  const policy = record(found.policy);
  const holding: Holding = {
    line: 'funeral',
    number: text(policy.policyNumber),
    status: text(policy.status),
    startDate: day(policy.startDate),
    endDate: day(policy.endDate),
    covers: householdOf(principal, found.members),
    currency: text(policy.currency) || 'ZMW',
  };
  if (typeof policy.grossPremium === 'number') holding.amount = policy.grossPremium;
  // The household's principal is the insurer's own client for this NRC (funeral is not sold here).
  return {
    kind: 'found',
    value: {
      holding,
      principal: {
        id: text(principal.id) || String(principal.id ?? ''),
        phoneNumber: text(principal.phoneNumber),
        idNumber: nrc,
      },
    },
  };
}

/** What the direct paths found, and whether any of them went unanswered. */
interface DirectFound {
  holdings: Holding[];
  missed: boolean;
  /** A client is on record: their travel cover, which no direct path reads, is unknown. */
  travelUnread: boolean;
}

/** A list's one page as read: its items, or unknown when unanswered or longer than one page. */
function onePage<T>(answer: Answer<{ data: T[]; totalPages: number }>): T[] | undefined {
  if (answer.kind === 'none') return [];
  if (answer.kind === 'unknown' || answer.value.totalPages > 1) return undefined;
  return answer.value.data;
}

/**
 * The individuals the insurer holds with a phone (its last nine digits; src/access matches the
 * number) or with an NRC: who may be on record, read once per lookup. `read` is false when the
 * list was not answered or is longer than one page: what is listed still counts, nothing more.
 */
async function individualsOf(
  client: PartnerClient,
  budget: CallBudget,
  who: { readonly phone: string } | { readonly nrc: string },
): Promise<{ people: HeldIndividual[]; read: boolean }> {
  if ('nrc' in who && !who.nrc) return { people: [], read: true };
  const answer = await budget.ask('getIndividuals', (options) =>
    client.call(
      'getIndividuals',
      {
        query:
          'phone' in who
            ? { PhoneNumber: who.phone.replace(/\D/g, '').slice(-9), PageSize: DIRECT_PAGE_SIZE }
            : { IdNumber: who.nrc, PageSize: DIRECT_PAGE_SIZE },
      },
      options,
    ),
  );
  const listed = onePage(answer);
  const people = listed ?? (answer.kind === 'found' ? answer.value.data : []);
  // The insurer's filter matches part of the text: an NRC is the same one only when it is equal.
  return {
    people: 'nrc' in who ? people.filter((person) => person.idNumber === who.nrc) : people,
    read: listed !== undefined,
  };
}

/**
 * Asks the insurer directly what `nrcs` and `clients` hold, when the index cannot answer: each
 * client's vehicles' motor policies, and each credit-life and group-life master policy's loan and
 * member search by NRC, in parallel within the lookup's budget. Households are asked by the
 * caller. Any path unanswered sets `missed`; a client on record leaves travel unknown too: the
 * spec has no travel look-up by client; a phone that reaches no NRC leaves everything unknown (a
 * policy issued with its holder inline has no client record, and there is no look-up by phone).
 */
async function askDirectly(
  client: PartnerClient,
  budget: CallBudget,
  shared: Parameters<typeof confirm>[2],
  hints: Hints,
  subject: { nrcs: readonly string[]; clients: readonly string[]; byPhone: boolean },
): Promise<DirectFound> {
  budget.direct();
  const found: DirectFound = { holdings: [], missed: false, travelUnread: false };
  const miss = () => {
    found.missed = true;
  };
  const take = async (ref: HoldingRef) => {
    const holding = await confirm(client, budget, shared, ref, hints);
    if (holding) found.holdings.push(seen(holding, hints));
  };
  const { nrcs, clients } = subject;
  // A travel policy is held by a client record, and none can be read by client: unknown.
  found.travelUnread = clients.length > 0;

  const motor = clients.map(async (id) => {
    const vehicles = onePage(
      await budget.ask('getClientVehicles', (options) =>
        client.call(
          'getClientVehicles',
          { path: { id }, query: { Filter: 'HasPolicy', PageSize: DIRECT_PAGE_SIZE } },
          options,
        ),
      ),
    );
    if (!vehicles) return miss();
    const plates = [...new Set(vehicles.map((v) => v.registrationNumber ?? '').filter(Boolean))];
    await Promise.all(
      plates.map(async (plate) => {
        const answer = await budget.ask('getMotorPolicyByRegistration', (options) =>
          client.call(
            'getMotorPolicyByRegistration',
            { query: { registrationNumber: plate } },
            options,
          ),
        );
        if (answer.kind === 'unknown') return miss();
        if (answer.kind === 'none') return;
        for (const policy of answer.value) {
          if (policy.clientId && policy.clientId !== id) continue;
          const holding = policyHolding('motor', policy, plate);
          // The client asked about is the policy's, whatever the policy itself names.
          hints.set(holding, { ...policyHint(policy), clientId: id });
          found.holdings.push(seen(holding, hints));
        }
      }),
    );
  });
  if (nrcs.length === 0) {
    // Not "none": the sandbox's large book is held inline, and its holders were told "No policies
    // were found" after a Redis flush (bench section 11).
    if (subject.byPhone) miss();
    await Promise.all(motor);
    return found;
  }

  const creditLife = (async () => {
    const policies = onePage(
      await budget.ask('getCreditLifePolicies', (options) =>
        client.call('getCreditLifePolicies', { query: { PageSize: DIRECT_PAGE_SIZE } }, options),
      ),
    );
    if (!policies) return miss();
    const searches = policies.flatMap((policy) =>
      nrcs.map(async (nrc) => {
        const policyId = String(policy.id);
        const loans = onePage(
          await budget.ask('searchCoveredLoans', (options) =>
            client.call(
              'searchCoveredLoans',
              { path: { policyId }, query: { nrcNumber: nrc, PageSize: DIRECT_PAGE_SIZE } },
              options,
            ),
          ),
        );
        if (!loans) return miss();
        await Promise.all(
          loans
            .filter((loan) => loan.nrcNumber === nrc)
            .map((loan) => {
              const ref: HoldingRef = {
                line: 'credit-life',
                policyId,
                loanId: String(loan.id),
                number: loan.partnerLoanReference ?? String(loan.id),
              };
              if (policy.policyNumber) ref.policyNumber = policy.policyNumber;
              return take(ref);
            }),
        );
      }),
    );
    await Promise.all(searches);
  })();

  const groupLife = (async () => {
    const policies = onePage(
      await budget.ask('getGroupLifePolicies', (options) =>
        client.call('getGroupLifePolicies', { query: { PageSize: DIRECT_PAGE_SIZE } }, options),
      ),
    );
    if (!policies) return miss();
    const searches = policies.flatMap((policy) =>
      nrcs.map(async (nrc) => {
        const policyId = String(policy.id);
        const members = onePage(
          await budget.ask('searchCoveredMembers', (options) =>
            client.call(
              'searchCoveredMembers',
              { path: { policyId }, query: { nrcNumber: nrc, PageSize: DIRECT_PAGE_SIZE } },
              options,
            ),
          ),
        );
        if (!members) return miss();
        await Promise.all(
          members
            .filter((member) => member.nrcNumber === nrc)
            .map((member) =>
              take({
                line: 'group-life',
                policyId,
                memberId: String(member.id),
                number: policy.policyNumber ?? policyId,
              }),
            ),
        );
      }),
    );
    await Promise.all(searches);
  })();

  await Promise.all([...motor, creditLife, groupLife]);
  // A record confirmed but not read in time is shown as such, and the lookup is not "none".
  if (found.holdings.some((holding) => holding.unknown)) miss();
  return found;
}

/**
 * Who is on record for one holding, by the rule src/access keeps: a motor or travel policy's
 * client (or the policyholder it carries), the NRC's phones on record for the others. The NRC the
 * index filed it under stands in when the record was not read.
 */
function ownersOf(
  holding: Holding,
  hint: OwnerHint,
  onRecord: OnRecord,
  filedUnder: readonly string[],
): RecordOwners {
  const nrcPhones = (nrc: string) =>
    nrc ? onRecord.ofNrc(nrc) : filedUnder.flatMap((filed) => onRecord.ofNrc(filed));
  switch (holding.line) {
    case 'credit-life':
      return { type: 'loan', phones: nrcPhones(hint.nrc) };
    case 'group-life':
      return { type: 'membership', phones: nrcPhones(hint.nrc) };
    case 'funeral':
      return { type: 'household', phones: nrcPhones(hint.nrc) };
    default: {
      // A policy is its client's: the individual the insurer holds for it, or the policyholder
      // the policy carries; neither read, nobody is on record for it here.
      const phones = hint.clientId
        ? onRecord.ofClient(hint.clientId)
        : hint.holderPhone
          ? [hint.holderPhone]
          : [];
      return { type: 'policy', phones };
    }
  }
}

/** Who to look up: the phone asking (My cover) or an NRC typed. */
type CoverSubject = { readonly phone: string } | { readonly nrc: string };

/**
 * What `subject` holds, each record confirmed by the insurer, with who is on record for each (the
 * rule in src/access, never the index: a phone reaches an NRC only through an individual the
 * insurer holds with both, not one insurechat created from a typed NRC). One index read and the
 * individuals with the phone or NRC, then at most {@link MAX_CALLS_PER_LOOKUP} calls made at once
 * within {@link LOOKUP_BUDGET_MS}, whatever the size of the insurer's book. A record the insurer no
 * longer has (404) is dropped from the index; one it does not confirm in time is kept and shown as
 * not confirmed now. When the index names nothing and is cold or behind, the insurer is asked
 * directly ({@link askDirectly}) by the same deadline. Fails only when the insurer confirmed
 * nothing and failed (down): the flow then offers Try again.
 */
export async function findCover(deps: FlowDeps, subject: CoverSubject): Promise<Found> {
  const index = deps.holdings ?? NO_INDEX;
  const client = deps.client;
  const registrations = deps.registrations ?? NO_REGISTRATIONS;
  const budget = new CallBudget(deps.onUnknownAnswer);
  const phone = 'phone' in subject ? subject.phone : undefined;
  const byPhone = phone ? await index.ofPhone(phone) : undefined;
  // A phone the index ties to nothing, with every list read lately: nothing to show and nobody
  // to ask about (a stranger's My cover makes no insurer call, however many dial at once).
  if (byPhone && byPhone.nrcs.length === 0 && byPhone.refs.length === 0) {
    if ((await index.completeness()).complete) return nothingHeld();
  }
  const first = phone
    ? (byPhone?.nrcs ?? []).slice(0, MAX_NRCS_PER_PHONE)
    : ['nrc' in subject ? subject.nrc : ''];
  // The index's records of those NRCs first (Redis, no insurer call), so the individuals and
  // the records are asked of the insurer in the same moment, none waiting on the other (issue 38).
  const firstEntries = await index.ofNrcs(first);
  // Who may be on record, asked at once beside the records: the NRCs the index links the phone
  // to are only where to look first, each record's owners come from these individuals.
  const individuals = individualsOf(
    client,
    budget,
    phone ? { phone } : { nrc: 'nrc' in subject ? subject.nrc : '' },
  );
  const people: HeldIndividual[] = [];
  const hints: Hints = new Map();
  const filed = new Map<Holding, string[]>();
  const shared = {
    groupLife: budget.once<GroupLifePolicy>(),
    creditLife: budget.once<CoverState>(),
  };
  const seenRefs = new Set<string>();

  /** The records of `nrcs` (and `own`, bought with the phone) the index names, and households. */
  const read = async (
    nrcs: readonly string[],
    own: readonly HoldingRef[],
    indexed?: Awaited<ReturnType<typeof index.ofNrcs>>,
  ) => {
    const entries = indexed ?? (await index.ofNrcs(nrcs));
    // Each record once, wherever the index has it (a policy bought with a phone and an NRC).
    const refs = new Map<string, { ref: HoldingRef; nrcs: string[] }>();
    const add = (ref: HoldingRef, nrc?: string) => {
      const key = refField(ref);
      if (seenRefs.has(key) && !refs.has(key)) return;
      seenRefs.add(key);
      const held = refs.get(key) ?? { ref, nrcs: [] };
      if (nrc) held.nrcs.push(nrc);
      refs.set(key, held);
    };
    for (const ref of own) add(ref);
    entries.forEach((entry, i) => {
      for (const ref of entry.refs) add(ref, nrcs[i]);
    });
    // Households too: they are found by NRC alone, not named by the index.
    const households = Promise.all(
      nrcs.filter(Boolean).map((nrc) => household(client, budget, nrc)),
    );
    const held = [...refs.values()].map(async ({ ref, nrcs: where }) => {
      const confirmed = await confirm(client, budget, shared, ref, hints);
      const holding = confirmed && seen(confirmed, hints);
      if (holding === null) {
        const from = byPhone && phone ? { phone, nrcs: where } : { nrcs: where };
        await index.drop(ref, from).catch(() => undefined);
      } else {
        filed.set(holding, where);
      }
      return holding;
    });
    const holdings: Holding[] = [];
    let unanswered = false;
    for (const found of await households) {
      if (found.kind === 'unknown') unanswered = true;
      if (found.kind !== 'found') continue;
      hints.set(found.value.holding, { ...NO_HINT, nrc: text(found.value.principal.idNumber) });
      holdings.push(seen(found.value.holding, hints));
      people.push(found.value.principal);
    }
    for (const holding of await Promise.all(held)) if (holding) holdings.push(holding);
    return { holdings, unanswered, named: refs.size };
  };

  const [listed, round] = await Promise.all([
    individuals,
    read(first, byPhone?.refs ?? [], firstEntries),
  ]);
  people.push(...listed.people);
  const holdings = [...round.holdings];
  // Who may be on record was not all read: what is listed counts, and "none" cannot be said.
  let missed = round.unanswered || !listed.read;
  let named = round.named;
  let nrcs = first;
  // The rule over the people read so far, kept while no one is added: each reading asks Redis
  // which of them are unproven and whether its registrations are loaded (the `~loaded` marker).
  let ruled: { onRecord: OnRecord; over: number } | undefined;
  if (phone) {
    // The NRCs this phone is on record for, by the rule; those the index did not link are read now.
    ruled = { onRecord: await onRecordAmong(people, registrations), over: people.length };
    const mine = ruled.onRecord.nrcsOf(phone).slice(0, MAX_NRCS_PER_PHONE);
    const more = mine.filter((nrc) => !first.includes(nrc));
    if (more.length > 0) {
      const again = await read(more, []);
      holdings.push(...again.holdings);
      missed ||= again.unanswered;
      named += again.named;
    }
    nrcs = mine;
  }
  if (budget.answered === 0 && budget.failure !== undefined) throw budget.failure;
  let travelUnread = false;
  // Read only when the index named nothing: what it named is shown whatever the index's age.
  const indexComplete = named > 0 || (await index.completeness()).complete;
  if (!indexComplete) {
    // Cold or behind: the insurer is asked directly, within what is left of the same budget.
    // By phone, the motor policies of every individual with it (what that phone bought); by NRC,
    // those of every individual with the NRC (src/access then says whose each policy is).
    const clients = phone
      ? (await onRecordAmong(listed.people, registrations)).clientsOf(phone)
      : listed.people.map((person) => String(person.id));
    const direct = await askDirectly(client, budget, shared, hints, {
      nrcs: nrcs.filter(Boolean),
      clients,
      byPhone: phone !== undefined,
    });
    holdings.push(...direct.holdings);
    missed ||= direct.missed;
    travelUnread = direct.travelUnread;
  }
  const onRecord =
    ruled !== undefined && ruled.over === people.length
      ? ruled.onRecord
      : await onRecordAmong(people, registrations);
  // Who insurechat registered unproven is not known now (Redis lost it, the durable copy did not
  // answer): nobody is on record by NRC, and what is not shown is unknown, never "none".
  if (!onRecord.known) missed = true;
  const owners = new Map<Holding, RecordOwners>();
  for (const holding of holdings) {
    const hint = hints.get(holding) ?? NO_HINT;
    owners.set(holding, ownersOf(holding, hint, onRecord, filed.get(holding) ?? []));
  }
  return {
    holdings,
    owners,
    phones: phone ? [] : onRecord.ofNrc(nrcs[0] ?? ''),
    nrcOf: (holding) => hints.get(holding)?.nrc ?? '',
    calls: budget.made,
    missed: missed || travelUnread,
    missedBesidesTravel: missed,
    indexComplete,
  };
}

/** What a lookup found when the index, complete, names nothing: "none", no call made. */
function nothingHeld(): Found {
  return {
    holdings: [],
    owners: new Map(),
    phones: [],
    nrcOf: () => '',
    calls: 0,
    missed: false,
    missedBesidesTravel: false,
    indexComplete: true,
  };
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

/** Latest date any in-force cover runs to (grace end for cover in grace); unknown ones never count. */
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

/**
 * The holdings `principal` may learn everything of, each asked of src/access with the owners the
 * lookup found by the rule: what the index names is never shown without it.
 */
function shownTo(principal: Principal, found: Pick<Found, 'holdings' | 'owners'>): Holding[] {
  return unique(found.holdings).filter((holding) => {
    const owners = found.owners.get(holding);
    return owners !== undefined && accessTo(principal, owners).learns === 'everything';
  });
}

/** The SMS listing each holding, one line each; dates stay ISO for rendering to write. */
function detailsSms(holdings: Holding[]): Prompt {
  const notes = holdings.map((h) => {
    const params: MessageParams = {
      // The line in the caller's words (`what.line.credit-life`: Loan), not its id.
      line: nestedMessage(`what.line.${h.line}`),
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

/**
 * Refuses unless `phone` is on record for the policy (src/access): its client's phone, or the
 * policyholder's the policy carries.
 */
async function ownPolicy(
  deps: FlowDeps,
  line: HoldingLine,
  policyId: string,
  phone: string,
): Promise<void> {
  const { client } = deps;
  const policy =
    line === 'motor'
      ? await client.call('getMotorPolicy', { path: { policyId } })
      : await client.call('getTravelPolicy', { path: { policyId } });
  const hint = policyHint(policy);
  const phones = hint.clientId
    ? await ownerLookup(client, deps.registrations).phonesOfClient(hint.clientId)
    : [hint.holderPhone];
  if (!accessTo(principalOf(phone), { type: 'policy', phones }).mine) {
    throw new CoverUnavailableError('the certificate goes only to the phone on record');
  }
}

/** The actors cover-status invokes. */
export function coverStatusActors(deps: FlowDeps) {
  const { client } = deps;
  return {
    lookupMine: fromPromise(
      async ({ input }: { input: { phone: string } }): Promise<CoverAnswer> => {
        const found = await findCover(deps, { phone: input.phone });
        const holdings = shownTo(principalOf(input.phone), found);
        reportUnknownStatuses(deps.onUnknownStatus, holdingStatuses(holdings));
        return { access: 'full', holdings, truth: truthOf(holdings, found.missed) };
      },
    ),
    lookupCover: fromPromise(async ({ input }: { input: CoverAsked }): Promise<CoverAnswer> => {
      // A typed NRC is a look-up: counted per caller, so NRCs cannot be tried by the hundred.
      await withinLimits(deps, {
        kind: 'lookup',
        principal: input.principal,
        route: input.route,
        target: { kind: 'nrc', value: input.nrc },
      });
      const found = await findCover(deps, { nrc: input.nrc });
      const holdings = unique(found.holdings);
      reportUnknownStatuses(deps.onUnknownStatus, holdingStatuses(holdings));
      // On record for the NRC (or staff): each record shown is still asked about on its own (a
      // policy another phone bought with this NRC typed is that phone's, not the NRC's).
      const access = accessTo(input.principal, { type: 'policy', phones: found.phones });
      if (access.learns === 'everything') {
        const shown = shownTo(input.principal, found);
        return { access: 'full', holdings: shown, truth: truthOf(shown, found.missed) };
      }
      const truth = truthOf(holdings, found.missed);
      // A stranger to this NRC learns only whether cover exists and until when: "until" from
      // cover read in force; nothing in force and something not read is unknown, not "none".
      const canSendDetails = deps.sms !== undefined && found.phones.length > 0;
      if (holdings.some(inForce)) {
        return {
          access: 'limited',
          truth: 'found',
          until: coveredUntil(holdings),
          canSendDetails,
        };
      }
      return {
        access: 'limited',
        truth: truth === 'unknown' ? 'unknown' : 'none',
        canSendDetails,
      };
    }),
    sendDetails: fromPromise(async ({ input }: { input: CoverAsked }) => {
      if (!deps.sms) throw new CoverUnavailableError('SMS is not configured');
      const found = await findCover(deps, { nrc: input.nrc });
      // Only to a phone on record by the rule (never one insurechat registered from a typed NRC),
      // and only what that phone may learn.
      const phone = found.phones[0];
      if (!phone) throw new CoverUnavailableError('no phone on record');
      // Counted per caller and per phone on record, unless it is the caller's own cover.
      await withinLimits(deps, {
        kind: 'sms',
        principal: input.principal,
        route: input.route,
        target: { kind: 'phone', value: phone },
        own: accessTo(input.principal, { type: 'policy', phones: found.phones }).mine,
      });
      await deps.sms(phone, detailsSms(shownTo(principalOf(phone), found)));
      return { sent: true };
    }),
    certificate: fromPromise(
      async ({
        input,
      }: {
        input: { line: HoldingLine; policyId: string; number: string; phone?: string };
      }) => {
        if (!deps.files) throw new CoverUnavailableError('no file store');
        // Texted only to the policy's own client phone: asked again here, not taken from the list.
        if (input.phone && deps.sms) {
          await ownPolicy(deps, input.line, input.policyId, input.phone);
          // The link's SMS goes to the caller's own phone: counted per caller only.
          await withinLimits(deps, {
            kind: 'sms',
            principal: { kind: 'phone', phone: input.phone },
            target: { kind: 'phone', value: input.phone },
          });
        }
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
export async function heldCover(deps: FlowDeps, phone: string): Promise<HeldCoverAnswer> {
  const found = await findCover(deps, { phone });
  const holdings = shownTo(principalOf(phone), found);
  reportUnknownStatuses(deps.onUnknownStatus, holdingStatuses(holdings));
  const held = holdings.filter(inForce).flatMap((h): HeldCover[] => {
    if (!h.policyId || !h.subjectId) return [];
    const nrc = found.nrcOf(h);
    if (h.line === 'credit-life') {
      return [
        {
          line: h.line,
          policyId: h.policyId,
          by: 'loanId',
          subject: h.subjectId,
          number: h.number,
          covers: h.covers,
          ...(nrc ? { nrc } : {}),
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
          ...(nrc ? { nrc } : {}),
        },
      ];
    }
    return [];
  });
  // Only the lines a claim can be made on count: a motor or travel policy not read hides no loan.
  const claimable = holdings.filter((h) => h.line === 'credit-life' || h.line === 'group-life');
  const truth = truthOf(claimable, found.missedBesidesTravel);
  return { held, truth: truth === 'unknown' ? 'unknown' : held.length > 0 ? 'found' : 'none' };
}
