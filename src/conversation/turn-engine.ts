import type { ChannelName } from './channel-names.js';
import type { FlowStart, Unfinished } from './flow.js';
import type { Prompt } from './prompt.js';
import type { Reply } from './reply.js';

export type { ChannelName };

/**
 * Where a session's user can be reached outside a turn (for payment outcomes): the MSISDN for
 * USSD/SMS, the chat id for Telegram, `team:channel:user` for Slack.
 */
export interface ChannelAddress {
  readonly channel: ChannelName;
  readonly address: string;
  readonly locale: string;
}

/**
 * Who is asking, as the platform vouches: a USSD gateway for its caller's number, Slack for a
 * member its allow-list let through. Without it a session starts as nobody.
 */
export type VouchedCaller =
  | { readonly kind: 'phone'; readonly phone: string }
  /**
   * A messaging platform's verified sender (WhatsApp's wa_id): the principal, but not a handset
   * on a call, so flows get no `callerPhone` (documents come in the chat, not by an SMS link).
   */
  | { readonly kind: 'sender'; readonly phone: string }
  | { readonly kind: 'staff'; readonly member: string };

/** Options of one turn. */
export interface TurnOptions {
  /** Who is asking, when the platform vouches for it; a fresh session starts as them. */
  readonly caller?: VouchedCaller;
  /** How long the channel can wait for an answer; past it the user sees a "still working" screen. */
  readonly deadlineMs?: number;
  /** Who is on the other end, recorded so payment outcomes can be pushed back. */
  readonly address?: ChannelAddress;
  /** Which entry menu a fresh session starts on. */
  readonly audience?: 'policyholder' | 'funeral-member' | 'staff';
  /**
   * The platform started a new session for an existing conversation (a USSD re-dial): show the
   * current prompt again instead of sending the reply to the flow. Ignored for a fresh session.
   */
  readonly resume?: boolean;
  /**
   * The channel's own request, for that channel's engine middleware (a USSD gateway's call id
   * and history, with what it showed); opaque to the engine, which hands it on untouched.
   */
  readonly channelRequest?: object;
}

/** What a channel sees of its session under the lock, before deciding what a request means. */
export interface SessionGlance {
  /** The prompt the conversation waits on (or its closing screen); undefined when none. */
  readonly prompt: Prompt | undefined;
  /** True when the engine will show `prompt` again instead of applying the next reply. */
  readonly unseen: boolean;
  /** Worth a "Continue" after a dropped call: mid-flow and past the entry menu. */
  readonly resumable: boolean;
  /** What the channel stored with the record last time; undefined when nothing. */
  readonly state: string | undefined;
  /** The flow the conversation is in; undefined when none. */
  readonly flowId?: string | undefined;
  /**
   * The flow's answers so far (its context's `answers`), for a person taking the conversation
   * over; opaque here, undefined when the flow keeps none.
   */
  readonly answers?: unknown;
  /**
   * What the caller left unfinished, in words, when the flow says (its `unfinished`); read only
   * when a channel offers to resume. Undefined for the plain offer.
   */
  readonly unfinished?: Unfinished | undefined;
}

/**
 * Data another part keeps beside a conversation, read with the session (no round trip of its
 * own): the engine asks for its key on every turn with an address, and hands over what the
 * store read before the turn's flow runs. A store that cannot read it delivers nothing, and
 * the part reads it itself.
 */
export interface TurnPrefetch {
  /** The key to read with the session; undefined for none. */
  keyOf(sessionKey: string, address: ChannelAddress): string | undefined;
  /** What was read (the hash's fields; {} when it does not exist). */
  deliver(address: ChannelAddress, fields: Readonly<Record<string, string>>): void;
  /**
   * Other keys the turn may need (the card of a holder the caller may SMS), read with the session
   * where the store can; none by default.
   */
  alsoKeysOf?(address: ChannelAddress): readonly string[];
  /** What was read of one of {@link alsoKeysOf}'s keys. */
  deliverAlso?(key: string, fields: Readonly<Record<string, string>>): void;
}

/** Options of {@link TurnEngine.start}: a turn's options plus where the flow starts. */
export interface StartOptions extends TurnOptions {
  /** Where the started flow opens (a renewal, a claim); its first question when absent. */
  readonly start?: FlowStart;
}

/** The channel-facing surface of the conversation engine: one request in, one Prompt out. */
export interface TurnEngine {
  /** Applies one Reply to the session's conversation (a fresh session opens the entry menu). */
  turn(sessionKey: string, reply: Reply, options?: TurnOptions): Promise<Prompt>;
  /**
   * The Prompt the session waits on, without applying anything; for a session with nothing,
   * the entry menu's first prompt, as a fresh turn would show it (and keep it).
   */
  peek(sessionKey: string, options?: TurnOptions): Promise<Prompt>;
  /** Drops the session's current conversation and starts `flowId` (a registered flow). */
  start(sessionKey: string, flowId: string, options?: StartOptions): Promise<Prompt>;
}
