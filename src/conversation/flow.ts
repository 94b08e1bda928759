import type { AnyStateMachine } from 'xstate';
import type { Principal } from '../access/index.js';
import type { Prompt } from './prompt.js';
import type { ChannelName } from './turn-engine.js';

/**
 * The ids `flows/index.ts` registers. The engine names no flow: it takes ids as strings and
 * opens the flow whose definition is `entryFor` a fresh session's audience.
 * Flows and their tests use it; it moves to `flows/` with the registry.
 */
export type FlowId =
  | 'main-menu'
  | 'motor-quote'
  | 'travel-issue'
  | 'claim-intimation'
  | 'cover-status'
  | 'staff-desk'
  | 'my-data';

/**
 * What staff can look up at the desk: the staff-desk flow's topics, and the first word of a desk
 * command Slack's `/insure` passes on ({@link FlowStart.command}).
 */
export const STAFF_TOPICS = [
  'policy',
  'claim',
  'claims',
  'txn',
  'household',
  'batch',
  'bordereau',
  'today',
  'sync',
  'confirm',
] as const;

/** One of {@link STAFF_TOPICS}. */
export type StaffTopic = (typeof STAFF_TOPICS)[number];

/** Who a session serves; picks the entry menu. */
export type Audience = 'policyholder' | 'funeral-member' | 'staff';

/** Every audience, for an entry flow that serves them all (see {@link FlowDefinition.entryFor}). */
export const AUDIENCES: readonly Audience[] = ['policyholder', 'funeral-member', 'staff'];

/**
 * What every flow receives when it starts. JSON only: it is persisted with the snapshot.
 * `callerPhone` is the USSD caller's MSISDN, already normalised: the number a payment can come
 * from and a link can go to by SMS. Who may see what is decided by `principal` alone.
 */
export interface FlowInput {
  readonly audience: Audience;
  readonly locale: string;
  /**
   * Who is asking, as the engine established it: flows hand it to their actors, which ask
   * src/access what it may learn; flows never read channel fields for this.
   */
  readonly principal: Principal;
  readonly callerPhone?: string;
  /**
   * Where this conversation's user is reached outside a turn, set by the engine when the channel
   * says who is on the other end. Flows only hand it to the payment actors, so an outcome the
   * insurer reports later comes back to this conversation; they never read it.
   */
  readonly route?: TurnRoute;
  /** Where a flow opened by a hand-over starts, when the flow handing over said (see FlowStart). */
  readonly start?: FlowStart;
}

/**
 * What the engine starts a flow's machine with: the session's {@link FlowInput} and today's date
 * in Lusaka (`YYYY-MM-DD`), read from the one clock (src/clock) as the flow starts. Flows compare
 * typed dates with it and never read the clock themselves: between 00:00 and 02:00 in Lusaka the
 * UTC date is still yesterday.
 */
export interface FlowStartInput extends FlowInput {
  readonly today: string;
}

/**
 * A hand-over that skips the flow's first questions: the entry menu's "Renew MTR-…" opens
 * motor-quote at the renewal of that policy. JSON only, like the rest of the input.
 */
export interface FlowStart {
  readonly renewal?: { readonly policyId: string; readonly policyNumber: string };
  /** My cover's "Make a claim": claim-intimation opens at the claim on this loan or membership. */
  readonly claim?: ClaimStart;
  /**
   * A menu entry chosen outside the menu (Telegram's /status, a reminder's "Renew now"): the
   * entry menu opens and takes it as its first answer.
   */
  readonly pick?: string;
  /** A desk command typed with Slack's `/insure`: the staff desk opens running it. */
  readonly command?: string;
}

/** A loan or membership a claim starts from, as My cover hands it to claim-intimation. */
export interface ClaimStart {
  readonly line: 'credit-life' | 'group-life';
  /** The insurer's policy id. */
  readonly policyId: string;
  /** How the loan or member is identified to the insurer: its id on the policy. */
  readonly by: 'loanId' | 'memberId';
  readonly subject: string;
  /** The printed loan reference or policy number the customer knows it by. */
  readonly number: string;
  /** Whose cover it is (the member's name) or on which policy (the loan's). */
  readonly covers: string;
  /**
   * The NRC covered, as the insurer's loan or member record read it: who is on record for a claim
   * on it is asked beside the claim's intimation, not after it (issue 38). Never typed.
   */
  readonly nrc?: string;
}

/** A conversation and the address its user is reached at (the shape of a payment route). */
export interface TurnRoute {
  readonly sessionKey: string;
  readonly channel: ChannelName;
  readonly address: string;
  readonly locale: string;
}

/**
 * Every flow's context carries the Prompt its current state shows. The engine reads it when the
 * snapshot has the `awaitingInput` tag; flows set it in entry actions.
 */
export interface FlowContextBase {
  prompt: Prompt;
}

/**
 * What a flow returns when it reaches its final state: the closing screen, or a hand-over to
 * another flow (main-menu hands over to the flow the user picked).
 */
export interface FlowOutput {
  readonly prompt?: Prompt;
  readonly next?: FlowId;
  /** With `next`: where that flow starts. */
  readonly start?: FlowStart;
  /**
   * The session ends with this closing screen, even where the channel would keep it (a USSD
   * gateway's retry, a late answer): the user declined the privacy notice or erased their data.
   */
  readonly forget?: true;
}

/** Tag on every state that waits for the user: a turn ends when the snapshot has it or is done. */
export const AWAITING_INPUT = 'awaitingInput';

/**
 * A flow as the engine sees it. `version` changes whenever the machine's states or context
 * change shape; a snapshot of another version restarts the flow with a polite message.
 */
export interface FlowDefinition<TMachine extends AnyStateMachine = AnyStateMachine> {
  readonly id: FlowId;
  readonly version: number;
  readonly machine: TMachine;
  /** The audiences whose fresh sessions open this flow (the entry menu); none by default. */
  readonly entryFor?: readonly Audience[];
  /**
   * What a caller who dropped mid-flow left unfinished, read from the flow's answers so far (its
   * context's `answers`): the resume offer names it. Absent, or undefined, for the plain offer.
   */
  readonly unfinished?: (answers: unknown) => Unfinished | undefined;
}

/** What a caller left unfinished, in the catalogue's words: a message key and its params. */
export type Unfinished = NonNullable<Prompt['notes']>[number];

/** Flows by id, with their actors already provided (production or test implementations). */
export type FlowRegistry = Readonly<Record<FlowId, FlowDefinition>>;
