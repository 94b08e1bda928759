import type { Notifier } from '../channels/index.js';
import type { ChannelName, Prompt } from '../conversation/index.js';

/**
 * The notifiers of the channels this server runs, looked up when a message goes out (never kept):
 * the services that reach users out of a turn (reminders, handoff, claim notices) are built
 * before the channels whose notifiers they use, because the channels need the engine and the
 * engine needs those services. Each channel's builder adds its notifier as it is built; the
 * caller's extra notifiers ({@link ServerDeps.notifiers}) go last.
 */
export interface NotifierDirectory {
  /** Adds a channel's notifier; a later one for the same channel overrides it for {@link find}. */
  add(notifier: Notifier): void;
  /** The notifier reaching `channel` users: the last one added (a test's recorder wins). */
  find(channel: ChannelName): Notifier | undefined;
  /** The channel's own notifier: the first one added (SMS of details goes to the real gateway). */
  builtIn(channel: ChannelName): Notifier | undefined;
  /**
   * Every notifier in the order added, as one list that grows as channels are built: for the
   * services that take a list and search it when they send (reminders).
   */
  readonly live: readonly Notifier[];
}

/** Creates an empty {@link NotifierDirectory}. */
export function createNotifierDirectory(): NotifierDirectory {
  const notifiers: Notifier[] = [];
  return {
    add(notifier) {
      notifiers.push(notifier);
    },
    find: (channel) => notifiers.findLast((candidate) => candidate.channel === channel),
    builtIn: (channel) => notifiers.find((candidate) => candidate.channel === channel),
    live: notifiers,
  };
}

/**
 * Sends a push by SMS to a phone a chat channel could not reach with it (a WhatsApp template Meta
 * paused or refused): the SMS notifier (the USSD channel's) is looked up when needed, since it
 * may be added after the chat channel's; false when this server sends no SMS.
 */
export function smsInstead(
  notifiers: Pick<NotifierDirectory, 'find'>,
): (phone: string, locale: string, prompt: Prompt) => Promise<boolean> {
  return async (phone, locale, prompt) => {
    const sms = notifiers.find('ussd');
    if (!sms) return false;
    // The phone is in international form (a WhatsApp wa_id), which the SMS gateway takes.
    await sms.notify({ channel: 'ussd', address: phone, locale }, prompt);
    return true;
  };
}
