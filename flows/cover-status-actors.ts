/*
 * cover-status's actors: who holds what, found through the Partner API. Every list is read to
 * its last page: a holder's cover may sit on the 12th policy of a long book. claim-intimation
 * starts a claim from the same holdings.
 */
import { fromPromise } from 'xstate';
import { accessTo, type Principal } from '../src/access/index.js';
import type { CoverState, PartnerClient, PolicyRecord } from '../src/api/index.js';
import type { MessageParams, Prompt } from '../src/conversation/index.js';
import { sameMsisdn } from '../src/msisdn/index.js';
import type { HeldCover } from './claim-intimation.js';
import {
  type CoverAnswer,
  type Holding,
  type HoldingLine,
  holdingStatuses,
  statusParams,
} from './cover-status.js';
import { type FlowDeps, keep, orNotFound } from './flow-deps.js';
import { reportUnknownStatuses, statusWord } from './status-words.js';
import { end } from './support.js';

/** Raised when a flow asks for something the deployment cannot do (no SMS, no file store). */
export class CoverUnavailableError extends Error {
  override readonly name = 'CoverUnavailableError';
  readonly status = 503;
}

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/**
 * Page size of every list read. The spec leaves default and maximum page sizes unsaid; ten is one
 * any server accepts, and every page is read anyway.
 */
const PAGE_SIZE = 10;

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

