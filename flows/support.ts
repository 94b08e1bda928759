import {
  and,
  assertEvent,
  assign,
  type ErrorActorEvent,
  type EventObject,
  fromPromise,
} from 'xstate';
import { ApiError, classifyApiError, ValidationError } from '../src/api/index.js';
import type { FlowOutput } from '../src/conversation/flow.js';
import type { InsurerWordKind } from '../src/conversation/index.js';
import type { Choice, InputKind, MessageParams, Prompt } from '../src/conversation/prompt.js';
import type { Reply } from '../src/conversation/reply.js';
import { LimitReachedError } from '../src/limits/index.js';
import { PaymentGuardError } from '../src/payments/index.js';

/**
 * After this many bad answers in a row to one question, the question is explained once more with
 * its ways out. The call never ends on its own: answers already given are kept.
 */
const MAX_TRIES = 3;

/**
 * Machine-level transitions every flow shares for replies its current screen does not handle:
 * Cancel ends, a stray text, choice, photo or contact re-asks. Needs the flow's setup to name the
 * `unexpected` action.
 */
export const UNEXPECTED_REPLIES = {
  'user.cancel': '.cancelled',
  'user.text': { actions: 'unexpected' },
  'user.choice': { actions: 'unexpected' },
  'user.photo': { actions: 'unexpected' },
  'user.contact': { actions: 'unexpected' },
} as const;

/**
 * {@link UNEXPECTED_REPLIES} for a flow whose every End closes it as Cancel does: End, on a screen
 * that offers it, ends the flow from any stage, so no screen names the closing state; any other
 * choice no screen takes re-asks. Needs {@link replyGuards} (`endOffered`).
 */
export const ENDING_REPLIES = {
  ...UNEXPECTED_REPLIES,
  'user.choice': [{ guard: 'endOffered', target: '.cancelled' }, { actions: 'unexpected' }],
} as const;

/**
 * The closing marker of a flow left by Back on its first screen: {@link flowOutput} turns it into
 * a hand-over to the main menu, so it is never shown.
 */
export const TO_MAIN_MENU: Prompt = end('flow.end.mainMenu');

/**
 * Every flow's output: its closing screen, or the main menu when it ended on {@link TO_MAIN_MENU}
 * (Back on a first screen returns to the menu instead of ending the call; Cancel still ends it).
 */
export const flowOutput = ({ context }: { context: { prompt: Prompt } }): FlowOutput<FlowId> =>
  context.prompt.key === TO_MAIN_MENU.key ? { next: 'main-menu' } : { prompt: context.prompt };

/** Builds a Prompt; `notes` are extra message keys such as a validation reason. */
export function ask(
  key: string,
  input: InputKind,
  extra: {
    params?: MessageParams;
    choices?: Choice[];
    note?: Note | null;
    attachments?: Prompt['attachments'];
  } = {},
): Prompt {
  const prompt: Prompt = { key, input, final: false };
  if (extra.params) prompt.params = extra.params;
  if (extra.choices) prompt.choices = extra.choices;
  if (extra.note) prompt.notes = [extra.note];
  if (extra.attachments) prompt.attachments = extra.attachments;
  return prompt;
}

/** A closing screen. */
export function end(
  key: string,
  params?: MessageParams,
  attachments?: Prompt['attachments'],
): Prompt {
  const prompt: Prompt = { key, input: 'none', final: true };
  if (params) prompt.params = params;
  if (attachments) prompt.attachments = attachments;
  return prompt;
}

/** A catalogue-keyed choice. */
export function choice(id: string, label: string, params?: MessageParams): Choice {
  return params ? { id, label, params } : { id, label };
}

/**
 * A choice whose label is insurer data (a product or package name); with `words`, shown in the
 * caller's words when the one mapping knows it (src/conversation/insurer-words.ts), else as is.
 */
export function dataChoice(id: string, label: string, words?: InsurerWordKind): Choice {
  return words ? { id, label, literal: true, words } : { id, label, literal: true };
}

/** A note shown under a Prompt: a validation reason or a notice. */
export interface Note {
  key: string;
  params?: MessageParams;
}

