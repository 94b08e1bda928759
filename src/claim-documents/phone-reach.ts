/*
 * Where each phone last spoke with insurechat (issue 40): the channel address and language of the
 * last conversation in which the channel vouched for it (a USSD caller's number, WhatsApp's
 * sender, a Telegram chat's own shared contact). Claim progress reaches a holder there when the
 * claim on their cover was reported by someone else, or elsewhere. Written once per conversation
 * (and as the privacy notice is agreed), never before consent, never for a phone only typed: a
 * phone reaches a record only by proof (src/access).
 */
import { z } from 'zod';
import {
  CHANNEL_NAMES,
  type ChannelAddress,
  type TurnContext,
  type TurnMiddleware,
  type TurnRoute,
} from '../conversation/index.js';
import type { Logger } from '../log/index.js';
import { checkZambianMobile, normaliseCaller } from '../msisdn/index.js';
import type { KeyValueStore } from '../storage/index.js';
import { CLAIM_REPORT_TTL_SECONDS } from './claim-reports.js';

/** Where a phone was last reached: a conversation's channel, address and language. */
const Reach = z.object({
  channel: z.enum(CHANNEL_NAMES),
  address: z.string().min(1),
  locale: z.string().min(1),
});

/** The channels whose notifier reaches a person out of a turn by their address. */
const REACHABLE = new Set<string>(['ussd', 'telegram', 'whatsapp']);

/** Where each phone last spoke with insurechat (see the module comment). */
export interface PhoneReach {
  /** Records that `phone` spoke from `reach` (kept a year after the last time). */
  remember(phone: string, reach: ChannelAddress): Promise<void>;
  /** Where `phone` last spoke; undefined when never (or forgotten). */
  of(phone: string): Promise<ChannelAddress | undefined>;
  /** "My data": the phone's address is forgotten. */
  forget(phone: string): Promise<void>;
  /** "My data" of a conversation (a Telegram chat names no phone): the phone it reached goes. */
  forgetAddress(holder: { readonly channel: string; readonly address: string }): Promise<void>;
}

/**
 * The phone reach on the key-value port: `<prefix>phone-reach:{<msisdn>}` per phone, and
 * `<prefix>phone-reach-of:{<channel>:<address>}` naming the phone an address reached, for the
 * erasure of a conversation that names no phone.
 */
export function createPhoneReach(store: KeyValueStore, prefix: string): PhoneReach {
  const keyOf = (phone: string) => {
    const msisdn = normaliseCaller(phone);
    return msisdn ? `${prefix}phone-reach:{${msisdn}}` : undefined;
  };
  const addressKey = (holder: { readonly channel: string; readonly address: string }) =>
    `${prefix}phone-reach-of:{${holder.channel}:${holder.address}}`;
  const read = async (key: string): Promise<ChannelAddress | undefined> => {
    const raw = await store.get(key);
    if (!raw) return undefined;
    const parsed = Reach.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  };
  return {
    async remember(phone, reach) {
      const key = keyOf(phone);
      if (!key || !REACHABLE.has(reach.channel)) return;
      const value = { channel: reach.channel, address: reach.address, locale: reach.locale };
      // The address's own key first: an erasure of the conversation always finds the phone. An
      // address that is the phone itself (a USSD caller's number) needs none: it names the phone.
      if (normaliseCaller(reach.address) !== normaliseCaller(phone)) {
        await store.set(addressKey(reach), phone, CLAIM_REPORT_TTL_SECONDS);
      }
      await store.set(key, JSON.stringify(value), CLAIM_REPORT_TTL_SECONDS);
    },
    async of(phone) {
      const key = keyOf(phone);
      return key ? read(key) : undefined;
    },
    async forget(phone) {
      const key = keyOf(phone);
      if (!key) return;
      const reach = await read(key);
      if (reach) await store.delete(addressKey(reach));
      await store.delete(key);
    },
    async forgetAddress(holder) {
      // Kept for an address that is not the phone (and by records written before that rule).
      const phone = (await store.take(addressKey(holder))) ?? holder.address;
      const key = keyOf(phone);
      if (!key) return;
      // Only while the phone's last address is this one: a later conversation elsewhere stays.
      const reach = await read(key);
      if (reach?.channel === holder.channel && reach.address === holder.address) {
        await store.delete(key);
      }
    },
  };
}

/**
 * The phone a turn shows to be the user's: a contact shared in it (channels pass on only the
 * sender's own), or, when the conversation begins, the number the platform vouches for.
 */
function vouchedPhoneOf(context: TurnContext): string | undefined {
  const { request, options, session } = context;
  if (request.kind === 'reply' && request.reply.type === 'user.contact') {
    const phone = checkZambianMobile(request.reply.phone);
    return phone.ok ? phone.msisdn : undefined;
  }
  const caller = options.caller;
  if (!caller || caller.kind === 'staff') return undefined;
  // Once per conversation: its first turn (or the first after a closing screen), and the answer
  // to the privacy notice (nothing is kept before it is agreed).
  const shown = session.prompt;
  if (shown !== undefined && !shown.final && !shown.key.startsWith('privacy.notice')) {
    return undefined;
  }
  const phone = checkZambianMobile(caller.phone);
  return phone.ok ? phone.msisdn : undefined;
}

/** What {@link phoneReachMiddleware} needs. */
export interface PhoneReachMiddlewareOptions {
  readonly reach: PhoneReach;
  /** Whether the conversation's subject agreed to the privacy notice (src/privacy). */
  readonly consented: (route: TurnRoute) => Promise<boolean>;
  readonly logger: Logger;
}

/**
 * Engine middleware recording where a vouched-for phone spoke (see {@link vouchedPhoneOf}), after
 * the turn's answer, in the language it was answered in, once the privacy notice is agreed. A
 * store that fails costs the record, never the turn.
 */
export function phoneReachMiddleware(options: PhoneReachMiddlewareOptions): TurnMiddleware {
  const { reach, consented, logger: log } = options;
  return async (context, next) => {
    const phone = vouchedPhoneOf(context);
    const prompt = await next();
    const address = context.options.address;
    if (phone === undefined || !address) return prompt;
    try {
      const route = {
        sessionKey: context.sessionKey,
        channel: address.channel,
        address: address.address,
        locale: address.locale,
      };
      if (await consented(route)) await reach.remember(phone, address);
    } catch (error) {
      log.warn(
        {
          event: 'phone-reach.unsaved',
          errorName: error instanceof Error ? error.name : 'unknown',
        },
        'phone reach not saved',
      );
    }
    return prompt;
  };
}
