import {
  assertEvent,
  assign,
  type DoneActorEvent,
  type ErrorActorEvent,
  type InputFrom,
  type OutputFrom,
  raise,
  setup,
} from 'xstate';
import { z } from 'zod';
import type {
  FlowContextBase,
  FlowDefinition,
  FlowInput,
  FlowOutput,
} from '../src/conversation/flow.js';
import { DESK_WORDS } from '../src/conversation/policy/staff-desk-policy.js';
import type { Choice, Prompt } from '../src/conversation/prompt.js';
import type { Reply } from '../src/conversation/reply.js';
import { checkIdentifier, checkNrc, checkPhone, checkPlate } from './checks.js';
import {
  answered,
  answeredGuard,
  ask,
  CANCELLED,
  type Checked,
  choice,
  chose,
  end,
  type Failure,
  failedTo,
  failureGuards,
  failureScreen,
  failureTransitions,
  flowOutput,
  isNotFound,
  money,
  notProvided,
  refusedOn,
  rejectAnswer,
  rejectedAnswer,
  replyGuards,
  UNEXPECTED_REPLIES,
  unexpected,
} from './support.js';

/**
 * What staff can look up at the desk: the desk's topics, and the first word of a desk command a
 * staff channel passes on as the desk's start (Slack's `/insure`; the server hands Slack this list).
 */
export const STAFF_TOPICS = [
  'policy',
  'claim',
  'claims',
  'txn',
  'household',
  'batch',
  'bordereau',
  DESK_WORDS.today,
  'sync',
  'confirm',
] as const;

/** One of {@link STAFF_TOPICS}. */
export type StaffTopic = (typeof STAFF_TOPICS)[number];

/** Where the desk starts: a desk command typed in a staff channel, run as the desk opens. */
export const StaffDeskStart = z.object({ command: z.string().optional() });
/** What the staff desk takes as its start. */
export type StaffDeskStart = z.infer<typeof StaffDeskStart>;

/** A parsed desk command: the topic and its arguments. */
interface StaffCommand {
  topic: StaffTopic;
  args: string[];
}

/**
 * A lookup asks for one thing at a time: whatever field the insurer refused, "Change my answer"
 * asks the same command's question again.
 */
const BACK_TO_QUESTION = refusedOn({ '*': 'askArgs' });

const TOPICS: readonly StaffTopic[] = STAFF_TOPICS;

// Topics that take no argument: picking them from the menu runs them at once.
const BARE_TOPICS: readonly StaffTopic[] = ['claims', 'today', 'sync'];

/**
 * Reads a desk command such as `policy ABC123`, `claim CLC-000001`, `txn REF`,
 * `household 479974/11/1`, `batch <policyId> <batchId>`, `bordereau <policyId>`, `claims` or
 * `today`. The reason on failure is a note key.
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
    case 'today':
    case 'sync':
      return { ok: true, value: { topic, args: [] } };
    case 'policy': {
      // Printed numbers first: an NRC or a phone number finds the holder's policies; a policy
      // number is one word; a plate may carry a space (`AJQ 1909`).
      const joined = words.join(' ');
      const nrc = checkNrc(joined);
      if (nrc.ok && /\//.test(joined)) return { ok: true, value: { topic, args: [nrc.value] } };
      const phone = checkPhone(joined);
      if (phone.ok) return { ok: true, value: { topic, args: [phone.value] } };
      // Nine digits that are no phone: an NRC typed without its slashes (123456101).
      if (nrc.ok) return { ok: true, value: { topic, args: [nrc.value] } };
      const id = checkIdentifier(words.join(''));
      const plate = checkPlate(joined);
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
      // The policy and the batch, each as printed (CL-DEMO-000001 SCH-000001) or by id.
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

/** A policy found by number, plate, id, or its holder's NRC or phone. */
export interface StaffPolicy {
  policyNumber: string;
  status: string;
  /** The product's name (its id when the insurer has no name for it). */
  product: string;
  /** The policyholder's name. */
  holder?: string;
  plate?: string;
  /** Where a travel policy goes. */
  trip?: string;
  startDate: string;
  endDate: string;
  premium?: number;
  currency: string;
  /** The premium's payment state (`Paid`, `Unpaid`). */
  paymentStatus?: string;
  paymentReference?: string;
  /** Other policies the same query found (the holder's other policies). */
  others?: string[];
}

