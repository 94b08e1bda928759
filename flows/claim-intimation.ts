import { and, assertEvent, assign, setup } from 'xstate';
import { z } from 'zod';
import { type Principal, phoneOf } from '../src/access/index.js';
import { FIELD_LENGTHS } from '../src/api/index.js';
import type {
  FlowContextBase,
  FlowDefinition,
  FlowOutput,
  FlowStartInput,
  TurnRoute,
} from '../src/conversation/flow.js';
import type { Choice, Prompt } from '../src/conversation/prompt.js';
import type { Reply } from '../src/conversation/reply.js';
import { asked, askText, keepAnswer, keptBy } from './ask-text.js';
import {
  checkDescription,
  checkIdentifier,
  checkNrc,
  checkPastDate,
  checkPhone,
} from './checks.js';
import type { CoverTruth } from './cover-status.js';
import { claimTakesDocuments, insurerWord, statusWord } from './status-words.js';
import {
  answered,
  answeredGuard,
  ask,
  CANCELLED,
  type Checked,
  callFailed,
  callFailureGuards,
  checkedValue,
  choice,
  chose,
  dataChoice,
  end,
  type Failure,
  failedCallTo,
  failureGuards,
  failureScreen,
  flowOutput,
  menuOn,
  money,
  notProvided,
  refusedOn,
  rejectAnswer,
  rejectedAnswer,
  replyGuards,
  TO_MAIN_MENU,
  UNEXPECTED_REPLIES,
  unexpected,
} from './support.js';

/** The book a claim is made against. */
export type ClaimLine = 'credit-life' | 'group-life';

/** How the covered loan or member is identified: exactly one of these, never both. */
type ClaimSubjectKey = 'loanId' | 'partnerLoanReference' | 'memberId' | 'nrcNumber';

/** A scope of cover a claim can be made under, as the insurer lists it on the product. */
interface ClaimScope {
  /** The insurer's name for it (Death, Permanent disability, Retrenchment…), sent as claimType. */
  name: string;
  /** The documents the insurer requires for a claim under it (`claimRequirements`). */
  requirements: string[];
}

/** What the product says about claims on a policy: its scopes and the notice it allows. */
export interface ClaimTerms {
  scopes: ClaimScope[];
  /** Days after the loss within which the insurer wants to hear of it (`claimNotificationDays`). */
  notificationDays: number | null;
}

/** What the user told us, sent to intimate the claim. */
export interface ClaimRequest {
  line: ClaimLine;
  policyId: string;
  /**
   * `policyId` is the insurer's own id (cover the caller holds, picked from a list), not a
   * number typed: no look-up by number is needed before the reads that take it.
   */
  byId?: true;
  by: ClaimSubjectKey;
  subject: string;
  /** Which scope of cover the loss falls under, by the insurer's name for it. */
  claimType?: string;
  /** The loan or member as the customer knows it: partner reference or name, never an id. */
  label?: string;
  eventDate: string;
  details: string;
}

/** A claim already open for a loan or member: its number only for those who may follow it. */
export interface OpenClaim {
  number?: string;
}

/** What the open-claim check is asked: the loan or member named, and who asks. */
export type OpenClaimAsked = Pick<ClaimRequest, 'line' | 'policyId' | 'byId' | 'by' | 'subject'> & {
  principal: Principal;
};

/**
 * What intimating sends: the claim, and where its one confirmation goes (the user's own channel,
 * with the upload link when the caller is on USSD).
 */
export interface IntimateInput extends ClaimRequest {
  /** The documents the claim's scope requires, as one line. */
  requirements: string;
  route?: TurnRoute;
  /** The USSD caller's phone: their confirmation carries the documents link. */
  phone?: string;
  /**
   * The NRC the insurer's record names for a loan or member picked from the caller's own cover
   * (never typed): who is on record for the claim is read beside its intimation.
   */
  subjectNrc?: string;
}

/** A claim as the flow keeps it: its id and status, and the payable amount when known. */
export interface ClaimSummary {
  id: string;
  number: string;
  status: string;
  payable?: number;
  currency: string;
  /**
   * The caller's own claim (on their loan or membership, or reported from their phone): they may
   * add documents. Absent or false: they see its status only.
   */
  mine?: boolean;
  /**
   * The documents just sent are held: the claim was reported by someone not on record, and
   * staff confirm it before they go to the insurer.
   */
  held?: boolean;
}

/** A loan or membership the caller holds, as a claim can start from it (My cover hands one over). */
export const HeldCover = z.object({
  line: z.enum(['credit-life', 'group-life']),
  /** The insurer's policy id. */
  policyId: z.string(),
  /** How the loan or member is identified to the insurer: its id on the policy. */
  by: z.enum(['loanId', 'memberId']),
  subject: z.string(),
  /** The printed loan reference or policy number the customer knows it by. */
  number: z.string(),
  /** Whose cover it is (the member's name) or on which policy (the loan's). */
  covers: z.string(),
  /**
   * The NRC covered, as the insurer's loan or member record read it: who is on record for a claim
   * on it is asked beside the claim's intimation, not after it (issue 38). Never typed.
   */
  nrc: z.string().optional(),
});
/** A loan or membership the caller holds. */
export type HeldCover = z.infer<typeof HeldCover>;

/** Where claim-intimation starts: My cover's "Make a claim" opens it at that loan or membership. */
export const ClaimIntimationStart = z.object({ claim: HeldCover.optional() });
/** What claim-intimation takes as its start. */
export type ClaimIntimationStart = z.infer<typeof ClaimIntimationStart>;

/** The loans and memberships a phone's holder may claim against, and whether that is the truth. */
export interface HeldCoverAnswer {
  held: HeldCover[];
  /** `unknown`: some cover was not read, so more may be held than `held` lists. */
  truth: CoverTruth;
}

/** The claim's loan or membership list, or why it is empty: none held, or not read now. */
function heldKey(context: ClaimIntimationContext): string {
  if (context.held.length > 0) return 'claim.held';
  return context.heldTruth === 'unknown' ? 'cover.unknown' : 'claim.held.none';
}

