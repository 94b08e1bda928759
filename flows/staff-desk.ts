import { assertEvent, assign, setup } from 'xstate';
import type {
  FlowContextBase,
  FlowDefinition,
  FlowInput,
  FlowOutput,
} from '../src/conversation/flow.js';
import type { Choice, Prompt } from '../src/conversation/prompt.js';
import type { Reply } from '../src/conversation/reply.js';
import { checkIdentifier, checkNrc, checkPlate } from './checks.js';
import type { HouseholdCover } from './cover-status.js';
import {
  ask,
  CANCELLED,
  type Checked,
  choice,
  choiceOn,
  end,
  exhausted,
  type Failure,
  failedCall,
  failureScreen,
  isChoice,
  money,
  notProvided,
  TOO_MANY_TRIES,
  UNEXPECTED_REPLIES,
  unexpected,
} from './support.js';

/** What staff can look up. */
export type StaffTopic =
  | 'policy'
  | 'claim'
  | 'claims'
  | 'txn'
  | 'household'
  | 'batch'
  | 'bordereau';

/** A parsed desk command: the topic and its arguments. */
export interface StaffCommand {
  topic: StaffTopic;
  args: string[];
}

const TOPICS: readonly StaffTopic[] = [
  'policy',
  'claim',
  'claims',
  'txn',
  'household',
  'batch',
  'bordereau',
];

/**
 * Reads a desk command such as `policy ABC123`, `claim 42`, `txn REF`, `household 479974/11/1`,
 * `batch <policyId> <batchId>` or `bordereau <policyId>`. The reason on failure is a note key.
 */
