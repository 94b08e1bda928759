import type { Logger } from '../../log/index.js';
import type {
  AUDIT_ROUTES,
  AuditBreak,
  AuditEntry,
  AuditVerdict,
  StaffAuditLog,
} from '../../privacy/index.js';
import { escapeMrkdwn, type RenderPrompt, renderKey } from './render-slack-message.js';

/** How many look-ups `/insure audit` shows. */
const AUDIT_SHOWN = 20;

/** How a look-up reached the desk. */
type AuditRoute = (typeof AUDIT_ROUTES)[number];

/** One look-up, or an attempt at one, as a Slack handler sees it. */
export interface LookupAttempt {
  readonly teamId: string;
  readonly userId: string;
  readonly route: AuditRoute;
  /** What was asked for: the command as typed, or what a button or the App Home runs. */
  readonly what: string;
}

/** The staff audit as the desk's handlers use it. */
export interface SlackAudit {
  /**
   * `/insure audit` (the latest look-ups) or `/insure audit verify` (the chain's verdict) for an
   * admin; the refusal for anyone else, recorded as a refused attempt. One ephemeral text.
   */
  answer(teamId: string, userId: string, args: string): Promise<string>;
  /**
   * Records a look-up before it runs (masked by the audit log); false when it could not be
   * recorded, and the look-up must then not be made. True without an audit log.
   */
  record(attempt: LookupAttempt): Promise<boolean>;
  /** Records an attempt that was refused (not on the allow-list); never throws. */
  refused(attempt: LookupAttempt): Promise<void>;
}

/** What {@link createSlackAudit} needs. */
interface SlackAuditOptions {
  readonly audit?: { readonly log: StaffAuditLog; readonly admins: readonly string[] } | undefined;
  readonly render: RenderPrompt;
  readonly locale: string;
  readonly log: Logger;
}

// Slack user ids are capitals and digits: anything else in `who` is shown as text, never a mention.
const USER_ID = /^[UW][A-Z0-9]{2,}$/;

/** The staff id as Slack shows it: a mention of the user, or the text when it is not an id. */
function whoShown(who: string): string {
  const user = who.split(':').at(-1) ?? who;
  return USER_ID.test(user) ? `<@${user}>` : escapeMrkdwn(who);
}

/**
 * `what` as inert text: `&`, `<`, `>` escaped (no mention, channel ping or link can form), inside
 * inline code so `*`, `_` and `~` format nothing; a backtick, which would end the code, is shown
 * as a similar mark. The log already keeps it on one line.
 */
function whatShown(what: string): string {
  return `\`${escapeMrkdwn(what.replace(/`/g, 'ˋ'))}\``;
}

/** Creates the {@link SlackAudit} over the staff audit log (or none). */
export function createSlackAudit(options: SlackAuditOptions): SlackAudit {
  const { audit, render, locale, log } = options;
  const admins = new Set(audit?.admins ?? []);
  const text = (key: string, params?: Record<string, string | number>) =>
    renderKey(render, key, locale, params);
  const timeOf = (at: string) => `${at.slice(0, 16).replace('T', ' ')} UTC`;

  async function append(attempt: LookupAttempt, outcome: AuditEntry['outcome']): Promise<void> {
    if (!audit) return;
    await audit.log.append({
      who: `${attempt.teamId}:${attempt.userId}`,
      route: attempt.route,
      outcome,
      what: attempt.what,
    });
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
    async answer(teamId, userId, args) {
      const verify = /^verify\b/i.test(args.trim());
      const attempt = {
        teamId,
        userId,
        route: 'command',
        what: verify ? 'audit verify' : 'audit',
      } as const;
      if (!audit || !admins.has(userId)) {
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
          who: whoShown(entry.who),
          via: text(`slack.audit.via.${entry.route}`),
          what: whatShown(entry.what),
        }),
      );
      return [text('slack.audit.header'), ...lines].join('\n');
    },
    record: (attempt) => (audit ? record(attempt) : Promise.resolve(true)),
    refused,
  };
}