/** A claim found by the number the user was given, with the book it is on. */
export type FoundClaim = ClaimSummary & { line: ClaimLine };

/** Context of claim-intimation. */
interface ClaimIntimationContext extends FlowContextBase {
  tries: number;
  today: string;
  /** Who is asking: a claim can start from the cover a verified phone holds. */
  principal: Principal;
  /** The USSD caller's number: their documents come through a link sent there by SMS. */
  callerPhone: string | null;
  /** The caller's own loans and memberships in force, to claim against. */
  held: HeldCover[];
  /** Whether `held` is the truth; absent in a snapshot from before it was kept. */
  heldTruth?: CoverTruth;
  /** The claim's loan or member was picked from `held` (Back returns to that list). */
  fromHeld: boolean;
  /** The claim number typed to track a claim (CLC-…, GLC-…). */
  claimNumber: string;
  answers: Partial<ClaimRequest>;
  claim: ClaimSummary | null;
  claims: (ClaimSummary & { line?: ClaimLine })[];
  /** The list shown is the caller's own claims of every line (Track my claims), not one line's. */
  trackedAll?: boolean;
  documents: number;
  /** The last photo sent, so a retry re-attaches the same one. */
  upload: string | null;
  /** The product's claim terms for the claim being made (credit life). */
  terms: ClaimTerms | null;
  /**
   * A claim already open for the loan or member just named, found before anything else is
   * asked: its number when the caller may follow it. Absent in older snapshots.
   */
  openClaim?: OpenClaim | null;
  /** Where the user is reached outside the turn: the claim's confirmation goes there. */
  route: TurnRoute | null;
  failure:
    | (Failure & {
        op: 'intimate' | 'attach' | 'track' | 'mine' | 'get' | 'held' | 'find' | 'terms' | 'link';
      })
    | null;
}

/**
 * What a group-life death claim needs. The spec lists no group-life product with scopes of cover
 * (its one claim is death, paying the member's sum assured); a death claim needs the death
 * certificate, as the demo book's documented claim shows.
 */
export const GROUP_LIFE_TERMS: ClaimTerms = {
  scopes: [{ name: 'Death', requirements: ['Death certificate'] }],
  notificationDays: null,
};

/** The line of business of the claim being made or tracked: credit life until one is picked. */
function lineOf(context: ClaimIntimationContext): ClaimLine {
  return context.answers.line ?? 'credit-life';
}

/** The claim on screen as the insurer's claim calls name it: its line and id. */
function claimKey(context: ClaimIntimationContext): { line: ClaimLine; claimId: string } {
  return { line: lineOf(context), claimId: context.claim?.id ?? '' };
}

/**
 * The claim a step taking its files names (`claimLine`, `claimId`: src/claim-documents reads
 * them), so a photo sent on any chat channel counts against that claim's files and bytes.
 */
function uploadParams(context: ClaimIntimationContext): { claimLine?: string; claimId?: string } {
  const id = context.claim?.id;
  return id ? { claimLine: lineOf(context), claimId: id } : {};
}

/** The documents a claim's scope requires, as one line ("" when the insurer lists none). */
function requirementsOf(context: ClaimIntimationContext): string {
  const scope = context.terms?.scopes.find((s) => s.name === context.answers.claimType);
  return scope?.requirements.join(', ') ?? '';
}

/** Whole days from the loss to today; null before a loss date is given. */
function daysSinceLoss(context: ClaimIntimationContext): number | null {
  const { eventDate } = context.answers;
  if (!eventDate) return null;
  return Math.floor((Date.parse(context.today) - Date.parse(eventDate)) / 86_400_000);
}

/** The late-notice warning when the loss is older than the product allows, else none. */
function lateNote(context: ClaimIntimationContext) {
  const days = daysSinceLoss(context);
  const allowed = context.terms?.notificationDays;
  return days !== null && allowed != null && days > allowed
    ? { key: 'claim.note.late', params: { days, allowed } }
    : null;
}

/** The claim's loan or member as the customer knows it. */
function labelOf(held: HeldCover): string {
  return held.line === 'credit-life' ? held.number : held.covers || held.number;
}

/** Answers preset from the loan or membership a claim starts from. */
function heldAnswers(held: HeldCover): Partial<ClaimRequest> {
  return {
    line: held.line,
    policyId: held.policyId,
    by: held.by,
    subject: held.subject,
    label: labelOf(held),
  };
}

/**
 * What a person types to say which loan or member a claim is for: what they know it by (the
 * partner's loan reference, the member's NRC), never the insurer's internal id. Internal ids
 * come only from the caller's own list (`HeldCover`).
 */
const TYPED_KEY: Record<ClaimLine, ClaimSubjectKey> = {
  'credit-life': 'partnerLoanReference',
  'group-life': 'nrcNumber',
};

/** Checks the loan or member identifier typed for the chosen key. */
function checkSubject(by: ClaimSubjectKey, text: string): Checked<string> {
  return by === 'nrcNumber'
    ? checkNrc(text)
    : checkIdentifier(text, FIELD_LENGTHS.partnerLoanReference);
}

/** The loan or member key a typed identifier is checked against: the one chosen, else the line's. */
function subjectKey(context: ClaimIntimationContext): ClaimSubjectKey {
  return context.answers.by ?? TYPED_KEY[lineOf(context)];
}

/** A printed policy or claim number typed to be looked up. */
const checkLookup = (text: string): Checked<string> => checkIdentifier(text);

/** What happened, as long as the claim's description field takes. */
const checkDetails = (text: string): Checked<string> =>
  checkDescription(text, FIELD_LENGTHS.description);

/** The check of each typed answer, by the field it fills (the `answered` guard's `field`). */
const CHECKS = {
  policy: checkLookup,
  subject: (text: string, context: ClaimIntimationContext) =>
    checkSubject(subjectKey(context), text),
  eventDate: (text: string, context: ClaimIntimationContext) => checkPastDate(text, context.today),
  details: checkDetails,
  claimNumber: checkLookup,
};

