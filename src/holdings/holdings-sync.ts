import type { PartnerClient } from '../api/index.js';
import type { Logger } from '../log/index.js';
import { normaliseCaller } from '../msisdn/index.js';
import type { HoldingFact, HoldingsIndex, SyncCursor } from './holdings-index.js';

/** Options of {@link syncHoldings}. */
export interface SyncHoldingsOptions {
  readonly client: Pick<PartnerClient, 'call'>;
  readonly index: HoldingsIndex;
  readonly logger: Logger;
  /** Items per page read; default 500 (a background read: few large pages beat many small). */
  readonly pageSize?: number;
  /** Wall clock, epoch ms; default `Date.now`. */
  readonly now?: () => number;
  /** Time between full passes (every record read again, refreshing what the insurer still returns); default 7 days. */
  readonly fullEveryMs?: number;
}

/** What one run read and wrote. */
export interface SyncSummary {
  readonly full: boolean;
  readonly pages: number;
  readonly facts: number;
}

const FULL_EVERY_MS = 7 * 86_400_000;
const FULL_AT = 'fullAt';

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
const phoneOf = (raw: unknown): string | undefined =>
  text(raw) ? normaliseCaller(text(raw)) : undefined;

/**
 * One run of the sync: reads what changed at the insurer since the last run and records who
 * holds what. Motor and travel policies are read through their date-time window (created after
 * the last run, up to this run's start); lists without one (policyholders, the members and loans
 * of each master policy) from where the last run stopped, as they grow at the end. The cursor is
 * saved after every page, so a run that dies is resumed by the next. Every `fullEveryMs` a run
 * reads everything again from the start: what the insurer still returns is refreshed, and what
 * it stopped returning outlives its entry's lifetime and goes.
 */
