import { and, assertEvent, assign, setup } from 'xstate';
import { type Principal, phoneOf, principalOf } from '../src/access/index.js';
import type { OperationName } from '../src/api/index.js';
import { dayNumber } from '../src/clock/index.js';
import type {
  FlowContextBase,
  FlowDefinition,
  FlowOutput,
  FlowStartInput,
  TurnRoute,
} from '../src/conversation/flow.js';
import type { Choice, Prompt } from '../src/conversation/prompt.js';
import type { Reply } from '../src/conversation/reply.js';
import { checkNrc, checkPhone } from './checks.js';
import type { HeldCover } from './claim-intimation.js';
import type { FlowId } from './index.js';
import type { MotorQuoteStart } from './motor-quote.js';
import { type StatusSubject, statusWord } from './status-words.js';
import {
  answered,
  answeredGuard,
  ask,
  CANCELLED,
  choice,
  chose,
  end,
  type Failure,
  failedTo,
  failureGuards,
  failureScreen,
  failureTransitions,
  flowOutput,
  menuOn,
  money,
  type Note,
  notProvided,
  refusedOn,
  rejectAnswer,
  rejected,
  rejectedAnswer,
  replyGuards,
  TO_MAIN_MENU,
  UNEXPECTED_REPLIES,
  unexpected,
} from './support.js';

/** The lines of business a person can hold cover in. */
export type HoldingLine = 'motor' | 'travel' | 'life' | 'funeral' | 'group-life' | 'credit-life';

/** One policy, membership or covered loan as "My cover" shows it. */
export interface Holding {
  line: HoldingLine;
  /** The printed policy number, or the partner's loan reference for a loan. */
  number: string;
  /** The insurer's own word for this policy, member or loan: Active, Closed, Pending, InGrace… */
  status: string;
  /** Grace end of cover InGrace. */
  until?: string;
  startDate: string;
  endDate: string;
  /** What it covers: the plate, the destination, the member, the household, the loan's policy. */
  covers: string;
  /**
   * Premium (motor, travel, funeral), cover on risk (group life: the sum assured up to the free
   * cover limit until the rest is underwritten) or loan amount (credit life).
   */
  amount?: number;
  /** Group life: the part of the sum assured above the free cover limit, not on risk yet. */
  awaitingUnderwriting?: number;
  currency: string;
  /** The insurer's policy id: certificates are fetched by it. */
  policyId?: string;
  /** The member's or loan's id on its policy: claims are intimated against it. */
  subjectId?: string;
  /**
   * Why its status is not known (absent: read from the insurer): the record, or the master policy
   * it sits under, was not answered in time or failed, or answered a status never seen. Shown as
   * such, never guessed, never in force.
   */
  unknown?: UnknownReason;
}

/**
 * Why a lookup could not tell: the insurer missed the lookup's budget (`late`), failed
 * (`failed`), or answered a status the bot has never seen (`unseen`).
 */
export type UnknownReason = 'late' | 'failed' | 'unseen';

/**
 * Hears each insurer call a lookup could not read (`operation`, `late` or `failed`): the
 * deployment logs it (FlowDeps). Names and reasons only: never personal data.
 */
export type UnknownAnswerReporter = (
  operation: OperationName,
  reason: Exclude<UnknownReason, 'unseen'>,
) => void;

/**
 * Whether a lookup has the truth: cover `found`; `none`, the insurer said so in time; or
 * `unknown`, something it needed was not read (a call late or failed, a status never seen).
 */
export type CoverTruth = 'found' | 'none' | 'unknown';

/**
 * What a lookup may tell the caller: everything, when the phone asking is the phone on record
 * (or the cover was found from that phone); otherwise only whether cover exists and until when.
 */
export type CoverAnswer =
  | {
      access: 'full';
      holdings: Holding[];
      /** `unknown` when any record, or a look-up that finds records, was not read. */
      truth: CoverTruth;
    }
  | { access: 'limited'; truth: 'found'; until: string; canSendDetails: boolean }
  | { access: 'limited'; truth: 'none' | 'unknown'; canSendDetails: boolean };

