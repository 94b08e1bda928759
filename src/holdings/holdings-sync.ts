import { type Registrations, RegistrationsUnknownError } from '../access/index.js';
import type { PartnerClient } from '../api/index.js';
import type { Logger } from '../log/index.js';
import {
  type HoldingRef,
  type HoldingsIndex,
  refField,
  type SyncCursor,
} from './holdings-index.js';
import { createPolicyFacts } from './policy-facts.js';
import { type ClaimWatcher, syncClaims } from './sync-claims.js';
import { phoneOf, text } from './sync-fields.js';
import { createSyncPages } from './sync-pages.js';
import { readAgain } from './sync-rereads.js';

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
  /** Makes this run a full pass whatever the time since the last (staff or operator "sync now"). */
  readonly full?: boolean;
  /**
   * The individuals insurechat created from an unproven typed NRC: never linked to that NRC (their
   * phone is not on record for its loans, members or households).
   */
  readonly registrations?: Pick<Registrations, 'unprovenAmong'>;
  /** Follows each claim record read (claim progress pushed to its reporter). */
  readonly claimWatcher?: ClaimWatcher;
}

/** What one run read and wrote. */
export interface SyncSummary {
  readonly full: boolean;
  readonly pages: number;
  readonly facts: number;
  /** Records whose holder could not be read: read again on the next run. */
  readonly unread: number;
  /** Claims read from both claim books (read whole every run; not counted in `facts`). */
  readonly claims: number;
}

const FULL_EVERY_MS = 7 * 86_400_000;
const FULL_AT = 'fullAt';

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
  const full = options.full === true || now() - fullAt >= (options.fullEveryMs ?? FULL_EVERY_MS);
  // A full run starts every list again; its own checkpoints make it resumable too.
  const cursor: SyncCursor = full && stored.fullRun !== '1' ? {} : { ...stored };
  if (full && stored.fullRun !== '1') {
    await index.resetCursor();
    await index.saveCursor({ fullRun: '1' });
  }
  const startedAt = new Date(now()).toISOString();
  const { windowed, appended, eachMaster, written } = createSyncPages({
    index,
    cursor,
    pageSize,
    startedAt,
  });

  // Records whose holder could not be read this run: read again on the next (sync-rereads.ts).
  const unread = new Map<string, HoldingRef>();
  const policyFacts = createPolicyFacts(client, (ref) => unread.set(refField(ref), ref));
  const rereads = await readAgain(client, index, policyFacts, unread);
  const moved: { nrc: string; phone: string }[] = [];
  let claims = 0;
  // A Redis loss during this run takes the run's id: its lists are then not stamped complete.
  const run = await index.beginRun();
  try {
    // Policyholders: phone ↔ NRC, less the individuals insurechat created unproven (each page's
    // ids asked about at once, before its facts are made).
    const linkPolicyholders = async () => {
      let unproven = new Set<string>();
      await appended(
        'individuals',
        async (query) => {
          const page = await client.call('getIndividuals', { query });
          unproven =
            (await options.registrations?.unprovenAmong(page.data.map((p) => String(p.id)))) ??
            new Set();
          return page;
        },
        (person) => {
          if (unproven.has(String(person.id))) return [];
          const phone = phoneOf(person.phoneNumber);
          const nrc = text(person.idNumber);
          if (!phone || !nrc) return [];
          // A full pass reads every policyholder again: a phone changed at the insurer moves the
          // NRC's link (and its records) from the old number to the new one.
          if (full) moved.push({ nrc, phone });
          return [{ phone, nrc }];
        },
      );
      // Every phone on record for an NRC keeps its link (two individuals, two phones, one person).
      const phonesOf = new Map<string, string[]>();
      for (const { nrc, phone } of moved.splice(0)) {
        phonesOf.set(nrc, [...(phonesOf.get(nrc) ?? []), phone]);
      }
      for (const [nrc, phones] of phonesOf) await index.relink(nrc, phones);
      await index.markComplete('individuals', run);
    };
    try {
      await linkPolicyholders();
    } catch (error) {
      if (!(error instanceof RegistrationsUnknownError)) throw error;
      // Who insurechat registered unproven cannot be known now (Redis lost it and the durable
      // copy did not answer): no NRC is linked from the page that asked, the list is not stamped
      // complete (its lookups say unknown), and the lists that need no registrations go on.
      options.logger.warn(
        { event: 'holdings.individuals-unlinked', reason: error.code },
        'policyholders not linked: registrations unknown',
      );
    }

    await windowed(
      'motor',
      (query) => client.call('getMotorPolicies', { query }),
      policyFacts('motor'),
    );
    await index.markComplete('motor', run);
    await windowed(
      'travel',
      (query) => client.call('getTravelPolicies', { query }),
      policyFacts('travel'),
    );
    await index.markComplete('travel', run);

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
    await index.markComplete('group-life', run);
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
    await index.markComplete('credit-life', run);

    // Both claim books, whole (sync-claims.ts): a book that fails leaves the cover lists be.
    claims = await syncClaims({
      client,
      index,
      run,
      cursor,
      appended,
      logger: options.logger,
      watcher: options.claimWatcher,
    });
  } finally {
    // Marked even when the run dies: the next run reads them again whatever happened after.
    await index.markReread([...unread.values()]);
  }
  const { pages, facts } = written();
  if (full) await index.saveCursor({ [FULL_AT]: String(now()), fullRun: '' });
  options.logger.info(
    {
      event: 'holdings.synced',
      full,
      pages,
      facts: facts - claims,
      claims,
      rereads,
      unread: unread.size,
    },
    'holdings index synced',
  );
  return { full, pages, facts: facts - claims + rereads, unread: unread.size, claims };
}
