import { contract, type PartnerClient } from '../api/index.js';
import type { Logger } from '../log/index.js';
import { classifyPaymentStatus, type PaymentService } from '../payments/index.js';
import { currentTurn } from './turn-scope.js';

function referenceOf(args: readonly unknown[]): string | undefined {
  const body = (args[0] as { body?: { reference?: unknown } } | undefined)?.body;
  return typeof body?.reference === 'string' ? body.reference : undefined;
}

function statusOf(result: unknown): string | undefined {
  const status = (result as { status?: unknown } | null | undefined)?.status;
  return typeof status === 'string' ? status : undefined;
}

/**
 * Wraps the client so every operation that starts a payment (the contract's `startsPayment`)
 * and comes back pending is handed to the payment service with the current turn's route: the
 * outcome then moves the conversation on and reaches the user out of turn, exactly once.
 */
export function trackPayments(
  client: PartnerClient,
  track: PaymentService['track'],
  logger: Logger,
): PartnerClient {
  const call = (async (name: keyof typeof contract, ...args: unknown[]) => {
    const result = await (client.call as (n: string, ...a: unknown[]) => Promise<unknown>)(
      name,
      ...args,
    );
    const entry = contract[name] as { startsPayment?: boolean };
    const turn = currentTurn();
    const reference = referenceOf(args);
    if (
      entry.startsPayment &&
      turn?.address &&
      reference &&
      classifyPaymentStatus(statusOf(result)) === 'pending'
    ) {
      try {
        await track(reference, {
          sessionKey: turn.sessionKey,
          channel: turn.address.channel,
          address: turn.address.address,
          locale: turn.address.locale,
        });
      } catch (error) {
        // The flow's own status checks still see the outcome; only the push is lost.
        logger.error({ err: error, operation: name }, 'payment tracking failed');
      }
    }
    return result;
  }) as PartnerClient['call'];
  // Spread keeps every other member (the client is a plain object), so it survives additions.
  return { ...client, call };
}