/** The truth of a whole lookup: `unknown` as soon as anything it needed was not read. */
export function truthOf(holdings: readonly Holding[], missed: boolean): CoverTruth {
  if (missed || holdings.some((h) => h.unknown)) return 'unknown';
  return holdings.length > 0 ? 'found' : 'none';
}

/** The lookup that failed last, so Try again repeats it. */
type Step = 'lookingUpMine' | 'lookingUp' | 'sendingDetails' | 'fetchingCertificate';

/** Context of cover-status. */
interface CoverStatusContext extends FlowContextBase {
  tries: number;
  answers: { nrc?: string };
  /** The USSD caller's number: certificates go there by SMS, a screen cannot show a link. */
  callerPhone: string | null;
  /** The phone the platform vouches for: the USSD caller, or a Telegram contact of one's own. */
  phone: string | null;
  /** Where a caller nobody vouches for is reached: the limits count them by it (src/limits). */
  route: TurnRoute | null;
  answer: CoverAnswer | null;
  picked: number | null;
  certificateUrl: string | null;
  step: Step;
  failure: Failure | null;
  /** The loan or membership "Make a claim" hands to claim-intimation. */
  claim: HeldCover | null;
  /** Today in Lusaka (`YYYY-MM-DD`): whether a policy ends soon enough to offer Renew. */
  today?: string;
  /** The motor policy "Renew" hands to motor-quote. */
  renewal?: NonNullable<MotorQuoteStart['renewal']> | null;
}

/**
 * Days before its end date from which My cover offers to renew a motor policy: the reminders
 * come at 14 and 3 days (src/reminders), and a holder checking earlier in the month may renew
 * then; road tax runs by quarter, so a month ahead is as early as anyone renews.
 */
export const RENEW_WITHIN_DAYS = 30;

/** Holdings kept in the snapshot; a USSD list pages them with "More". */
const MAX_KEPT = 20;

const LISTED_LINES: Record<HoldingLine, string> = {
  motor: 'cover.line.motor',
  travel: 'cover.line.travel',
  life: 'cover.line.life',
  funeral: 'cover.line.funeral',
  'group-life': 'cover.line.groupLife',
  'credit-life': 'cover.line.creditLife',
};

function holdingsOf(context: CoverStatusContext): Holding[] {
  return context.answer?.access === 'full' ? context.answer.holdings : [];
}

function listPrompt(context: CoverStatusContext): Prompt {
  const holdings = holdingsOf(context);
  // A snapshot from before lookups carried their truth reads as it did then.
  const unknown = context.answer?.access === 'full' && context.answer.truth === 'unknown';
  if (holdings.length === 0) {
    // Nothing found but something not read: "none" would be a guess.
    const none = context.answers.nrc ? 'cover.none' : 'cover.mine.none';
    return ask(unknown ? 'cover.unknown' : none, 'choice', {
      choices: [choice('another', 'cover.choice.byNrc'), choice('end', 'flow.choice.end')],
    });
  }
  const choices: Choice[] = holdings.map((h, i) =>
    choice(`h${i}`, LISTED_LINES[h.line], { number: h.number, ...statusParams(h) }),
  );
  choices.push(choice('another', 'cover.choice.another'), choice('end', 'flow.choice.end'));
  return ask('cover.list', 'choice', {
    params: { count: holdings.length },
    choices,
    ...(unknown ? { note: { key: 'cover.unknown' } } : {}),
  });
}

/** The record type whose status a holding of each line carries (flows/status-words.ts). */
export const STATUS_SUBJECT: Readonly<Record<HoldingLine, StatusSubject>> = {
  motor: 'policy',
  travel: 'policy',
  life: 'policy',
  funeral: 'household',
  'group-life': 'member',
  'credit-life': 'loan',
};