/** A covered loan found by the lender's reference, with the policy it is on. */
export interface StaffLoan {
  /** The lender's reference (`KL-DEMO-ACTIVE`). */
  reference: string;
  status: string;
  /** The printed number of the credit-life policy the loan is on. */
  policyNumber: string;
  borrower?: string;
  nrc?: string;
  amount?: number;
  startDate?: string;
  endDate?: string;
  currency: string;
}

/** One thing a person holds: a policy, a household, a group-life membership or a covered loan. */
export interface StaffHolding {
  product: string;
  policyNumber: string;
  /** The policy's, the membership's or the loan's status. */
  status: string;
  /** The lender's reference, for a covered loan. */
  loan?: string;
}

/** Everything on record for the person an NRC or a phone names. */
export interface StaffPerson {
  /** Their NRC (several when a phone is on record for several people). */
  nrc: string;
  name?: string;
  holdings: StaffHolding[];
}

/** What `policy` finds: a policy, a person's holdings (NRC, phone) or a loan (its reference). */
type StaffPolicyFound = StaffPolicy | StaffPerson | StaffLoan;

/** A claim as the desk shows it. */
export interface StaffClaim {
  /** The printed claim number (`CLC-000001`), the one staff and customers quote. */
  id: string;
  line: 'credit-life' | 'group-life';
  status: string;
  amount?: number;
  currency: string;
  /** The loan or member the claim is against. */
  subject?: string;
  lossDate?: string;
  createdAt?: string;
  documents?: { name: string; url: string }[];
  /** Who reported it through insurechat; absent for a claim made elsewhere. */
  reporter?: StaffClaimReporter;
}

/** Who reported a claim, as the desk shows it. */
interface StaffClaimReporter {
  /** The channel it was reported on (ussd, telegram, whatsapp…). */
  channel: string;
  /** The reporter's phone (masked by Slack outside direct messages). */
  phone: string | null;
  /** The reporter's own phone is on record for the member or borrower. */
  onRecord: boolean;
  /** `to-verify` until staff confirm a claim reported by someone not on record. */
  state: 'own' | 'to-verify' | 'confirmed';
  /** Documents from the reporter held until staff confirm. */
  held: number;
  /** The Slack member who confirmed it. */
  confirmedBy?: string;
}

/** What `confirm` did: the claim, whether it was to verify, how many held documents were sent. */
export interface StaffConfirmed {
  id: string;
  confirmed: boolean;
  posted: number;
}

/** A transaction's status with its callback delivery log summarised. */
export interface StaffTransaction {
  reference: string;
  status: string;
  amount: number;
  currency: string;
  deliveries: number;
  lastDelivery?: string;
  policyNumber?: string;
  method?: string;
  paidAt?: string;
}

