import { randomUUID } from 'node:crypto';
import {
  createBullJobScheduler,
  createMemoryJobScheduler,
  type Job,
  type JobHooks,
  type JobScheduler,
} from '../../jobs/index.js';
import type { Logger } from '../../log/index.js';
import { hashTag, type RedisConnection } from '../../redis/index.js';
import type { KeyValueStore } from '../../storage/index.js';
import { type GraphClient, type InboundMessage, kindOf } from './cloud-api/index.js';
import type { WhatsAppMessage } from './render-whatsapp-message.js';
import type { Answer, Behind, WhatsAppChannel } from './whatsapp-channel.js';

/** How long a message id is remembered: Meta redelivers a webhook for up to 7 days. */
export const SEEN_RETENTION_MS = 8 * 24 * 3_600_000;
/** Tries of one turn (the first and its retries) before the customer gets an apology. */
export const TURN_ATTEMPTS = 4;
/** The first retry's delay; each later one doubles it (1 s, 2 s, 4 s). */
export const TURN_BACKOFF_MS = 1_000;
/** How long one instance may hold a conversation's inbox without a sign of life. */
const LOCK_SECONDS = 120;
/** How long an answer computed but not yet all sent is kept for the retry that sends the rest. */
const OUTBOX_SECONDS = 24 * 3_600;
const LAST = Number.MAX_SAFE_INTEGER;

/**
 * Remembers WhatsApp message ids on the key-value port for {@link SEEN_RETENTION_MS}: each key
 * holds the time it is remembered until, read against `now`, so a test can move the clock; the
 * key's own lifetime drops it from the store when that time has passed.
 */
export function createSeenMessages(
  store: KeyValueStore,
  prefix: string,
  now: () => number = Date.now,
) {
  const keyOf = (id: string) => `${prefix}whatsapp-seen:{${id}}`;
  return {
    /** True when `id` was not seen in the retention period; it is seen from now on. */
    async claim(id: string): Promise<boolean> {
      const key = keyOf(id);
      const held = await store.get(key);
      if (held !== undefined && Number(held) > now()) return false;
      const until = String(now() + SEEN_RETENTION_MS);
      // Atomic against a second delivery racing this one: only a stale stamp may be replaced.
      const ttl = Math.ceil(SEEN_RETENTION_MS / 1000);
      return store.setIfAbsent(key, until, ttl, held === undefined ? [] : [held]);
    },
    /** Forgets `id` (its message could not be queued: Meta's redelivery must run it). */
    release: (id: string) => store.delete(keyOf(id)),
  };
}

/** Message ids remembered for 7 days, as {@link createSeenMessages} makes them. */
export type SeenMessages = ReturnType<typeof createSeenMessages>;

/** Options of {@link createWhatsAppInbox}. */
export interface WhatsAppInboxOptions {
  readonly channel: WhatsAppChannel;
  readonly graph: GraphClient;
  readonly store: KeyValueStore;
  readonly keyPrefix: string;
  /** Over Redis the queue is BullMQ's and survives restarts; without, it lives in this process. */
  readonly redis: RedisConnection | undefined;
  readonly logger: Logger;
  /** The message ids already taken ({@link createSeenMessages}). */
  readonly seen: SeenMessages;
  /** Delay before the first retry; default {@link TURN_BACKOFF_MS}. */
  readonly backoffMs?: number;
}