/** A holding's status in the customer's words: a catalogue key rendered by `{status, message}`. */
export function statusParams(h: Holding): { status: string; until?: string } {
  // A record whose status was not read has no word of its own to map: a word never seen is for
  // the insurer to explain; one not read in time may be read on a later try.
  if (h.unknown === 'unseen') return { status: 'status.unconfirmed' };
  if (h.unknown) return { status: 'status.notCheckedNow' };
  const status = statusWord(STATUS_SUBJECT[h.line], h.status, h.until).key;
  return h.until ? { status, until: h.until } : { status };
}

/** The subjects of a lookup's holdings with their statuses, for reporting unknown ones. */
export function holdingStatuses(
  holdings: readonly Holding[],
): { subject: StatusSubject; status: string }[] {
  return holdings
    .filter((h) => h.unknown !== 'late' && h.unknown !== 'failed')
    .map((h) => ({ subject: STATUS_SUBJECT[h.line], status: h.status }));
}

/** The claim a holding can start: loans and group-life memberships, the lines with claims. */
function claimOf(h: Holding | undefined): HeldCover | null {
  if (!h?.policyId || !h.subjectId) return null;
  if (h.line !== 'credit-life' && h.line !== 'group-life') return null;
  return {
    line: h.line,
    policyId: h.policyId,
    by: h.line === 'credit-life' ? 'loanId' : 'memberId',
    subject: h.subjectId,
    number: h.number,
    covers: h.covers,
  };
}

/** The renewal a holding can start: a motor policy in force ending within RENEW_WITHIN_DAYS. */
function renewalOf(
  h: Holding | undefined,
  today: string | undefined,
): NonNullable<MotorQuoteStart['renewal']> | null {
  if (!h?.policyId || h.line !== 'motor' || h.unknown || !today || !h.endDate) return null;
  if (statusWord('policy', h.status).key !== 'status.inForce') return null;
  const left = dayNumber(h.endDate) - dayNumber(today);
  if (!(left >= 0 && left <= RENEW_WITHIN_DAYS)) return null;
  return { policyId: h.policyId, policyNumber: h.number };
}

function certifiable(h: Holding | undefined): boolean {
  return h !== undefined && (h.line === 'motor' || h.line === 'travel') && h.policyId !== undefined;
}

function detailPrompt(h: Holding | undefined, today?: string): Prompt {
  if (!h)
    return ask('cover.mine.none', 'choice', { choices: [choice('list', 'cover.choice.list')] });
  if (h.unknown) {
    // Not read: the list line's words and "cannot check now", with the way back; no claim on it.
    const back = [choice('list', 'cover.choice.list'), choice('end', 'flow.choice.end')];
    return ask(LISTED_LINES[h.line], 'choice', {
      params: { number: h.number, ...statusParams(h) },
      choices: back,
      note: { key: 'cover.unknown' },
    });
  }
  const choices: Choice[] = [];
  if (renewalOf(h, today)) choices.push(choice('renew', 'cover.choice.renew'));
  if (claimOf(h)) choices.push(choice('claim', 'cover.choice.claim'));
  if (certifiable(h)) choices.push(choice('certificate', 'cover.choice.certificate'));
  choices.push(choice('list', 'cover.choice.list'), choice('end', 'flow.choice.end'));
  const notes: Note[] = h.until ? [{ key: 'cover.note.until', params: { until: h.until } }] : [];
  if (h.awaitingUnderwriting && h.amount !== undefined) {
    notes.push({
      key: 'cover.note.freeCoverLimit',
      params: { currency: h.currency, limit: money(h.amount) },
    });
  }
  return {
    ...ask(`cover.detail.${h.line}`, 'choice', {
      params: {
        number: h.number,
        ...statusParams(h),
        startDate: h.startDate || '-',
        endDate: h.endDate || '-',
        covers: h.covers || '-',
        amount: h.amount === undefined ? '-' : money(h.amount),
        currency: h.currency,
      },
      choices,
    }),
    ...(notes.length > 0 ? { notes } : {}),
  };
}