/** A group-funeral household with its members, as staff see it. */
export interface StaffHousehold {
  principal: string;
  policyNumber: string;
  status: string;
  startDate: string;
  endDate: string;
  premium: number;
  currency: string;
  members: { name: string; relationship: string; sumAssured?: number }[];
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

/** Today's business at a glance: policies paid and claims made since midnight (UTC). */
export interface StaffToday {
  date: string;
  paidPolicies: number;
  paidTotal: number;
  currency: string;
  claims: StaffClaim[];
}

/** A sync of the holdings index run from the desk: whether every list is complete after it. */
export interface StaffSync {
  complete: boolean;
}

/** Context of the staff desk. */
interface StaffDeskContext extends FlowContextBase {
  tries: number;
  answers: { topic?: StaffTopic; args?: string[] };
  failure: Failure | null;
  /** The command the desk was opened with (its start's `command`), run once the desk shows. */
  startCommand?: string | null;
  /** The staff member at the desk (Slack user id): who confirmed a claim, in its report. */
  member?: string;
}

const DESK_CHOICES: Choice[] = [
  ...TOPICS.map((t) => choice(t, `staff.choice.${t}`)),
  choice('end', 'flow.choice.end'),
];

const deskPrompt = (): Prompt => ask('staff.desk', 'text', { choices: DESK_CHOICES });

const RESULT_CHOICES: Choice[] = [
  choice(DESK_WORDS.another, 'staff.choice.another'),
  choice('end', 'flow.choice.end'),
];

/**
 * What a lookup that found nothing offers: what a staff member can do next (another lookup, the
 * commands), never a customer's "Change my answer".
 */
const NOT_FOUND_CHOICES: Choice[] = [
  choice(DESK_WORDS.another, 'staff.choice.another'),
  choice(DESK_WORDS.help, 'staff.choice.help'),
  choice('end', 'flow.choice.end'),
];

type Note = NonNullable<Prompt['notes']>[number];

/** One labelled detail of a result (Slack shows each as a field); left out when it has no value. */
function field(name: string, params: Record<string, string | number | undefined>): Note[] {
  const values = Object.values(params);
  if (values.some((value) => value === undefined || value === '')) return [];
  return [{ key: `staff.field.${name}`, params: params as Record<string, string | number> }];
}

function result(
  key: string,
  params: Prompt['params'],
  notes: Note[] = [],
  extra: Partial<Prompt> = {},
): Prompt {
  return {
    ...ask(key, 'choice', { choices: RESULT_CHOICES }),
    ...(params ? { params } : {}),
    ...(notes.length > 0 ? { notes } : {}),
    ...extra,
  };
}

const amount = (value: number | undefined, currency: string) =>
  value === undefined ? undefined : `${currency} ${money(value)}`;

/** The screen for a lookup that found nothing: says what was looked for and how to ask. */
const notFound = (topic: StaffTopic, query: string, key = 'staff.notFound'): Prompt => ({
  ...result(key, { query }, [{ key: `staff.note.usage.${topic}` }]),
  choices: NOT_FOUND_CHOICES,
});

/** Every command with its usage: what "Help" on a not-found answer shows. */
const helpScreen = (): Prompt =>
  result(
    'staff.help',
    undefined,
    TOPICS.map((topic) => ({ key: `staff.note.usage.${topic}` })),
  );

const isLoan = (found: StaffPolicyFound): found is StaffLoan => 'reference' in found;
const isPerson = (found: StaffPolicyFound): found is StaffPerson => 'holdings' in found;

const loanResult = (l: StaffLoan) =>
  result('staff.loan', { reference: l.reference, status: l.status }, [
    ...field('policyNumber', { policyNumber: l.policyNumber }),
    // `holder`: a name parameter, reduced to initials in shared channels (src/privacy).
    ...field('borrower', { holder: l.borrower }),
    ...field('nrc', { nrc: l.nrc }),
    ...field('amount', { amount: amount(l.amount, l.currency) }),
    ...field('period', { startDate: l.startDate, endDate: l.endDate }),
  ]);

const personResult = (p: StaffPerson) =>
  result('staff.person', { name: p.name ?? '-', nrc: p.nrc, count: p.holdings.length }, [
    ...p.holdings.slice(0, 20).map((h) =>
      h.loan
        ? {
            key: 'staff.person.loan',
            params: { policyNumber: h.policyNumber, loan: h.loan, status: h.status },
          }
        : {
            key: 'staff.person.holding',
            params: { product: h.product, policyNumber: h.policyNumber, status: h.status },
          },
    ),
  ]);

const policyResult = (query: string, found: StaffPolicyFound | null): Prompt => {
  if (!found) return notFound('policy', query);
  if (isLoan(found)) return loanResult(found);
  if (isPerson(found)) return personResult(found);
  return policyDetails(found);
};

const policyDetails = (p: StaffPolicy) =>
  result('staff.policy', { policyNumber: p.policyNumber, status: p.status }, [
    ...field('product', { product: p.product }),
    ...field('holder', { holder: p.holder }),
    ...field('plate', { plate: p.plate }),
    ...field('trip', { trip: p.trip }),
    ...field('period', { startDate: p.startDate, endDate: p.endDate }),
    ...field('premium', { premium: amount(p.premium, p.currency) }),
    ...(p.paymentReference
      ? field('paymentReference', {
          paymentStatus: p.paymentStatus,
          paymentReference: p.paymentReference,
        })
      : field('payment', { paymentStatus: p.paymentStatus })),
    ...field('others', { others: p.others?.join(', ') }),
  ]);

/** Who reported the claim and, while it is to verify, the documents held for staff. */
const reporterNotes = (c: StaffClaim): Note[] => {
  const r = c.reporter;
  if (!r) return [];
  return [
    ...(r.onRecord
      ? field('reporterOwn', { channel: r.channel })
      : field('reporter', { channel: r.channel, phone: r.phone ?? '-' })),
    ...(r.state === 'to-verify' ? field('toVerify', { held: r.held, id: c.id }) : []),
    ...field('confirmedBy', { member: r.confirmedBy }),
  ];
};

const claimNotes = (c: StaffClaim): Note[] => [
  ...field('line', { line: c.line }),
  ...field('amount', { amount: amount(c.amount, c.currency) }),
  ...field('subject', { subject: c.subject }),
  ...field('lossDate', { lossDate: c.lossDate }),
  ...field('documents', { documents: c.documents?.map((d) => d.name).join(', ') }),
  ...reporterNotes(c),
];

const claimResult = (query: string, c: StaffClaim | null) =>
  c
    ? result('staff.claim', { id: c.id, status: c.status }, claimNotes(c), {
        ...((c.documents ?? []).length > 0
          ? {
              attachments: (c.documents ?? []).map((d) => ({
                kind: 'link' as const,
                url: d.url,
                label: 'staff.claim.document',
                fileName: d.name,
              })),
            }
          : {}),
      })
    : notFound('claim', query);

const confirmResult = (query: string, c: StaffConfirmed | null) =>
  c
    ? result(c.confirmed ? 'staff.claim.confirmed' : 'staff.claim.notToVerify', {
        id: c.id,
        posted: c.posted,
      })
    : notFound('confirm', query);

const claimRows = (claims: StaffClaim[]): Note[] =>
  claims.slice(0, 10).map((c) => ({
    key: 'staff.claims.row',
    params: {
      id: c.id,
      status: c.status,
      line: c.line,
      amount: amount(c.amount, c.currency) ?? '-',
    },
  }));

const claimsResult = (claims: StaffClaim[]) =>
  result('staff.claims', { count: claims.length }, claimRows(claims));

const txnResult = (query: string, t: StaffTransaction | null) =>
  t
    ? result('staff.txn', { reference: t.reference, status: t.status }, [
        ...field('amount', { amount: amount(t.amount, t.currency) }),
        ...field('policyNumber', { policyNumber: t.policyNumber }),
        ...field('method', { method: t.method }),
        ...field('paidAt', { paidAt: t.paidAt }),
        ...field('callbacks', { deliveries: t.deliveries, lastDelivery: t.lastDelivery ?? '-' }),
      ])
    : notFound('txn', query);

const householdResult = (nrc: string, h: StaffHousehold | null) =>
  h
    ? result('staff.household', { policyNumber: h.policyNumber, status: h.status }, [
        ...field('principal', { principal: h.principal }),
        ...field('period', { startDate: h.startDate, endDate: h.endDate }),
        ...field('premium', { premium: amount(h.premium, h.currency) }),
        ...h.members.map((m) => ({
          key: 'staff.household.member',
          params: {
            name: m.name,
            relationship: m.relationship,
            sumAssured: amount(m.sumAssured, h.currency) ?? '-',
          },
        })),
      ])
    : notFound('household', nrc, 'staff.household.none');

const batchResult = (query: string, b: StaffBatch | null) =>
  b === null
    ? notFound('batch', query)
    : result('staff.batch', { line: b.line, number: b.number, status: b.status }, [
        ...field('count', { count: b.count }),
        ...field('gross', { grossPremium: amount(b.grossPremium, b.currency) }),
        ...field('outstanding', { outstandingPremium: amount(b.outstandingPremium, b.currency) }),
      ]);

const bordereauResult = (f: StaffFile) =>
  result('staff.bordereau', { fileName: f.fileName }, [], {
    attachments: [
      { kind: 'document', url: f.url, label: 'staff.bordereau.link', fileName: f.fileName },
    ],
  });

const syncResult = (s: StaffSync) =>
  result(s.complete ? 'staff.sync.complete' : 'staff.sync.incomplete', {});

const todayResult = (d: StaffToday) =>
  result('staff.today', { date: d.date, paidPolicies: d.paidPolicies, claims: d.claims.length }, [
    ...field('paidTotal', { paidTotal: amount(d.paidTotal, d.currency) }),
    ...claimRows(d.claims),
  ]);

/** Guard reference: the command's topic is `topic`. */
const topicIs = (topic: StaffTopic) => ({ type: 'topicIs', params: { topic } }) as const;

/** The check of each typed answer (the `answered` guard's `field`): a command, or its arguments. */
const CHECKS = {
  command: (text: string) => parseStaffCommand(text),
  args: (text: string, context: StaffDeskContext) =>
    parseArgs(context.answers.topic ?? 'policy', text),
};

const arg = (context: StaffDeskContext, index: number) => context.answers.args?.[index] ?? '';

/** A failed call: the failure screen, with what went wrong. */
const toFailureScreen = failedTo<StaffDeskContext, Reply>('#staff-desk.failed');

/** The desk's lookups: placeholders here, the engine provides the real calls. */
const DESK_ACTORS = {
  findPolicy: notProvided<StaffPolicyFound | null, { query: string }>('findPolicy'),
  getClaim: notProvided<StaffClaim | null, { claimId: string }>('getClaim'),
  confirmClaim: notProvided<StaffConfirmed | null, { claimId: string; member: string }>(
    'confirmClaim',
  ),
  trackClaims: notProvided<StaffClaim[], Record<string, never>>('trackClaims'),
  transactionStatus: notProvided<StaffTransaction | null, { reference: string }>(
    'transactionStatus',
  ),
  householdByNrc: notProvided<StaffHousehold | null, { nrc: string }>('householdByNrc'),
  getBatch: notProvided<StaffBatch | null, { policyId: string; batchId: string }>('getBatch'),
  bordereau: notProvided<StaffFile, { policyId: string }>('bordereau'),
  todaySummary: notProvided<StaffToday, Record<string, never>>('todaySummary'),
  syncHoldings: notProvided<StaffSync, Record<string, never>>('syncHoldings'),
};

/** What the lookup `S` takes, and what it answers. */
type LookupInput<S extends keyof typeof DESK_ACTORS> = InputFrom<(typeof DESK_ACTORS)[S]>;
type LookupOutput<S extends keyof typeof DESK_ACTORS> = OutputFrom<(typeof DESK_ACTORS)[S]>;

/**
 * The state that runs the lookup `src` on `input` and goes to the result screen with what
 * `result` makes of the answer (and the context); a failed lookup goes to the failure screen. Every command's
 * state is one of these.
 */
function lookup<S extends keyof typeof DESK_ACTORS>(
  src: S,
  input: (context: StaffDeskContext) => LookupInput<S>,
  result: (found: LookupOutput<S>, context: StaffDeskContext) => Prompt,
) {
  // Typed here as XState types them inline: the state is built outside `createMachine`.
  type Done = DoneActorEvent<LookupOutput<S>>;
  return {
    invoke: {
      src,
      input: ({ context }: { context: StaffDeskContext }) => input(context),
      onDone: {
        target: '#staff-desk.result',
        actions: assign<StaffDeskContext, Done, undefined, Reply, never>({
          prompt: ({ context, event }) => result(event.output, context),
        }),
      },
      // The insurer's "not found" (a bordereau of an unknown policy) is an answer, not a failure:
      // the staff member gets the not-found screen, never a customer's "Change my answer".
      onError: [
        {
          guard: ({ event }: { event: { error: unknown } }) => isNotFound(event.error),
          target: '#staff-desk.result',
          actions: assign<StaffDeskContext, ErrorActorEvent, undefined, Reply, never>({
            prompt: ({ context }) =>
              notFound(context.answers.topic ?? 'policy', (context.answers.args ?? []).join(' ')),
          }),
        },
        toFailureScreen,
      ],
    },
  } as const;
}

/** The Slack staff desk: typed commands or menu picks, each answered with one result screen. */
export const staffDeskMachine = setup({
  types: {
    context: {} as StaffDeskContext,
    events: {} as Reply,
    input: {} as FlowInput<StaffDeskStart>,
    output: {} as FlowOutput,
  },
  actors: DESK_ACTORS,
  actions: {
    unexpected: assign(({ context }) => unexpected(context)),
    rejectAnswer: assign(rejectedAnswer(CHECKS)),
  },
  guards: {
    ...replyGuards,
    ...failureGuards,
    answered: answeredGuard(CHECKS),
    topicIs: ({ context }, params: { topic: StaffTopic }) => context.answers.topic === params.topic,
    pickedTopic: ({ event }) => {
      assertEvent(event, 'user.choice');
      return TOPICS.some((t) => t === event.id && !BARE_TOPICS.includes(t));
    },
    pickedBareTopic: ({ event }) => {
      assertEvent(event, 'user.choice');
      return BARE_TOPICS.some((t) => t === event.id);
    },
  },
}).createMachine({
  id: 'staff-desk',
  context: ({ input }) => ({
    prompt: deskPrompt(),
    tries: 0,
    answers: {},
    failure: null,
    startCommand: input.start?.command ?? null,
    member: input.principal.kind === 'staff' ? input.principal.member : '',
  }),
  initial: 'desk',
  on: UNEXPECTED_REPLIES,
  states: {
    desk: {
      tags: 'awaitingInput',
      entry: assign({ tries: 0, prompt: deskPrompt }),
      // Opened with a command (FlowStart.command): taken as if typed here, in the same turn.
      always: {
        guard: ({ context }) => Boolean(context.startCommand),
        actions: [
          raise(({ context }) => ({ type: 'user.text', text: context.startCommand ?? '' })),
          assign({ startCommand: null }),
        ],
      },
      on: {
        'user.text': [
          {
            guard: answered('command'),
            target: 'running',
            actions: assign({
              answers: ({ context, event }) => {
                const parsed = parseStaffCommand(event.text);
                return parsed.ok ? { ...parsed.value } : context.answers;
              },
            }),
          },
          { actions: rejectAnswer('command') },
        ],
        'user.choice': [
          {
            guard: 'pickedBareTopic',
            target: 'running',
            actions: assign({
              answers: ({ context, event }) => {
                assertEvent(event, 'user.choice');
                const topic = BARE_TOPICS.find((t) => t === event.id);
                return topic ? { topic, args: [] } : context.answers;
              },
            }),
          },
          { guard: chose('end'), target: 'done' },
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
            guard: answered('args'),
            target: 'running',
            actions: assign({
              answers: ({ context, event }) => {
                const topic = context.answers.topic ?? 'policy';
                const parsed = parseArgs(topic, event.text);
                return parsed.ok ? { ...parsed.value } : context.answers;
              },
            }),
          },
          { actions: rejectAnswer('args') },
        ],
        'user.back': 'desk',
      },
    },
    running: {
      initial: 'route',
      states: {
        route: {
          always: [
            { guard: topicIs('policy'), target: 'policy' },
            { guard: topicIs('claim'), target: 'claim' },
            { guard: topicIs('claims'), target: 'claims' },
            { guard: topicIs('txn'), target: 'txn' },
            { guard: topicIs('household'), target: 'household' },
            { guard: topicIs('batch'), target: 'batch' },
            { guard: topicIs('bordereau'), target: 'bordereau' },
            { guard: topicIs('today'), target: 'today' },
            { guard: topicIs('sync'), target: 'sync' },
            { guard: topicIs('confirm'), target: 'confirm' },
            { target: '#staff-desk.desk' },
          ],
        },
        policy: lookup(
          'findPolicy',
          (context) => ({ query: arg(context, 0) }),
          (found, context) => policyResult(arg(context, 0), found),
        ),
        claim: lookup(
          'getClaim',
          (context) => ({ claimId: arg(context, 0) }),
          (found, context) => claimResult(arg(context, 0), found),
        ),
        claims: lookup('trackClaims', () => ({}), claimsResult),
        txn: lookup(
          'transactionStatus',
          (context) => ({ reference: arg(context, 0) }),
          (found, context) => txnResult(arg(context, 0), found),
        ),
        household: lookup(
          'householdByNrc',
          (context) => ({ nrc: arg(context, 0) }),
          (found, context) => householdResult(arg(context, 0), found),
        ),
        batch: lookup(
          'getBatch',
          (context) => ({ policyId: arg(context, 0), batchId: arg(context, 1) }),
          (found, context) => batchResult(`${arg(context, 0)} ${arg(context, 1)}`, found),
        ),
        bordereau: lookup(
          'bordereau',
          (context) => ({ policyId: arg(context, 0) }),
          bordereauResult,
        ),
        today: lookup('todaySummary', () => ({}), todayResult),
        sync: lookup('syncHoldings', () => ({}), syncResult),
        confirm: lookup(
          'confirmClaim',
          (context) => ({ claimId: arg(context, 0), member: context.member ?? '' }),
          (found, context) => confirmResult(arg(context, 0), found),
        ),
      },
    },
    result: {
      tags: 'awaitingInput',
      entry: assign({ tries: 0 }),
      on: {
        'user.choice': [
          { guard: chose(DESK_WORDS.another), target: 'desk' },
          { guard: chose('end'), target: 'done' },
          { guard: chose(DESK_WORDS.help), actions: assign({ prompt: helpScreen }) },
        ],
        'user.back': 'desk',
        // A new command typed on a result screen runs straight away.
        'user.text': {
          guard: answered('command'),
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
      on: failureTransitions(BACK_TO_QUESTION, { retry: 'running', back: 'desk', end: 'done' }),
    },
    done: { type: 'final', entry: assign({ prompt: end('flow.end.thanks') }) },
    cancelled: { type: 'final', entry: assign({ prompt: CANCELLED }) },
  },
  output: flowOutput,
});

/**
 * The staff desk as the engine registers it. Version 3: guards became named and parameterised;
 * a snapshot of version 2 restarts at the main menu with the engine's notice.
 */
export const staffDeskFlow: FlowDefinition<typeof staffDeskMachine> = {
  id: 'staff-desk',
  version: 3,
  machine: staffDeskMachine,
  start: StaffDeskStart,
};