/** Outcome of checking one typed answer; `reason` is a note key telling the user what to fix. */
export type Checked<T> =
  | { ok: true; value: T }
  | { ok: false; reason: string; params?: MessageParams | undefined };

/** What went wrong with an API call, in the terms the user is told about. */
export interface Failure {
  /**
   * `timeout`, `unavailable` (5xx, 429, network), `rejected` (400/409/422), `notFound`, `denied`,
   * `unchecked` (the answer cannot be known now: {@link UnknownAnswerError}), `limited` (asked too
   * often: src/limits refused), `unknown`.
   */
  kind:
    | 'timeout'
    | 'unavailable'
    | 'rejected'
    | 'notFound'
    | 'denied'
    | 'unchecked'
    | 'limited'
    | 'unknown';
  /** The answer the insurer objected to, as the field's own name (`chassisNumber`), when it said. */
  field?: string;
  /** The insurer's own words about that answer, when they read as a sentence for the user. */
  said?: string;
  /** Why we refused it ourselves (a claim already open), in the catalogue's words. */
  note?: Note;
}

/**
 * Raised by an actor that refuses a request itself, before or instead of the insurer: a second
 * open claim for the same member or loan, a record that is not the caller's. The user is told
 * `note` on a screen that offers no "Try again".
 */
export class RefusalError extends Error {
  override readonly name = 'RefusalError';
  constructor(readonly note: Note) {
    super(`refused: ${note.key}`);
  }
}

/**
 * Raised by an actor that cannot know the answer in time (its index is cold or behind and the
 * insurer could not be asked): never a "none". Its screen is `note` (what could not be checked)
 * with "Try again": the insurer may well be up.
 */
export class UnknownAnswerError extends Error {
  override readonly name = 'UnknownAnswerError';
  constructor(readonly note: Note) {
    super(`unknown: ${note.key}`);
  }
}

/**
 * Failures that the same request can never get past: trying again would only fail again. A 401 or
 * 403 is about insurechat's own credentials, which a refreshed token may fix: it keeps Try again.
 */
const PERMANENT: ReadonlySet<Failure['kind']> = new Set(['rejected', 'notFound', 'limited']);

/** A field path or bare identifier the user must never see (`risks.0.vehicleId`, `clientId`). */
const FIELD_PATH = /\w+\.\d+\.\w+|\b[a-z]+[A-Z]\w*\b|\w+\.\w+/;

/** The question a field path points at: its last named segment (`risks.0.vehicleId` → `vehicleId`). */
function leafField(path: string): string | undefined {
  return path
    .split('.')
    .filter((segment) => segment !== '' && !/^\d+$/.test(segment))
    .pop();
}

/**
 * The first rejected field, with the insurer's first message about it when that reads as a
 * sentence for the user (a capital first, no field path); fragments such as "is invalid" are not.
 */
function firstRejection(errors: Readonly<Record<string, readonly string[]>>): Failure {
  const first = Object.entries(errors)[0];
  if (!first) return { kind: 'rejected' };
  const [path, messages] = first;
  const field = leafField(path);
  const said = messages[0]?.trim();
  const failure: Failure = field ? { kind: 'rejected', field } : { kind: 'rejected' };
  if (said && /^[A-Z]/.test(said) && said.length <= 100 && !FIELD_PATH.test(said))
    failure.said = said.replace(/\.?$/, '.');
  return failure;
}

/**
 * Classifies an error thrown by an API actor, once, by its class: the client's errors from
 * src/api and the payment guard's. Anything else is `unknown`.
 */
export function describeFailure(error: unknown): Failure {
  if (error instanceof RefusalError) return { kind: 'rejected', note: error.note };
  if (error instanceof UnknownAnswerError) return { kind: 'unchecked', note: error.note };
  // Asked too often: when to try again (in an hour, tomorrow, or later when the limiter failed).
  if (error instanceof LimitReachedError) {
    return { kind: 'limited', note: { key: `limits.note.${error.window}` } };
  }
  if (error instanceof PaymentGuardError) {
    return error.code === 'PAYMENT_GUARD_TIMEOUT' ? { kind: 'timeout' } : { kind: 'unavailable' };
  }
  const kind = classifyApiError(error);
  if (kind !== 'rejected') return { kind };
  if (error instanceof ValidationError) {
    const field = leafField(error.field);
    return field ? { kind: 'rejected', field } : { kind: 'rejected' };
  }
  return error instanceof ApiError ? firstRejection(error.fieldErrors) : { kind: 'rejected' };
}

