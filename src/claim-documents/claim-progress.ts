/*
 * Claim progress pushed to its reporter and to its holder (issue 40). The spec leaves every step
 * after Documented to the insurer (check, approve, settle) and names no webhook for it, so the
 * sync's whole read of both claim books is the poll. Each record of a claim reported through
 * insurechat is compared with what its reporter was told, and a state they have not heard of is
 * told once, in the conversation the claim was reported in (SMS for USSD, the chat otherwise;
 * WhatsApp picks its template outside the 24-hour window), in the language they reported it in.
 * The member or borrower the claim names is told too, once per state, where their phone last
 * spoke with insurechat (phone-reach.ts): the phones on record for them at the insurer by the
 * access rule, never one only typed; not twice when they reported it themselves.
 */
import { createHash } from 'node:crypto';
import type { ChannelAddress, Prompt } from '../conversation/index.js';
import type { ClaimBookName, ClaimWatch, ClaimWatcher } from '../holdings/index.js';
import type { Logger } from '../log/index.js';
import { normaliseCaller, sameMsisdn } from '../msisdn/index.js';
import type { KeyValueStore } from '../storage/index.js';
import { CLAIM_REPORT_TTL_SECONDS, type ClaimReport, type ClaimReports } from './claim-reports.js';
import type { PhoneReach } from './phone-reach.js';

/** What {@link createClaimProgress} needs. */
export interface ClaimProgressOptions {
  readonly store: KeyValueStore;
  readonly prefix: string;
  readonly reports: Pick<ClaimReports, 'of' | 'watched'>;
  /** Sends one notice to a conversation; throws when the platform did not take it. */
  readonly tell: (reach: ChannelAddress, prompt: Prompt) => Promise<void>;
  readonly logger: Logger;
  /**
   * The claim's holders: the phones on record at the insurer for the member or borrower it names,
   * by the access rule (src/access). Asked once per claim and state. Without it (or `reach`) only
   * reporters are told.
   */
  readonly holdersOf?:
    | ((
        line: ClaimBookName,
        claim: Readonly<Record<string, unknown>>,
      ) => Promise<readonly string[]>)
    | undefined;
  /** Where a holder's phone last spoke with insurechat. */
  readonly reach?: Pick<PhoneReach, 'of'> | undefined;
}

/**
 * States a reporter is not told of: Intimated is what they saw when they reported it. Documented
 * is told: documents held for a claim to verify reach the insurer when staff confirm it, later.
 */
const UNTOLD = new Set(['intimated']);

/** The notice for a claim now in `status` (the insurer's word, shown through insurer-words). */
export function claimProgressPrompt(number: string, status: string): Prompt {
  return status.trim().toLowerCase() === 'documented'
    ? { key: 'claim.progress.documented', params: { number }, input: 'none', final: true }
    : {
        key: 'claim.progress',
        params: { number, insurerStatus: status },
        input: 'none',
        final: true,
      };
}

/**
 * The claim watcher the sync runs: one read of the claims to follow per run, then for each of
 * their records in a state not yet told, one notice. "Told" is taken before the notice is sent
 * (two instances reading the books at once tell once) and given back when the send fails, so the
 * next run tries again.
 */
export function createClaimProgress(options: ClaimProgressOptions): ClaimWatcher {
  const { store, prefix, reports, tell, logger, holdersOf, reach } = options;
  const toldKey = (line: ClaimBookName, claimId: string, status: string) =>
    `${prefix}claim-told:{${line}:${claimId}}:${status}`;

  /** Takes "told" under `key`, tells, and gives it back when the send fails. */
  const tellOnce = async (key: string, to: ChannelAddress, prompt: Prompt): Promise<boolean> => {
    if (!(await store.setIfAbsent(key, new Date().toISOString(), CLAIM_REPORT_TTL_SECONDS))) {
      return false;
    }
    try {
      await tell(to, prompt);
      return true;
    } catch (error) {
      await store.delete(key);
      throw error;
    }
  };

  const follow = async (line: ClaimBookName, claimId: string, status: string): Promise<number> => {
    const report = await reports.of({ line, claimId });
    if (!report?.reach) return 0;
    const key = toldKey(line, claimId, status.toLowerCase());
    return (await tellOnce(key, report.reach, claimProgressPrompt(report.number, status))) ? 1 : 0;
  };

  /** Tells the claim's holders who did not report it, each where their phone last spoke. */
  const tellHolders = async (
    claim: { line: ClaimBookName; claimId: string; number: string },
    record: Readonly<Record<string, unknown>>,
    status: string,
    watched: boolean,
  ): Promise<number> => {
    if (!holdersOf || !reach) return 0;
    const stateKey = toldKey(claim.line, claim.claimId, status.toLowerCase());
    // Who holds it is asked of the insurer once per claim and state, not on every read.
    const asked = `${stateKey}:holders`;
    if (!(await store.setIfAbsent(asked, new Date().toISOString(), CLAIM_REPORT_TTL_SECONDS))) {
      return 0;
    }
    let told = 0;
    try {
      const phones = new Set((await holdersOf(claim.line, record)).map((p) => normaliseCaller(p)));
      const report: ClaimReport | undefined = watched
        ? await reports.of({ line: claim.line, claimId: claim.claimId })
        : undefined;
      for (const phone of phones) {
        if (!phone) continue;
        // The reporter is told in the conversation they reported it in (see `follow`).
        if (report?.reach && report.phone && sameMsisdn(report.phone, phone)) continue;
        const to = await reach.of(phone);
        if (!to) continue;
        if (report?.reach?.channel === to.channel && report.reach.address === to.address) continue;
        // Keyed by a digest of the phone, never the phone: told once per state.
        const holder = createHash('sha256').update(phone).digest('base64url').slice(0, 16);
        if (
          await tellOnce(`${stateKey}:h:${holder}`, to, claimProgressPrompt(claim.number, status))
        )
          told += 1;
      }
    } catch (error) {
      // Asked again next run; a holder told already keeps their own "told".
      await store.delete(asked);
      throw error;
    }
    return told;
  };

  return {
    async begin(): Promise<ClaimWatch> {
      const watched = await reports.watched();
      const pending: Promise<number>[] = [];
      return {
        seen(line, claim) {
          const claimId =
            typeof claim.id === 'number' ? String(claim.id) : String(claim.id ?? '').trim();
          const status = typeof claim.status === 'string' ? claim.status.trim() : '';
          if (!claimId || !status || UNTOLD.has(status.toLowerCase())) return;
          const reported = watched.has(`${line}:${claimId}`);
          if (reported) pending.push(follow(line, claimId, status));
          const number = typeof claim.claimNumber === 'string' ? claim.claimNumber.trim() : '';
          if (number) pending.push(tellHolders({ line, claimId, number }, claim, status, reported));
        },
        async end() {
          let told = 0;
          for (const result of await Promise.allSettled(pending)) {
            if (result.status === 'fulfilled') {
              told += result.value;
              continue;
            }
            // The error's class only: a platform's answer may quote the message and address.
            const reason = result.reason instanceof Error ? result.reason.name : 'unknown';
            logger.warn(
              { event: 'claims.progress.untold', reason },
              'claim progress not told; tried again next run',
            );
          }
          return told;
        },
      };
    },
  };
}