export async function syncHoldings(options: SyncHoldingsOptions): Promise<SyncSummary> {
  const { client, index } = options;
  const pageSize = options.pageSize ?? 500;
  const now = options.now ?? Date.now;
  const stored = await index.cursor();
  const fullAt = Number(stored[FULL_AT] ?? 0);
  const full = now() - fullAt >= (options.fullEveryMs ?? FULL_EVERY_MS);
  // A full run starts every list again; its own checkpoints make it resumable too.
  const cursor: SyncCursor = full && stored.fullRun !== '1' ? {} : { ...stored };
  if (full && stored.fullRun !== '1') {
    await index.resetCursor();
    await index.saveCursor({ fullRun: '1' });
  }
  const startedAt = new Date(now()).toISOString();
  let pages = 0;
  let facts = 0;
  const save = async (values: SyncCursor) => {
    Object.assign(cursor, values);
    await index.saveCursor(values);
  };
  const write = async (batch: HoldingFact[]) => {
    pages += 1;
    facts += batch.length;
    await index.record(batch);
  };

  /** A list read through its date window: created after `since`, up to this run's start. */
  const windowed = async (
    list: 'motor' | 'travel',
    read: (query: {
      FromDate?: string;
      ToDate: string;
      PageNumber: number;
      PageSize: number;
    }) => Promise<{ data: unknown[]; totalPages: number }>,
    factsOf: (item: Record<string, unknown>) => Promise<HoldingFact[]>,
  ) => {
    const since = cursor[`${list}.since`];
    const until = cursor[`${list}.until`] || startedAt;
    let page = Number(cursor[`${list}.page`] || 1);
    await save({ [`${list}.until`]: until, [`${list}.page`]: String(page) });
    for (;;) {
      const result = await read({
        ...(since ? { FromDate: since } : {}),
        ToDate: until,
        PageNumber: page,
        PageSize: pageSize,
      });
      const batch = (await Promise.all(result.data.map((item) => factsOf(record(item))))).flat();
      await write(batch);
      page += 1;
      if (page > result.totalPages || result.data.length === 0) break;
      await save({ [`${list}.page`]: String(page) });
    }
    await save({ [`${list}.since`]: until, [`${list}.until`]: '', [`${list}.page`]: '1' });
  };

  /** A list without a date filter, read on from the items already read (it grows at the end). */
  const appended = async (
    list: string,
    read: (query: { PageNumber: number; PageSize: number }) => Promise<{
      data: unknown[];
      totalItems: number;
    }>,
    factsOf: (item: Record<string, unknown>) => HoldingFact[],
  ) => {
    let done = Number(cursor[`${list}.read`] ?? 0);
    for (;;) {
      const page = Math.floor(done / pageSize) + 1;
      const result = await read({ PageNumber: page, PageSize: pageSize });
      const fresh = result.data.slice(done - (page - 1) * pageSize);
      await write(fresh.flatMap((item) => factsOf(record(item))));
      done += fresh.length;
      await save({ [`${list}.read`]: String(done) });
      if (result.data.length < pageSize || done >= result.totalItems) break;
    }
  };

  // Policyholders: phone ↔ NRC.
  await appended(
    'individuals',
    (query) => client.call('getIndividuals', { query }),
    (person) => {
      const phone = phoneOf(person.phoneNumber);
      const nrc = text(person.idNumber);
      return phone && nrc ? [{ phone, nrc }] : [];
    },
  );

  // A motor policy names its holder by client id, or carries the policyholder object.
  type Holder = { phone?: string | undefined; nrc?: string | undefined };
  const clients = new Map<string, Promise<Holder>>();
  const clientOf = (id: string): Promise<Holder> => {
    let found = clients.get(id);
    if (!found) {
      found = client.call('getIndividual', { path: { id } }).then(
        (person): Holder => ({
          phone: phoneOf(person.phoneNumber),
          nrc: text(person.idNumber) || undefined,
        }),
        (): Holder => ({}),
      );
      clients.set(id, found);
    }
    return found;
  };
  const holderOf = async (policy: Record<string, unknown>): Promise<Holder> => {
    const holder = record(policy.policyHolder);
    const nrc = text(holder.idNumber);
    const phone = phoneOf(holder.phone);
    if (nrc || phone) return { nrc: nrc || undefined, phone };
    const clientId = text(policy.clientId);
    return clientId ? clientOf(clientId) : {};
  };
  const policyFacts = (line: 'motor' | 'travel') => async (policy: Record<string, unknown>) => {
    const { phone, nrc } = await holderOf(policy);
    const ref = { line, policyId: String(policy.id), number: text(policy.policyNumber) };
    return phone || nrc ? [{ phone, nrc, ref }] : [];
  };
  await windowed(
    'motor',
    (query) => client.call('getMotorPolicies', { query }),
    policyFacts('motor'),
  );
  await windowed(
    'travel',
    (query) => client.call('getTravelPolicies', { query }),
    policyFacts('travel'),
  );

  /** Each master policy of a list (dozens), its members or loans read on from the last run. */
  const eachMaster = async (
    read: (query: { PageNumber: number; PageSize: number }) => Promise<{
      data: { id: unknown; policyNumber?: string | null | undefined }[];
      totalPages: number;
    }>,
    covered: (policyId: string, number: string) => Promise<void>,
  ) => {
    for (let page = 1; ; page += 1) {
      const policies = await read({ PageNumber: page, PageSize: pageSize });
      for (const policy of policies.data) {
        const policyId = String(policy.id);
        await covered(policyId, policy.policyNumber ?? policyId);
      }
      if (page >= policies.totalPages || policies.data.length === 0) break;
    }
  };
  await eachMaster(
    (query) => client.call('getGroupLifePolicies', { query }),
    (policyId, number) =>
      appended(
        `gl.${policyId}`,
        (query) => client.call('searchCoveredMembers', { path: { policyId }, query }),
        (member) => {
          const nrc = text(member.nrcNumber);
          const memberId = String(member.id ?? '');
          return nrc && memberId
            ? [{ nrc, ref: { line: 'group-life' as const, policyId, memberId, number } }]
            : [];
        },
      ),
  );
  await eachMaster(
    (query) => client.call('getCreditLifePolicies', { query }),
    (policyId, policyNumber) =>
      appended(
        `cl.${policyId}`,
        (query) => client.call('searchCoveredLoans', { path: { policyId }, query }),
        (loan) => {
          const nrc = text(loan.nrcNumber);
          const loanId = String(loan.id ?? '');
          const number = text(loan.partnerLoanReference) || loanId;
          const ref = { line: 'credit-life' as const, policyId, loanId, number, policyNumber };
          return nrc && loanId ? [{ nrc, ref }] : [];
        },
      ),
  );

  if (full) await index.saveCursor({ [FULL_AT]: String(now()), fullRun: '' });
  options.logger.info({ event: 'holdings.synced', full, pages, facts }, 'holdings index synced');
  return { full, pages, facts };
}