/** True when the insurer answered that the record asked for does not exist. */
export function isNotFound(error: unknown): boolean {
  return classifyApiError(error) === 'notFound';
}

/** What an `onError` transition hands its assigners: the actor's error, unknown by type. */
interface ErrorArgs {
  event: { error: unknown };
}

/** Assigner for `failure` after a call failed: what went wrong, tagged with the call (`op`). */
const failedAt =
  <TOp extends string>(op: TOp) =>
  ({ event }: ErrorArgs): Failure & { op: TOp } => ({ ...describeFailure(event.error), op });

/** Assigner for `failure` after a call failed, for flows with one failure screen for all calls. */
const failedCall = ({ event }: ErrorArgs): Failure => describeFailure(event.error);

/** The call a flow's failure screen names (`failure.op`); never for a flow whose failures name none. */
type CallOp<TContext extends { failure?: unknown }> =
  NonNullable<TContext['failure']> extends { op: infer TOp extends string } ? TOp : never;

/**
 * The `onError` transition of a call: the failure screen `target`, `failure` set by `failure`.
 * Typed by the flow's context and events, as XState types a transition written inline.
 */
function failingTo<TContext extends { failure?: unknown }, TEvent extends EventObject>(
  target: string,
  failure: (args: ErrorArgs) => Failure,
) {
  return {
    target,
    actions: assign<TContext, ErrorActorEvent, undefined, TEvent, never>(
      // TypeScript cannot follow a value into a generic context. The callers' types make sure
      // that the context's `failure` takes what `failure` makes: failedCallTo tags only the
      // context's own calls, and failedTo refuses a context whose failures name the call.
      (args) => ({ failure: failure(args) }) as Partial<TContext>,
    ),
  } as const;
}

/**
 * The `onError` transitions of a flow whose failure screen names the failed call: given `op`
 * (one of the context's own), the failure screen `target` with the failure tagged `op` (see
 * {@link failedAt}). Made once, where the flow is defined:
 * `const failedCall = failedCallTo<Context, Reply>(ID.failed)`, then `onError: failedCall('op')`.
 */
export function failedCallTo<
  TContext extends { failure?: (Failure & { op: string }) | null | undefined },
  TEvent extends EventObject,
>(target: string) {
  return (op: CallOp<TContext>) => failingTo<TContext, TEvent>(target, failedAt(op));
}

/**
 * The `onError` transition of a flow with one failure screen for every call: the failure screen
 * `target` with what went wrong (see {@link failedCall}). A flow whose failures name the call
 * uses {@link failedCallTo}: for it, `target` is `never`.
 */
export function failedTo<TContext extends { failure: Failure | null }, TEvent extends EventObject>(
  target: [CallOp<TContext>] extends [never] ? string : never,
) {
  return failingTo<TContext, TEvent>(target, failedCall);
}

/** Choices offered on a failure screen that may pass: try again, go back, or end. */
const FAILURE_CHOICES: Choice[] = [
  choice('retry', 'flow.choice.retry'),
  choice('back', 'flow.choice.back'),
  choice('end', 'flow.choice.end'),
];

/** Choices offered when trying again can only fail the same way: change an answer, or end. */
const PERMANENT_FAILURE_CHOICES: Choice[] = [
  choice('back', 'flow.choice.changeAnswer'),
  choice('end', 'flow.choice.end'),
];

/** Choices after "asked too often": nothing to retry or change, only back or end. */
const LIMITED_CHOICES: Choice[] = [
  choice('back', 'flow.choice.back'),
  choice('end', 'flow.choice.end'),
];

/**
 * One flow's questions by the field each fills, for the insurer's refusals: the field as the
 * insurer names it, the last segment of its error path (`risks.0.chassisNumber` →
 * `chassisNumber`, compared in any case) → the state that asked for it. `'*'` stands for any
 * refusal the flow does not list, for a screen that asks for one thing at a time (a desk lookup).
 */
