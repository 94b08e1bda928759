import type { PartnerClient } from '../api/index.js';
import type { Logger } from '../log/index.js';
import { PaymentHint } from './payment-jobs.js';
import { type PaymentKeys, paymentKey } from './payment-keys.js';
import type { PaymentHolder, PaymentStatusReader } from './payment-service.js';
import { classifyPaymentStatus, type PaymentOutcome } from './payment-status.js';

/** What {@link createPaymentLedger} reads and where. */
interface PaymentLedgerSettings {
  readonly keys: PaymentKeys;
  /** Prefix of every key, e.g. `insurechat:`. */
  readonly prefix: string;
  readonly log: Logger;
  /** The Partner API client, for the reason of a failure; without it none is read. */
  readonly client: Pick<PartnerClient, 'call'> | undefined;
  readonly getStatus: PaymentStatusReader;
}

/**
 * What is known of each payment: its records in the store (delivery marker, callback hint,
 * generation, holder's set) and the insurer's word on its status.
 */
export function createPaymentLedger(settings: PaymentLedgerSettings) {
  const { keys, prefix, log, client, getStatus } = settings;

  const deliveredKey = (reference: string): string => paymentKey(prefix, 'delivered', reference);
  const hintKey = (reference: string): string => paymentKey(prefix, 'hint', reference);
  const generationKey = (reference: string): string => paymentKey(prefix, 'generation', reference);
  const holderKey = (holder: PaymentHolder): string =>
    paymentKey(prefix, 'holder', `${holder.channel}:${holder.address}`);

  /** The holder's references: those told (`settled`) and those still in flight. */
  async function referencesOf(holder: PaymentHolder) {
    const settled: string[] = [];
    const inFlight: string[] = [];
    for (const reference of await keys.members(holderKey(holder))) {
      const told = await keys.get(deliveredKey(reference));
      (told === 'paid' || told === 'failed' ? settled : inFlight).push(reference);
    }
    return { settled, inFlight };
  }

  async function currentGeneration(reference: string): Promise<number> {
    return Number((await keys.get(generationKey(reference))) ?? '0');
  }

  async function readHint(reference: string): Promise<PaymentHint> {
    const raw = await keys.get(hintKey(reference));
    if (raw === undefined) return {};
    try {
      return PaymentHint.parse(JSON.parse(raw));
    } catch {
      // The hint only adds the policy number; an unreadable one is worth less than the outcome.
      return {};
    }
  }

  /** The insurer's word on why a payment failed (transaction details); undefined when none. */
  async function failureReason(reference: string): Promise<string | undefined> {
    if (!client) return undefined;
    try {
      const details = await client.call('getTransaction', { path: { reference } });
      return details.message ?? undefined;
    } catch (err) {
      log.warn({ err, reference }, 'transaction details could not be read');
      return undefined;
    }
  }

  async function readOutcome(reference: string): Promise<PaymentOutcome | 'unknown'> {
    try {
      return classifyPaymentStatus((await getStatus(reference)).status);
    } catch (err) {
      log.warn({ err, reference }, 'transaction status could not be read');
      return 'unknown';
    }
  }

  async function isFinalDelivered(reference: string): Promise<boolean> {
    const current = await keys.get(deliveredKey(reference));
    return current === 'paid' || current === 'failed';
  }

  return {
    deliveredKey,
    hintKey,
    generationKey,
    holderKey,
    referencesOf,
    currentGeneration,
    readHint,
    failureReason,
    readOutcome,
    isFinalDelivered,
  };
}

/** The ledger of {@link createPaymentLedger}. */
export type PaymentLedger = ReturnType<typeof createPaymentLedger>;