function limitedPrompt(answer: CoverAnswer | null): Prompt {
  const limited = answer?.access === 'limited' ? answer : null;
  const choices: Choice[] = [];
  if (limited?.canSendDetails) choices.push(choice('sms', 'cover.choice.sms'));
  choices.push(choice('another', 'cover.choice.another'), choice('end', 'flow.choice.end'));
  if (limited?.truth === 'found') {
    return ask('cover.limited.covered', 'choice', {
      params: { until: limited.until || '-' },
      choices,
    });
  }
  // "No cover in force" only when the insurer said so in time.
  return ask(limited?.truth === 'none' ? 'cover.limited.none' : 'cover.limited.unknown', 'choice', {
    choices,
  });
}

function nrcPrompt(note: Note | null = null): Prompt {
  return ask('cover.askNrc', 'nrc', { note });
}

// No choices: on Telegram a screen with buttons cannot also carry the contact-request keyboard,
// and an NRC is simply typed here.
const WHO_PROMPT: Prompt = ask('cover.askContact', 'contact');

const picked = (context: CoverStatusContext): Holding | undefined =>
  context.picked === null ? undefined : holdingsOf(context)[context.picked];

/** The check of each typed answer, by the field it fills (the `answered` guard's `field`). */
const CHECKS = { nrc: checkNrc };

/** Guard reference: the call that failed last was `step`. */
const failedStep = (step: Step) => ({ type: 'failedStep', params: { step } }) as const;

/** Absolute ids of the states, for transitions that leave their stage. */
const ID = {
  done: '#cover-status.done',
  mainMenu: '#cover-status.mainMenu',
  claimHandOver: '#cover-status.claimHandOver',
  renewalHandOver: '#cover-status.renewalHandOver',
  failed: '#cover-status.failure.failed',
  lookingUpMine: '#cover-status.mine.lookingUpMine',
  askNrc: '#cover-status.byNrc.askNrc',
  lookingUp: '#cover-status.byNrc.lookingUp',
  limited: '#cover-status.byNrc.limited',
  sendingDetails: '#cover-status.byNrc.sendingDetails',
  list: '#cover-status.holdings.list',
  detail: '#cover-status.holdings.detail',
  fetchingCertificate: '#cover-status.holdings.fetchingCertificate',
} as const;

/** A failed call: the failure screen, with what went wrong. */
const toFailureScreen = failedTo<CoverStatusContext, Reply>(ID.failed);

/** The question that asked for a field of a lookup the insurer refused: the NRC. */
const BACK_TO_QUESTION = refusedOn({ nrcNumber: ID.askNrc, idNumber: ID.askNrc });

/** A cover by NRC as its actors are asked: the NRC, who asks, and where a nobody is reached. */
export interface CoverAsked {
  nrc: string;
  principal: Principal;
  route?: TurnRoute | null;
}

/**
 * "My cover": the caller's own policies of every line, found from the phone the platform vouches
 * for; and cover by NRC, in full for the phone on record and only "covered until" for anyone else.
 */
