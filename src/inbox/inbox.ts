import { randomUUID } from 'node:crypto';
import {
  createBullJobScheduler,
  createMemoryJobScheduler,
  type Job,
  type JobHooks,
  type JobScheduler,
} from '../jobs/index.js';
import { errorName, type Logger } from '../log/index.js';
import { hashTag, type RedisConnection } from '../redis/index.js';
import type { KeyValueStore } from '../storage/index.js';

/** How long a message id is remembered: longer than a platform redelivers (Meta: 7 days). */
const SEEN_RETENTION_MS = 8 * 24 * 3_600_000;
/** Tries of one turn (the first and its retries) before the customer gets an apology. */
export const TURN_ATTEMPTS = 4;
/** The first retry's delay; each later one doubles it (1 s, 2 s, 4 s). */
const TURN_BACKOFF_MS = 1_000;
/** How long one instance may hold a conversation's inbox without a sign of life. */
const LOCK_SECONDS = 120;
/** How long an answer computed but not yet all sent is kept for the retry that sends the rest. */
const OUTBOX_SECONDS = 24 * 3_600;
const LAST = Number.MAX_SAFE_INTEGER;

/**
 * Remembers message ids on the key-value port for {@link SEEN_RETENTION_MS}, each under
 * `<prefix>{<id>}`: each key holds the time it is remembered until, read against `now`, so a test
 * can move the clock; the key's own lifetime drops it from the store when that time has passed.
 */
export function createSeenMessages(
  store: KeyValueStore,
  prefix: string,
  now: () => number = Date.now,
) {
  const keyOf = (id: string) => `${prefix}{${id}}`;
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
    /** Forgets `id` (its message could not be queued: the platform's redelivery must run it). */
    release: (id: string) => store.delete(keyOf(id)),
  };
}

/** Message ids remembered for 8 days, as {@link createSeenMessages} makes them. */
type SeenMessages = ReturnType<typeof createSeenMessages>;

/** What the inbox needs of a message: its id, and the conversation it belongs to. */
interface InboxMessage {
  readonly id: string;
  /** The conversation (the sender's address): its messages run one at a time, in order. */
  readonly from: string;
  /** The platform's message type, logged when its turn fails for good (never its content). */
  readonly type?: string;
}

/** A turn's answer: the messages to send, and the language they are in. */
export interface InboxAnswer<Out> {
  readonly locale: string;
  readonly messages: readonly Out[];
}

/** The platform's side of the inbox: its turn, its sending, its apology. */
interface InboxHandler<M extends InboxMessage, Out> {
  /**
   * What one message is answered with; throws when the turn failed (it is retried). `behind`
   * reads the conversation's message queued behind it, if any.
   */
  answer(message: M, behind: () => Promise<M | undefined>): Promise<InboxAnswer<Out>>;
  /** Sends one message of an answer to the conversation `to`. */
  send(to: string, message: Out): Promise<unknown>;
  /** The apology sent when a message's turn failed for good, in `locale` when known. */
  apology(locale?: string): Out;
  /**
   * Runs beside a turn from its start, and is waited for before the answer goes (a read
   * receipt with a typing indicator); it must not throw.
   */
  beside?(message: M): Promise<void>;
}

