import type { Logger } from '../log/index.js';
import type {
  AuditAttempt,
  AuditBreak,
  AuditEntry,
  AuditVerdict,
  StaffAuditLog,
} from './staff-audit.js';

/** How many look-ups the audit's reading (`/insure audit`) shows. */
const AUDIT_SHOWN = 20;

/** One look-up, or an attempt at one, before its outcome: who asked, how, and for what. */
export type LookupAttempt = Omit<AuditAttempt, 'outcome'>;

/** The staff member asking: as the audit records them, and their id on the admin list. */
interface StaffMember {
  /** As the audit records them (Slack `<team>:<user>`). */
  readonly who: string;
  /** Their id on the admin list (a Slack user id). */
  readonly member: string;
}

/** The staff audit as a staff desk uses it: look-ups recorded before they run, read by admins. */
export interface StaffLookups {
  /**
   * The latest look-ups (`args` empty) or the chain's verdict (`args` starting `verify`) for an
   * admin; the refusal for anyone else, recorded as a refused attempt. One text.
   */
  answer(asker: StaffMember, args: string): Promise<string>;
  /**
   * Records a look-up before it runs (masked by the audit log); false when it could not be
   * recorded, and the look-up must then not be made. True without an audit log.
   */
  record(attempt: LookupAttempt): Promise<boolean>;
  /** Records an attempt that was refused (not on the allow-list); never throws. */
  refused(attempt: LookupAttempt): Promise<void>;
}

/** What {@link createStaffLookups} needs. */
interface StaffLookupsOptions {
  /** The audit log and the admins who may read it; without it nothing is recorded. */
  readonly audit?: { readonly log: StaffAuditLog; readonly admins: readonly string[] } | undefined;
  /** One message key's text (`slack.audit.*`). */
  readonly text: (key: string, params?: Record<string, string | number>) => string;
  /** How the staff channel shows an entry's `who` and `what` as inert text. */
  readonly shown: { who(who: string): string; what(what: string): string };
  readonly log: Logger;
}

/** Creates the {@link StaffLookups} over the staff audit log (or none). */
export function createStaffLookups(options: StaffLookupsOptions): StaffLookups {
  const { audit, text, shown, log } = options;
  const admins = new Set(audit?.admins ?? []);
  const timeOf = (at: string) => `${at.slice(0, 16).replace('T', ' ')} UTC`;

  async function append(attempt: LookupAttempt, outcome: AuditEntry['outcome']): Promise<void> {
    if (!audit) return;
    await audit.log.append({ who: attempt.who, route: attempt.route, outcome, what: attempt.what });
  }

  async function record(attempt: LookupAttempt): Promise<boolean> {
    try {
      await append(attempt, 'looked-up');
      return true;
    } catch (err) {
      // An unrecorded look-up of a person is not made (Data Protection Act: accountability).
      log.error({ err }, 'staff look-up not audited; refused');
      return false;
    }
  }

  async function refused(attempt: LookupAttempt): Promise<void> {
    try {
      await append(attempt, 'refused');
    } catch (err) {
      // The attempt is refused either way; only its record is lost, and the log says so.
      log.error({ err }, 'refused staff look-up not audited');
    }
  }

  const breakLine = (found: AuditBreak): string => {
    switch (found.kind) {
      case 'gap':
        return text('slack.audit.break.gap', { at: timeOf(found.after), missing: found.missing });
      case 'trimmed':
        return text('slack.audit.break.trimmed', {
          at: timeOf(found.before),
          missing: found.missing,
        });
      case 'newest-missing':
        return text('slack.audit.break.newest', {
          at: found.after ? timeOf(found.after) : '-',
          missing: found.missing,
        });
      case 'altered':
        return text('slack.audit.break.altered', { at: timeOf(found.at) });
      case 'head-missing':
        return text('slack.audit.break.headMissing');
      case 'head-altered':
        return text('slack.audit.break.headAltered');
    }
  };

  const verdictText = (verdict: AuditVerdict): string =>
    verdict.intact
      ? text('slack.audit.verify.intact', { entries: verdict.entries })
      : [
          text('slack.audit.verify.broken', { entries: verdict.entries }),
          ...verdict.breaks.map(breakLine),
        ].join('\n');

  return {
    async answer(asker, args) {
      const verify = /^verify\b/i.test(args.trim());
      const attempt = {
        who: asker.who,
        route: 'command',
        what: verify ? 'audit verify' : 'audit',
      } as const;
      if (!audit || !admins.has(asker.member)) {
        log.info({ event: 'audit.refused' }, 'audit asked for by a non-admin');
        await refused(attempt);
        return text('slack.audit.refused');
      }
      // Reading the audit is recorded too (who watched the watchers). A verify is recorded once
      // it has walked the chain, so its verdict is about the chain as it was when asked for.
      if (verify) {
        const verdict = await audit.log.verify();
        return (await record(attempt)) ? verdictText(verdict) : text('slack.audit.unavailable');
      }
      if (!(await record(attempt))) return text('slack.audit.unavailable');
      const entries = await audit.log.latest(AUDIT_SHOWN);
      if (entries.length === 0) return text('slack.audit.empty');
      const lines = entries.map((entry) =>
        text(entry.outcome === 'refused' ? 'slack.audit.entry.refused' : 'slack.audit.entry', {
          at: timeOf(entry.at),
          who: shown.who(entry.who),
          via: text(`slack.audit.via.${entry.route}`),
          what: shown.what(entry.what),
        }),
      );
      return [text('slack.audit.header'), ...lines].join('\n');
    },
    record: (attempt) => (audit ? record(attempt) : Promise.resolve(true)),
    refused,
  };
}