export type RefusedQuestions = Readonly<Record<string, string>>;

/** The state that asked for the answer the insurer refused, when it said which and the flow asks it. */
export function refusedQuestion(
  questions: RefusedQuestions,
  failure: Failure | null | undefined,
): string | undefined {
  if (failure?.kind !== 'rejected') return undefined;
  const field = failure.field?.toLowerCase();
  const named = Object.entries(questions).find(([name]) => name.toLowerCase() === field);
  return named?.[1] ?? questions['*'];
}

/** A failure screen's transitions with `guardOf(id)` guarding each choice. */
function failureMenu<TChoice, TBack, TGuard>(
  refused: { choice: TChoice[]; back: TBack[] },
  targets: { retry: string; back: string; end: string },
  guardOf: (id: string) => TGuard,
) {
  return {
    'user.choice': [
      ...refused.choice,
      { guard: guardOf('retry'), target: targets.retry },
      { guard: guardOf('back'), target: targets.back },
      { guard: guardOf('end'), target: targets.end },
    ],
    'user.back': [...refused.back, { target: targets.back }],
  };
}

/** Fields the catalogue names in plain words (`flow.field.<name>`); others get a general note. */
const NAMED_FIELDS = new Set([
  'registrationNumber',
  'vehicleId',
  'chassisNumber',
  'engineNumber',
  'sumInsured',
  'startDate',
  'lossDate',
  'email',
  'phoneNumber',
  'idNumber',
  'nrcNumber',
  'clientId',
  'firstName',
  'lastName',
  'mobileMoneyAccountNumber',
  'destination',
  'endDate',
  'name',
  'description',
  'partnerLoanReference',
  'claimType',
  'make',
  'model',
]);

/**
 * The screen shown when an API call failed: what happened in plain words, the insurer's own words
 * about the answer it refused and which question to check (never a field path), and a way
 * forward. A permanent failure offers no "Try again".
 */
export function failurePrompt(failure: Failure): Prompt {
  if (failure.kind === 'unchecked' && failure.note) {
    const { key, params } = failure.note;
    return ask(key, 'choice', { ...(params ? { params } : {}), choices: FAILURE_CHOICES });
  }
  const notes: Note[] = failure.note ? [failure.note] : [];
  if (failure.said) notes.push({ key: 'flow.failed.said', params: { said: failure.said } });
  if (failure.field) {
    notes.push({
      key: NAMED_FIELDS.has(failure.field) ? `flow.field.${failure.field}` : 'flow.failed.check',
    });
  } else if (failure.kind === 'rejected' && !failure.note) {
    notes.push({ key: 'flow.failed.check' });
  }
  const choices =
    failure.kind === 'limited'
      ? LIMITED_CHOICES
      : PERMANENT.has(failure.kind)
        ? PERMANENT_FAILURE_CHOICES
        : FAILURE_CHOICES;
  const prompt = ask(`flow.failed.${failure.kind}`, 'choice', { choices });
  return notes.length > 0 ? { ...prompt, notes } : prompt;
}

/** Prompt assigner for a failure state: the failure screen for what went wrong. */
export const failureScreen = ({ context }: { context: { failure: Failure | null } }): Prompt =>
  failurePrompt(context.failure ?? { kind: 'unknown' });

/** Closing screen after Cancel. */
export const CANCELLED: Prompt = end('flow.end.cancelled');

/** Note telling the user to pick one of the listed options. */
export const PICK_FROM_LIST: Note = { key: 'flow.note.pickFromList' };

/** Note shown with every {@link MAX_TRIES}th bad answer in a row: the ways out, answers kept. */
const STUCK: Note = { key: 'flow.note.stuck' };

/**
 * The same question again after a bad answer, `note` saying what to fix. Every
 * {@link MAX_TRIES}th bad answer in a row also explains the ways out, and the count starts over:
 * the conversation never ends on its own.
 */
function reasked(
  context: { prompt: Prompt; tries: number },
  note: Note,
): { prompt: Prompt; tries: number } {
  const tries = context.tries + 1;
  if (tries < MAX_TRIES) return { prompt: { ...context.prompt, notes: [note] }, tries };
  return { prompt: { ...context.prompt, notes: [note, STUCK] }, tries: 0 };
}

