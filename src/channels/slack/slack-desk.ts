import type {
  ChannelStateHook,
  Prompt,
  Reply,
  TurnEngine,
  TurnOptions,
} from '../../conversation/index.js';
import type { SlackTarget } from './slack-delivery.js';

// Every slash command is a fresh query: whatever screen the session was on is dropped, and the
// desk is entered anew (the engine's `restart` decision, under the session lock).
const RESTART: ChannelStateHook = { decide: () => ({ kind: 'restart', state: () => undefined }) };
const SESSION_PREFIX = 'slack:';
// The App Home's summary runs on its own session, apart from the desk's.
const HOME_PREFIX = 'slack-home:';
// The staff entry menu's message key (flows/main-menu.ts: `menu.<audience>`).
const STAFF_MENU_KEY = 'menu.staff';

/** The staff desk's conversations as the Slack handlers reach them: one engine call each. */
export interface SlackDesk {
  /** Runs one desk command (`policy ABC123`) as a fresh query on the requester's session. */
  query(target: SlackTarget, command: string): Promise<Prompt>;
  /** Runs one desk command on the requester's App Home session, apart from their lookups. */
  queryHome(target: SlackTarget, command: string): Promise<Prompt>;
  /** Applies a reply (a button's choice) to the requester's desk session. */
  reply(target: SlackTarget, reply: Reply): Promise<Prompt>;
}

/** Creates the {@link SlackDesk}: session `slack:<team>:<user>`, audience staff. */
export function createSlackDesk(engine: TurnEngine, locale: string, deadlineMs: number): SlackDesk {
  const optionsOf = (target: SlackTarget): TurnOptions => ({
    deadlineMs,
    address: {
      channel: 'slack',
      address: `${target.teamId}:${target.channelId}:${target.userId}`,
      locale,
    },
    audience: 'staff',
  });

  /**
   * Runs one desk command as a fresh query on `sessionKey`: the session restarts on the staff
   * menu, whose only entry is the desk; the desk is entered and the command typed there.
   */
  async function query(sessionKey: string, command: string, options: TurnOptions): Promise<Prompt> {
    const typed = { type: 'user.text', text: command } as const;
    const menu = await engine.handle(sessionKey, typed, { ...options, channelState: RESTART });
    const [only, ...others] = menu.choices ?? [];
    if (menu.key !== STAFF_MENU_KEY || !only || others.length > 0) return menu;
    const entered = await engine.handle(sessionKey, { type: 'user.choice', id: only.id }, options);
    return entered.final ? entered : engine.handle(sessionKey, typed, options);
  }

  return {
    query: (target, command) =>
      query(`${SESSION_PREFIX}${target.teamId}:${target.userId}`, command, optionsOf(target)),
    queryHome: (target, command) =>
      query(`${HOME_PREFIX}${target.teamId}:${target.userId}`, command, optionsOf(target)),
    reply: (target, reply) =>
      engine.handle(`${SESSION_PREFIX}${target.teamId}:${target.userId}`, reply, optionsOf(target)),
  };
}
