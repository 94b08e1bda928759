import { contract, type PartnerClient } from '../api/index.js';
import type { Logger } from '../log/index.js';
import { classifyPaymentStatus, type PaymentService } from '../payments/index.js';
import { currentTurn, type TurnScope } from './turn-scope.js';

/** What {@link trackPayments} needs of the payment service; may be bound late. */
export type PaymentTracker = Pick<PaymentService, 'track' | 'acknowledge'> & {
  readonly routes: Pick<PaymentService['routes'], 'get'>;
};

/** The operation that reads a payment's final state; the flows' "check status" uses it. */
const STATUS_OPERATION = 'getTransactionStatus';

function bodyReferenceOf(args: readonly unknown[]): string | undefined {
  const body = (args[0] as { body?: { reference?: unknown } } | undefined)?.body;
  return typeof body?.reference === 'string' ? body.reference : undefined;
}

function pathReferenceOf(args: readonly unknown[]): string | undefined {
  const path = (args[0] as { path?: { reference?: unknown } } | undefined)?.path;
  return typeof path?.reference === 'string' ? path.reference : undefined;
}

function statusOf(result: unknown): string | undefined {
  const status = (result as { status?: unknown } | null | undefined)?.status;
  return typeof status === 'string' ? status : undefined;
}

/**
 * Wraps the client the flows use so payments reach the user exactly once:
 * - every operation that starts a payment (the contract's `startsPayment`) and comes back pending
 *   is handed to the payment service with the current turn's route, so the outcome moves the
 *   conversation on and reaches the user out of turn;
 * - a final status read inside the turn of the session that paid (the user picked "check status")
 *   is acknowledged, so the callback or poller does not push the same outcome again.
 */
export function trackPayments(
  client: PartnerClient,
  payments: PaymentTracker,
  logger: Logger,
): PartnerClient {
  const startTracking = async (
    name: string,
    turn: TurnScope,
    reference: string,
    result: unknown,
  ): Promise<void> => {
    if (!turn.address || classifyPaymentStatus(statusOf(result)) !== 'pending') return;
    try {
      await payments.track(reference, {
        sessionKey: turn.sessionKey,
        channel: turn.address.channel,
        address: turn.address.address,
        locale: turn.address.locale,
      });
    } catch (error) {
      // The flow's own status checks still see the outcome; only the push is lost.
      logger.error({ err: error, operation: name }, 'payment tracking failed');
    }
  };

  const acknowledgeSeen = async (
    turn: TurnScope,
    reference: string,
    result: unknown,
  ): Promise<void> => {
    const outcome = classifyPaymentStatus(statusOf(result));
    if (outcome === 'pending') return;
    try {
      // Only the conversation the payment belongs to has shown it to its payer; a staff member
      // looking the reference up at the desk must not silence the payer's notice.
      const route = await payments.routes.get(reference);
      if (route?.sessionKey !== turn.sessionKey) return;
      await payments.acknowledge(reference, outcome);
    } catch (error) {
      // Worst case the user hears the outcome twice; never fail the turn that showed it.
      logger.warn({ err: error, operation: STATUS_OPERATION }, 'payment acknowledgement failed');
    }
  };

  const call = (async (name: keyof typeof contract, ...args: unknown[]) => {
    const result = await (client.call as (n: string, ...a: unknown[]) => Promise<unknown>)(
      name,
      ...args,
    );
    const turn = currentTurn();
    if (!turn) return result;
    const entry = contract[name] as { startsPayment?: boolean };
    const started = entry.startsPayment ? bodyReferenceOf(args) : undefined;
    if (started) await startTracking(name, turn, started, result);
    const checked = name === STATUS_OPERATION ? pathReferenceOf(args) : undefined;
    if (checked) await acknowledgeSeen(turn, checked, result);
    return result;
  }) as PartnerClient['call'];
  // Spread keeps every other member (the client is a plain object), so it survives additions.
  return { ...client, call };
}