/** The one money formatter (src/money), by the short name the flows' screens use. */
export { formatMoney as money } from '../src/money/index.js';

import type { FlowId } from './index.js';

/**
 * The context change for a reply the current screen did not expect (a typed word on a menu, an
 * unknown choice id): the same screen again, with a note saying what to do, one try used.
 */
export function unexpected(context: { prompt: Prompt; tries: number }): {
  prompt: Prompt;
  tries: number;
} {
  const note: Note =
    context.prompt.input === 'choice' ? PICK_FROM_LIST : { key: 'flow.note.typeAnswer' };
  return reasked(context, note);
}

/** The context change for a typed answer that failed its check: same question, the reason shown. */
export function rejected(
  context: { prompt: Prompt; tries: number },
  reason: string | { reason: string; params?: MessageParams | undefined },
): { prompt: Prompt; tries: number } {
  const note: Note =
    typeof reason === 'string'
      ? { key: reason }
      : reason.params
        ? { key: reason.reason, params: reason.params }
        : { key: reason.reason };
  return reasked(context, note);
}

/**
 * What a `user.text` transition hands a check: the flow's context and the typed text. `text` is
 * optional only so xstate can infer the assigner's event type; these run on `user.text` alone.
 */
interface TextArgs<TContext> {
  context: TContext;
  event: { type: string; text?: string };
}

/** A check of one typed answer, which may read the flow's context (today's date, a choice). */
type TextCheck<TContext> = (text: string, context: TContext) => Checked<unknown>;

/** Assigner for a typed answer that failed `check`: the same question with the reason shown. */
const rejectedBy =
  <TContext extends { prompt: Prompt; tries: number }>(check: TextCheck<TContext>) =>
  ({ context, event }: TextArgs<TContext>): { prompt: Prompt; tries: number } => {
    const checked = check(event.text ?? '', context);
    return rejected(context, checked.ok ? 'flow.note.typeAnswer' : checked);
  };

/** How the user pays: mobile money from a number, or a card on the insurer's payment page. */
export type PaymentChoice = { method: 'mobileMoney'; msisdn: string } | { method: 'card' };

/** Maps a rail's status word to pending/paid/failed (DOMAIN.md: words vary by rail). */
export function paymentOutcome(status: string): 'pending' | 'paid' | 'failed' {
  const s = status.toLowerCase();
  if (/^(success|successful|completed|paid)$/.test(s)) return 'paid';
  if (/^(failed|cancelled|canceled|expired|rejected)$/.test(s)) return 'failed';
  return 'pending';
}

/**
 * A placeholder actor that fails when called: each flow's real API calls are provided by the
 * engine, so a flow run without them fails loudly instead of pretending to succeed.
 */
export const notProvided = <TOutput, TInput>(name: string) =>
  fromPromise<TOutput, TInput>(async () => {
    throw new Error(`${name} not provided`);
  });

/** A menu's transitions with `guardOf(id)` guarding each choice (see {@link menuOn}). */
function menuTransitions<TGuard>(
  name: string,
  targets: Readonly<Record<string, string>>,
  back: string,
  guardOf: (id: string) => TGuard,
) {
  const entries = Object.entries(targets);
  for (const [id] of entries) {
    if (/^\d+$/.test(id)) throw new Error(`${name}: id ${id} would be reordered; list it by hand`);
  }
  return {
    'user.choice': entries.map(([id, target]) => ({ guard: guardOf(id), target })),
    'user.back': back,
  };
}

// Named, parameterised guards. A flow registers these in its setup() (`guards: { ...replyGuards
// }`) and its transitions name them (`guard: chose('retry')`), so every guard is one style: a
// name and params, the event narrowed with assertEvent where the guard reads it.

/**
 * Guards every flow registers in its setup(). `chose` tests the choice id; `returned` tests what
 * an invoked actor's done event carried (not null, not false), for `onDone` branches.
 */
