import { firstOf, type PartnerClient } from '../api/index.js';
import type { Notifier } from '../channels/index.js';
import { dayNumber, lusakaNow } from '../clock/index.js';
import { formatDate, type Prompt } from '../conversation/index.js';
import type { Logger } from '../log/index.js';
import { formatMoney } from '../money/index.js';
import type { ContactBook } from './contact-book.js';

/** What staff see each morning: what needs a person today, from the insurer's own records. */
export interface StaffDigest {
  /** Lusaka's date, `YYYY-MM-DD`. */
  readonly date: string;
  readonly expiringThisWeek: readonly { policyNumber: string; endDate: string }[];
  readonly inGrace: readonly { policyNumber: string; line: string }[];
  readonly batchesOutstanding: readonly {
    policyNumber: string;
    batch: string;
    outstanding: number;
    currency: string;
  }[];
  readonly claimsAwaitingDocuments: readonly { claimNumber: string; line: string }[];
  /** Sections the insurer did not answer for; said in the message rather than shown empty. */
  readonly unavailable: readonly string[];
}

/** How far each list is read: the digest is a morning glance, not an export. */
const MAX_POLICIES = 500;
const MAX_CREDIT_LIFE_POLICIES = 50;
const MAX_CLAIMS = 200;

/**
 * Reads the digest through the Partner API: retail policies ending in the next 7 days or in
 * grace (the general policy list), credit-life policies whose cover is InGrace and their premium
 * batches with premium outstanding, credit-life and group-life claims still `Intimated` (no
 * documents yet). A section whose calls fail is named in `unavailable`.
 */
async function gatherStaffDigest(
  client: Pick<PartnerClient, 'call' | 'paginate'>,
  at: number,
  log: Logger,
): Promise<StaffDigest> {
  const date = lusakaNow(at).date;
  const today = dayNumber(date);
  const unavailable: string[] = [];
  const section = async <T>(name: string, read: () => Promise<T>, empty: T): Promise<T> => {
    try {
      return await read();
    } catch (err) {
      log.warn({ err, section: name }, 'staff digest section could not be read');
      unavailable.push(name);
      return empty;
    }
  };

  const policies = await section(
    'policies',
    () => firstOf(client.paginate('getPolicies', { query: { PageSize: 50 } }), MAX_POLICIES),
    [],
  );
  const live = policies.filter((p) => !/cancel|expired|lapsed/i.test(p.status));
  const expiringThisWeek = live
    .filter((p) => {
      const left = dayNumber(p.endDate ?? '') - today;
      return left >= 0 && left <= 7;
    })
    .map((p) => ({ policyNumber: p.policyNumber ?? String(p.id), endDate: p.endDate ?? '' }))
    .sort((a, b) => a.endDate.localeCompare(b.endDate));
  const inGrace = live
    .filter((p) => /grace/i.test(p.status))
    .map((p) => ({ policyNumber: p.policyNumber ?? String(p.id), line: 'retail' }));

  const batchesOutstanding: {
    policyNumber: string;
    batch: string;
    outstanding: number;
    currency: string;
  }[] = [];
  await section(
    'credit-life',
    async () => {
      const creditLife = await firstOf(
        client.paginate('getCreditLifePolicies', { query: { PageSize: 50 } }),
        MAX_CREDIT_LIFE_POLICIES,
      );
      for (const policy of creditLife) {
        const policyId = String(policy.id);
        const policyNumber = policy.policyNumber ?? policyId;
        const cover = await client.call('getCreditLifePolicyStatus', { path: { policyId } });
        if (/grace/i.test(cover.status)) inGrace.push({ policyNumber, line: 'credit-life' });
        const batches = await firstOf(
          client.paginate('getCreditLifeBatches', { path: { policyId }, query: { PageSize: 50 } }),
          50,
        );
        for (const batch of batches) {
          if ((batch.outstandingPremium ?? 0) > 0) {
            batchesOutstanding.push({
              policyNumber,
              batch: batch.number ?? String(batch.id),
              outstanding: batch.outstandingPremium ?? 0,
              currency: (batch as { currency?: string }).currency ?? 'ZMW',
            });
          }
        }
      }
    },
    undefined,
  );

  const claimsAwaitingDocuments: { claimNumber: string; line: string }[] = [];
  for (const [line, operation] of [
    ['credit-life', 'getCreditLifeClaims'],
    ['group-life', 'getGroupLifeClaims'],
  ] as const) {
    const claims = await section(
      `${line} claims`,
      () =>
        firstOf(
          client.paginate(operation, { query: { PageSize: 50, Status: 'Intimated' } }),
          MAX_CLAIMS,
        ),
      [],
    );
    for (const claim of claims) {
      if (claim.status === 'Intimated') {
        claimsAwaitingDocuments.push({ claimNumber: claim.claimNumber, line });
      }
    }
  }

  return {
    date,
    expiringThisWeek,
    inGrace,
    batchesOutstanding,
    claimsAwaitingDocuments,
    unavailable,
  };
}