export function parseStaffCommand(text: string): Checked<StaffCommand> {
  const [word = '', ...rest] = text.trim().replace(/^\//, '').split(/\s+/);
  const topic = TOPICS.find((t) => t === word.toLowerCase());
  if (!topic) return { ok: false, reason: 'staff.note.unknownCommand' };
  return parseArgs(topic, rest.join(' '));
}

/** Checks the arguments typed for one topic (after picking it from the menu, or in a command). */
export function parseArgs(topic: StaffTopic, text: string): Checked<StaffCommand> {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const bad = { ok: false, reason: `staff.note.usage.${topic}` } as const;
  switch (topic) {
    case 'claims':
      return { ok: true, value: { topic, args: [] } };
    case 'policy': {
      // A policy number is one word; a plate may carry a space (`AJQ 1909`).
      const id = checkIdentifier(words.join(''));
      const plate = checkPlate(words.join(' '));
      if (words.length === 1 && id.ok) return { ok: true, value: { topic, args: [id.value] } };
      return plate.ok ? { ok: true, value: { topic, args: [plate.value] } } : bad;
    }
    case 'household': {
      const nrc = checkNrc(words.join(''));
      return nrc.ok
        ? { ok: true, value: { topic, args: [nrc.value] } }
        : { ok: false, reason: nrc.reason };
    }
    case 'batch': {
      if (words.length !== 2) return bad;
      const ok = words.every((w) => checkIdentifier(w).ok);
      return ok ? { ok: true, value: { topic, args: words } } : bad;
    }
    default: {
      const [only] = words;
      if (words.length !== 1 || !only || !checkIdentifier(only).ok) return bad;
      return { ok: true, value: { topic, args: [only] } };
    }
  }
}

/** A policy found by number or plate. */
export interface StaffPolicy {
  policyNumber: string;
  status: string;
  product: string;
  startDate: string;
  endDate: string;
  premium?: number;
  currency: string;
}

/** A claim as the desk shows it. */
export interface StaffClaim {
  id: string;
  line: 'credit-life' | 'group-life';
  status: string;
  amount?: number;
  currency: string;
}

/** A transaction's status with its callback delivery log summarised. */
export interface StaffTransaction {
  reference: string;
  status: string;
  amount: number;
  currency: string;
  deliveries: number;
  lastDelivery?: string;
}

/** A credit-life or group-life batch. */
export interface StaffBatch {
  line: 'credit-life' | 'group-life';
  number: string;
  status: string;
  count: number;
  grossPremium: number;
  outstandingPremium: number;
  currency: string;
}

/** A stored bordereau CSV and where it can be fetched. */
export interface StaffFile {
  url: string;
  fileName: string;
}

/** Context of the staff desk. */
export interface StaffDeskContext extends FlowContextBase {
  tries: number;
  answers: { topic?: StaffTopic; args?: string[] };
  failure: Failure | null;
}

const DESK_CHOICES: Choice[] = [
  ...TOPICS.map((t) => choice(t, `staff.choice.${t}`)),
  choice('end', 'flow.choice.end'),
];

const deskPrompt = (): Prompt => ask('staff.desk', 'text', { choices: DESK_CHOICES });

const RESULT_CHOICES: Choice[] = [
  choice('another', 'staff.choice.another'),
  choice('end', 'flow.choice.end'),
];

function result(key: string, params: Prompt['params'], extra: Partial<Prompt> = {}): Prompt {
  return {
    ...ask(key, 'choice', { choices: RESULT_CHOICES }),
    ...(params ? { params } : {}),
    ...extra,
  };
}

const policyResult = (p: StaffPolicy) =>
  result('staff.policy', {
    policyNumber: p.policyNumber,
    status: p.status,
    product: p.product,
    startDate: p.startDate,
    endDate: p.endDate,
    premium: p.premium === undefined ? '' : money(p.premium),
    currency: p.currency,
  });

const claimResult = (c: StaffClaim) =>
  result('staff.claim', {
    id: c.id,
    line: c.line,
    status: c.status,
    amount: c.amount === undefined ? '' : money(c.amount),
    currency: c.currency,
  });

const claimsResult = (claims: StaffClaim[]) => ({
  ...result('staff.claims', { count: claims.length }),
  notes: claims.slice(0, 5).map((c) => ({
    key: 'staff.claims.row',
    params: { id: c.id, status: c.status, line: c.line },
  })),
});

const txnResult = (t: StaffTransaction) =>
  result('staff.txn', {
    reference: t.reference,
    status: t.status,
    amount: money(t.amount),
    currency: t.currency,
    deliveries: t.deliveries,
    lastDelivery: t.lastDelivery ?? '',
  });

const householdResult = (h: HouseholdCover | null) =>
  h
    ? result('staff.household', {
        principal: h.principal,
        policyNumber: h.policyNumber,
        status: h.status,
        startDate: h.startDate,
        endDate: h.endDate,
        premium: money(h.premium),
        currency: h.currency,
      })
    : result('staff.household.none', undefined);

const batchResult = (b: StaffBatch) =>
  result('staff.batch', {
    line: b.line,
    number: b.number,
    status: b.status,
    count: b.count,
    grossPremium: money(b.grossPremium),
    outstandingPremium: money(b.outstandingPremium),
    currency: b.currency,
  });

const bordereauResult = (f: StaffFile) =>
  result(
    'staff.bordereau',
    { fileName: f.fileName },
    {
      attachments: [
        { kind: 'document', url: f.url, label: 'staff.bordereau.link', fileName: f.fileName },
      ],
    },
  );

const isTopic =
  (topic: StaffTopic) =>
  ({ context }: { context: StaffDeskContext }) =>
    context.answers.topic === topic;

const arg = (context: StaffDeskContext, index: number) => context.answers.args?.[index] ?? '';

/** The Slack staff desk: typed commands or menu picks, each answered with one result screen. */
export const staffDeskMachine = setup({
  types: {
    context: {} as StaffDeskContext,
    events: {} as Reply,
    input: {} as FlowInput,
    output: {} as FlowOutput,
  },
  actors: {
    findPolicy: notProvided<StaffPolicy, { query: string }>('findPolicy'),
    getClaim: notProvided<StaffClaim, { claimId: string }>('getClaim'),
    trackClaims: notProvided<StaffClaim[], Record<string, never>>('trackClaims'),
    transactionStatus: notProvided<StaffTransaction, { reference: string }>('transactionStatus'),
    householdByNrc: notProvided<HouseholdCover | null, { nrc: string }>('householdByNrc'),
    getBatch: notProvided<StaffBatch, { policyId: string; batchId: string }>('getBatch'),
    bordereau: notProvided<StaffFile, { policyId: string }>('bordereau'),
  },
  actions: {
    unexpected: assign(({ context }) => unexpected(context)),
  },
  guards: {
    exhausted,
    validCommand: ({ event }) => event.type === 'user.text' && parseStaffCommand(event.text).ok,
    validArgs: ({ context, event }) =>
      event.type === 'user.text' &&
      context.answers.topic !== undefined &&
      parseArgs(context.answers.topic, event.text).ok,
    pickedTopic: ({ event }) =>
      event.type === 'user.choice' && TOPICS.some((t) => t === event.id && t !== 'claims'),
  },
}).createMachine({
  id: 'staff-desk',
  context: () => ({ prompt: deskPrompt(), tries: 0, answers: {}, failure: null }),
  initial: 'desk',
  on: UNEXPECTED_REPLIES,
  states: {
    desk: {
      tags: 'awaitingInput',
      entry: assign({ tries: 0, prompt: deskPrompt }),
      on: {
        'user.text': [
          {
            guard: 'validCommand',
            target: 'running',
            actions: assign({
              answers: ({ context, event }) => {
                const parsed = parseStaffCommand(event.text);
                return parsed.ok ? { ...parsed.value } : context.answers;
              },
            }),
          },
          { guard: 'exhausted', target: 'tooManyTries' },
          {
            actions: assign(({ context, event }) => {
              const parsed = parseStaffCommand(event.text);
              const reason = parsed.ok ? 'flow.note.typeAnswer' : parsed.reason;
              return {
                tries: context.tries + 1,
                prompt: { ...context.prompt, notes: [{ key: reason }] },
              };
            }),
          },
        ],
        'user.choice': [
          {
            guard: isChoice('claims'),
            target: 'running',
            actions: assign({ answers: { topic: 'claims', args: [] } }),
          },
          { guard: isChoice('end'), target: 'done' },
          {
            guard: 'pickedTopic',
            target: 'askArgs',
            actions: assign({
              answers: ({ context, event }) => {
                assertEvent(event, 'user.choice');
                const topic = TOPICS.find((t) => t === event.id);
                return topic ? { ...context.answers, topic } : context.answers;
              },
            }),
          },
        ],
        'user.back': 'cancelled',
      },
    },
    askArgs: {
      tags: 'awaitingInput',
      entry: assign({
        tries: 0,
        prompt: ({ context }) =>
          ask(
            `staff.ask.${context.answers.topic ?? 'policy'}`,
            context.answers.topic === 'household' ? 'nrc' : 'text',
          ),
      }),
      on: {
        'user.text': [
          {
            guard: 'validArgs',
            target: 'running',
            actions: assign({
              answers: ({ context, event }) => {
                const topic = context.answers.topic ?? 'policy';
                const parsed = parseArgs(topic, event.text);
                return parsed.ok ? { ...parsed.value } : context.answers;
              },
            }),
          },
          { guard: 'exhausted', target: 'tooManyTries' },
          {
            actions: assign(({ context, event }) => {
              const parsed = parseArgs(context.answers.topic ?? 'policy', event.text);
              const reason = parsed.ok ? 'flow.note.typeAnswer' : parsed.reason;
              return {
                tries: context.tries + 1,
                prompt: { ...context.prompt, notes: [{ key: reason }] },
              };
            }),
          },
        ],
        'user.back': 'desk',
      },
    },
    running: {
      initial: 'route',
      states: {
        route: {
          always: [
            { guard: isTopic('policy'), target: 'policy' },
            { guard: isTopic('claim'), target: 'claim' },
            { guard: isTopic('claims'), target: 'claims' },
            { guard: isTopic('txn'), target: 'txn' },
            { guard: isTopic('household'), target: 'household' },
            { guard: isTopic('batch'), target: 'batch' },
            { guard: isTopic('bordereau'), target: 'bordereau' },
            { target: '#staff-desk.desk' },
          ],
        },
        policy: {
          invoke: {
            src: 'findPolicy',
            input: ({ context }) => ({ query: arg(context, 0) }),
            onDone: {
              target: '#staff-desk.result',
              actions: assign({ prompt: ({ event }) => policyResult(event.output) }),
            },
            onError: { target: '#staff-desk.failed', actions: assign({ failure: failedCall }) },
          },
        },
        claim: {
          invoke: {
            src: 'getClaim',
            input: ({ context }) => ({ claimId: arg(context, 0) }),
            onDone: {
              target: '#staff-desk.result',
              actions: assign({ prompt: ({ event }) => claimResult(event.output) }),
            },
            onError: { target: '#staff-desk.failed', actions: assign({ failure: failedCall }) },
          },
        },
        claims: {
          invoke: {
            src: 'trackClaims',
            input: () => ({}),
            onDone: {
              target: '#staff-desk.result',
              actions: assign({ prompt: ({ event }) => claimsResult(event.output) }),
            },
            onError: { target: '#staff-desk.failed', actions: assign({ failure: failedCall }) },
          },
        },
        txn: {
          invoke: {
            src: 'transactionStatus',
            input: ({ context }) => ({ reference: arg(context, 0) }),
            onDone: {
              target: '#staff-desk.result',
              actions: assign({ prompt: ({ event }) => txnResult(event.output) }),
            },
            onError: { target: '#staff-desk.failed', actions: assign({ failure: failedCall }) },
          },
        },
        household: {
          invoke: {
            src: 'householdByNrc',
            input: ({ context }) => ({ nrc: arg(context, 0) }),
            onDone: {
              target: '#staff-desk.result',
              actions: assign({ prompt: ({ event }) => householdResult(event.output) }),
            },
            onError: { target: '#staff-desk.failed', actions: assign({ failure: failedCall }) },
          },
        },
        batch: {
          invoke: {
            src: 'getBatch',
            input: ({ context }) => ({ policyId: arg(context, 0), batchId: arg(context, 1) }),
            onDone: {
              target: '#staff-desk.result',
              actions: assign({ prompt: ({ event }) => batchResult(event.output) }),
            },
            onError: { target: '#staff-desk.failed', actions: assign({ failure: failedCall }) },
          },
        },
        bordereau: {
          invoke: {
            src: 'bordereau',
            input: ({ context }) => ({ policyId: arg(context, 0) }),
            onDone: {
              target: '#staff-desk.result',
              actions: assign({ prompt: ({ event }) => bordereauResult(event.output) }),
            },
            onError: { target: '#staff-desk.failed', actions: assign({ failure: failedCall }) },
          },
        },
      },
    },
    result: {
      tags: 'awaitingInput',
      entry: assign({ tries: 0 }),
      on: {
        'user.choice': [
          { guard: isChoice('another'), target: 'desk' },
          { guard: isChoice('end'), target: 'done' },
        ],
        'user.back': 'desk',
        // A new command typed on a result screen runs straight away.
        'user.text': {
          guard: 'validCommand',
          target: 'running',
          actions: assign({
            answers: ({ context, event }) => {
              const parsed = parseStaffCommand(event.text);
              return parsed.ok ? { ...parsed.value } : context.answers;
            },
          }),
        },
      },
    },
    failed: {
      tags: 'awaitingInput',
      entry: assign({
        tries: 0,
        prompt: failureScreen,
      }),
      on: choiceOn({ retry: 'running', back: 'desk', end: 'done' }, 'desk'),
    },
    done: { type: 'final', entry: assign({ prompt: end('flow.end.thanks') }) },
    tooManyTries: { type: 'final', entry: assign({ prompt: TOO_MANY_TRIES }) },
    cancelled: { type: 'final', entry: assign({ prompt: CANCELLED }) },
  },
  output: ({ context }): FlowOutput => ({ prompt: context.prompt }),
});

/** The staff desk as the engine registers it. */
export const staffDeskFlow: FlowDefinition<typeof staffDeskMachine> = {
  id: 'staff-desk',
  version: 1,
  machine: staffDeskMachine,
};