/** The call a failure screen is about, so Try again repeats it and Back returns before it. */
type ClaimOp = NonNullable<ClaimIntimationContext['failure']>['op'];

/** Guard reference: the claim is on this line of business. */
const lineIs = (line: ClaimLine) => ({ type: 'lineIs', params: { line } }) as const;

/** Absolute ids of the states, for transitions that leave their stage. */
const ID = {
  start: '#claim-intimation.start',
  done: '#claim-intimation.done',
  failed: '#claim-intimation.failed',
  mainMenu: '#claim-intimation.mainMenu',
  loadingHeld: '#claim-intimation.cover.loadingHeld',
  pickHeld: '#claim-intimation.cover.pickHeld',
  heldPicked: '#claim-intimation.cover.heldPicked',
  askPolicy: '#claim-intimation.cover.askPolicy',
  loadingTerms: '#claim-intimation.cover.loadingTerms',
  pickClaimType: '#claim-intimation.cover.pickClaimType',
  refusedSubject: '#claim-intimation.cover.refusedSubject',
  checkingOpen: '#claim-intimation.cover.checkingOpen',
  askSubject: '#claim-intimation.cover.askSubject',
  askEventDate: '#claim-intimation.loss.askEventDate',
  askDetails: '#claim-intimation.loss.askDetails',
  confirm: '#claim-intimation.submission.confirm',
  intimating: '#claim-intimation.submission.intimating',
  intimated: '#claim-intimation.documents.intimated',
  sendingLink: '#claim-intimation.documents.sendingLink',
  awaitingDocument: '#claim-intimation.documents.awaitingDocument',
  attaching: '#claim-intimation.documents.attaching',
  pickTrackLine: '#claim-intimation.track.pickTrackLine',
  askClaimNumber: '#claim-intimation.track.askClaimNumber',
  findingClaim: '#claim-intimation.track.findingClaim',
  loadingClaims: '#claim-intimation.track.loadingClaims',
  loadingMine: '#claim-intimation.track.loadingMine',
  loadingClaim: '#claim-intimation.track.loadingClaim',
  claimDetail: '#claim-intimation.track.claimDetail',
} as const;

/** The question that asked for each field of a claim the insurer may refuse. */
const BACK_TO_QUESTION = refusedOn({
  lossDate: ID.askEventDate,
  description: ID.askDetails,
  claimType: ID.pickClaimType,
  partnerLoanReference: ID.refusedSubject,
  loanId: ID.refusedSubject,
  nrcNumber: ID.refusedSubject,
  memberId: ID.refusedSubject,
});

/** Try again after a failed call: the call again. */
const RETRY: Readonly<Record<ClaimOp, string>> = {
  intimate: ID.intimating,
  attach: ID.attaching,
  track: ID.loadingClaims,
  mine: ID.loadingMine,
  get: ID.loadingClaim,
  held: ID.loadingHeld,
  find: ID.findingClaim,
  terms: ID.loadingTerms,
  link: ID.sendingLink,
};

/** Back after a failed call: the screen before it; a failed claim lookup returns to tracking. */
const BACK: Readonly<Partial<Record<ClaimOp, string>>> = {
  terms: ID.refusedSubject,
  link: ID.intimated,
  intimate: ID.confirm,
  held: ID.start,
  mine: ID.pickTrackLine,
  find: ID.askClaimNumber,
  attach: ID.awaitingDocument,
};

const BACK_OPS = Object.keys(BACK) as ClaimOp[];

/** A failed call `op`: the failure screen, Try again and Back as {@link RETRY} and {@link BACK} say. */
const failedCall = failedCallTo<ClaimIntimationContext, Reply>(ID.failed);

/** Cover picked from the caller's own list names the policy by the insurer's id (see byId). */
const byIdOf = (context: ClaimIntimationContext): { byId?: true } =>
  context.fromHeld ? { byId: true } : {};

/**
 * The NRC the insurer's record names for the loan or member picked from the caller's own list:
 * its owners are then read beside the intimation (issue 38). None for one typed.
 */
function subjectNrcOf(context: ClaimIntimationContext): { subjectNrc?: string } {
  if (!context.fromHeld) return {};
  const { policyId, by, subject } = context.answers;
  const held = context.held.find(
    (h) => h.policyId === policyId && h.by === by && h.subject === subject,
  );
  return held?.nrc ? { subjectNrc: held.nrc } : {};
}

/** A claim's status as screens show it: our words, and the insurer's own for a word we lack. */
function claimStatus(status: string): { status: string; insurerStatus: string } {
  return { status: statusWord('claim', status).key, insurerStatus: insurerWord(status) };
}

function claimParams(claim: ClaimSummary): NonNullable<Prompt['params']> {
  return {
    number: claim.number,
    ...claimStatus(claim.status),
    payable: claim.payable === undefined ? '' : money(claim.payable),
    currency: claim.currency,
  };
}

/**
 * Add documents is offered: the caller's own claim, still taking evidence (Intimated or
 * Documented); once the insurer checks, approves or settles it, documents go to the insurer.
 */
function addsDocuments(claim: ClaimSummary | null): boolean {
  return claim?.mine === true && claimTakesDocuments(claim.status);
}

/**
 * Whether a claim's screen takes a photo sent on it, as if "Add documents" was tapped first: in a
 * chat (a USSD caller's documents come through a link) and for a claim that still takes them.
 */
function attachesInChat(context: ClaimIntimationContext): boolean {
  return context.callerPhone === null && addsDocuments(context.claim);
}

/** What a claim's screen says: everything for its own phone, else its status only. */
function claimDetailKey(claim: ClaimSummary | null): string {
  if (!claim?.mine) return 'claim.detail.status';
  return claim.payable === undefined ? 'claim.detail.noPayable' : 'claim.detail';
}