/** The durable queue between WhatsApp's webhook and the turns. */
export interface WhatsAppInbox {
  /**
   * Queues a customer message unless its id was seen in the last 7 days. Resolves once it is
   * stored, so the webhook may answer 200; throws when it could not be (Meta will redeliver).
   */
  accept(message: InboundMessage): Promise<void>;
  /** Resolves once no turn is queued, running or waiting for a retry. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

interface TurnJob {
  readonly waId: string;
}

/**
 * The WhatsApp inbox: each conversation's messages wait in a sorted set (`whatsapp-inbox:{wa_id}`)
 * in arrival order, and one job per message (on the job-scheduler port) drains the
 * conversation's set under a lock, oldest first, so one customer's messages run in order
 * whichever instance's worker takes them. A turn that throws leaves its message at the head: the
 * job is retried with back-off; its last try apologises and moves on. An answer is kept once
 * computed (`whatsapp-outbox:{id}`), so a retry after a failed send sends what is left and never
 * runs the turn twice. A message is tried {@link TURN_ATTEMPTS} times at most, whichever jobs try it.
 */
export function createWhatsAppInbox(options: WhatsAppInboxOptions): WhatsAppInbox {
  const { channel, graph, store, keyPrefix: prefix } = options;
  const log = options.logger.child({ channel: 'whatsapp' });
  const { seen } = options;
  const inboxKey = (waId: string) => `${prefix}whatsapp-inbox:{${waId}}`;
  const orderKey = (waId: string) => `${prefix}whatsapp-order:{${waId}}`;
  const lockKey = (waId: string) => `${prefix}whatsapp-turning:{${waId}}`;
  const outboxKey = (id: string) => `${prefix}whatsapp-outbox:{${id}}`;
  const triesKey = (id: string) => `${prefix}whatsapp-tries:{${id}}`;

  /**
   * Sends what is left of a message's answer, keeping the rest after each send. Tries are counted
   * per message, since a later message's job may try the head too: the last one apologises.
   */
  async function deliver(
    message: InboundMessage,
    lastOfJob: boolean,
    behind: Behind,
  ): Promise<void> {
    const tries = await store.increment(triesKey(message.id), OUTBOX_SECONDS);
    const last = lastOfJob || tries >= TURN_ATTEMPTS;
    const key = outboxKey(message.id);
    const kept = await store.get(key);
    const seenTyping = kept ? undefined : showTyping(message);
    let answer: Answer;
    try {
      answer = kept ? (JSON.parse(kept) as Answer) : await channel.answer(message, behind);
    } catch (error) {
      if (!last) throw error;
      await seenTyping;
      return giveUp(message, undefined, error);
    }
    // The read call is done before the reply goes, or the indicator would outlive the reply.
    await seenTyping;
    const messages = [...answer.messages];
    while (messages.length > 0) {
      await store.set(key, JSON.stringify({ ...answer, messages }), OUTBOX_SECONDS);
      const [next] = messages as [WhatsAppMessage];
      try {
        await graph.send(message.from, next);
      } catch (error) {
        if (!last) throw error;
        return giveUp(message, answer.locale, error);
      }
      messages.shift();
    }
    await store.delete(key);
    await store.delete(triesKey(message.id));
  }

  /**
   * Marks the message read and shows typing while its turn runs, beside the turn: a failure is
   * logged and never fails or holds the turn. Reactions and system notices get no answer, so no
   * typing either.
   */
  async function showTyping(message: InboundMessage): Promise<void> {
    if (kindOf(message) === 'ignored') return;
    try {
      await graph.markRead(message.id);
    } catch (error) {
      log.warn({ event: 'whatsapp.read_failed', errorName: nameOf(error) }, 'mark read failed');
    }
  }

  async function giveUp(message: InboundMessage, locale: string | undefined, error: unknown) {
    log.error(
      { event: 'whatsapp.failed', errorName: nameOf(error), type: message.type },
      'whatsapp message failed after its retries',
    );
    await store.delete(outboxKey(message.id));
    await store.delete(triesKey(message.id));
    await graph.send(message.from, channel.apology(locale)).catch(() => undefined);
  }

  /**
   * Runs the conversation's waiting messages, oldest first, while this job holds its lock. A
   * holder re-reads after letting go, so a message added just before is never left waiting.
   */
  async function drain(job: Job): Promise<void> {
    const { waId } = job.data as TurnJob;
    const last = job.attemptsMade + 1 >= job.attempts;
    for (;;) {
      const token = randomUUID();
      if (!(await store.setIfAbsent(lockKey(waId), token, LOCK_SECONDS))) return;
      try {
        for (;;) {
          const [head] = await store.sortedUpTo(inboxKey(waId), LAST);
          if (head === undefined) break;
          await store.expire(lockKey(waId), LOCK_SECONDS);
          // What waits behind the head, read when asked: photos sent at once answer once (#40).
          const behind = async () => {
            const next = (await store.sortedUpTo(inboxKey(waId), LAST))[1];
            return next === undefined ? undefined : (JSON.parse(next) as InboundMessage);
          };
          await deliver(JSON.parse(head) as InboundMessage, last, behind);
          await store.sortedRemove(inboxKey(waId), head);
        }
      } finally {
        await store.deleteIf(lockKey(waId), token);
      }
      if ((await store.sortedUpTo(inboxKey(waId), LAST)).length === 0) return;
    }
  }

  const hooks: JobHooks = {
    handler: drain,
    concurrency: 8,
    onFailed(failure) {
      const fields = { event: 'whatsapp.retry', errorName: failure.err.name };
      if (failure.last) log.error(fields, 'whatsapp turn job gave up');
      else log.warn({ ...fields, attemptsMade: failure.attemptsMade }, 'whatsapp turn retried');
    },
  };
  const scheduler: JobScheduler = options.redis
    ? createBullJobScheduler(
        {
          redis: options.redis,
          name: 'whatsapp-turns',
          prefix: hashTag(`${prefix}bull`),
          keepFailed: { age: 7 * 24 * 3_600 },
          label: 'whatsapp',
          logger: log,
        },
        hooks,
      )
    : createMemoryJobScheduler(hooks);

  return {
    async accept(message) {
      if (!(await seen.claim(message.id))) {
        log.info({ event: 'whatsapp.duplicate' }, 'whatsapp message already handled');
        return;
      }
      try {
        const order = await store.increment(orderKey(message.from), OUTBOX_SECONDS);
        await store.sortedAdd(inboxKey(message.from), order, JSON.stringify(message));
        await store.expire(inboxKey(message.from), OUTBOX_SECONDS);
        await scheduler.add('turn', { waId: message.from } satisfies TurnJob, {
          jobId: `whatsapp-${message.id}`,
          attempts: TURN_ATTEMPTS,
          backoff: { type: 'exponential', delay: options.backoffMs ?? TURN_BACKOFF_MS },
        });
      } catch (error) {
        await seen.release(message.id).catch(() => undefined);
        throw error;
      }
    },
    settled: () => scheduler.drained(true),
    close: () => scheduler.close(),
  };
}

/** An error's name only: its message could echo what the customer wrote. */
function nameOf(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