function holderOf(policy: PolicyRecord): { idNumber: string; phone: string } {
  const holder = record((policy as Record<string, unknown>).policyHolder);
  return { idNumber: text(holder.idNumber), phone: text(holder.phone) };
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

/** Reads every line the insurer keeps for one NRC. */
export async function coverByNrc(client: PartnerClient, nrc: string): Promise<Found> {
  const [people, household, groupLife, creditLife, travel] = await Promise.all([
    all(client.paginate('getIndividuals', { query: { IdNumber: nrc, PageSize: PAGE_SIZE } })),
    orNotFound(client.call('getGroupFuneralHouseholdByNrc', { query: { nrcNumber: nrc } }), null),
    all(client.paginate('getGroupLifePolicies', { query: { PageSize: PAGE_SIZE } })),
    all(client.paginate('getCreditLifePolicies', { query: { PageSize: PAGE_SIZE } })),
    all(client.paginate('getTravelPolicies', { query: { PageSize: PAGE_SIZE } })),
  ]);
  // The API's filters may match loosely: only exact holders of this NRC count.
  const holders = people.filter((person) => person.idNumber === nrc);
  const phones = holders.map((person) => text(person.phoneNumber)).filter(Boolean);
  const clientIds = new Set(holders.map((person) => String(person.id)));
  const holdings: Holding[] = [];

  if (household) {
    const client = record(household.client);
    const policy = record(household.policy);
    if (text(client.phoneNumber)) phones.push(text(client.phoneNumber));
    const entry: Holding = {
      line: 'funeral',
      number: text(policy.policyNumber),
      status: text(policy.status) || 'Unknown',
      startDate: day(policy.startDate),
      endDate: day(policy.endDate),
      covers: householdOf(client, household.members),
      currency: text(policy.currency) || 'ZMW',
    };
    if (typeof policy.grossPremium === 'number') entry.amount = policy.grossPremium;
    holdings.push(entry);
  }

  const members = await Promise.all(
    groupLife.map(async (policy) => {
      const member = await orNotFound(
        client.call('getCoveredMemberByNrc', {
          path: { policyId: String(policy.id) },
          query: { nrcNumber: nrc },
        }),
        null,
      );
      if (!member) return null;
      const entry: Holding = {
        line: 'group-life',
        number: policy.policyNumber ?? String(policy.id),
        status: member.status ?? policy.status,
        startDate: day(policy.startDate),
        endDate: day(policy.endDate),
        covers: member.fullName ?? '',
        currency: policy.currency ?? 'ZMW',
        policyId: String(policy.id),
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
    }),
  );
  holdings.push(...members.filter((entry): entry is Holding => entry !== null));

  const loans = await Promise.all(
    creditLife.map(async (policy) => {
      const policyId = String(policy.id);
      const found = (
        await all(
          client.paginate('searchCoveredLoans', {
            path: { policyId },
            query: { nrcNumber: nrc, PageSize: PAGE_SIZE },
          }),
        )
      ).filter((loan) => loan.nrcNumber === undefined || loan.nrcNumber === nrc);
      if (found.length === 0) return [];
      const state = found.some((loan) => loan.status === 'Active')
        ? await orNotFound(client.call('getCreditLifePolicyStatus', { path: { policyId } }), null)
        : null;
      return found.map((loan): Holding => {
        const { status: shown, until } = loanStatus(loan.status ?? '', state);
        const entry: Holding = {
          line: 'credit-life',
          number: loan.partnerLoanReference ?? String(loan.id),
          status: shown,
          startDate: day(loan.startDate),
          endDate: day(loan.endDate),
          covers: policy.policyNumber ?? policyId,
          currency: policy.currency ?? 'ZMW',
          policyId,
          subjectId: String(loan.id),
        };
        if (until) entry.until = until;
        if (loan.amount != null) entry.amount = loan.amount;
        return entry;
      });
    }),
  );
  holdings.push(...loans.flat());

  const vehicles = (
    await Promise.all(
      [...clientIds].map((id) =>
        all(client.paginate('getClientVehicles', { path: { id }, query: { PageSize: PAGE_SIZE } })),
      ),
    )
  ).flat();
  const motor = (
    await Promise.all(
      vehicles
        .map((vehicle) => vehicle.registrationNumber)
        .filter((plate): plate is string => Boolean(plate))
        .map(async (plate) => {
          const policies = await orNotFound(
            client.call('getMotorPolicyByRegistration', { query: { registrationNumber: plate } }),
            [],
          );
          return policies
            .filter((policy) => !policy.clientId || clientIds.has(text(policy.clientId)))
            .map((policy) => policyHolding('motor', policy, plate));
        }),
    )
  ).flat();
  holdings.push(...motor);

  for (const policy of travel) {
    const holder = holderOf(policy);
    if (holder.idNumber !== nrc && !clientIds.has(text(policy.clientId))) continue;
    if (holder.phone) phones.push(holder.phone);
    holdings.push(
      policyHolding('travel', policy, text((policy as Record<string, unknown>).destination)),
    );
  }

  return { holdings, phones };
}

/** The NRCs on record for a phone: policyholders registered with it. */
export async function nrcsOfPhone(client: PartnerClient, phone: string): Promise<string[]> {
  // The national number matches `0966…` and `260966…` records alike; the match is then exact.
  const national = phone.replace(/^260/, '');
  const people = await all(
    client.paginate('getIndividuals', { query: { PhoneNumber: national, PageSize: PAGE_SIZE } }),
  );
  return [
    ...new Set(
      people
        .filter((person) => sameMsisdn(text(person.phoneNumber), phone))
        .map((person) => text(person.idNumber))
        .filter(Boolean),
    ),
  ];
}

/** Travel policies bought with this phone (a traveller need not be a registered client). */
async function travelOfPhone(client: PartnerClient, phone: string): Promise<Holding[]> {
  const travel = await all(
    client.paginate('getTravelPolicies', { query: { PageSize: PAGE_SIZE } }),
  );
  return travel
    .filter((policy) => sameMsisdn(holderOf(policy).phone, phone))
    .map((policy) =>
      policyHolding('travel', policy, text((policy as Record<string, unknown>).destination)),
    );
}

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
        const nrcs = await nrcsOfPhone(client, input.phone);
        const [found, travel] = await Promise.all([
          Promise.all(nrcs.map((nrc) => coverByNrc(client, nrc))),
          travelOfPhone(client, input.phone),
        ]);
        const holdings = unique([...found.flatMap((f) => f.holdings), ...travel]);
        reportUnknownStatuses(deps.onUnknownStatus, holdingStatuses(holdings));
        return { access: 'full', holdings };
      },
    ),
    lookupCover: fromPromise(
      async ({ input }: { input: { nrc: string; principal: Principal } }): Promise<CoverAnswer> => {
        const found = await coverByNrc(client, input.nrc);
        const holdings = unique(found.holdings);
        reportUnknownStatuses(deps.onUnknownStatus, holdingStatuses(holdings));
        const access = accessTo(input.principal, { type: 'policy', phones: found.phones });
        if (access.learns === 'everything') return { access: 'full', holdings };
        // A stranger to this NRC learns only whether cover exists and until when.
        const until = coveredUntil(holdings);
        return {
          access: 'limited',
          covered: holdings.some(inForce),
          until,
          canSendDetails: deps.sms !== undefined && found.phones.length > 0,
        };
      },
    ),
    sendDetails: fromPromise(async ({ input }: { input: { nrc: string } }) => {
      if (!deps.sms) throw new CoverUnavailableError('SMS is not configured');
      const found = await coverByNrc(client, input.nrc);
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
export async function heldCover(client: PartnerClient, phone: string): Promise<HeldCover[]> {
  const nrcs = await nrcsOfPhone(client, phone);
  const found = await Promise.all(nrcs.map((nrc) => coverByNrc(client, nrc)));
  return unique(found.flatMap((f) => f.holdings))
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