/** The answers with the loan or member typed for the claim. */
function withSubject(context: ClaimIntimationContext, event: Reply): Partial<ClaimRequest> {
  const subject = checkedValue(CHECKS.subject, event, context);
  return subject === undefined ? context.answers : { ...context.answers, subject, label: subject };
}

/** The answers with the line of business picked from a menu. */
function withLine(context: ClaimIntimationContext, event: Reply): Partial<ClaimRequest> {
  assertEvent(event, 'user.choice');
  return { ...context.answers, line: event.id === 'group-life' ? 'group-life' : 'credit-life' };
}

const MAX_LISTED = 5;
const MAX_HELD = 8;

/**
 * The claim already open for the loan or member named: its number and Track it for those who may
 * follow it (anyone else learns only that one is open), or another loan or member.
 */
function alreadyOpenPrompt(open: OpenClaim | null | undefined): Prompt {
  const number = open?.number;
  return ask(number ? 'claim.alreadyOpen' : 'claim.note.alreadyOpenElsewhere', 'choice', {
    ...(number ? { params: { number } } : {}),
    choices: [
      ...(number ? [choice('track', 'claim.choice.trackOpen')] : []),
      choice('another', 'claim.choice.anotherSubject'),
      choice('end', 'flow.choice.end'),
    ],
  });
}

