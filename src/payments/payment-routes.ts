import { z } from 'zod';
import type { ChannelName } from '../conversation/index.js';
import type { KeyValueStore } from '../storage/index.js';
import { PaymentRouteError } from './payment-errors.js';
import { createPaymentKeys, type PaymentKeys, paymentKey } from './payment-keys.js';

const CHANNELS = ['ussd', 'telegram', 'slack', 'web'] as const satisfies readonly ChannelName[];
// Fails to compile when a channel is added to the engine contract but not here.
const everyChannel: Record<ChannelName, true> = {
  ussd: true,
  telegram: true,
  slack: true,
  web: true,
};
void everyChannel;

/**
 * Where a payment's outcome goes: the conversation to move on (`sessionKey`) and the user to tell
 * (`channel` + `address` + `locale`, as in the engine's ChannelAddress).
 */
export const PaymentRoute = z.object({
  sessionKey: z.string().min(1),
  channel: z.enum(CHANNELS),
  address: z.string().min(1),
  locale: z.string().min(1),
  /** The quotation being paid, when there is one; lets a flow look the policy up again. */
  quoteId: z.string().optional(),
});
/** Where a payment's outcome goes. */
export type PaymentRoute = z.infer<typeof PaymentRoute>;

/** Options of {@link createPaymentRoutes}. */
export interface PaymentRoutesOptions {
  /** Prefix of every key, e.g. `insurechat:`; tests use their own. */
  readonly prefix: string;
  /** How long a route is kept; it must outlive the poller's whole back-off schedule. */
  readonly ttlSeconds: number;
}

/** The `reference → route` table: in Redis, shared by every instance, or in one process. */
export interface PaymentRoutes {
  /** Records (or replaces) the route of `reference`, with the table's TTL. */
  save(reference: string, route: PaymentRoute): Promise<void>;
  /** The route of `reference`, or undefined when none was written or it expired. */
  get(reference: string): Promise<PaymentRoute | undefined>;
  /** The Redis key a reference's route lives under. */
  key(reference: string): string;
}

/** Creates the route table over `store`; throws PaymentRouteError when a stored route is unreadable. */
export function createPaymentRoutes(
  store: KeyValueStore,
  options: PaymentRoutesOptions,
): PaymentRoutes {
  return paymentRoutesOver(createPaymentKeys(store), options);
}

/** The route table over any {@link PaymentKeys} (Redis or in-process). */
export function paymentRoutesOver(keys: PaymentKeys, options: PaymentRoutesOptions): PaymentRoutes {
  const key = (reference: string): string => paymentKey(options.prefix, 'route', reference);
  return {
    key,
    async save(reference, route) {
      const valid = PaymentRoute.parse(route);
      await keys.set(key(reference), JSON.stringify(valid), options.ttlSeconds);
    },
    async get(reference) {
      const raw = await keys.get(key(reference));
      if (raw === undefined) return undefined;
      try {
        return PaymentRoute.parse(JSON.parse(raw));
      } catch (cause) {
        throw new PaymentRouteError(reference, { cause });
      }
    },
  };
}
