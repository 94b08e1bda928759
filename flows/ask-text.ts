/*
 * One typed question, the same in every flow that asks them: a valid answer is kept and moves
 * on; a bad one re-asks with the reason and keeps every earlier answer; every third bad one in a
 * row also explains the ways out. A flow lists a check per field it asks for (its `AnswerChecks`)
 * and names, in its `setup`, the guard `answered` and the actions `ask`, `keepAnswer` and
 * `rejectAnswer` made from those checks (support's `answeredGuard` and `rejectedAnswer`, and
 * `asked` and `keptBy` here); `askText` then only says which field and where to.
 */
import { assertEvent } from 'xstate';
import type { InputKind } from '../src/conversation/prompt.js';
import type { Reply } from '../src/conversation/reply.js';
import { answered, ask, type Checked, rejectAnswer } from './support.js';

/** A flow's check of each field it asks for by typing, which may read its context (today). */
export type AnswerChecks<TContext, TField extends string> = Readonly<
  Record<TField, (text: string, context: TContext) => Checked<string>>
>;

interface Args<TContext> {
  context: TContext;
  event: Reply;
}

/** The action `keepAnswer` (an assigner): the checked answer kept under `params.field`. */
export const keptBy =
  <TContext extends { answers: object }, TField extends string>(
    checks: AnswerChecks<TContext, TField>,
  ) =>
  ({ context, event }: Args<TContext>, params: { field: TField }): Partial<TContext> => {
    assertEvent(event, 'user.text');
    const checked = checks[params.field](event.text, context);
    return checked.ok
      ? ({ answers: { ...context.answers, [params.field]: checked.value } } as Partial<TContext>)
      : {};
  };

/** Action reference: the checked answer kept under `field` (see {@link keptBy}). */
export const keepAnswer = <TField extends string>(field: TField) =>
  ({ type: 'keepAnswer', params: { field } }) as const;

/** The action `ask` (an assigner): the question `params.key`, tries starting over. */
export const asked = (_: unknown, params: { key: string; input: InputKind }) => ({
  tries: 0,
  prompt: ask(params.key, params.input),
});

/** The state of one typed question for `field`: on to `target` once answered, Back to `back`. */
export function askText<TField extends string>(
  key: string,
  input: InputKind,
  field: TField,
  target: string,
  back: string,
) {
  return {
    tags: 'awaitingInput',
    entry: { type: 'ask', params: { key, input } },
    on: {
      'user.text': [
        { guard: answered(field), target, actions: keepAnswer(field) },
        { actions: rejectAnswer(field) },
      ],
      'user.back': back,
    },
  } as const;
}