/** Claims: intimate a credit-life or group-life claim, attach documents, track claims. */
export const claimIntimationMachine = setup({
  types: {
    context: {} as ClaimIntimationContext,
    events: {} as Reply,
    input: {} as FlowStartInput<ClaimIntimationStart>,
    output: {} as FlowOutput,
  },
  actors: {
    intimateClaim: notProvided<ClaimSummary, IntimateInput & { principal: Principal }>(
      'intimateClaim',
    ),
    attachDocuments: notProvided<
      ClaimSummary,
      { line: ClaimLine; claimId: string; urls: string[]; principal: Principal }
    >('attachDocuments'),
    trackClaims: notProvided<ClaimSummary[], { line: ClaimLine; principal: Principal }>(
      'trackClaims',
    ),
    myClaims: notProvided<(ClaimSummary & { line: ClaimLine })[], { principal: Principal }>(
      'myClaims',
    ),
    getClaim: notProvided<ClaimSummary, { line: ClaimLine; claimId: string; principal: Principal }>(
      'getClaim',
    ),
    heldCover: notProvided<HeldCoverAnswer, { principal: Principal }>('heldCover'),
    findClaim: notProvided<
      FoundClaim | null,
      { number: string; principal: Principal; route?: TurnRoute | null }
    >('findClaim'),
    claimTerms: notProvided<ClaimTerms, Pick<ClaimRequest, 'line' | 'policyId' | 'byId'>>(
      'claimTerms',
    ),
    openClaim: notProvided<OpenClaim | null, OpenClaimAsked>('openClaim'),
    sendUploadLink: notProvided<
      { sent: boolean },
      { line: ClaimLine; claimId: string; number: string; phone: string }
    >('sendUploadLink'),
  },
  actions: {
    unexpected: assign(({ context }) => unexpected(context)),
    rejectAnswer: assign(rejectedAnswer(CHECKS)),
    keepAnswer: assign(keptBy(CHECKS)),
    ask: assign(asked),
    // A photo sent on the upload screen, or on the screen after one, is attached the same way.
    keepUpload: assign({
      upload: ({ event }) => {
        assertEvent(event, 'user.photo');
        return event.url;
      },
    }),
  },
  guards: {
    ...replyGuards,
    ...failureGuards,
    ...callFailureGuards,
    answered: answeredGuard(CHECKS),
    lineIs: ({ context }, params: { line: ClaimLine }) => context.answers.line === params.line,
    pickedLine: ({ event }) => {
      assertEvent(event, 'user.choice');
      return event.id === 'credit-life' || event.id === 'group-life';
    },
    // Only a caller whose phone the channel vouches for is offered their own cover.
    phoneVerified: ({ context }) => phoneOf(context.principal) !== undefined,
    // A chat that has not shown whose phone it is may share its own contact.
    sharedContact: ({ context, event }) => {
      assertEvent(event, 'user.contact');
      return context.principal.kind === 'nobody' && checkPhone(event.phone).ok;
    },
    pickedHeld: ({ context, event }) => {
      assertEvent(event, 'user.choice');
      return /^s\d+$/.test(event.id) && Number(event.id.slice(1)) < context.held.length;
    },
    fromHeld: ({ context }) => context.fromHeld,
    // A USSD caller cannot send a photo: their documents come through a link sent by SMS.
    byLink: ({ context }) => context.callerPhone !== null,
    pickedScope: ({ context, event }) => {
      assertEvent(event, 'user.choice');
      return (
        /^t\d+$/.test(event.id) && Number(event.id.slice(1)) < (context.terms?.scopes.length ?? 0)
      );
    },
    addsDocuments: ({ context }) => addsDocuments(context.claim),
    // A chat's "Add documents" screen takes the photo itself: people send it straight away.
    takesPhotoHere: ({ context }) => attachesInChat(context),
    listedClaim: ({ context, event }) => {
      assertEvent(event, 'user.choice');
      return context.claims.some((c) => c.id === event.id);
    },
    // A claim found by number, not from a list: Back returns to the number.
    noList: ({ context }) => context.claims.length === 0,
    trackedAll: ({ context }) => context.trackedAll === true,
  },
}).createMachine({
  id: 'claim-intimation',
  context: ({ input }) => {
    const held = input.start?.claim;
    return {
      prompt: ask('claim.start', 'choice'),
      tries: 0,
      today: input.today,
      principal: input.principal,
      callerPhone: input.callerPhone ?? null,
      held: held ? [held] : [],
      fromHeld: held !== undefined,
      claimNumber: '',
      answers: held ? heldAnswers(held) : {},
      claim: null,
      claims: [],
      documents: 0,
      upload: null,
      terms: null,
      route: input.route ?? null,
      failure: null,
    };
  },
  initial: 'entry',
  on: UNEXPECTED_REPLIES,
  states: {
    // My cover's "Make a claim" opens the claim on the loan or membership it was made on.
    entry: {
      always: [{ guard: 'fromHeld', target: ID.heldPicked }, { target: 'start' }],
    },
    start: {
      tags: 'awaitingInput',
      entry: assign({
        tries: 0,
        fromHeld: false,
        // A chat that has not shown whose phone it is may share its own contact here: its own
        // claims and cover are listed only for a verified phone.
        prompt: ({ context }) => {
          const verified = phoneOf(context.principal) !== undefined;
          return ask(
            verified ? 'claim.start' : 'claim.start.contact',
            verified ? 'choice' : 'contact',
            {
              choices: [
                ...(verified ? [choice('held', 'claim.choice.held')] : []),
                choice('credit-life', 'claim.choice.creditLife'),
                choice('group-life', 'claim.choice.groupLife'),
                choice('track', 'claim.choice.track'),
              ],
            },
          );
        },
      }),
      on: {
        'user.contact': {
          guard: 'sharedContact',
          target: 'start',
          reenter: true,
          actions: assign({
            principal: ({ context, event }) => {
              const phone = checkPhone(event.phone);
              return phone.ok ? { kind: 'phone' as const, phone: phone.value } : context.principal;
            },
          }),
        },
        'user.choice': [
          { guard: and([chose('held'), 'phoneVerified']), target: ID.loadingHeld },
          {
            guard: and(['pickedLine', 'phoneVerified']),
            target: ID.askPolicy,
            actions: assign({ answers: ({ context, event }) => withLine(context, event) }),
          },
          // A claim (a death above all) is never reported from an anonymous chat: the member is
          // told who reported it and staff call the reporter back, so a phone comes first.
          {
            guard: 'pickedLine',
            target: 'needPhone',
            actions: assign({ answers: ({ context, event }) => withLine(context, event) }),
          },
          // A phone vouched for: its own claims at once; otherwise by line or number.
          {
            guard: and([chose('track'), ({ context }) => phoneOf(context.principal) !== undefined]),
            target: ID.loadingMine,
          },
          { guard: chose('track'), target: ID.pickTrackLine },
        ],
        'user.back': 'mainMenu',
      },
    },
    needPhone: {
      tags: 'awaitingInput',
      entry: assign({
        tries: 0,
        prompt: ask('claim.needPhone', 'contact', {
          choices: [choice('back', 'flow.choice.back')],
        }),
      }),
      on: {
        'user.contact': {
          guard: 'sharedContact',
          target: ID.askPolicy,
          actions: assign({
            principal: ({ context, event }) => {
              const phone = checkPhone(event.phone);
              return phone.ok ? { kind: 'phone' as const, phone: phone.value } : context.principal;
            },
          }),
        },
        'user.choice': { guard: chose('back'), target: 'start' },
        'user.back': 'start',
      },
    },
    // Which cover the claim is on: the caller's own, or a policy and loan or member typed; and
    // the scope of cover the loss falls under.
    cover: {
      initial: 'loadingHeld',
      states: {
        loadingHeld: {
          invoke: {
            src: 'heldCover',
            input: ({ context }) => ({ principal: context.principal }),
            onDone: {
              target: 'pickHeld',
              // Keeps the snapshot small: the first few loans and memberships in force.
              actions: assign({
                held: ({ event }) => event.output.held.slice(0, MAX_HELD),
                heldTruth: ({ event }) => event.output.truth,
                failure: null,
              }),
            },
            onError: failedCall('held'),
          },
        },
        pickHeld: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            fromHeld: false,
            prompt: ({ context }) =>
              ask(heldKey(context), 'choice', {
                // Some cover not read: the list may be short, and it says so.
                ...(context.held.length > 0 && context.heldTruth === 'unknown'
                  ? { note: { key: 'cover.unknown' } }
                  : {}),
                choices: [
                  ...context.held.map((h, i) =>
                    choice(`s${i}`, `claim.held.${h.line}`, { number: h.number, covers: h.covers }),
                  ),
                  choice('other', 'claim.choice.other'),
                ],
              }),
          }),
          on: {
            'user.choice': [
              {
                guard: 'pickedHeld',
                target: 'heldPicked',
                actions: assign(({ context, event }) => {
                  assertEvent(event, 'user.choice');
                  const held = context.held[Number(event.id.slice(1))];
                  if (!held) return {};
                  return { fromHeld: true, answers: { ...context.answers, ...heldAnswers(held) } };
                }),
              },
              { guard: chose('other'), target: ID.start },
            ],
            'user.back': ID.start,
          },
        },
        heldPicked: { always: 'checkingOpen' },
        // As soon as the loan or member is known: a claim already open for it is followed, not
        // made again (the issue-38 demo was refused at its ninth screen, after every answer).
        checkingOpen: {
          invoke: {
            src: 'openClaim',
            input: ({ context }) => ({
              line: lineOf(context),
              policyId: context.answers.policyId ?? '',
              ...byIdOf(context),
              by: context.answers.by ?? 'loanId',
              subject: context.answers.subject ?? '',
              principal: context.principal,
            }),
            onDone: [
              {
                guard: ({ event }) => event.output !== null,
                target: 'alreadyOpen',
                actions: assign({ openClaim: ({ event }) => event.output }),
              },
              { guard: lineIs('credit-life'), target: 'loadingTerms' },
              { target: 'groupLifeTerms' },
            ],
            // Not known now: the claim goes on, and intimating checks again before it is made.
            onError: [
              { guard: lineIs('credit-life'), target: 'loadingTerms' },
              { target: 'groupLifeTerms' },
            ],
          },
        },
        alreadyOpen: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            prompt: ({ context }) => alreadyOpenPrompt(context.openClaim),
          }),
          on: {
            'user.choice': [
              {
                guard: and([chose('track'), ({ context }) => Boolean(context.openClaim?.number)]),
                target: ID.findingClaim,
                actions: assign({ claimNumber: ({ context }) => context.openClaim?.number ?? '' }),
              },
              { guard: chose('another'), target: 'refusedSubject' },
              { guard: chose('end'), target: ID.done },
              { actions: 'unexpected' },
            ],
            'user.back': 'refusedSubject',
          },
        },
        groupLifeTerms: {
          always: {
            target: ID.askEventDate,
            actions: assign(({ context }) => ({
              terms: GROUP_LIFE_TERMS,
              answers: { ...context.answers, claimType: 'Death' },
            })),
          },
        },
        // The claim types are the product's scopes of cover, as the insurer lists them.
        loadingTerms: {
          invoke: {
            src: 'claimTerms',
            input: ({ context }) => ({
              line: lineOf(context),
              policyId: context.answers.policyId ?? '',
              ...byIdOf(context),
            }),
            onDone: {
              target: 'pickClaimType',
              actions: assign({ terms: ({ event }) => event.output, failure: null }),
            },
            onError: failedCall('terms'),
          },
        },
        askPolicy: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            // The example is the line's own number format (the credit-life key is the older one,
            // kept so that a screen already on record still reads).
            prompt: ({ context }) =>
              ask(
                lineOf(context) === 'group-life' ? 'claim.askPolicy.group-life' : 'claim.askPolicy',
                'text',
              ),
          }),
          on: {
            'user.text': [
              {
                guard: answered('policy'),
                target: 'askSubject',
                actions: assign({
                  answers: ({ context, event }) => {
                    const policyId = checkedValue(CHECKS.policy, event, context);
                    const by = TYPED_KEY[lineOf(context)];
                    return policyId === undefined
                      ? context.answers
                      : { ...context.answers, policyId, by };
                  },
                }),
              },
              { actions: rejectAnswer('policy') },
            ],
            'user.back': ID.start,
          },
        },
        askSubject: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            prompt: ({ context }) =>
              ask(
                `claim.ask.${subjectKey(context)}`,
                context.answers.by === 'nrcNumber' ? 'nrc' : 'text',
              ),
          }),
          on: {
            'user.text': [
              {
                guard: answered('subject'),
                target: 'checkingOpen',
                actions: assign({ answers: ({ context, event }) => withSubject(context, event) }),
              },
              { actions: rejectAnswer('subject') },
            ],
            'user.back': 'askPolicy',
          },
        },
        pickClaimType: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            prompt: ({ context }) =>
              ask(
                (context.terms?.scopes.length ?? 0) > 0 ? 'claim.pickType' : 'claim.pickType.none',
                'choice',
                {
                  choices: (context.terms?.scopes ?? []).map((scope, i) =>
                    dataChoice(`t${i}`, scope.name, 'scope'),
                  ),
                },
              ),
          }),
          on: {
            'user.choice': {
              guard: 'pickedScope',
              target: ID.askEventDate,
              actions: assign({
                answers: ({ context, event }) => ({
                  ...context.answers,
                  claimType: context.terms?.scopes[Number(event.id.slice(1))]?.name ?? '',
                }),
              }),
            },
            'user.back': [{ guard: 'fromHeld', target: 'pickHeld' }, { target: 'askSubject' }],
          },
        },
        // The loan or member the insurer refused: picked from the caller's own list, or typed.
        refusedSubject: {
          always: [{ guard: 'fromHeld', target: 'pickHeld' }, { target: 'askSubject' }],
        },
      },
    },
    // When the loss happened and what happened.
    loss: {
      initial: 'askEventDate',
      states: {
        askEventDate: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            prompt: ({ context }) => ask(`claim.askDate.${lineOf(context)}`, 'date'),
          }),
          on: {
            'user.text': [
              {
                guard: answered('eventDate'),
                target: 'askDetails',
                actions: keepAnswer('eventDate'),
              },
              { actions: rejectAnswer('eventDate') },
            ],
            'user.back': [
              { guard: lineIs('credit-life'), target: ID.pickClaimType },
              { guard: 'fromHeld', target: ID.pickHeld },
              { target: ID.askSubject },
            ],
          },
        },
        askDetails: askText('claim.askDetails', 'text', 'details', ID.confirm, 'askEventDate'),
      },
    },
    // The claim as told, confirmed and sent to the insurer.
    submission: {
      initial: 'confirm',
      states: {
        confirm: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            prompt: ({ context }) =>
              ask(`claim.confirm.${lineOf(context)}`, 'choice', {
                params: {
                  subject: context.answers.label ?? context.answers.subject ?? '',
                  claimType: context.answers.claimType ?? '',
                  eventDate: context.answers.eventDate ?? '',
                },
                choices: [
                  choice('submit', 'claim.choice.submit'),
                  choice('back', 'flow.choice.back'),
                ],
                note: lateNote(context),
              }),
          }),
          on: menuOn({ submit: 'intimating', back: ID.askDetails }, ID.askDetails),
        },
        intimating: {
          invoke: {
            src: 'intimateClaim',
            input: ({ context }) => ({
              line: lineOf(context),
              policyId: context.answers.policyId ?? '',
              ...byIdOf(context),
              by: subjectKey(context),
              subject: context.answers.subject ?? '',
              eventDate: context.answers.eventDate ?? '',
              details: context.answers.details ?? '',
              ...(context.answers.claimType ? { claimType: context.answers.claimType } : {}),
              ...(context.answers.label ? { label: context.answers.label } : {}),
              requirements: requirementsOf(context),
              ...subjectNrcOf(context),
              ...(context.route ? { route: context.route } : {}),
              ...(context.callerPhone ? { phone: context.callerPhone } : {}),
              principal: context.principal,
            }),
            onDone: {
              target: ID.intimated,
              actions: assign({ claim: ({ event }) => event.output, documents: 0, failure: null }),
            },
            onError: failedCall('intimate'),
          },
        },
      },
    },
    // The claim's documents: photos sent here, or a link by SMS for a USSD caller.
    documents: {
      initial: 'intimated',
      states: {
        intimated: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            prompt: ({ context }) =>
              ask(
                context.claim?.payable === undefined
                  ? 'claim.intimated'
                  : 'claim.intimated.payable',
                attachesInChat(context) ? 'photo' : 'choice',
                {
                  params: {
                    ...(context.claim ? claimParams(context.claim) : {}),
                    documents: requirementsOf(context) || '-',
                  },
                  choices: [
                    ...(addsDocuments(context.claim)
                      ? [choice('attach', 'claim.choice.attach')]
                      : []),
                    choice('end', 'claim.choice.later'),
                  ],
                },
              ),
          }),
          on: {
            'user.choice': [
              { guard: and([chose('attach'), 'addsDocuments', 'byLink']), target: 'sendingLink' },
              { guard: and([chose('attach'), 'addsDocuments']), target: 'awaitingDocument' },
              { guard: chose('end'), target: ID.done },
            ],
            'user.photo': { guard: 'takesPhotoHere', target: 'attaching', actions: 'keepUpload' },
            // The claim exists now; Back cannot undo it, so it shows the claim again.
            'user.back': 'intimated',
          },
        },
        // A USSD caller gets a link by SMS to a page that takes photos and files from any phone.
        sendingLink: {
          invoke: {
            src: 'sendUploadLink',
            input: ({ context }) => ({
              ...claimKey(context),
              number: context.claim?.number ?? '',
              phone: context.callerPhone ?? '',
              ...(context.route ? { locale: context.route.locale } : {}),
            }),
            onDone: { target: 'linkSent', actions: assign({ failure: null }) },
            onError: failedCall('link'),
          },
        },
        linkSent: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            prompt: ({ context }) =>
              ask('claim.linkSent', 'choice', {
                params: { number: context.claim?.number ?? '' },
                choices: [choice('end', 'flow.choice.end')],
              }),
          }),
          on: menuOn({ end: ID.done }, 'intimated'),
        },
        awaitingDocument: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            prompt: ({ context }) =>
              ask('claim.askDocument', 'photo', {
                params: {
                  number: context.claim?.number ?? '',
                  count: context.documents,
                  ...uploadParams(context),
                },
                choices: [choice('end', 'claim.choice.later')],
              }),
          }),
          on: {
            'user.photo': { target: 'attaching', actions: 'keepUpload' },
            'user.choice': { guard: chose('end'), target: ID.done },
            'user.back': 'intimated',
          },
        },
        attaching: {
          invoke: {
            src: 'attachDocuments',
            input: ({ context }) => ({
              ...claimKey(context),
              urls: context.upload ? [context.upload] : [],
              principal: context.principal,
            }),
            onDone: {
              target: 'documented',
              actions: assign({
                claim: ({ context, event }) => {
                  const { held: _was, ...claim } = context.claim ?? event.output;
                  return {
                    ...claim,
                    status: event.output.status,
                    ...(event.output.held ? { held: true } : {}),
                  };
                },
                documents: ({ context }) => context.documents + 1,
                upload: null,
                failure: null,
              }),
            },
            onError: failedCall('attach'),
          },
        },
        documented: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            prompt: ({ context }) =>
              // A photo step too: the photos of one sending arrive one after the other, and
              // each after the first finds this step (issue 40), so it takes them as the upload
              // step does; the buttons still add another or end.
              ask('claim.documented', 'photo', {
                // Held for staff: the reporter is told, so "Documents: 1" with the status
                // unchanged does not read as a lost file.
                note: context.claim?.held ? { key: 'claim.note.held' } : null,
                params: {
                  number: context.claim?.number ?? '',
                  ...claimStatus(context.claim?.status ?? ''),
                  count: context.documents,
                  ...uploadParams(context),
                },
                choices: [
                  ...(addsDocuments(context.claim) ? [choice('more', 'claim.choice.more')] : []),
                  choice('end', 'flow.choice.end'),
                ],
              }),
          }),
          on: {
            ...menuOn({ more: 'awaitingDocument', end: ID.done }, 'awaitingDocument'),
            // A photo sent here is attached like one sent on the upload screen.
            'user.photo': { target: 'attaching', actions: 'keepUpload' },
          },
        },
      },
    },
    // Tracking claims: one by its number, or the caller's on a line.
    track: {
      initial: 'pickTrackLine',
      states: {
        pickTrackLine: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            prompt: ask('claim.trackLine', 'choice', {
              choices: [
                choice('number', 'claim.choice.byNumber'),
                choice('credit-life', 'claim.choice.creditLife'),
                choice('group-life', 'claim.choice.groupLife'),
              ],
            }),
          }),
          on: {
            'user.choice': [
              { guard: chose('number'), target: 'askClaimNumber' },
              {
                guard: 'pickedLine',
                target: 'loadingClaims',
                actions: assign({ answers: ({ context, event }) => withLine(context, event) }),
              },
            ],
            'user.back': ID.start,
          },
        },
        askClaimNumber: {
          tags: 'awaitingInput',
          entry: assign({ tries: 0, claims: [], prompt: ask('claim.askNumber', 'text') }),
          on: {
            'user.text': [
              {
                guard: answered('claimNumber'),
                target: 'findingClaim',
                actions: assign({
                  claimNumber: ({ context, event }) =>
                    checkedValue(CHECKS.claimNumber, event, context)?.toUpperCase() ?? '',
                }),
              },
              { actions: rejectAnswer('claimNumber') },
            ],
            'user.back': [
              { guard: 'trackedAll', target: 'claimList' },
              { target: 'pickTrackLine' },
            ],
          },
        },
        findingClaim: {
          invoke: {
            src: 'findClaim',
            input: ({ context }) => ({
              number: context.claimNumber,
              principal: context.principal,
              route: context.route,
            }),
            onDone: [
              {
                guard: 'returned',
                target: 'claimDetail',
                actions: assign(({ context, event }) => {
                  const found = event.output;
                  if (!found) return {};
                  const { line, ...claim } = found;
                  return { claim, answers: { ...context.answers, line }, failure: null };
                }),
              },
              { target: 'claimNotFound' },
            ],
            onError: failedCall('find'),
          },
        },
        claimNotFound: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            prompt: ({ context }) =>
              ask('claim.notFound', 'choice', {
                params: { number: context.claimNumber },
                choices: [choice('again', 'claim.choice.again'), choice('end', 'flow.choice.end')],
              }),
          }),
          on: menuOn({ again: 'askClaimNumber', end: ID.done }, 'askClaimNumber'),
        },
        loadingClaims: {
          invoke: {
            src: 'trackClaims',
            input: ({ context }) => ({
              line: lineOf(context),
              principal: context.principal,
            }),
            onDone: {
              target: 'claimList',
              // Keeps the snapshot small: the newest few claims only.
              actions: assign({
                claims: ({ event }) => event.output.slice(0, MAX_LISTED),
                trackedAll: false,
                failure: null,
              }),
            },
            onError: failedCall('track'),
          },
        },
        // Track my claims from a phone vouched for: its own claims of every line, listed first.
        loadingMine: {
          invoke: {
            src: 'myClaims',
            input: ({ context }) => ({ principal: context.principal }),
            onDone: {
              target: 'claimList',
              actions: assign({
                claims: ({ event }) => event.output.slice(0, MAX_LISTED),
                trackedAll: true,
                failure: null,
              }),
            },
            // Not read now: said so, with Try again; Back offers the way by line or number.
            onError: failedCall('mine'),
          },
        },
        claimList: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            prompt: ({ context }) => {
              const choices: Choice[] = context.claims.map((c) =>
                choice(c.id, 'claim.line', {
                  number: c.number,
                  ...claimStatus(c.status),
                }),
              );
              // The caller's own list: another claim (a relative's, say) by its number.
              if (context.trackedAll) choices.push(choice('number', 'claim.choice.anotherNumber'));
              choices.push(choice('back', 'flow.choice.back'));
              return ask(context.claims.length > 0 ? 'claim.list' : 'claim.list.empty', 'choice', {
                params: { count: context.claims.length },
                choices,
              });
            },
          }),
          on: {
            'user.choice': [
              {
                guard: 'listedClaim',
                target: 'loadingClaim',
                actions: assign(({ context, event }) => {
                  const picked = context.claims.find((c) => c.id === event.id);
                  if (!picked) return { claim: null };
                  const { line, ...claim } = picked;
                  return { claim, answers: line ? { ...context.answers, line } : context.answers };
                }),
              },
              { guard: and([chose('number'), 'trackedAll']), target: 'askClaimNumber' },
              { guard: and([chose('back'), 'trackedAll']), target: ID.start },
              { guard: chose('back'), target: 'pickTrackLine' },
            ],
            'user.back': [{ guard: 'trackedAll', target: ID.start }, { target: 'pickTrackLine' }],
          },
        },
        loadingClaim: {
          invoke: {
            src: 'getClaim',
            input: ({ context }) => ({
              ...claimKey(context),
              principal: context.principal,
            }),
            onDone: {
              target: 'claimDetail',
              actions: assign({ claim: ({ event }) => event.output }),
            },
            onError: failedCall('get'),
          },
        },
        claimDetail: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            // Someone else's claim, typed by number: its status in words, nothing more.
            prompt: ({ context }) =>
              ask(claimDetailKey(context.claim), attachesInChat(context) ? 'photo' : 'choice', {
                params: context.claim ? claimParams(context.claim) : {},
                choices: [
                  ...(addsDocuments(context.claim)
                    ? [choice('attach', 'claim.choice.attach')]
                    : []),
                  choice('back', 'flow.choice.back'),
                  choice('end', 'flow.choice.end'),
                ],
              }),
          }),
          on: {
            'user.choice': [
              { guard: and([chose('attach'), 'addsDocuments', 'byLink']), target: ID.sendingLink },
              { guard: and([chose('attach'), 'addsDocuments']), target: ID.awaitingDocument },
              { guard: and([chose('back'), 'noList']), target: 'askClaimNumber' },
              { guard: chose('back'), target: 'claimList' },
              { guard: chose('end'), target: ID.done },
            ],
            'user.photo': { guard: 'takesPhotoHere', target: ID.attaching, actions: 'keepUpload' },
            'user.back': [{ guard: 'noList', target: 'askClaimNumber' }, { target: 'claimList' }],
          },
        },
      },
    },
    failed: {
      tags: 'awaitingInput',
      entry: assign({ tries: 0, prompt: failureScreen }),
      on: {
        'user.choice': [
          ...BACK_TO_QUESTION.choice,
          ...(Object.keys(RETRY) as ClaimOp[]).map((op) => ({
            guard: callFailed(op, 'retry'),
            target: RETRY[op],
          })),
          ...BACK_OPS.map((op) => ({
            guard: callFailed(op, 'back'),
            target: BACK[op],
          })),
          { guard: chose('back'), target: ID.pickTrackLine },
          { guard: chose('end'), target: 'done' },
        ],
        'user.back': [
          ...BACK_TO_QUESTION.back,
          ...BACK_OPS.map((op) => ({ guard: callFailed(op), target: BACK[op] })),
          { target: ID.pickTrackLine },
        ],
      },
    },
    done: {
      type: 'final',
      entry: assign({
        prompt: ({ context }) =>
          context.claim
            ? end('claim.end', {
                number: context.claim.number,
                ...claimStatus(context.claim.status),
              })
            : end('flow.end.thanks'),
      }),
    },
    cancelled: { type: 'final', entry: assign({ prompt: CANCELLED }) },
    mainMenu: { type: 'final', entry: assign({ prompt: TO_MAIN_MENU }) },
  },
  output: flowOutput,
});

/**
 * Claim intimation as the engine registers it. Version 4: the stages became compound states, so
 * a snapshot of version 3 (flat state names) restarts at the main menu with the engine's notice.
 */
export const claimIntimationFlow: FlowDefinition<typeof claimIntimationMachine> = {
  id: 'claim-intimation',
  version: 4,
  machine: claimIntimationMachine,
  start: ClaimIntimationStart,
};
