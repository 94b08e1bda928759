import type { Prompt, Reply } from '../../conversation/index.js';
import { USSD_BACK_KEY } from './ussd-screens.js';

/** The session key of a USSD caller. */
export function ussdSessionKey(msisdn: string): string {
  return `ussd:${msisdn}`;
}

/** Maps what the caller typed to a Reply for the Prompt on screen. */
export function ussdInputToReply(input: string, prompt: Prompt, msisdn: string): Reply {
  const typed = input.trim();
  if (typed === '00' || typed === '#') return { type: 'user.cancel' };
  if (typed === USSD_BACK_KEY) return { type: 'user.back' };
  const choices = prompt.choices ?? [];
  if (/^\d{1,2}$/.test(typed)) {
    const position = Number(typed);
    const picked = choices[position - 1];
    if (picked) return { type: 'user.choice', id: picked.id };
    if (prompt.input === 'contact' && position === choices.length + 1) {
      // The gateway vouches for the caller's number, as Telegram's contact share does.
      return { type: 'user.contact', phone: msisdn };
    }
  }
  return { type: 'user.text', text: typed };
}
