import { describe, expect, it } from 'vitest';
import type { PartnerClient } from '../../src/api/index.js';
import type { ChannelAddress, Prompt, TurnEngine } from '../../src/conversation/index.js';
import { createLogger } from '../../src/log/index.js';
import type { PaymentRoute } from '../../src/payments/index.js';
import { type PaymentTracker, trackPayments } from '../../src/server/track-payments.js';
import { scopeEngine } from '../../src/server/turn-scope.js';

const logger = createLogger({ level: 'silent' });
const PAYER = 'ussd:260977000005';
const payerAddress: ChannelAddress = { channel: 'ussd', address: '260977000005', locale: 'en' };
const DONE: Prompt = { key: 'engine.goodbye', input: 'none', final: true };

/** A client whose every call answers `status` (and records what was called). */
function clientAnswering(status: string) {
  const calls: string[] = [];
  const client = {
    call: async (name: string) => {
      calls.push(name);
      return { reference: 'IC-1', status };
    },
    circuitState: () => 'closed',
  } as unknown as PartnerClient;
  return { client, calls };
}

/** A payment service stand-in: routes held in a Map, tracking and acknowledgements recorded. */
function recordingTracker(routes: Record<string, PaymentRoute> = {}) {
  const tracked: Array<{ reference: string; route: PaymentRoute }> = [];
  const acknowledged: Array<{ reference: string; outcome: string }> = [];
  let failAcknowledge = false;
  const tracker: PaymentTracker = {
    async track(reference, route) {
      tracked.push({ reference, route });
    },
    async acknowledge(reference, outcome) {
      if (failAcknowledge) throw new Error('Redis is down');
      acknowledged.push({ reference, outcome });
      return true;
    },
    routes: { get: async (reference) => routes[reference] },
  };
  return {
    tracker,
    tracked,
    acknowledged,
    failAcknowledgements() {
      failAcknowledge = true;
    },
  };
}

const payerRoute: PaymentRoute = { sessionKey: PAYER, ...payerAddress };

/** Runs `work` inside a turn of `sessionKey`, as a flow's invoked actor would. */
async function inTurn<T>(sessionKey: string, work: () => Promise<T>): Promise<T> {
  let result: T | undefined;
  const engine: TurnEngine = {
    async handle() {
      result = await work();
      return DONE;
    },
  };
  await scopeEngine(engine).handle(
    sessionKey,
    { type: 'user.text', text: '1' },
    {
      address: payerAddress,
    },
  );
  return result as T;
}

const statusOf = (client: PartnerClient) =>
  client.call('getTransactionStatus', { path: { reference: 'IC-1' } });

describe('trackPayments', () => {
  it('acknowledges a paid status the paying conversation reads in its own turn', async () => {
    const { client } = clientAnswering('Success');
    const payments = recordingTracker({ 'IC-1': payerRoute });
    const tracked = trackPayments(client, payments.tracker, logger);

    const status = await inTurn(PAYER, () => statusOf(tracked));

    expect(status.status).toBe('Success');
    expect(payments.acknowledged).toEqual([{ reference: 'IC-1', outcome: 'paid' }]);
  });

  it('acknowledges a declined payment as failed', async () => {
    const { client } = clientAnswering('Rejected');
    const payments = recordingTracker({ 'IC-1': payerRoute });
    const tracked = trackPayments(client, payments.tracker, logger);

    await inTurn(PAYER, () => statusOf(tracked));

    expect(payments.acknowledged).toEqual([{ reference: 'IC-1', outcome: 'failed' }]);
  });

  it('does not acknowledge a status that is still pending', async () => {
    const { client } = clientAnswering('Pending');
    const payments = recordingTracker({ 'IC-1': payerRoute });
    const tracked = trackPayments(client, payments.tracker, logger);

    await inTurn(PAYER, () => statusOf(tracked));

    expect(payments.acknowledged).toEqual([]);
  });

  it('does not acknowledge a payment looked up from another conversation, such as the staff desk', async () => {
    const { client } = clientAnswering('Success');
    const payments = recordingTracker({ 'IC-1': payerRoute });
    const tracked = trackPayments(client, payments.tracker, logger);

    await inTurn('slack:T1:D1:U1', () => statusOf(tracked));

    expect(payments.acknowledged).toEqual([]);
  });

  it('does not acknowledge a status read outside any turn (the poller, a script)', async () => {
    const { client } = clientAnswering('Success');
    const payments = recordingTracker({ 'IC-1': payerRoute });
    const tracked = trackPayments(client, payments.tracker, logger);

    await statusOf(tracked);

    expect(payments.acknowledged).toEqual([]);
  });

  it('still answers the flow when the acknowledgement cannot be stored', async () => {
    const { client } = clientAnswering('Success');
    const payments = recordingTracker({ 'IC-1': payerRoute });
    payments.failAcknowledgements();
    const tracked = trackPayments(client, payments.tracker, logger);

    const status = await inTurn(PAYER, () => statusOf(tracked));

    expect(status.status).toBe('Success');
  });

  it('tracks a payment that starts pending with the route of the turn that started it', async () => {
    const { client } = clientAnswering('Pending');
    const payments = recordingTracker();
    const tracked = trackPayments(client, payments.tracker, logger);

    await inTurn(PAYER, () =>
      tracked.call('payQuotation', {
        path: { quoteId: 'Q-1' },
        body: { reference: 'IC-1', payment: { paymentMethod: 'MobileMoney' } },
      } as unknown as Parameters<typeof tracked.call<'payQuotation'>>[1]),
    );

    expect(payments.tracked).toEqual([{ reference: 'IC-1', route: payerRoute }]);
    expect(payments.acknowledged).toEqual([]);
  });
});
