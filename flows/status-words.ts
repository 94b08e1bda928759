/*
 * The one mapping from the insurer's status words to the customer's (issue 24). Each record type
 * lists the words the spec (or the published guides) names for it; anything else is shown as
 * "could not be confirmed" and reported, never guessed: a status we did not foresee is never
 * read as cover in force.
 */

/** The records whose status a customer is shown. */
export type StatusSubject = 'policy' | 'loan' | 'member' | 'household' | 'claim' | 'transaction';

/** Catalogue keys of the customer's words for a status (src/conversation/locales/en.ts). */
export type StatusKey =
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

/** How a status reads to the customer, and whether the insurer's word was one we know. */
export interface StatusWord {
  readonly key: StatusKey;
  readonly known: boolean;
}

/**
 * The customer's words for an insurer status of `subject`, case and spacing ignored; `until`
 * (grace end) turns "in grace" into "in grace until …". Unknown → `status.unconfirmed`.
 */
export function statusWord(subject: StatusSubject, status: string, until?: string): StatusWord {
  const key = WORDS[subject][status.toLowerCase().replace(/[\s_-]+/g, '')];
  if (!key) return { key: 'status.unconfirmed', known: false };
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