export const replyGuards = {
  /** The reply is the choice `params.id`. */
  chose: ({ event }: { event: Reply }, params: { id: string }): boolean =>
    event.type === 'user.choice' && event.id === params.id,
  /**
   * The actor that just finished returned something (not null, not false). Its done event is not
   * one of the flow's Reply events, so the output is read by presence rather than by type.
   */
  returned: ({ event }: { event: object }): boolean =>
    'output' in event && event.output !== null && event.output !== false,
  /** The reply is End and the screen offers End (see {@link ENDING_REPLIES}). */
  endOffered: ({ context, event }: { context: { prompt: Prompt }; event: Reply }): boolean =>
    event.type === 'user.choice' &&
    event.id === 'end' &&
    (context.prompt.choices ?? []).some((offered) => offered.id === 'end'),
};

/** Guards a flow with a failure screen registers beside {@link replyGuards}. */
export const failureGuards = {
  /** The insurer refused the answer the state `params.target` asked for (see {@link refusedOn}). */
  refusedAt: (
    { context }: { context: { failure: Failure | null } },
    params: { questions: RefusedQuestions; target: string },
  ): boolean => refusedQuestion(params.questions, context.failure) === params.target,
};

/** The guard of a flow whose failure screen names the failed call (`failure.op`): one, or any of several. */
export const callFailureGuards = {
  /** The call `params.op` failed, and (with `params.choice`) the reply is that choice. */
  failedAt: (
    { context, event }: { context: { failure: { op: string } | null }; event: Reply },
    params: { op: string | readonly string[]; choice?: 'retry' | 'back' },
  ): boolean =>
    (params.choice === undefined || (event.type === 'user.choice' && event.id === params.choice)) &&
    [params.op].flat().includes(context.failure?.op ?? ''),
};

/** Guard reference: the reply is the choice `id` (registered by {@link replyGuards}). */
export const chose = (id: string) => ({ type: 'chose', params: { id } }) as const;

/**
 * Guard reference: the call `op` failed, and (with `choice`) the reply is that choice (registered
 * by {@link callFailureGuards}).
 */
export const callFailed = <TOp extends string>(
  op: TOp | readonly TOp[],
  choice?: 'retry' | 'back',
) => ({ type: 'failedAt', params: choice === undefined ? { op } : { op, choice } }) as const;

/**
 * The transitions of a menu screen with named guards: each choice id goes to its state, in the
 * order listed, and Back goes to `back`. Ids must not look like whole numbers: JavaScript lists
 * those keys first, which would change the order the guards are tried in.
 */
export function menuOn(targets: Readonly<Record<string, string>>, back: string) {
  return menuTransitions('menuOn', targets, back, chose);
}

/**
 * A failure screen's way back to the refused question, with named guards: "Change my answer" and
 * Back go straight to the state that asked for the field the insurer named (see
 * {@link refusedQuestion}). Needs {@link failureGuards} and {@link replyGuards}.
 */
export function refusedOn(questions: RefusedQuestions) {
  const targets = [...new Set(Object.values(questions))];
  const refusedAt = (target: string) =>
    ({ type: 'refusedAt', params: { questions, target } }) as const;
  return {
    choice: targets.map((target) => ({ guard: and([chose('back'), refusedAt(target)]), target })),
    back: targets.map((target) => ({ guard: refusedAt(target), target })),
  };
}

/**
 * The transitions of a failure screen whose Try again, Back and End each have one target, with
 * named guards: the refused question first (see {@link refusedOn}), then those three.
 */
export function failureTransitions(
  refused: ReturnType<typeof refusedOn>,
  targets: { retry: string; back: string; end: string },
) {
  return failureMenu(refused, targets, chose);
}

/**
 * Where a stage's failure screen leads for one call: a state of the stage, or a state entered with
 * an action (a payment resumed at a step).
 */
type FailureWay = string | { readonly target: string; readonly actions: unknown };

/** A {@link FailureWay} as a transition's target (and action). */
const wayTo = <TWay extends FailureWay>(to: TWay) =>
  (typeof to === 'string' ? { target: to } : to) as Exclude<TWay, string> | { target: string };

