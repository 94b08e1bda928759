import { assertEvent, assign, setup } from 'xstate';
import type {
  FlowContextBase,
  FlowDefinition,
  FlowInput,
  FlowOutput,
} from '../src/conversation/flow.js';
import type { Choice, Prompt } from '../src/conversation/prompt.js';
import type { Reply } from '../src/conversation/reply.js';
import { checkNrc } from './checks.js';
import {
  ask,
  CANCELLED,
  choice,
  choiceOn,
  end,
  exhausted,
  type Failure,
  failedCall,
  failureScreen,
  isChoice,
  money,
  type Note,
  notProvided,
  rejected,
  TOO_MANY_TRIES,
  UNEXPECTED_REPLIES,
  unexpected,
} from './support.js';

/** A group-funeral household as the flow shows it. */
export interface HouseholdCover {
  principal: string;
  policyNumber: string;
  status: string;
  startDate: string;
  endDate: string;
  premium: number;
  currency: string;
}

/** A group-life member's cover as the flow shows it. */
export interface LifeCover {
  policyNumber: string;
  status: string;
  sumAssured?: number;
  currency: string;
}

/** Where a credit-life policy's cover stands, in the words the flow uses. */
export type CoverState = 'active' | 'grace' | 'arrears' | 'lapsed';

/** A covered loan with its policy's cover state. */
export interface LoanCover {
  reference: string;
  amount: number;
  currency: string;
  endDate: string;
  cover: CoverState;
  graceEndsAt?: string;
  unpaidPeriods: number;
}

/** Everything on cover for one NRC. */
export interface CoverLookup {
  household: HouseholdCover | null;
  life: LifeCover[];
  loans: LoanCover[];
}

/** Context of cover-status. */
export interface CoverStatusContext extends FlowContextBase {
  tries: number;
  answers: { nrc?: string };
  found: CoverLookup | null;
  failure: Failure | null;
}

const MAX_SHOWN = 3;

function summaryPrompt(found: CoverLookup): Prompt {
  const choices: Choice[] = [];
  if (found.household) choices.push(choice('household', 'cover.choice.household'));
  if (found.life.length > 0) choices.push(choice('life', 'cover.choice.life'));
  if (found.loans.length > 0) choices.push(choice('loans', 'cover.choice.loans'));
  choices.push(choice('another', 'cover.choice.another'), choice('end', 'flow.choice.end'));
  return ask('cover.summary', 'choice', {
    params: {
      household: found.household ? 1 : 0,
      life: found.life.length,
      loans: found.loans.length,
    },
    choices,
  });
}

const DETAIL_CHOICES: Choice[] = [
  choice('summary', 'cover.choice.summary'),
  choice('end', 'flow.choice.end'),
];

function householdPrompt(h: HouseholdCover): Prompt {
  return ask('cover.household', 'choice', {
    params: {
      principal: h.principal,
      policyNumber: h.policyNumber,
      status: h.status,
      startDate: h.startDate,
      endDate: h.endDate,
      premium: money(h.premium),
      currency: h.currency,
    },
    choices: DETAIL_CHOICES,
  });
}

function lifePrompt(life: LifeCover[]): Prompt {
  const first = life[0];
  return ask('cover.life', 'choice', {
    params: {
      count: life.length,
      policyNumber: first?.policyNumber ?? '',
      status: first?.status ?? '',
      sumAssured: first?.sumAssured === undefined ? '' : money(first.sumAssured),
      currency: first?.currency ?? '',
    },
    choices: DETAIL_CHOICES,
  });
}

function loansPrompt(loans: LoanCover[]): Prompt {
  const notes = loans.slice(0, MAX_SHOWN).map(
    (loan): Note => ({
      key: `cover.loan.${loan.cover}`,
      params: {
        reference: loan.reference,
        amount: money(loan.amount),
        currency: loan.currency,
        endDate: loan.endDate,
        graceEndsAt: loan.graceEndsAt ?? '',
        unpaidPeriods: loan.unpaidPeriods,
      },
    }),
  );
  return {
    ...ask('cover.loans', 'choice', { params: { count: loans.length }, choices: DETAIL_CHOICES }),
    notes,
  };
}

function nrcPrompt(note: Note | null = null): Prompt {
  return ask('cover.askNrc', 'nrc', { note });
}

