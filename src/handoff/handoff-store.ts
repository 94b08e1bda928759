import { z } from 'zod';
import { CHANNEL_NAMES } from '../conversation/index.js';
import type { RedisConnection } from '../redis/index.js';

/** An open handoff: whose conversation, and the Slack thread staff answer in. */
export const OpenHandoff = z.object({
  sessionKey: z.string(),
  address: z.object({
    channel: z.enum(CHANNEL_NAMES),
    address: z.string(),
    locale: z.string(),
  }),
  slackChannel: z.string(),
  threadTs: z.string(),
  /** Epoch ms, for the time to the first staff reply. */
  openedAt: z.number(),
  /** The thread root's blocks (the context staff saw), kept to mark it ended in place. */
  root: z.array(z.unknown()),
});
/** An open handoff. */
export type OpenHandoff = z.infer<typeof OpenHandoff>;

/**
 * Where handoffs are kept, both ways: session → handoff and Slack thread → session, so a reply
 * received by any instance finds its customer. Every method is one or two single-key commands
 * (Redis Cluster puts the keys in different slots).
 */
export interface HandoffStore {
  /**
   * Reserves the session while its thread is being opened; false when it already has a handoff
   * (or one being opened). The reservation lapses after `ttlMs` if never saved.
   */
  reserve(sessionKey: string, ttlMs: number): Promise<boolean>;
  /** Records an opened handoff under both keys, replacing the reservation. */
  save(handoff: OpenHandoff): Promise<void>;
  /** Drops a reservation whose thread could not be opened. */
  release(sessionKey: string): Promise<void>;
  /** The session's handoff; `opening` while reserved. */
  bySession(sessionKey: string): Promise<OpenHandoff | 'opening' | undefined>;
  byThread(slackChannel: string, threadTs: string): Promise<OpenHandoff | undefined>;
  /** True for the first caller only: the first staff reply of this thread. */
  firstReply(handoff: OpenHandoff): Promise<boolean>;
  /**
   * Ends the handoff; true for the one caller that ended it (staff and customer may end it at
   * the same moment on two instances).
   */
  close(handoff: OpenHandoff): Promise<boolean>;
  /**
   * Erases the session's handoff, open or being opened, with its thread's records ("Delete my
   * data"); resolves whether there was one. The Slack thread itself is the desk's.
   */
  forget(sessionKey: string): Promise<boolean>;
}

/** How long a handoff is kept without being ended: staff may answer the next working day. */
export const HANDOFF_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const OPENING = 'opening';