/**
 * A stage's failure screen, for the calls the stage makes: Try again repeats the call that failed
 * (`retry`, by call); Back, the choice or the key, goes to `back`, the stage's
 * {@link failureBack} state. End is the flow's rule for every screen that offers it
 * ({@link ENDING_REPLIES}). Needs the flow's setup to name the action `showFailure` (the
 * {@link failureScreen} prompt, tries from zero) and {@link callFailureGuards}.
 */
export function stageFailure<TOp extends string, TWay extends FailureWay>(
  retry: Readonly<Record<TOp, TWay>>,
  back = 'failedBack',
) {
  const calls = Object.entries(retry) as [TOp, TWay][];
  return {
    tags: 'awaitingInput',
    entry: 'showFailure',
    on: {
      'user.choice': [
        ...calls.map(([op, to]) => ({ guard: callFailed(op, 'retry'), ...wayTo(to) })),
        { guard: chose('back'), target: back },
      ],
      'user.back': back,
    },
  } as const;
}

/**
 * Where Back goes from a stage's failure screen: to `refused.target` when the guard
 * `refused.guard` says the insurer refused an answer the flow asked for (the flow's own router to
 * that question), else to the screen before the call that failed (`back`, by call; the last one
 * listed also takes a failure that names none).
 */
export function failureBack<TOp extends string, TWay extends FailureWay, TGuard>(
  back: Readonly<Record<TOp, TWay>>,
  refused?: { readonly guard: TGuard; readonly target: string },
) {
  const calls = Object.entries(back) as [TOp, TWay][];
  const last = calls.length - 1;
  return {
    always: [
      ...(refused ? [{ guard: refused.guard, target: refused.target }] : []),
      ...calls.map(([op, to], index) =>
        index === last ? wayTo(to) : { guard: callFailed(op), ...wayTo(to) },
      ),
    ],
  } as const;
}

/**
 * A passing state that goes to the question whose answer the insurer refused (its state by the
 * field named, see {@link RefusedQuestions}); entered only when one is (the flow's guard for
 * {@link failureBack}). Needs {@link failureGuards}.
 */
export function toRefusedAnswer(questions: RefusedQuestions) {
  const targets = [...new Set(Object.values(questions))];
  return {
    always: targets.map((target) => ({
      guard: { type: 'refusedAt', params: { questions, target } } as const,
      target,
    })),
  } as const;
}

/** Guard reference: the typed answer for `field` passes its check (see {@link answeredGuard}). */
export const answered = <TField extends string>(field: TField) =>
  ({ type: 'answered', params: { field } }) as const;

/** Action reference: the same question again, saying why the answer for `field` failed. */
export const rejectAnswer = <TField extends string>(field: TField) =>
  ({ type: 'rejectAnswer', params: { field } }) as const;

/**
 * The `answered` guard of a flow: the typed answer passes the check of `params.field`, one of
 * the flow's `checks` (`{ type: 'answered', params: { field: 'details' } }`). Only for
 * `user.text` transitions: any other event is a wiring mistake and throws.
 */
export function answeredGuard<TContext, TField extends string>(
  checks: Readonly<Record<TField, TextCheck<TContext>>>,
) {
  return ({ context, event }: { context: TContext; event: Reply }, params: { field: TField }) => {
    assertEvent(event, 'user.text');
    return checks[params.field](event.text, context).ok;
  };
}

/**
 * The `rejectAnswer` assigner of a flow: the same question again with the reason the check of
 * `params.field` gave. Register it as `rejectAnswer: assign(rejectedAnswer(checks))`.
 */
export function rejectedAnswer<
  TContext extends { prompt: Prompt; tries: number },
  TField extends string,
>(checks: Readonly<Record<TField, TextCheck<TContext>>>) {
  return (
    { context, event }: { context: TContext; event: Reply },
    params: { field: TField },
  ): { prompt: Prompt; tries: number } => {
    assertEvent(event, 'user.text');
    return rejectedBy(checks[params.field])({ context, event });
  };
}

/** The checked value of a typed answer, or undefined when it fails (a guard passed it already). */
export function checkedValue<TContext, T>(
  check: (text: string, context: TContext) => Checked<T>,
  event: Reply,
  context: TContext,
): T | undefined {
  assertEvent(event, 'user.text');
  const checked = check(event.text, context);
  return checked.ok ? checked.value : undefined;
}
