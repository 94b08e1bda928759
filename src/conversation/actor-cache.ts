import { LRUCache } from 'lru-cache';
import type { Actor, AnyStateMachine } from 'xstate';
import type { SessionRecord } from './session-record.js';

/** A running flow actor. */
export type FlowActor = Actor<AnyStateMachine>;

/**
 * A committed record as the cache keeps it: everything but the snapshot, which the live actor
 * holds (a copy of it in every entry would keep a turn's garbage alive and promote it).
 */
export type RecordHead = Omit<SessionRecord, 'snapshot'>;

/** A session's live actor, as this process committed it. */
export interface CachedActor {
  readonly version: number;
  readonly actor: FlowActor;
  /** The record as committed at `version`, so a hit needs neither its bytes nor a parse. */
  readonly record: RecordHead;
}

/**
 * The live actor of each session at the record version this process last committed, so a turn
 * landing on the same instance skips the restore. A turn takes its entry out while it runs (no
 * eviction can stop an actor in use) and puts back what it committed; evicted actors are stopped.
 */
export class ActorCache {
  private readonly entries: LRUCache<string, CachedActor> | undefined;

  /** `max` live actors (LRU); `false` keeps none, so every turn restores. */
  constructor(options: false | { readonly max?: number } | undefined) {
    this.entries =
      options === false
        ? undefined
        : new LRUCache<string, CachedActor>({
            max: options?.max ?? 1_000,
            dispose: (entry, _key, reason) => {
              // Entries are taken out with delete while a turn uses them; only drop the others.
              if (reason !== 'delete') entry.actor.stop();
            },
          });
  }

  /** Takes a session's entry out for the length of a turn. */
  take(sessionKey: string): CachedActor | undefined {
    const entry = this.entries?.get(sessionKey);
    if (entry) this.entries?.delete(sessionKey);
    return entry;
  }

  /** Puts back (or in) the entry a turn holds at the end of it. */
  put(sessionKey: string, entry: CachedActor): void {
    this.entries?.set(sessionKey, entry);
  }

  /** Stops every cached actor. */
  clear(): void {
    this.entries?.clear();
  }
}