/** Cover by NRC: a funeral household, group-life member cover, and credit-life loans. */
export const coverStatusMachine = setup({
  types: {
    context: {} as CoverStatusContext,
    events: {} as Reply,
    input: {} as FlowInput,
    output: {} as FlowOutput,
  },
  actors: {
    lookupCover: notProvided<CoverLookup, { nrc: string }>('lookupCover'),
  },
  actions: {
    unexpected: assign(({ context }) => unexpected(context)),
  },
  guards: {
    validNrc: ({ event }) => event.type === 'user.text' && checkNrc(event.text).ok,
    exhausted,
    nothingFound: ({ context }) =>
      context.found !== null &&
      context.found.household === null &&
      context.found.life.length === 0 &&
      context.found.loans.length === 0,
    hasHousehold: ({ context, event }) =>
      isChoice('household')({ event }) && context.found?.household != null,
    hasLife: ({ context, event }) =>
      isChoice('life')({ event }) && (context.found?.life.length ?? 0) > 0,
    hasLoans: ({ context, event }) =>
      isChoice('loans')({ event }) && (context.found?.loans.length ?? 0) > 0,
  },
}).createMachine({
  id: 'cover-status',
  context: () => ({
    prompt: nrcPrompt(),
    tries: 0,
    answers: {},
    found: null,
    failure: null,
  }),
  initial: 'askNrc',
  on: UNEXPECTED_REPLIES,
  states: {
    askNrc: {
      tags: 'awaitingInput',
      entry: assign({ tries: 0, prompt: () => nrcPrompt() }),
      on: {
        'user.text': [
          {
            guard: 'validNrc',
            target: 'lookingUp',
            actions: assign({
              tries: 0,
              answers: ({ event }) => {
                assertEvent(event, 'user.text');
                const nrc = checkNrc(event.text);
                return nrc.ok ? { nrc: nrc.value } : {};
              },
            }),
          },
          { guard: 'exhausted', target: 'tooManyTries' },
          {
            actions: assign(({ context, event }) => {
              assertEvent(event, 'user.text');
              const nrc = checkNrc(event.text);
              return rejected(context, nrc.ok ? 'flow.note.typeAnswer' : nrc);
            }),
          },
        ],
        'user.back': 'cancelled',
      },
    },
    lookingUp: {
      invoke: {
        src: 'lookupCover',
        input: ({ context }) => ({ nrc: context.answers.nrc ?? '' }),
        onDone: {
          target: 'found',
          actions: assign({ found: ({ event }) => trimLookup(event.output), failure: null }),
        },
        onError: { target: 'failed', actions: assign({ failure: failedCall }) },
      },
    },
    found: {
      always: [{ guard: 'nothingFound', target: 'nothing' }, { target: 'summary' }],
    },
    nothing: {
      tags: 'awaitingInput',
      entry: assign({
        tries: 0,
        prompt: ask('cover.none', 'choice', {
          choices: [choice('another', 'cover.choice.another'), choice('end', 'flow.choice.end')],
        }),
      }),
      on: choiceOn({ another: 'askNrc', end: 'done' }, 'askNrc'),
    },
    summary: {
      tags: 'awaitingInput',
      entry: assign({ tries: 0, prompt: ({ context }) => summaryPrompt(context.found ?? EMPTY) }),
      on: {
        'user.choice': [
          { guard: 'hasHousehold', target: 'household' },
          { guard: 'hasLife', target: 'life' },
          { guard: 'hasLoans', target: 'loans' },
          { guard: isChoice('another'), target: 'askNrc' },
          { guard: isChoice('end'), target: 'done' },
        ],
        'user.back': 'askNrc',
      },
    },
    household: {
      tags: 'awaitingInput',
      entry: assign({
        tries: 0,
        prompt: ({ context }) =>
          context.found?.household
            ? householdPrompt(context.found.household)
            : summaryPrompt(EMPTY),
      }),
      on: choiceOn({ summary: 'summary', end: 'done' }, 'summary'),
    },
    life: {
      tags: 'awaitingInput',
      entry: assign({ tries: 0, prompt: ({ context }) => lifePrompt(context.found?.life ?? []) }),
      on: choiceOn({ summary: 'summary', end: 'done' }, 'summary'),
    },
    loans: {
      tags: 'awaitingInput',
      entry: assign({ tries: 0, prompt: ({ context }) => loansPrompt(context.found?.loans ?? []) }),
      on: choiceOn({ summary: 'summary', end: 'done' }, 'summary'),
    },
    failed: {
      tags: 'awaitingInput',
      entry: assign({
        tries: 0,
        prompt: failureScreen,
      }),
      on: choiceOn({ retry: 'lookingUp', back: 'askNrc', end: 'done' }, 'askNrc'),
    },
    done: { type: 'final', entry: assign({ tries: 0, prompt: end('flow.end.thanks') }) },
    tooManyTries: { type: 'final', entry: assign({ tries: 0, prompt: TOO_MANY_TRIES }) },
    cancelled: { type: 'final', entry: assign({ tries: 0, prompt: CANCELLED }) },
  },
  output: ({ context }): FlowOutput => ({ prompt: context.prompt }),
});

const EMPTY: CoverLookup = { household: null, life: [], loans: [] };

// Keeps the snapshot small: only the first few covers are kept; the screens show counts.
function trimLookup(found: CoverLookup): CoverLookup {
  return {
    household: found.household,
    life: found.life.slice(0, MAX_SHOWN),
    loans: found.loans.slice(0, MAX_SHOWN),
  };
}

/** Cover status as the engine registers it. */
export const coverStatusFlow: FlowDefinition<typeof coverStatusMachine> = {
  id: 'cover-status',
  version: 1,
  machine: coverStatusMachine,
};
