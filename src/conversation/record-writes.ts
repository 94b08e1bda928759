import type { SessionStore } from '../session/index.js';
import type { ActorCache, CachedActor, RecordHead } from './actor-cache.js';
import { sessionEndedPrompt, withNotes } from './engine-prompts.js';
import { withoutPrompt } from './flow-advance.js';
import type { RunningTurn } from './running-turn.js';
import type { SessionRecord } from './session-record.js';
import { TurnError } from './turn-error.js';

/** What the record writes need from the engine around them. */
interface RecordWritesOptions {
  readonly store: SessionStore;
  readonly cache: ActorCache;
  /** Clock for `updatedAt`, epoch ms. */
  readonly now: () => number;
}

/**
 * The turn endings that leave the flow as it is: a channel's page of the same screen (`keep`),
 * the stored prompt shown again (`reshow`), and no conversation to go to (`endWithoutFlow`).
 * Each ends with exactly one store write and answers once.
 */
export function createRecordWrites(options: RecordWritesOptions) {
  const { store, cache, now } = options;

  /** Answers a system event that has no usable conversation to go to; nothing is written. */
  const endWithoutFlow = async (turn: RunningTurn): Promise<void> => {
    await store.release(turn.lease);
    turn.answer(sessionEndedPrompt);
  };

  /** Commits `next` with the snapshot it had, keeping the live actor cached at the new version. */
  const rewrite = async (
    turn: RunningTurn,
    record: RecordHead,
    next: RecordHead,
    cached: CachedActor | undefined,
  ): Promise<void> => {
    const data = JSON.stringify({ ...next, snapshot: snapshotOf(record, cached) });
    const result = await store.commit(turn.lease, data);
    if (result.status !== 'committed') {
      cached?.actor.stop();
      throw new TurnError('TURN_WRITE_REFUSED', `Session write refused: ${result.status}`);
    }
    if (cached) cache.put(turn.sessionKey, { ...cached, version: result.version, record: next });
  };

  /**
   * A channel answers from the record without the flow (a page of the same screen): only its
   * state changes. A closing screen whose channel state is gone ends the session.
   */
  const keep = async (
    turn: RunningTurn,
    record: RecordHead | undefined,
    cached: CachedActor | undefined,
    state: string | undefined,
  ): Promise<void> => {
    if (!record) return endWithoutFlow(turn);
    if (record.ended && state === undefined) {
      await store.remove(turn.lease);
      turn.answer({ ...record.prompt, final: true });
      return;
    }
    const { channel: _previous, snapshot: _stored, ...rest } = record as Partial<SessionRecord>;
    const next: RecordHead = {
      ...(rest as RecordHead),
      ...(state === undefined ? {} : { channel: state }),
      updatedAt: new Date(now()).toISOString(),
    };
    await rewrite(turn, record, next, cached);
    turn.answer(record.prompt);
  };

  /** Shows the stored prompt again without touching the flow (whose cached actor stays). */
  const reshow = async (
    turn: RunningTurn,
    record: RecordHead,
    cached: CachedActor | undefined,
    notes: readonly string[],
  ): Promise<void> => {
    const {
      unseen: _shown,
      channel: _previous,
      snapshot: _stored,
      ...rest
    } = record as Partial<SessionRecord>;
    const address = turn.options.address;
    const shown = withNotes(record.prompt, notes);
    const channel = await turn.present(shown);
    const next: RecordHead = {
      ...(rest as RecordHead),
      ...(address ? { address } : {}),
      ...(channel === undefined ? {} : { channel }),
      updatedAt: new Date(now()).toISOString(),
    };
    await rewrite(turn, record, next, cached);
    turn.answer(shown);
  };

  return { endWithoutFlow, keep, reshow };
}

/**
 * The snapshot to write again with a record's head: the record's own when it was read from the
 * store, the live actor's (at that same version) when it came from the cache.
 */
function snapshotOf(record: RecordHead, cached: CachedActor | undefined): Record<string, unknown> {
  if ('snapshot' in record) return (record as SessionRecord).snapshot;
  if (!cached) return {};
  return withoutPrompt(cached.actor.getPersistedSnapshot() as Record<string, unknown>);
}
