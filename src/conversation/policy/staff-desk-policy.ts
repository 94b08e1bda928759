import type { Prompt } from '../prompt.js';
import type { ChannelAddress, TurnEngine, TurnOptions } from '../turn-engine.js';

/**
 * The staff desk's words a staff channel acts on, declared here so the channel names none and
 * the desk flow (flows/staff-desk.ts) uses the same: `help` and `audit` as a command's first
 * word, the "Another lookup" choice (a typed command instead of a turn), the App Home's query.
 */
export const DESK_WORDS = {
  help: 'help',
  audit: 'audit',
  another: 'another',
  today: 'today',
} as const;

/** How a look-up reached the desk, as the staff audit records it. */
type DeskRoute = 'command' | 'modal' | 'button' | 'home';

/** What a staff member typed, as the desk reads it. */
export type DeskCommand =
  | { readonly kind: 'lookup'; readonly text: string }
  /** The audit's reading, for its admins: `args` after the word (`verify`). */
  | { readonly kind: 'audit'; readonly args: string }
  /** The list of commands; `unknown` the first word when it was not one. */
  | { readonly kind: 'help'; readonly unknown?: string };

/** The staff member asking, as the staff channel vouches for them (its allow-list let them in). */
interface DeskAsker {
  /** As the audit records them and their sessions are keyed (Slack `<team>:<user>`). */
  readonly who: string;
  /** Their id on the platform (a Slack user id). */
  readonly member: string;
  /** Where they asked from; its channel names their sessions. */
  readonly address: ChannelAddress;
}

/** The staff desk as a staff channel uses it: a command read, a look-up audited, then run. */
export interface StaffDesk {
  /** Reads a typed command: a look-up (a desk topic or `help`), the audit, or the help. */
  read(text: string): DeskCommand;
  /** True when a command typed where only look-ups are asked for (a lookup modal) can run. */
  runs(text: string): boolean;
  /**
   * Runs a typed command as a fresh query: the desk flow started anew with it, whatever the
   * session was on. Recorded in the audit first; one that cannot be recorded is not run and
   * answers `slack.audit.unavailable` instead. The App Home's look-up (`home`) runs on a session
   * of its own (`<channel>-home:<who>`), apart from the desk's (`<channel>:<who>`).
   */
  query(asker: DeskAsker, route: Exclude<DeskRoute, 'button'>, command: string): Promise<Prompt>;
  /** Applies a choice (a button) to the desk session, recorded first as a query is. */
  choose(asker: DeskAsker, id: string): Promise<Prompt>;
}

/** What {@link staffDeskPolicy} needs. */
interface StaffDeskOptions {
  readonly engine: TurnEngine;
  /** The staff desk's flow id (src/server names it from flows/). */
  readonly flowId: string;
  /** The desk's topics: the first words of a look-up (the desk flow's list). */
  readonly topics: readonly string[];
  /** How long a look-up may take before the engine answers "still working". */
  readonly deadlineMs: number;
  /** Records a look-up before it runs; false when it could not be (then it is not run). */
  record(attempt: { who: string; route: DeskRoute; what: string }): Promise<boolean>;
}

// A look-up of a person that cannot be recorded is not made (Data Protection Act: accountability).
const UNRECORDED: Prompt = { key: 'slack.audit.unavailable', input: 'none', final: true };

/**
 * The staff desk's policy: what a desk command means (a look-up, the audit, the help), and that
 * every look-up is audited before it runs and refused when it cannot be. The channel hands over
 * what was typed or tapped, and renders what comes back.
 */
export function staffDeskPolicy(options: StaffDeskOptions): StaffDesk {
  const { engine, flowId, topics, record } = options;
  // Staff only, the member vouched for: the desk's menu and flows are the staff's.
  const turnOptions = (asker: DeskAsker): TurnOptions => ({
    deadlineMs: options.deadlineMs,
    address: asker.address,
    audience: 'staff',
    caller: { kind: 'staff', member: asker.member },
  });
  const session = (asker: DeskAsker, home = false) =>
    `${asker.address.channel}${home ? '-home' : ''}:${asker.who}`;
  const wordOf = (text: string) => (text.split(/\s+/)[0] ?? '').toLowerCase();
  return {
    runs: (text) => wordOf(text) === DESK_WORDS.help || topics.includes(wordOf(text)),
    read(text) {
      const word = wordOf(text);
      if (word === DESK_WORDS.audit) return { kind: 'audit', args: text.slice(word.length) };
      if (word === DESK_WORDS.help || word === '') return { kind: 'help' };
      return topics.includes(word) ? { kind: 'lookup', text } : { kind: 'help', unknown: word };
    },
    async query(asker, route, command) {
      if (!(await record({ who: asker.who, route, what: command }))) return UNRECORDED;
      const start = { ...turnOptions(asker), start: { command } };
      return engine.start(session(asker, route === 'home'), flowId, start);
    },
    async choose(asker, id) {
      if (!(await record({ who: asker.who, route: 'button', what: id }))) return UNRECORDED;
      return engine.turn(session(asker), { type: 'user.choice', id }, turnOptions(asker));
    },
  };
}