/** At most this many items per section; the rest are counted. */
const SHOWN = 10;

function list<T>(items: readonly T[], line: (item: T) => string): string {
  if (items.length === 0) return '  none';
  const shown = items.slice(0, SHOWN).map((item) => `  • ${line(item)}`);
  if (items.length > SHOWN) shown.push(`  …and ${items.length - SHOWN} more`);
  return shown.join('\n');
}

/** The digest as Slack mrkdwn: one heading and four short lists. No names, NRCs or phones. */
export function digestText(digest: StaffDigest): string {
  return [
    `*Morning digest, ${formatDate(digest.date)}*`,
    `*Policies ending this week (${digest.expiringThisWeek.length})*`,
    list(digest.expiringThisWeek, (p) => `${p.policyNumber} ends ${formatDate(p.endDate)}`),
    `*Policies in grace (${digest.inGrace.length})*`,
    list(digest.inGrace, (p) => `${p.policyNumber} (${p.line})`),
    `*Credit-life batches with premium outstanding (${digest.batchesOutstanding.length})*`,
    list(
      digest.batchesOutstanding,
      (b) => `${b.policyNumber} batch ${b.batch}: ${b.currency} ${formatMoney(b.outstanding)}`,
    ),
    `*Claims waiting for documents (${digest.claimsAwaitingDocuments.length})*`,
    list(digest.claimsAwaitingDocuments, (c) => `${c.claimNumber} (${c.line})`),
    ...(digest.unavailable.length > 0
      ? [`_Could not be read from the insurer: ${digest.unavailable.join(', ')}._`]
      : []),
  ].join('\n');
}

/** Options of {@link createStaffDigest}. */
export interface StaffDigestOptions {
  readonly client: Pick<PartnerClient, 'call' | 'paginate'>;
  /** The Slack notifier (read when posting); without one nothing is posted. */
  readonly slack: () => Notifier | undefined;
  /** The Slack channel id the digest goes to. */
  readonly channel: string;
  /** Where the once-a-day claim is kept (shared by every instance over Redis). */
  readonly book: Pick<ContactBook, 'claim' | 'confirm' | 'release'>;
  readonly logger: Logger;
  readonly now?: () => number;
}

/** Posts the morning digest once a day, whichever instance's schedule fires first. */
export interface StaffDigestPoster {
  /** Posts today's digest unless it was posted; resolves whether this call posted it. */
  post(): Promise<boolean>;
}

const DIGEST_TTL_SECONDS = 2 * 86_400;

/** Creates the digest poster; the schedule (see reminder-wiring.ts) calls `post` each morning. */
export function createStaffDigest(options: StaffDigestOptions): StaffDigestPoster {
  const now = options.now ?? Date.now;
  const log = options.logger.child({ module: 'staff-digest' });
  return {
    async post() {
      const slack = options.slack();
      if (!slack) return false;
      const at = now();
      const key = `digest:${options.channel}:${lusakaNow(at).date}`;
      if (!(await options.book.claim(key, 'posting', 600))) return false;
      try {
        const digest = await gatherStaffDigest(options.client, at, log);
        const prompt: Prompt = {
          key: 'digest.morning',
          params: { text: digestText(digest) },
          input: 'none',
          final: true,
        };
        await slack.notify(
          { channel: 'slack', address: `:${options.channel}:`, locale: 'en' },
          prompt,
        );
        await options.book.confirm(key, 'posted', DIGEST_TTL_SECONDS);
        log.info(
          {
            expiring: digest.expiringThisWeek.length,
            inGrace: digest.inGrace.length,
            batches: digest.batchesOutstanding.length,
            claims: digest.claimsAwaitingDocuments.length,
          },
          'staff digest posted',
        );
        return true;
      } catch (err) {
        await options.book.release(key).catch(() => undefined);
        log.error({ err }, 'staff digest could not be posted; the next run tries again');
        return false;
      }
    },
  };
}
