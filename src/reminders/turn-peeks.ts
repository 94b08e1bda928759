import type { TurnPrefetch } from '../conversation/index.js';
import {
  cardFromFields,
  type HolderAddress,
  type HolderCard,
  languageFromFields,
} from './contact-book.js';
import type { ReminderService } from './reminder-service.js';
import type { ReminderState } from './reminder-state.js';
import { TurnHandover } from './turn-handover.js';

/** How long a caller's expected SMS recipient waits for the caller's next turn: 1 to 2 min. */
const EXPECTED_SMS_TTL_MS = 60_000;

/** A card handed over with a session is for that turn's menu: kept 5 to 10 s, then dropped. */
const PEEKED_TTL_MS = 5_000;

/**
 * Holders' cards and languages read with their session (Redis only) and handed over to the turn
 * in progress, so the entry menu's offers and a channel's language cost it no round trip.
 */
export function createTurnPeeks(state: ReminderState) {
  const { book, log, now } = state;
  const holderId = (holder: HolderAddress) => `${holder.channel}:${holder.address}`;
  /** Cards read with a session (raw fields: most turns show no menu), taken by the first read. */
  const peeked = new TurnHandover<Readonly<Record<string, string>>>(PEEKED_TTL_MS, now);
  /** Languages read with a session, for the channel deciding that turn ('' = never chose). */
  const peekedLanguages = new TurnHandover<string>(PEEKED_TTL_MS, now);
  const cardKey = book.cardKey?.bind(book);
  /** Recipients a caller's next turn may SMS, by the caller; and whose card each key is. */
  const expectedSms = new TurnHandover<HolderAddress[]>(EXPECTED_SMS_TTL_MS, now);
  const recipientOfCard = new TurnHandover<string>(PEEKED_TTL_MS, now);

  /** The card read with this turn's session, taken (a later turn gets its own). */
  function takePeeked(holder: HolderAddress): HolderCard | undefined {
    const id = holderId(holder);
    const fields = peeked.take(id);
    return fields === undefined ? undefined : cardFromFields(fields);
  }

  const prefetch: TurnPrefetch | undefined = cardKey && {
    keyOf: (_sessionKey, address) => cardKey(address),
    deliver: (address, fields) => {
      const id = holderId(address);
      peeked.set(id, fields);
      peekedLanguages.set(id, languageFromFields(fields) ?? '');
    },
    alsoKeysOf: (address) =>
      (expectedSms.take(holderId(address)) ?? []).map((recipient) => {
        const key = cardKey(recipient);
        recipientOfCard.set(key, holderId(recipient));
        return key;
      }),
    deliverAlso: (key, fields) => {
      const id = recipientOfCard.take(key);
      if (id !== undefined) peekedLanguages.set(id, languageFromFields(fields) ?? '');
    },
  };

  function expectSms(caller: HolderAddress, recipient: HolderAddress): void {
    if (!cardKey) return;
    const id = holderId(caller);
    const others = (expectedSms.take(id) ?? []).filter((r) => holderId(r) !== holderId(recipient));
    expectedSms.set(id, [...others, recipient]);
  }

  const languages: ReminderService['languages'] = {
    chosen(holder) {
      const read = peekedLanguages.take(holderId(holder));
      if (read !== undefined) return read === '' ? undefined : read;
      return book.cardOf(holder).then((card) => card.language);
    },
    async choose(holder, locale) {
      const id = holderId(holder);
      // A card read before the choice must not answer for the language after it.
      peeked.delete(id);
      peekedLanguages.delete(id);
      await book.setLanguage(holder, locale);
      log.info({ channel: holder.channel, locale }, 'language chosen');
    },
  };

  return { holderId, peeked, peekedLanguages, takePeeked, prefetch, expectSms, languages };
}

/** The peeks of {@link createTurnPeeks}. */
export type TurnPeeks = ReturnType<typeof createTurnPeeks>;
