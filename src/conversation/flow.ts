import type { AnyStateMachine } from 'xstate';
import type { z } from 'zod';
import type { Principal } from '../access/index.js';
import type { Prompt } from './prompt.js';
import type { ChannelName } from './turn-engine.js';

/** Who a session serves; picks the entry menu. */
export type Audience = 'policyholder' | 'funeral-member' | 'staff';

/** Every audience, for an entry flow that serves them all (see {@link FlowDefinition.entryFor}). */
export const AUDIENCES: readonly Audience[] = ['policyholder', 'funeral-member', 'staff'];

/**
 * What every flow receives when it starts. JSON only: it is persisted with the snapshot.
 * `callerPhone` is the USSD caller's MSISDN, already normalised: the number a payment can come
 * from and a link can go to by SMS. Who may see what is decided by `principal` alone.
 */
export interface FlowInput<TStart = FlowStart> {
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
  /**
   * Where a flow opened by a hand-over (or a channel's start) begins, as that flow's own
   * {@link FlowDefinition.start} schema read it; absent for a flow that takes none.
   */
  readonly start?: TStart;
}

/**
 * What the engine starts a flow's machine with: the session's {@link FlowInput} and today's date
 * in Lusaka (`YYYY-MM-DD`), read from the one clock (src/clock) as the flow starts. Flows compare
 * typed dates with it and never read the clock themselves: between 00:00 and 02:00 in Lusaka the
 * UTC date is still yesterday.
 */
export interface FlowStartInput<TStart = FlowStart> extends FlowInput<TStart> {
  readonly today: string;
}

/**
 * Where a flow starts, opaque to the engine: a hand-over that skips the flow's first questions
 * (the entry menu's "Renew MTR-…" opens motor-quote at that renewal). Each flow says what it
 * takes with a zod schema ({@link FlowDefinition.start}), which the engine applies before the
 * flow starts. JSON only, like the rest of the input.
 */
export type FlowStart = Readonly<Record<string, unknown>>;

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
export interface FlowOutput<TFlowId extends string = string> {
  readonly prompt?: Prompt;
  /** The registered flow to hand over to (flows name their ids; the engine does not). */
  readonly next?: TFlowId;
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
  readonly id: string;
  readonly version: number;
  readonly machine: TMachine;
  /** The audiences whose fresh sessions open this flow (the entry menu); none by default. */
  readonly entryFor?: readonly Audience[];
  /**
   * What a caller who dropped mid-flow left unfinished, read from the flow's answers so far (its
   * context's `answers`): the resume offer names it. Absent, or undefined, for the plain offer.
   */
  readonly unfinished?: (answers: unknown) => Unfinished | undefined;
  /**
   * What the flow takes as its start (a hand-over's or a channel's), read by the engine before
   * the machine starts: the flow's input carries what it parsed. Without one the flow takes no
   * start and is started without it.
   */
  readonly start?: z.ZodType<FlowStart>;
}

/**
 * The start `definition` takes, read from what it was handed: undefined when the flow takes none
 * or none was given, `false` when the flow refuses it. Unknown fields are dropped (zod objects
 * strip them), so an entry menu restarted with another flow's start opens plainly.
 */
export function flowStartOf(
  definition: FlowDefinition,
  start: FlowStart | undefined,
): FlowStart | undefined | false {
  if (start === undefined || definition.start === undefined) return undefined;
  const parsed = definition.start.safeParse(start);
  return parsed.success ? parsed.data : false;
}

/** What a caller left unfinished, in the catalogue's words: a message key and its params. */
export type Unfinished = NonNullable<Prompt['notes']>[number];

/**
 * Flows by id, with their actors already provided (production or test implementations). The ids
 * are the flows' own (flows/index.ts lists them); the engine treats them as opaque strings.
 */
export type FlowRegistry = Readonly<Record<string, FlowDefinition>>;
