import type { Logger } from '../../log/index.js';
import type { StaffAuditLog } from '../../privacy/index.js';
import { maskPersonalData } from '../../privacy/index.js';
import { type RenderPrompt, renderKey } from './render-slack-message.js';

/** How many look-ups `/insure audit` shows. */
const AUDIT_SHOWN = 20;

/** The staff audit as the desk command uses it. */
export interface SlackAudit {
  /** The latest look-ups for an admin, or the refusal; one ephemeral text either way. */
  answer(userId: string): Promise<string>;
  /**
   * Records a look-up before it runs (NRCs and phones masked); false when it could not be
   * recorded, and the look-up must then not be made. True without an audit log.
   */
  record(teamId: string, userId: string, command: string): Promise<boolean>;
}

/** What {@link createSlackAudit} needs. */
export interface SlackAuditOptions {
  readonly audit?: { readonly log: StaffAuditLog; readonly admins: readonly string[] } | undefined;
  readonly render: RenderPrompt;
  readonly locale: string;
  readonly log: Logger;
  /** Now in ms, for the entry's time. */
  readonly now: () => number;
}

/** Creates the {@link SlackAudit} over the staff audit log (or none). */
export function createSlackAudit(options: SlackAuditOptions): SlackAudit {
  const { audit, render, locale, log } = options;
  const admins = new Set(audit?.admins ?? []);
  const text = (key: string, params?: Record<string, string>) =>
    renderKey(render, key, locale, params);
  return {
    async answer(userId) {
      if (!audit || !admins.has(userId)) {
        log.info({ event: 'audit.refused' }, 'audit asked for by a non-admin');
        return text('slack.audit.refused');
      }
      const entries = await audit.log.latest(AUDIT_SHOWN);
      if (entries.length === 0) return text('slack.audit.empty');
      const lines = entries.map((entry) =>
        text('slack.audit.entry', {
          at: `${entry.at.slice(0, 16).replace('T', ' ')} UTC`,
          who: `<@${entry.who.split(':').at(-1) ?? entry.who}>`,
          what: entry.what,
        }),
      );
      return [text('slack.audit.header'), ...lines].join('\n');
    },
    async record(teamId, userId, command) {
      if (!audit) return true;
      try {
        await audit.log.append({
          who: `${teamId}:${userId}`,
          at: new Date(options.now()).toISOString(),
          what: maskPersonalData(command),
        });
        return true;
      } catch (err) {
        // An unrecorded look-up of a person is not made (Data Protection Act: accountability).
        log.error({ err }, 'staff look-up not audited; refused');
        return false;
      }
    },
  };
}
