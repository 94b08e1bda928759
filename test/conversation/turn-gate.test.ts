import { describe, expect, it } from 'vitest';
import { TurnGate } from '../../src/conversation/turn-gate.js';
import { MemorySessionStore, type SessionStore } from '../../src/session/index.js';

describe('TurnGate', () => {
  it('orders a session’s turns in arrival order and turns a late one away as busy', async () => {
    const gate = new TurnGate({ store: new MemorySessionStore(), lockTtlMs: 30_000 });
    const first = gate.order('s', Date.now() + 10_000);
    expect(first).toBeTypeOf('function');
    const second = gate.order('s', Date.now() + 10_000);
    expect(await gate.order('s', Date.now() + 5)).toBeUndefined();
    if (typeof first === 'function') first();
    expect(await second).toBeTypeOf('function');
  });

  it('takes the store lock with the record, and answers busy while another holder keeps it', async () => {
    const store = new MemorySessionStore();
    const gate = new TurnGate({ store, lockTtlMs: 30_000 });
    const held = await gate.lock('s', Date.now() + 1_000, undefined);
    expect(held.status).toBe('acquired');
    expect((await gate.lock('s', Date.now() + 20, undefined)).status).toBe('busy');
  });

  it('reports a store failure as a result instead of throwing', async () => {
    const broken = {
      acquire: () => Promise.reject(new Error('redis down')),
    } as unknown as SessionStore;
    const result = await new TurnGate({ store: broken, lockTtlMs: 30_000 }).lock(
      's',
      Date.now() + 1_000,
      undefined,
    );
    expect(result).toMatchObject({ status: 'failed' });
  });
});
