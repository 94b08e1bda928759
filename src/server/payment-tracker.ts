import type { AttemptTracker, PaymentService } from '../payments/index.js';
import { metrics } from './metrics.js';

/**
 * The payment attempts' tracker, attached to the payment service once it exists. The one seam
 * left in the server's build order: the flows start attempts, the engine runs the flows, and the
 * payment service delivers outcomes into that engine, so the service is built after the engine
 * and the attempts report to it through this tracker.
 */
export interface PaymentTrackerSeam {
  readonly tracker: AttemptTracker;
  /** The payment service, once attached. */
  readonly service: () => PaymentService | undefined;
  /** Attaches the service; attaching twice is a wiring error. */
  attach(service: PaymentService): void;
}

/** Creates the seam; until the service is attached, tracking is a no-op and nothing is won. */
export function createPaymentTracker(): PaymentTrackerSeam {
  let payments: PaymentService | undefined;
  return {
    tracker: {
      async track(reference, route, options) {
        await payments?.track(reference, route, options);
      },
      async untrack(reference) {
        await payments?.untrack(reference);
      },
      async acknowledge(reference, outcome) {
        const won = payments ? await payments.acknowledge(reference, outcome) : false;
        // Told in the turn instead of pushed: still one outcome told to a user.
        if (won) metrics.payments.inc({ outcome });
        return won;
      },
      async tell(route, prompt) {
        await payments?.tell(route, prompt);
      },
    },
    service: () => payments,
    attach(service) {
      if (payments) throw new Error('the payment service is already attached');
      payments = service;
    },
  };
}