/** Options of {@link createInbox}. */
interface InboxOptions<M extends InboxMessage, Out> {
  /**
   * The platform's name: its keys (`<name>-inbox:{<from>}`…, in the retention table), its job
   * queue (`<name>-turns`) and its log lines.
   */
  readonly name: string;
  readonly handler: InboxHandler<M, Out>;
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

/** The durable queue between a platform's webhook and the turns. */
export interface Inbox<M extends InboxMessage> {
  /**
   * Queues a message unless its id was seen in the retention period. Resolves once it is
   * stored, so the webhook may answer 200; throws when it could not be (the platform redelivers).
   */
  accept(message: M): Promise<void>;
  /** Resolves once no turn is queued, running or waiting for a retry. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

interface TurnJob {
  /** The conversation, under the name WhatsApp's jobs were first queued with (its wa_id). */
  readonly waId: string;
}

/**
 * An inbound webhook's queue: each conversation's messages wait in a sorted set
 * (`<name>-inbox:{<from>}`) in arrival order, and one job per message (on the job-scheduler port)
 * drains the conversation's set under a lock, oldest first, so one customer's messages run in
 * order whichever instance's worker takes them. A turn that throws leaves its message at the head:
 * the job is retried with back-off; its last try apologises and moves on. An answer is kept once
 * computed (`<name>-outbox:{<id>}`), so a retry after a failed send sends what is left and never
 * runs the turn twice. A message is tried {@link TURN_ATTEMPTS} times at most, whichever jobs try it.
 */
export function createInbox<M extends InboxMessage, Out>(options: InboxOptions<M, Out>): Inbox<M> {
  const { name, handler, store, keyPrefix: prefix, seen } = options;
  const log = options.logger.child({ channel: name });
  const inboxKey = (from: string) => `${prefix}${name}-inbox:{${from}}`;
  const orderKey = (from: string) => `${prefix}${name}-order:{${from}}`;
  const lockKey = (from: string) => `${prefix}${name}-turning:{${from}}`;
  const outboxKey = (id: string) => `${prefix}${name}-outbox:{${id}}`;
  const triesKey = (id: string) => `${prefix}${name}-tries:{${id}}`;

  /**
   * Sends what is left of a message's answer, keeping the rest after each send. Tries are counted
   * per message, since a later message's job may try the head too: the last one apologises.
   */
  async function deliver(
    message: M,
    lastOfJob: boolean,
    behind: () => Promise<M | undefined>,
  ): Promise<void> {
    const tries = await store.increment(triesKey(message.id), OUTBOX_SECONDS);
    const last = lastOfJob || tries >= TURN_ATTEMPTS;
    const key = outboxKey(message.id);
    const kept = await store.get(key);
    const beside = kept ? undefined : handler.beside?.(message);
    let answer: InboxAnswer<Out>;
    try {
      answer = kept
        ? (JSON.parse(kept) as InboxAnswer<Out>)
        : await handler.answer(message, behind);
    } catch (error) {
      if (!last) throw error;
      await beside;
      return giveUp(message, undefined, error);
    }
    // What runs beside the turn ends before the reply goes (a typing indicator would outlive it).
    await beside;
    const messages = [...answer.messages];
    while (messages.length > 0) {
      await store.set(key, JSON.stringify({ ...answer, messages }), OUTBOX_SECONDS);
      const [next] = messages as [Out];
      try {
        await handler.send(message.from, next);
      } catch (error) {
        if (!last) throw error;
        return giveUp(message, answer.locale, error);
      }
      messages.shift();
    }
    await store.delete(key);
    await store.delete(triesKey(message.id));
  }

  async function giveUp(message: M, locale: string | undefined, error: unknown) {
    log.error(
      { event: `${name}.failed`, errorName: errorName(error), type: message.type },
      `${name} message failed after its retries`,
    );
    await store.delete(outboxKey(message.id));
    await store.delete(triesKey(message.id));
    await handler.send(message.from, handler.apology(locale)).catch(() => undefined);
  }

  /**
   * Runs the conversation's waiting messages, oldest first, while this job holds its lock. A
   * holder re-reads after letting go, so a message added just before is never left waiting.
   */
  async function drain(job: Job): Promise<void> {
    const { waId: from } = job.data as TurnJob;
    const last = job.attemptsMade + 1 >= job.attempts;
    for (;;) {
      const token = randomUUID();
      if (!(await store.setIfAbsent(lockKey(from), token, LOCK_SECONDS))) return;
      try {
        for (;;) {
          const [head] = await store.sortedUpTo(inboxKey(from), LAST);
          if (head === undefined) break;
          await store.expire(lockKey(from), LOCK_SECONDS);
          // What waits behind the head, read when asked: photos sent at once answer once (#40).
          const behind = async () => {
            const next = (await store.sortedUpTo(inboxKey(from), LAST))[1];
            return next === undefined ? undefined : (JSON.parse(next) as M);
          };
          await deliver(JSON.parse(head) as M, last, behind);
          await store.sortedRemove(inboxKey(from), head);
        }
      } finally {
        await store.deleteIf(lockKey(from), token);
      }
      if ((await store.sortedUpTo(inboxKey(from), LAST)).length === 0) return;
    }
  }

  const hooks: JobHooks = {
    handler: drain,
    concurrency: 8,
    onFailed(failure) {
      const fields = { event: `${name}.retry`, errorName: failure.err.name };
      if (failure.last) log.error(fields, `${name} turn job gave up`);
      else log.warn({ ...fields, attemptsMade: failure.attemptsMade }, `${name} turn retried`);
    },
  };
  const scheduler: JobScheduler = options.redis
    ? createBullJobScheduler(
        {
          redis: options.redis,
          name: `${name}-turns`,
          prefix: hashTag(`${prefix}bull`),
          keepFailed: { age: 7 * 24 * 3_600 },
          label: name,
          logger: log,
        },
        hooks,
      )
    : createMemoryJobScheduler(hooks);

  return {
    async accept(message) {
      if (!(await seen.claim(message.id))) {
        log.info({ event: `${name}.duplicate` }, `${name} message already handled`);
        return;
      }
      try {
        const order = await store.increment(orderKey(message.from), OUTBOX_SECONDS);
        await store.sortedAdd(inboxKey(message.from), order, JSON.stringify(message));
        await store.expire(inboxKey(message.from), OUTBOX_SECONDS);
        await scheduler.add('turn', { waId: message.from } satisfies TurnJob, {
          jobId: `${name}-${message.id}`,
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
