import type { Prompt } from './prompt.js';
import type { Reply } from './reply.js';

/** The platforms insurechat speaks on. */
export type ChannelName = 'ussd' | 'telegram' | 'slack' | 'web';

/**
 * Where a session's user can be reached outside a turn (for payment outcomes): the MSISDN for
 * USSD/SMS, the chat id for Telegram, `team:channel:user` for Slack.
 */
export interface ChannelAddress {
  readonly channel: ChannelName;
  readonly address: string;
  readonly locale: string;
}

/** Options of one turn. */
export interface TurnOptions {
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
}

/** The channel-facing surface of the conversation engine: one Reply in, one Prompt out. */
export interface TurnEngine {
  handle(sessionKey: string, reply: Reply, options?: TurnOptions): Promise<Prompt>;
}
