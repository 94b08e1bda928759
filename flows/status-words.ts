/*
 * The one mapping from the insurer's status words to the customer's (issue 24). Each record type
 * lists the words the spec (or the published guides) names for it; anything else is shown as
 * "could not be confirmed" (a claim: "the insurer is handling this claim (<its word>)") and
 * reported, never guessed: a status we did not foresee is never read as cover in force.
 */

/** The records whose status a customer is shown. */
export type StatusSubject = 'policy' | 'loan' | 'member' | 'household' | 'claim' | 'transaction';

/** Catalogue keys of the customer's words for a status (src/conversation/locales/en.ts). */
type StatusKey =
  | 'status.inForce'
  | 'status.inGrace'
  | 'status.inGraceUntil'
  | 'status.waitingPremium'
  | 'status.lapsed'
  | 'status.offCover'
  | 'status.ended'
  | 'status.cancelled'
  | 'status.notIssued'
  | 'status.claimReceived'
  | 'status.documentsReceived'
  | 'status.claimHandled'
  | 'status.paymentPending'
  | 'status.paid'
  | 'status.paymentFailed'
  | 'status.unconfirmed'
  /** A status not read in time (the insurer late or failing): retrying later may read it. */
  | 'status.notCheckedNow';

/** Cover words shared by every record that puts someone on risk. */
const COVER: Readonly<Record<string, StatusKey>> = {
  // Credit-life policy state on creation; cover state with nothing owed.
  active: 'status.inForce',
  // Batch statuses that mean "covered" (spec, States: Approved, PartiallyReceipted, Receipted).
  approved: 'status.inForce',
  partiallyreceipted: 'status.inForce',
  receipted: 'status.inForce',
  // Cover state: on risk with premium outstanding until graceEndsAt.
  ingrace: 'status.inGrace',
  // A batch not approved, a prepaid period not paid: not covered until the premium is paid.
  pending: 'status.waitingPremium',
  lapsed: 'status.lapsed',
};

const WORDS: Readonly<Record<StatusSubject, Readonly<Record<string, StatusKey>>>> = {
  policy: {
    ...COVER,
    issued: 'status.inForce',
    draft: 'status.notIssued',
    expired: 'status.ended',
    cancelled: 'status.cancelled',
  },
  // Taken off cover on early repayment.
  loan: { ...COVER, closed: 'status.offCover' },
  // Taken off cover (a deletion endorsement).
  member: { ...COVER, removed: 'status.offCover' },
  household: { ...COVER, expired: 'status.ended', cancelled: 'status.cancelled' },
  claim: { intimated: 'status.claimReceived', documented: 'status.documentsReceived' },
  // Transaction words rails use (see src/payments/payment-status.ts).
  transaction: {
    pending: 'status.paymentPending',
    success: 'status.paid',
    successful: 'status.paid',
    failed: 'status.paymentFailed',
  },
};

/**
 * Claim states in which the insurer still takes evidence (spec: created Intimated, the first
 * upload moves it to Documented; "later steps (check, approve, settle) are done by the insurer").
 * Add documents is offered only in these; keys are written as {@link statusWord} compares them.
 */
const TAKES_DOCUMENTS: ReadonlySet<string> = new Set(['intimated', 'documented']);

/** A status word as the mappings compare it: case, spaces, `_` and `-` ignored. */
function normalised(status: string): string {
  return status.toLowerCase().replace(/[\s_-]+/g, '');
}

/** The claim still takes documents (Intimated or Documented); any later or unknown word: no. */
export function claimTakesDocuments(status: string): boolean {
  return TAKES_DOCUMENTS.has(normalised(status));
}

/** The most characters of the insurer's own word a claim screen repeats. */
const MAX_INSURER_WORD = 30;

/**
 * The insurer's own claim word as a screen may repeat it: printable, single-spaced, bounded,
 * since it is insurer data shown verbatim on a 182-character USSD screen.
 */
export function insurerWord(status: string): string {
  const word = status
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
  return word.slice(0, MAX_INSURER_WORD) || '-';
}

/** How a status reads to the customer, and whether the insurer's word was one we know. */
interface StatusWord {
  readonly key: StatusKey;
  readonly known: boolean;
}

/**
 * The customer's words for an insurer status of `subject`, case and spacing ignored; `until`
 * (grace end) turns "in grace" into "in grace until …". Unknown → `status.unconfirmed`.
 */
export function statusWord(subject: StatusSubject, status: string, until?: string): StatusWord {
  const key = WORDS[subject][normalised(status)];
  // A claim past Documented (check, approve, settle: the insurer's steps, not named by the spec)
  // or in a word never seen is still the insurer's to handle, not unconfirmed cover.
  if (!key)
    return {
      key: subject === 'claim' ? 'status.claimHandled' : 'status.unconfirmed',
      known: false,
    };
  return { key: key === 'status.inGrace' && until ? 'status.inGraceUntil' : key, known: true };
}

/** Called for every insurer status no mapping knows: the deployment logs it (FlowDeps). */
export type UnknownStatusReporter = (subject: StatusSubject, status: string) => void;

/** Reports each unknown status among `statuses` once. */
export function reportUnknownStatuses(
  report: UnknownStatusReporter | undefined,
  statuses: ReadonlyArray<{ readonly subject: StatusSubject; readonly status: string }>,
): void {
  if (!report) return;
  const seen = new Set<string>();
  for (const { subject, status } of statuses) {
    if (statusWord(subject, status).known || seen.has(`${subject}:${status}`)) continue;
    seen.add(`${subject}:${status}`);
    report(subject, status);
  }
}

/** The most distinct unknown words {@link reportingOnce} remembers (a noisy insurer is bounded). */
const MAX_REMEMBERED_WORDS = 200;

/**
 * `report`, called at most once per subject and word for the life of the process: an insurer
 * that moves every claim to "Approved" is logged once, not on every screen.
 */
export function reportingOnce(report: UnknownStatusReporter): UnknownStatusReporter {
  const seen = new Set<string>();
  return (subject, status) => {
    const key = `${subject}:${normalised(status)}`;
    if (seen.has(key) || seen.size >= MAX_REMEMBERED_WORDS) return;
    seen.add(key);
    report(subject, status);
  };
}