export const coverStatusMachine = setup({
  types: {
    context: {} as CoverStatusContext,
    events: {} as Reply,
    input: {} as FlowStartInput,
    output: {} as FlowOutput,
  },
  actors: {
    lookupMine: notProvided<CoverAnswer, { phone: string }>('lookupMine'),
    lookupCover: notProvided<CoverAnswer, CoverAsked>('lookupCover'),
    sendDetails: notProvided<{ sent: boolean }, CoverAsked>('sendDetails'),
    certificate: notProvided<
      { url: string },
      { line: HoldingLine; policyId: string; number: string; phone?: string }
    >('certificate'),
  },
  actions: {
    unexpected: assign(({ context }) => unexpected(context)),
    rejectAnswer: assign(rejectedAnswer(CHECKS)),
  },
  guards: {
    ...replyGuards,
    ...failureGuards,
    answered: answeredGuard(CHECKS),
    failedStep: ({ context }, params: { step: Step }) => context.step === params.step,
    // A phone shared as a contact is vouched for by the platform; a typed one is not.
    sharedPhone: ({ event }) => {
      assertEvent(event, 'user.contact');
      return checkPhone(event.phone).ok;
    },
    knowsPhone: ({ context }) => context.phone !== null,
    full: ({ context }) => context.answer?.access === 'full',
    pickedHolding: ({ context, event }) => {
      assertEvent(event, 'user.choice');
      return /^h\d+$/.test(event.id) && Number(event.id.slice(1)) < holdingsOf(context).length;
    },
    canClaim: ({ context }) => claimOf(picked(context)) !== null,
    canRenew: ({ context }) => renewalOf(picked(context), context.today) !== null,
    canCertify: ({ context }) => certifiable(picked(context)),
    canSendDetails: ({ context }) =>
      context.answer?.access === 'limited' && context.answer.canSendDetails,
  },
}).createMachine({
  id: 'cover-status',
  context: ({ input }) => ({
    prompt: nrcPrompt(),
    tries: 0,
    answers: {},
    callerPhone: input.callerPhone ?? null,
    phone: phoneOf(input.principal) ?? null,
    // Kept only for a caller nobody vouches for: a phone is counted by its number.
    route: input.principal.kind === 'nobody' ? (input.route ?? null) : null,
    answer: null,
    picked: null,
    certificateUrl: null,
    step: 'lookingUpMine',
    failure: null,
    claim: null,
    today: input.today,
    renewal: null,
  }),
  initial: 'start',
  on: UNEXPECTED_REPLIES,
  states: {
    start: {
      always: [{ guard: 'knowsPhone', target: ID.lookingUpMine }, { target: 'mine' }],
    },
    // The caller's own cover, found from the phone the platform vouches for.
    mine: {
      initial: 'askWho',
      states: {
        askWho: {
          tags: 'awaitingInput',
          entry: assign({ tries: 0, prompt: WHO_PROMPT }),
          on: {
            'user.contact': [
              {
                guard: 'sharedPhone',
                target: 'lookingUpMine',
                actions: assign({
                  phone: ({ event }) => {
                    const phone = checkPhone(event.phone);
                    return phone.ok ? phone.value : null;
                  },
                }),
              },
              { actions: assign(({ context }) => rejected(context, 'validation.phone.format')) },
            ],
            // A typed number is not vouched for: it cannot open anyone's cover. An NRC can.
            'user.text': [
              {
                guard: answered('nrc'),
                target: ID.lookingUp,
                actions: assign({ answers: ({ event }) => nrcAnswer(event) }),
              },
              { actions: assign(({ context }) => rejected(context, 'cover.note.shareContact')) },
            ],
            'user.choice': [{ guard: chose('nrc'), target: ID.askNrc }, { actions: 'unexpected' }],
            'user.back': ID.mainMenu,
          },
        },
        lookingUpMine: {
          entry: assign({ step: 'lookingUpMine' as const, answers: {} }),
          invoke: {
            src: 'lookupMine',
            input: ({ context }) => ({ phone: context.phone ?? '' }),
            onDone: {
              target: ID.list,
              actions: assign({ answer: ({ event }) => trim(event.output), failure: null }),
            },
            onError: toFailureScreen,
          },
        },
      },
    },
    // Cover by NRC: in full for the phone on record, else only whether and until when.
    byNrc: {
      initial: 'askNrc',
      states: {
        askNrc: {
          tags: 'awaitingInput',
          entry: assign({ tries: 0, prompt: () => nrcPrompt() }),
          on: {
            'user.text': [
              {
                guard: answered('nrc'),
                target: 'lookingUp',
                actions: assign({ tries: 0, answers: ({ event }) => nrcAnswer(event) }),
              },
              { actions: rejectAnswer('nrc') },
            ],
            'user.back': [{ guard: 'knowsPhone', target: ID.list }, { target: ID.mainMenu }],
          },
        },
        lookingUp: {
          entry: assign({ step: 'lookingUp' as const }),
          invoke: {
            src: 'lookupCover',
            input: ({ context }) => ({
              nrc: context.answers.nrc ?? '',
              principal: principalOf(context.phone),
              route: context.route,
            }),
            onDone: {
              target: 'answered',
              actions: assign({ answer: ({ event }) => trim(event.output), failure: null }),
            },
            onError: toFailureScreen,
          },
        },
        answered: {
          always: [{ guard: 'full', target: ID.list }, { target: 'limited' }],
        },
        limited: {
          tags: 'awaitingInput',
          entry: assign({ tries: 0, prompt: ({ context }) => limitedPrompt(context.answer) }),
          on: {
            'user.choice': [
              { guard: and([chose('sms'), 'canSendDetails']), target: 'sendingDetails' },
              { guard: chose('another'), target: 'askNrc' },
              { guard: chose('end'), target: ID.done },
              { actions: 'unexpected' },
            ],
            'user.back': 'askNrc',
          },
        },
        sendingDetails: {
          entry: assign({ step: 'sendingDetails' as const }),
          invoke: {
            src: 'sendDetails',
            input: ({ context }) => ({
              nrc: context.answers.nrc ?? '',
              principal: principalOf(context.phone),
              route: context.route,
            }),
            onDone: 'detailsSent',
            onError: toFailureScreen,
          },
        },
        detailsSent: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            prompt: ask('cover.sms.sent', 'choice', {
              choices: [
                choice('another', 'cover.choice.another'),
                choice('end', 'flow.choice.end'),
              ],
            }),
          }),
          on: menuOn({ another: 'askNrc', end: ID.done }, 'askNrc'),
        },
      },
    },
    // The policies found, one in detail, and its certificate.
    holdings: {
      initial: 'list',
      states: {
        list: {
          tags: 'awaitingInput',
          entry: assign({ tries: 0, picked: null, prompt: ({ context }) => listPrompt(context) }),
          on: {
            'user.choice': [
              {
                guard: 'pickedHolding',
                target: 'detail',
                actions: assign({
                  picked: ({ event }) => {
                    assertEvent(event, 'user.choice');
                    return Number(event.id.slice(1));
                  },
                }),
              },
              { guard: chose('another'), target: ID.askNrc },
              { guard: chose('end'), target: ID.done },
              { actions: 'unexpected' },
            ],
            'user.back': [{ guard: 'knowsPhone', target: ID.mainMenu }, { target: ID.askNrc }],
          },
        },
        detail: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            certificateUrl: null,
            prompt: ({ context }) => detailPrompt(picked(context), context.today),
          }),
          on: {
            'user.choice': [
              {
                guard: and([chose('claim'), 'canClaim']),
                target: ID.claimHandOver,
                actions: assign({ claim: ({ context }) => claimOf(picked(context)) }),
              },
              {
                guard: and([chose('renew'), 'canRenew']),
                target: ID.renewalHandOver,
                actions: assign({
                  renewal: ({ context }) => renewalOf(picked(context), context.today),
                }),
              },
              { guard: and([chose('certificate'), 'canCertify']), target: 'fetchingCertificate' },
              { guard: chose('list'), target: 'list' },
              { guard: chose('end'), target: ID.done },
              { actions: 'unexpected' },
            ],
            'user.back': 'list',
          },
        },
        fetchingCertificate: {
          entry: assign({ step: 'fetchingCertificate' as const }),
          invoke: {
            src: 'certificate',
            input: ({ context }) => {
              const h = picked(context);
              return {
                line: h?.line ?? 'motor',
                policyId: h?.policyId ?? '',
                number: h?.number ?? '',
                ...(context.callerPhone ? { phone: context.callerPhone } : {}),
              };
            },
            onDone: {
              target: 'certificate',
              actions: assign({ certificateUrl: ({ event }) => event.output.url, failure: null }),
            },
            onError: toFailureScreen,
          },
        },
        certificate: {
          tags: 'awaitingInput',
          entry: assign({ tries: 0, prompt: ({ context }) => certificatePrompt(context) }),
          on: menuOn({ list: 'list', end: ID.done }, 'detail'),
        },
      },
    },
    // A failed call: Try again repeats it, Back returns to the screen before it.
    failure: {
      initial: 'failed',
      states: {
        failed: {
          tags: 'awaitingInput',
          entry: assign({ tries: 0, prompt: failureScreen }),
          on: failureTransitions(BACK_TO_QUESTION, {
            retry: 'retrying',
            back: 'backFromFailure',
            end: ID.done,
          }),
        },
        retrying: {
          always: [
            { guard: failedStep('lookingUpMine'), target: ID.lookingUpMine },
            { guard: failedStep('lookingUp'), target: ID.lookingUp },
            { guard: failedStep('sendingDetails'), target: ID.sendingDetails },
            { target: ID.fetchingCertificate },
          ],
        },
        backFromFailure: {
          always: [
            { guard: failedStep('lookingUpMine'), target: ID.askNrc },
            { guard: failedStep('lookingUp'), target: ID.askNrc },
            { guard: failedStep('sendingDetails'), target: ID.limited },
            { target: ID.detail },
          ],
        },
      },
    },
    done: { type: 'final', entry: assign({ tries: 0, prompt: end('flow.end.thanks') }) },
    cancelled: { type: 'final', entry: assign({ tries: 0, prompt: CANCELLED }) },
    mainMenu: { type: 'final', entry: assign({ prompt: TO_MAIN_MENU }) },
    claimHandOver: { type: 'final' },
    renewalHandOver: { type: 'final' },
  },
  output: ({ context }): FlowOutput<FlowId> =>
    context.claim
      ? { next: 'claim-intimation', start: { claim: context.claim } }
      : context.renewal
        ? { next: 'motor-quote', start: { renewal: context.renewal } }
        : flowOutput({ context }),
});

