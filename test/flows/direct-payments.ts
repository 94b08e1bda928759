import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import type { FlowPayments } from '../../flows/index.js';
import type { PartnerClient } from '../../src/api/index.js';
import { type AttemptTracker, createPaymentAttempts } from '../../src/payments/index.js';

/** A tracker that follows nothing: outcomes are only learnt by checking. */
const UNTRACKED: AttemptTracker = {
  track: async () => undefined,
  acknowledge: async () => false,
  tell: async () => undefined,
};

/**
 * The flows' payments as src/payments provides them (attempts with their own references, each
 * started once), in this process, over `client`; `tracker` follows what they start.
 */
export function directPayments(
  client: PartnerClient,
  tracker: Partial<AttemptTracker> = {},
): FlowPayments {
  const attempts = createPaymentAttempts({
    prefix: `test:${randomUUID()}:`,
    readStatus: (reference) => client.call('getTransactionStatus', { path: { reference } }),
    tracker: { ...UNTRACKED, ...tracker },
    logger: pino({ level: 'silent' }),
  });
  return {
    start: (attempt, pay) => attempts.start(attempt, pay),
    check: (reference, route) => attempts.check(reference, route),
  };
}
