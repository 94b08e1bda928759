/*
 * Claim progress pushed to its reporter (issue 40). The spec leaves every step after Documented
 * to the insurer (check, approve, settle) and names no webhook for it, so the sync's whole read of
 * both claim books is the poll: each record of a claim reported through insurechat is compared
 * with what its reporter was told, and a state they have not heard of is told once, in the
 * conversation the claim was reported in (SMS for USSD, the chat otherwise; WhatsApp picks its
 * template outside the 24-hour window), in the language they reported it in.
 */
import type { ChannelAddress, Prompt } from '../conversation/index.js';
import type { ClaimBookName, ClaimWatch, ClaimWatcher } from '../holdings/index.js';
import type { Logger } from '../log/index.js';
import type { KeyValueStore } from '../storage/index.js';
import { CLAIM_REPORT_TTL_SECONDS, type ClaimReports } from './claim-reports.js';

/** What {@link createClaimProgress} needs. */
export interface ClaimProgressOptions {
  readonly store: KeyValueStore;
  readonly prefix: string;
  readonly reports: Pick<ClaimReports, 'of' | 'watched'>;
  /** Sends one notice to a conversation; throws when the platform did not take it. */
  readonly tell: (reach: ChannelAddress, prompt: Prompt) => Promise<void>;
  readonly logger: Logger;
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
  const { store, prefix, reports, tell, logger } = options;
  const toldKey = (line: ClaimBookName, claimId: string, status: string) =>
    `${prefix}claim-told:{${line}:${claimId}}:${status}`;

  const follow = async (line: ClaimBookName, claimId: string, status: string): Promise<boolean> => {
    const report = await reports.of({ line, claimId });
    if (!report?.reach) return false;
    const key = toldKey(line, claimId, status.toLowerCase());
    if (!(await store.setIfAbsent(key, new Date().toISOString(), CLAIM_REPORT_TTL_SECONDS))) {
      return false;
    }
    try {
      await tell(report.reach, claimProgressPrompt(report.number, status));
      return true;
    } catch (error) {
      await store.delete(key);
      throw error;
    }
  };

  return {
    async begin(): Promise<ClaimWatch> {
      const watched = await reports.watched();
      const pending: Promise<boolean>[] = [];
      return {
        seen(line, claim) {
          const claimId =
            typeof claim.id === 'number' ? String(claim.id) : String(claim.id ?? '').trim();
          const status = typeof claim.status === 'string' ? claim.status.trim() : '';
          if (!claimId || !status || UNTOLD.has(status.toLowerCase())) return;
          if (!watched.has(`${line}:${claimId}`)) return;
          pending.push(follow(line, claimId, status));
        },
        async end() {
          let told = 0;
          for (const result of await Promise.allSettled(pending)) {
            if (result.status === 'fulfilled') {
              if (result.value) told += 1;
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
