/*
 * Who may learn what of a record: the one place that decides it. Flows' actors describe a record
 * (its type and the phones on record for it) and ask; nothing else compares phones to decide.
 */
import { z } from 'zod';
import { sameMsisdn } from '../msisdn/index.js';

/**
 * Who is asking, as the engine hands it to every flow. JSON only: it is persisted with the
 * snapshot. `phone` is a number a channel vouches for (the USSD gateway's caller, a Telegram
 * contact of the sender's own, the simulator's phone field), in the API's `260…` form; `staff` is a
 * member of the Slack desk's allow-list; anyone else is `nobody`.
 */
export const Principal = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('phone'), phone: z.string().min(1) }),
  z.object({ kind: z.literal('staff'), member: z.string() }),
  z.object({ kind: z.literal('nobody') }),
]);
/** Who is asking (see the schema). */
export type Principal = z.infer<typeof Principal>;

/** Nobody verified: a chat that shared no contact, or an address no channel vouches for. */
export const NOBODY: Principal = { kind: 'nobody' };

/** The records a conversation can show something of. */
export type RecordType =
  | 'policy'
  | 'vehicle'
  | 'claim'
  | 'loan'
  | 'membership'
  | 'household'
  | 'transaction'
  | 'person';

/**
 * What a principal may learn of one record: `everything` (numbers, names, amounts, periods),
 * `existence` only ("cover in force until …", "a claim is open", "insured under another holder"),
 * or `nothing` (as if it did not exist).
 */
export type Disclosure = 'everything' | 'existence' | 'nothing';

/** A record as the access rule needs to see it: its type and who is on record for it. */
export interface RecordOwners {
  readonly type: RecordType;
  /** Phones on record for the record's holder, member, borrower or household (any form). */
  readonly phones: readonly (string | null | undefined)[];
  /** Claims only: the phone that intimated it (a relative reporting a death). */
  readonly intimatedBy?: string | null | undefined;
}

/** The answer for one principal and one record. */
export interface Access {
  readonly learns: Disclosure;
  /**
   * The record is the principal's own to list and act on: it is on record for their phone, or
   * (a claim) their phone intimated it. Staff act on every record from the desk, never as theirs.
   */
  readonly mine: boolean;
}

/** What anyone who is not on record learns of each record type. */
const STRANGER: Readonly<Record<RecordType, Disclosure>> = {
  policy: 'existence',
  vehicle: 'existence',
  claim: 'existence',
  loan: 'existence',
  membership: 'existence',
  household: 'existence',
  transaction: 'nothing',
  person: 'nothing',
};

const REFUSED: Access = { learns: 'nothing', mine: false };

/**
 * What `principal` may learn of `record`. Deny by default: a record type this rule does not know
 * (a caller's typo, data from elsewhere) is refused, not shown.
 */
export function accessTo(principal: Principal, record: RecordOwners): Access {
  if (!Object.hasOwn(STRANGER, record.type)) return REFUSED;
  if (principal.kind === 'staff') return { learns: 'everything', mine: false };
  const phone = principal.kind === 'phone' ? principal.phone : undefined;
  if (phone && record.phones.some((onRecord) => sameMsisdn(onRecord ?? undefined, phone))) {
    return { learns: 'everything', mine: true };
  }
  // A relative who reported a death follows their claim and sends its papers, but is shown no
  // payout: only the member's own phone (or staff) learns what the claim pays.
  if (phone && record.type === 'claim' && sameMsisdn(record.intimatedBy ?? undefined, phone)) {
    return { learns: 'existence', mine: true };
  }
  return { learns: STRANGER[record.type], mine: false };
}

/** The principal of a phone a channel vouches for; nobody when there is none. */
export function principalOf(phone: string | null | undefined): Principal {
  return phone ? { kind: 'phone', phone } : NOBODY;
}

/** The verified phone of a principal, if it has one (to offer "pay from this number"). */
export function phoneOf(principal: Principal): string | undefined {
  return principal.kind === 'phone' ? principal.phone : undefined;
}