function parse(data: string | null | undefined): OpenHandoff | 'opening' | undefined {
  if (data === null || data === undefined) return undefined;
  if (data === OPENING) return OPENING;
  try {
    const parsed = OpenHandoff.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

const threadId = (slackChannel: string, threadTs: string) => `${slackChannel}:${threadTs}`;

/** The handoff store in Redis (keys under `<prefix>handoff:`), shared by every instance. */
export class RedisHandoffStore implements HandoffStore {
  readonly #redis: RedisConnection;
  readonly #prefix: string;

  constructor(redis: RedisConnection, prefix: string) {
    this.#redis = redis;
    this.#prefix = `${prefix}handoff:`;
  }

  #session(sessionKey: string) {
    return `${this.#prefix}session:${sessionKey}`;
  }
  #thread(slackChannel: string, threadTs: string) {
    return `${this.#prefix}thread:${threadId(slackChannel, threadTs)}`;
  }

  async reserve(sessionKey: string, ttlMs: number): Promise<boolean> {
    return (await this.#redis.set(this.#session(sessionKey), OPENING, 'PX', ttlMs, 'NX')) === 'OK';
  }

  async save(handoff: OpenHandoff): Promise<void> {
    const data = JSON.stringify(handoff);
    await this.#redis.set(
      this.#thread(handoff.slackChannel, handoff.threadTs),
      data,
      'PX',
      HANDOFF_TTL_MS,
    );
    await this.#redis.set(this.#session(handoff.sessionKey), data, 'PX', HANDOFF_TTL_MS);
  }

  async release(sessionKey: string): Promise<void> {
    await this.#redis.del(this.#session(sessionKey));
  }

  async bySession(sessionKey: string) {
    return parse(await this.#redis.get(this.#session(sessionKey)));
  }

  async byThread(slackChannel: string, threadTs: string) {
    const found = parse(await this.#redis.get(this.#thread(slackChannel, threadTs)));
    return found === OPENING ? undefined : found;
  }

  async firstReply(handoff: OpenHandoff): Promise<boolean> {
    const key = `${this.#prefix}replied:${threadId(handoff.slackChannel, handoff.threadTs)}`;
    return (await this.#redis.set(key, '1', 'PX', HANDOFF_TTL_MS, 'NX')) === 'OK';
  }

  async close(handoff: OpenHandoff): Promise<boolean> {
    // The thread key is the handoff's own: whoever deletes it ended it.
    const won = await this.#redis.del(this.#thread(handoff.slackChannel, handoff.threadTs));
    if (won !== 1) return false;
    const session = this.#session(handoff.sessionKey);
    const current = parse(await this.#redis.get(session));
    // The customer may already have a newer handoff: only this one's session key goes.
    if (typeof current === 'object' && current.threadTs === handoff.threadTs) {
      await this.#redis.del(session);
    }
    return true;
  }

  async forget(sessionKey: string): Promise<boolean> {
    const current = await this.bySession(sessionKey);
    if (current === undefined) return false;
    if (typeof current === 'object') {
      await this.#redis.del(this.#thread(current.slackChannel, current.threadTs));
      await this.#redis.del(
        `${this.#prefix}replied:${threadId(current.slackChannel, current.threadTs)}`,
      );
    }
    await this.#redis.del(this.#session(sessionKey));
    return true;
  }
}

/** The handoff store in process memory, for the embedded (single instance) default. */
export class MemoryHandoffStore implements HandoffStore {
  readonly #sessions = new Map<string, { value: OpenHandoff | 'opening'; expiresAt: number }>();
  readonly #threads = new Map<string, OpenHandoff>();
  readonly #replied = new Set<string>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  async reserve(sessionKey: string, ttlMs: number): Promise<boolean> {
    if ((await this.bySession(sessionKey)) !== undefined) return false;
    this.#sessions.set(sessionKey, { value: OPENING, expiresAt: this.#now() + ttlMs });
    return true;
  }

  async save(handoff: OpenHandoff): Promise<void> {
    const expiresAt = this.#now() + HANDOFF_TTL_MS;
    this.#threads.set(threadId(handoff.slackChannel, handoff.threadTs), handoff);
    this.#sessions.set(handoff.sessionKey, { value: handoff, expiresAt });
  }

  async release(sessionKey: string): Promise<void> {
    this.#sessions.delete(sessionKey);
  }

  async bySession(sessionKey: string) {
    const entry = this.#sessions.get(sessionKey);
    if (entry && entry.expiresAt <= this.#now()) this.#sessions.delete(sessionKey);
    return entry && entry.expiresAt > this.#now() ? entry.value : undefined;
  }

  async byThread(slackChannel: string, threadTs: string) {
    return this.#threads.get(threadId(slackChannel, threadTs));
  }

  async firstReply(handoff: OpenHandoff): Promise<boolean> {
    const id = threadId(handoff.slackChannel, handoff.threadTs);
    if (this.#replied.has(id)) return false;
    this.#replied.add(id);
    return true;
  }

  async close(handoff: OpenHandoff): Promise<boolean> {
    const id = threadId(handoff.slackChannel, handoff.threadTs);
    if (!this.#threads.delete(id)) return false;
    this.#replied.delete(id);
    const current = this.#sessions.get(handoff.sessionKey)?.value;
    if (typeof current === 'object' && current.threadTs === handoff.threadTs) {
      this.#sessions.delete(handoff.sessionKey);
    }
    return true;
  }

  async forget(sessionKey: string): Promise<boolean> {
    const current = await this.bySession(sessionKey);
    if (current === undefined) return false;
    if (typeof current === 'object') {
      const id = threadId(current.slackChannel, current.threadTs);
      this.#threads.delete(id);
      this.#replied.delete(id);
    }
    this.#sessions.delete(sessionKey);
    return true;
  }
}
