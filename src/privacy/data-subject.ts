import type { ChannelName, TurnRoute } from '../conversation/index.js';

/**
 * Whose personal data a conversation touches: the phone or chat the channel vouches for (a USSD
 * caller's MSISDN, a Telegram chat). Consent, "My data" and erasure are kept per subject.
 */
export interface DataSubject {
  readonly channel: ChannelName;
  /** The MSISDN (`260…`) on USSD and the simulator, the chat id on Telegram. */
  readonly address: string;
  /** The subject's conversation (`ussd:260…`, `tg:<chatId>`): its session and handoff. */
  readonly sessionKey: string;
}

/**
 * The subject of a conversation, from the route the engine hands the flow; undefined when the
 * channel says nobody (tests without an address). When every turn carries a principal (issue 23),
 * this is the one place to derive the subject from it instead.
 */
export function dataSubjectOf(route: TurnRoute | null | undefined): DataSubject | undefined {
  if (!route) return undefined;
  return { channel: route.channel, address: route.address, sessionKey: route.sessionKey };
}

/** The subject as one string (`ussd:260…`, `telegram:123`): the shape of a session's holder id. */
export function subjectId(subject: Pick<DataSubject, 'channel' | 'address'>): string {
  return `${subject.channel}:${subject.address}`;
}

/** The subject's phone, when the subject is a phone (USSD and the simulator); SMS goes there. */
export function subjectPhone(subject: DataSubject): string | undefined {
  return subject.channel === 'ussd' || subject.channel === 'web' ? subject.address : undefined;
}

/**
 * The phone the channel vouches for, whose holdings the insurer's index links to it: a USSD
 * caller's MSISDN, and WhatsApp's verified sender (its `wa_id`, `260…`). A Telegram chat names no
 * phone. Unlike {@link subjectPhone}, not where SMS goes: a WhatsApp customer is answered there.
 */
export function subjectHandset(subject: DataSubject): string | undefined {
  return subject.channel === 'whatsapp' ? subject.address : subjectPhone(subject);
}