/** The certificate screen: sent by SMS to a USSD caller, attached in a chat. */
function certificatePrompt(context: CoverStatusContext): Prompt {
  const number = picked(context)?.number;
  return ask(context.callerPhone ? 'cover.certificate.sms' : 'cover.certificate.ready', 'choice', {
    params: { number: number ?? '' },
    choices: [choice('list', 'cover.choice.list'), choice('end', 'flow.choice.end')],
    ...(context.certificateUrl
      ? {
          attachments: [
            {
              kind: 'document' as const,
              url: context.certificateUrl,
              label: 'cover.certificate',
              fileName: `${number ?? 'policy'}-certificate.pdf`,
            },
          ],
        }
      : {}),
  });
}

function nrcAnswer(event: Reply): { nrc?: string } {
  if (event.type !== 'user.text') return {};
  const nrc = checkNrc(event.text);
  return nrc.ok ? { nrc: nrc.value } : {};
}

// Keeps the snapshot small: a long book is listed in the first MAX_KEPT holdings, in-force first,
// then by number, so the list reads the same on every lookup whatever order the index kept.
function trim(answer: CoverAnswer): CoverAnswer {
  if (answer.access !== 'full') return answer;
  const rank = (h: Holding) => (/^(active|ingrace)$/i.test(h.status) ? 0 : 1);
  const holdings = [...answer.holdings]
    .sort((a, b) => rank(a) - rank(b) || a.number.localeCompare(b.number, 'en'))
    .slice(0, MAX_KEPT);
  return { access: 'full', holdings, truth: answer.truth };
}

/**
 * Cover status as the engine registers it. Version 4: the stages became compound states, so a
 * snapshot of version 3 (flat state names) restarts at the main menu with the engine's notice.
 */
export const coverStatusFlow: FlowDefinition<typeof coverStatusMachine> = {
  id: 'cover-status',
  version: 4,
  machine: coverStatusMachine,
};
