import { z } from 'zod';
import { CHANNEL_NAMES } from '../conversation/index.js';
import type { KeyValueStore } from '../storage/index.js';

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
  /** A handoff that was ended, by its thread, while the thread may still be answered. */
  closedByThread(slackChannel: string, threadTs: string): Promise<OpenHandoff | undefined>;
  /**
   * Keeps a staff reply sent after the handoff ended (`reply`: its JSON), under its own ts, to be
   * delivered if the handoff is reopened.
   */
  keepLate(handoff: OpenHandoff, ts: string, reply: string): Promise<void>;
  /**
   * Opens an ended handoff again; true for the one caller that did, false when the session has
   * another handoff (or one being opened) meanwhile. Resolves the replies kept for it, oldest
   * first, taken so they are delivered once.
   */
  reopen(handoff: OpenHandoff): Promise<readonly string[] | false>;
  /**
   * Erases the session's handoff, open or being opened, with its thread's records ("Delete my
   * data"); resolves whether there was one. The Slack thread itself is the desk's.
   */
  forget(sessionKey: string): Promise<boolean>;
}

/** How long a handoff is kept without being ended: staff may answer the next working day. */
export const HANDOFF_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const HANDOFF_TTL_SECONDS = HANDOFF_TTL_MS / 1000;
const OPENING = 'opening';

function parse(data: string | undefined): OpenHandoff | 'opening' | undefined {
  if (data === undefined) return undefined;
  if (data === OPENING) return OPENING;
  try {
    const parsed = OpenHandoff.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

const threadId = (slackChannel: string, threadTs: string) => `${slackChannel}:${threadTs}`;

/**
 * The handoff store on the key-value port (keys under `<keyPrefix>handoff:`): over Redis it is
 * shared by every instance, in memory it is this process's; either way every key lapses after
 * {@link HANDOFF_TTL_MS}. Each method is single-key calls of the port, each one atomic: a session
 * key and its thread key may sit in different Redis Cluster slots.
 */
export function createHandoffStore(store: KeyValueStore, keyPrefix: string): HandoffStore {
  const prefix = `${keyPrefix}handoff:`;
  const sessionKey = (session: string) => `${prefix}session:${session}`;
  const threadKey = (slackChannel: string, threadTs: string) =>
    `${prefix}thread:${threadId(slackChannel, threadTs)}`;
  const repliedKey = (handoff: OpenHandoff) =>
    `${prefix}replied:${threadId(handoff.slackChannel, handoff.threadTs)}`;
  const bySession = async (session: string) => parse(await store.get(sessionKey(session)));
  // An ended handoff, kept as long as its thread could be: a late reply is answered, not lost.
  const closedKey = (slackChannel: string, threadTs: string) =>
    `${prefix}closed:${threadId(slackChannel, threadTs)}`;
  const lateKey = (handoff: OpenHandoff) =>
    `${prefix}late:${threadId(handoff.slackChannel, handoff.threadTs)}`;
  // The session's last ended thread, so "Delete my data" finds its records too.
  const lastClosedKey = (session: string) => `${prefix}closed-of:${session}`;

  return {
    // A reservation's lifetime rounds up to whole seconds: it never lapses early.
    reserve: (session, ttlMs) =>
      store.setIfAbsent(sessionKey(session), OPENING, Math.ceil(ttlMs / 1000)),
    async save(handoff) {
      // The same string under both keys: `close` compares the session's against the thread's.
      const data = JSON.stringify(handoff);
      await store.set(threadKey(handoff.slackChannel, handoff.threadTs), data, HANDOFF_TTL_SECONDS);
      await store.set(sessionKey(handoff.sessionKey), data, HANDOFF_TTL_SECONDS);
    },
    release: (session) => store.delete(sessionKey(session)),
    bySession,
    async byThread(slackChannel, threadTs) {
      const found = parse(await store.get(threadKey(slackChannel, threadTs)));
      return found === OPENING ? undefined : found;
    },
    firstReply: (handoff) => store.setIfAbsent(repliedKey(handoff), '1', HANDOFF_TTL_SECONDS),
    async close(handoff) {
      // The thread key is the handoff's own: whoever takes it ended it (GETDEL, one winner).
      const data = await store.take(threadKey(handoff.slackChannel, handoff.threadTs));
      if (data === undefined) return false;
      await store.delete(repliedKey(handoff));
      // Only while the session still holds this handoff, checked and deleted in one step: the
      // customer may have opened a newer one meanwhile, which stays.
      await store.deleteIf(sessionKey(handoff.sessionKey), data);
      const thread = threadId(handoff.slackChannel, handoff.threadTs);
      await store.set(closedKey(handoff.slackChannel, handoff.threadTs), data, HANDOFF_TTL_SECONDS);
      await store.set(lastClosedKey(handoff.sessionKey), thread, HANDOFF_TTL_SECONDS);
      return true;
    },
    async closedByThread(slackChannel, threadTs) {
      const found = parse(await store.get(closedKey(slackChannel, threadTs)));
      return found === OPENING ? undefined : found;
    },
    keepLate: (handoff, ts, reply) =>
      store.hashSet(lateKey(handoff), { [ts]: reply }, HANDOFF_TTL_SECONDS),
    async reopen(handoff) {
      const data = JSON.stringify(handoff);
      // The session key decides: one Reopen wins, and a newer handoff of the customer stays.
      if (!(await store.setIfAbsent(sessionKey(handoff.sessionKey), data, HANDOFF_TTL_SECONDS))) {
        return false;
      }
      await store.set(threadKey(handoff.slackChannel, handoff.threadTs), data, HANDOFF_TTL_SECONDS);
      await store.delete(closedKey(handoff.slackChannel, handoff.threadTs));
      const late = await store.hashGetAll(lateKey(handoff));
      await store.delete(lateKey(handoff));
      return Object.entries(late)
        .sort(([a], [b]) => Number(a) - Number(b))
        .map(([, reply]) => reply);
    },
    async forget(session) {
      const ended = await store.take(lastClosedKey(session));
      const closed = ended ? parse(await store.get(`${prefix}closed:${ended}`)) : undefined;
      if (typeof closed === 'object' && closed.sessionKey === session) {
        await store.delete(closedKey(closed.slackChannel, closed.threadTs));
        await store.delete(lateKey(closed));
      }
      const current = await bySession(session);
      if (current === undefined) return false;
      if (typeof current === 'object') {
        await store.delete(threadKey(current.slackChannel, current.threadTs));
        await store.delete(repliedKey(current));
      }
      await store.delete(sessionKey(session));
      return true;
    },
  };
}
