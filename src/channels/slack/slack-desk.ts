import type { Prompt, Reply, TurnEngine, TurnOptions } from '../../conversation/index.js';
import type { SlackTarget } from './slack-delivery.js';

/** A staff member as the audit records them: `<team>:<user>`. */
export function staffWho(teamId: string, userId: string): string {
  return `${teamId}:${userId}`;
}

/** The staff desk's conversations as the Slack handlers reach them: one engine call each. */
export interface SlackDesk {
  /** Runs one desk command (`policy ABC123`) as a fresh query on the requester's session. */
  query(target: SlackTarget, command: string): Promise<Prompt>;
  /** Runs one desk command on the requester's App Home session, apart from their lookups. */
  queryHome(target: SlackTarget, command: string): Promise<Prompt>;
  /** Applies a reply (a button's choice) to the requester's desk session. */
  reply(target: SlackTarget, reply: Reply): Promise<Prompt>;
}

/**
 * Creates the {@link SlackDesk}: session `slack:<team>:<user>`, audience staff. Every desk command
 * is a fresh query: the desk's flow (`deskFlow`, named by src/server) started anew, running the
 * command at once, whatever screen the session was on dropped. The App Home's summary runs on a
 * session of its own (`slack-home:<team>:<user>`), apart from the desk's.
 */
export function createSlackDesk(
  engine: TurnEngine,
  deskFlow: string,
  locale: string,
  deadlineMs: number,
): SlackDesk {
  const optionsOf = (target: SlackTarget): TurnOptions => ({
    deadlineMs,
    address: {
      channel: 'slack',
      address: `${target.teamId}:${target.channelId}:${target.userId}`,
      locale,
    },
    audience: 'staff',
    // Only the allow-list reaches the desk: the member is vouched for.
    caller: { kind: 'staff', member: target.userId },
  });
  const session = (prefix: string, target: SlackTarget) =>
    `${prefix}${staffWho(target.teamId, target.userId)}`;
  const query = (prefix: string) => (target: SlackTarget, command: string) =>
    engine.start(session(prefix, target), deskFlow, { ...optionsOf(target), start: { command } });

  return {
    query: query('slack:'),
    queryHome: query('slack-home:'),
    reply: (target, reply) => engine.turn(session('slack:', target), reply, optionsOf(target)),
  };
}
