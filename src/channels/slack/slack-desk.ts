import type { Prompt, Reply, TurnEngine, TurnOptions } from '../../conversation/index.js';
import type { SlackTarget } from './slack-delivery.js';

const SESSION_PREFIX = 'slack:';
// The App Home's summary runs on its own session, apart from the desk's.
const HOME_PREFIX = 'slack-home:';

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
 * command at once.
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

  /** Runs one desk command as a fresh query on `sessionKey`: whatever screen it was on is dropped. */
  const query = (sessionKey: string, command: string, target: SlackTarget): Promise<Prompt> =>
    engine.start(sessionKey, deskFlow, { ...optionsOf(target), start: { command } });

  return {
    query: (target, command) =>
      query(`${SESSION_PREFIX}${target.teamId}:${target.userId}`, command, target),
    queryHome: (target, command) =>
      query(`${HOME_PREFIX}${target.teamId}:${target.userId}`, command, target),
    reply: (target, reply) =>
      engine.turn(`${SESSION_PREFIX}${target.teamId}:${target.userId}`, reply, optionsOf(target)),
  };
}
