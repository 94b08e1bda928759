import { Queue } from 'bullmq';
import type { PartnerClient, PaymentWebhook } from '../../src/api/index.js';
import type { Notifier } from '../../src/channels/index.js';
import type {
  ChannelAddress,
  ChannelName,
  Prompt,
  Reply,
  TurnEngine,
} from '../../src/conversation/index.js';
import { createLogger } from '../../src/log/index.js';
import { type PaymentRoute, paymentQueuePrefix } from '../../src/payments/index.js';
import { connectRedis, type RedisConnection } from '../../src/redis/index.js';
import { eventually } from '../support/eventually.js';
import {
  connectMode,
  deleteKeys,
  type RedisMode,
  STANDALONE_URL,
  testPrefix,
} from '../support/redis-modes.js';
import { TurnEngineDouble } from '../support/turn-engine-double.js';

/** A silent logger for tests. */
export const quietLogger = createLogger({ level: 'silent' });

/** A Redis connection and a key prefix of its own; `cleanup` deletes every key under it. */
export interface TestRedis {
  readonly redis: RedisConnection;
  readonly prefix: string;
  cleanup(): Promise<void>;
}

/**
 * Connects to the test Redis of `mode` (default the standalone server) with a fresh
 * `test:<uuid>:` prefix.
 */
export function testRedis(mode?: RedisMode): TestRedis {
  const redis = mode ? connectMode(mode) : connectRedis({ kind: 'url', url: STANDALONE_URL });
  const prefix = testPrefix();
  return {
    redis,
    prefix,
    async cleanup() {
      await deleteKeys(redis, prefix);
      await redis.quit();
    },
  };
}

/** One message a {@link RecordingNotifier} accepted. */
export interface Notified {
  readonly address: ChannelAddress;
  readonly prompt: Prompt;
}

/** A Notifier that records what it was asked to send; it can refuse the first `failures` calls. */
export class RecordingNotifier implements Notifier {
  readonly sent: Notified[] = [];
  attempts = 0;

  constructor(
    readonly channel: ChannelName,
    private failures = 0,
  ) {}

  async notify(address: ChannelAddress, prompt: Prompt): Promise<void> {
    this.attempts += 1;
    if (this.failures > 0) {
      this.failures -= 1;
      throw new Error('platform unavailable');
    }
    this.sent.push({ address, prompt });
  }
}

/** Where {@link TestPaymentEngine} keeps its state: Redis itself, or {@link MemoryState}. */
export interface TestState {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<unknown>;
}

/** A {@link TestState} in a Map, for tests without Redis. */
export class MemoryState implements TestState {
  private readonly values = new Map<string, string>();

  async get(key: string): Promise<string | null> {
    return this.values.get(key) ?? null;
  }

  async set(key: string, value: string): Promise<void> {
    this.values.set(key, value);
  }
}

/**
 * A small TurnEngine standing in for the real one: one waiting-for-payment flow whose state lives
 * in a {@link TestState}; over Redis, two engine instances share conversations.
 */
export class TestPaymentEngine extends TurnEngineDouble implements TurnEngine {
  readonly handled: Reply[] = [];

  constructor(
    private readonly redis: TestState,
    private readonly prefix: string,
  ) {
    super();
  }

  /** Puts a session in the state that waits for the payment outcome. */
  async startWaiting(sessionKey: string): Promise<void> {
    await this.redis.set(this.key(sessionKey), 'awaiting-payment');
  }

  /** The session's current state name. */
  async state(sessionKey: string): Promise<string | null> {
    return this.redis.get(this.key(sessionKey));
  }

  override async turn(sessionKey: string, reply: Reply): Promise<Prompt> {
    this.handled.push(reply);
    const current = await this.state(sessionKey);
    if (reply.type === 'payment.settled' && current !== 'paid') {
      const next = { paid: 'paid', failed: 'payment-failed', pending: 'still-pending' }[
        reply.outcome
      ];
      await this.redis.set(this.key(sessionKey), next);
      if (reply.outcome === 'paid') {
        return {
          key: 'payment.paid',
          params: { policyNumber: reply.policyNumber ?? '' },
          input: 'none',
          final: true,
        };
      }
      if (reply.outcome === 'failed') {
        return {
          key: 'payment.failed',
          input: 'choice',
          final: false,
          choices: [{ id: 'retry', label: 'payment.retry' }],
        };
      }
      return {
        key: 'payment.still-pending',
        input: 'choice',
        final: false,
        choices: [{ id: 'check', label: 'payment.check-again' }],
      };
    }
    return { key: `state.${current ?? 'none'}`, input: 'none', final: false };
  }

  private key(sessionKey: string): string {
    return `${this.prefix}test-engine:${sessionKey}`;
  }
}

/** The insurer's transaction status, set by each test; counts the reads. */
export class StatusBoard {
  readonly statuses = new Map<string, string>();
  reads = 0;
  readonly read = async (reference: string): Promise<{ reference: string; status: string }> => {
    this.reads += 1;
    return { reference, status: this.statuses.get(reference) ?? 'Pending' };
  };
}

/** A webhook body as the insurer publishes it, for `reference`. */
export function webhook(
  reference: string,
  status: 'Success' | 'Failed' | 'Pending',
): PaymentWebhook {
  return {
    policyId: 'POL-1',
    paymentReference: reference,
    partnerReference: reference,
    status,
    amount: 100,
    currency: 'ZMW',
    policyNumber: status === 'Success' ? 'MTR/2026/0001' : null,
    policyStatus: null,
    paidAt: null,
  };
}

/** A route to a Telegram chat for `sessionKey`. */
export function telegramRoute(sessionKey: string): PaymentRoute {
  return { sessionKey, channel: 'telegram', address: '424242', locale: 'en' };
}

/**
 * Resolves once the payments queue has no waiting, delayed or running job left. Tests with a
 * long first poll pass `includeDelayed: false` to wait only for work already due.
 */
export async function drained(
  redis: RedisConnection,
  prefix: string,
  { queueName = 'payments', includeDelayed = true } = {},
): Promise<void> {
  const queue = new Queue(queueName, { connection: redis, prefix: paymentQueuePrefix(prefix) });
  try {
    await eventually('the payment queue is drained', async () => {
      const states = ['waiting', 'active', 'prioritized', ...(includeDelayed ? ['delayed'] : [])];
      const counts = await queue.getJobCounts(...(states as Parameters<typeof queue.getJobCounts>));
      return Object.values(counts).every((count) => count === 0);
    });
  } finally {
    await queue.close();
  }
}

/** A motor quotation for the seeded policyholder's seeded vehicle. */
export async function motorQuote(client: PartnerClient): Promise<string> {
  const holders = await client.call('getIndividuals', { query: { PhoneNumber: '260971234567' } });
  const vehicles = await client.call('searchVehicleByRegistration', {
    query: { registrationNumber: 'AJQ 1909' },
  });
  const quotation = await client.call('createMotorQuotation', {
    body: {
      productId: 101,
      duration: 1,
      currency: 'ZMW',
      startDate: '2026-03-02',
      clientId: String(holders.data[0]?.id),
      risks: [{ vehicleId: String(vehicles[0]?.id) }],
    },
  });
  return quotation.id;
}

/** The state a session's persisted flow is in, read from any session store. */
export async function flowState(
  store: { read(key: string): Promise<{ readonly data: string } | undefined> },
  sessionKey: string,
): Promise<unknown> {
  const stored = await store.read(sessionKey);
  return stored
    ? (JSON.parse(stored.data) as { snapshot: { value: unknown } }).snapshot.value
    : undefined;
}
