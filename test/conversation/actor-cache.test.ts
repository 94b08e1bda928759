import { describe, expect, it } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { ActorCache, type CachedActor } from '../../src/conversation/actor-cache.js';
import type { SessionRecord } from '../../src/conversation/session-record.js';

const record = {} as SessionRecord;
const entry = (version: number): CachedActor => {
  const actor = createActor(createMachine({ initial: 'a', states: { a: {} } }));
  actor.start();
  return { version, actor, record };
};

describe('ActorCache', () => {
  it('gives a session’s entry to one turn at a time: taken out, then put back', () => {
    const cache = new ActorCache({ max: 10 });
    cache.put('s', entry(1));
    expect(cache.take('s')?.version).toBe(1);
    expect(cache.take('s')).toBeUndefined();
  });

  it('stops the actors it evicts but never one a turn has taken out', () => {
    const cache = new ActorCache({ max: 1 });
    const inUse = entry(1);
    cache.put('a', inUse);
    expect(cache.take('a')).toBe(inUse);
    const evicted = entry(1);
    cache.put('b', evicted);
    cache.put('c', entry(1));
    expect(evicted.actor.getSnapshot().status).toBe('stopped');
    expect(inUse.actor.getSnapshot().status).toBe('active');
  });

  it('keeps nothing when turned off', () => {
    const cache = new ActorCache(false);
    cache.put('s', entry(1));
    expect(cache.take('s')).toBeUndefined();
  });
});
