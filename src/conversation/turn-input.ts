import { NOBODY, principalOf } from '../access/index.js';
import { checkZambianMobile } from '../msisdn/index.js';
import type { CachedActor, RecordHead } from './actor-cache.js';
import type { FlowInput, Unfinished } from './flow.js';
import type { Reply } from './reply.js';
import type { SessionRecord } from './session-record.js';
import type { SessionGlance, TurnOptions } from './turn-engine.js';

/** What middleware (and a channel's `decide`) sees of a record (or of none). */
export function glanceOf(
  record: RecordHead | undefined,
  cached: CachedActor | undefined,
  isEntry: (flowId: string) => boolean,
  unfinishedIn: (flowId: string, answers: unknown) => Unfinished | undefined = () => undefined,
): SessionGlance {
  return {
    prompt: record?.prompt,
    unseen: record?.unseen === true,
    // Only a conversation past the entry menu is worth a "Continue".
    resumable:
      record !== undefined &&
      record.ended !== true &&
      !record.prompt.final &&
      !isEntry(record.flowId),
    state: record?.channel,
    flowId: record?.flowId,
    // Read only when a channel asks (a handoff's context): most turns never do.
    get answers() {
      return answersOf(record, cached);
    },
    // Read only for a resume offer, as the answers are.
    get unfinished() {
      return record ? unfinishedIn(record.flowId, answersOf(record, cached)) : undefined;
    },
  };
}

/** The flow's `context.answers`: from the stored snapshot, or the live actor on a cache hit. */
function answersOf(record: RecordHead | undefined, cached: CachedActor | undefined): unknown {
  if (!record) return undefined;
  const context: unknown =
    'snapshot' in record
      ? (record as SessionRecord).snapshot.context
      : cached?.actor.getSnapshot().context;
  if (typeof context !== 'object' || context === null) return undefined;
  return (context as { answers?: unknown }).answers;
}

/** The input of a flow a fresh session (or a restart) opens. */
export function freshInput(options: TurnOptions): FlowInput {
  const audience = options.audience ?? 'policyholder';
  const locale = options.address?.locale ?? 'en';
  const caller = options.caller;
  // Only a platform that vouches for who is asking names them: a USSD gateway (and the
  // simulator, which speaks through it) its caller's number, Slack a member of its allow-list
  // for the staff menu. A chat is nobody until it shares its own contact (see `withContact`).
  if (caller?.kind === 'phone') {
    const callerPhone = callerPhoneOf(caller.phone);
    if (callerPhone !== undefined) {
      return { audience, locale, principal: principalOf(callerPhone), callerPhone };
    }
  }
  if (caller?.kind === 'sender') {
    const phone = callerPhoneOf(caller.phone);
    if (phone !== undefined) return { audience, locale, principal: principalOf(phone) };
  }
  if (caller?.kind === 'staff' && audience === 'staff') {
    return { audience, locale, principal: { kind: 'staff', member: caller.member } };
  }
  return { audience, locale, principal: NOBODY };
}

/**
 * The input with the phone of a contact the user shared: channels pass on only a contact of the
 * sender's own (Telegram checks its `user_id`), so it verifies them for the rest of the session.
 * The flow that asked reads the contact itself; the flows it hands over to start with it.
 */
export function withContact(input: FlowInput, reply: Reply): FlowInput {
  if (reply.type !== 'user.contact' || input.principal.kind !== 'nobody') return input;
  const phone = checkZambianMobile(reply.phone);
  return phone.ok ? { ...input, principal: principalOf(phone.msisdn) } : input;
}

/** The caller's number as a flow may use it: a Zambian mobile (src/msisdn caches the parse). */
function callerPhoneOf(address: string): string | undefined {
  const phone = checkZambianMobile(address);
  return phone.ok ? phone.msisdn : undefined;
}
