import { describe, expect, it } from 'vitest';
import { createMemoryHoldingsIndex } from '../../src/holdings/index.js';
import { createErasureTombstones, liftingErased, skippingErased } from '../../src/privacy/index.js';
import { createMemoryStore } from '../../src/storage/index.js';

// Issue 37: "Delete my data" lasts. The sync writes nothing back for an erased phone or NRC; a
// new paid purchase lifts the erasure; only keyed hashes are kept.

const PHONE = '260971234567';
const NRC = '345678/10/1';
const ref = { line: 'motor', policyId: 'pol_1', number: 'MTR-1' } as const;

function world() {
  const store = createMemoryStore();
  const tombstones = createErasureTombstones(store, 'p:', 'server-secret');
  const index = createMemoryHoldingsIndex();
  const skipped: number[] = [];
  return {
    store,
    tombstones,
    index,
    skipped,
    sync: skippingErased(index, tombstones, (count) => skipped.push(count)),
    sale: liftingErased(index, tombstones),
  };
}

describe('erasure tombstones', () => {
  it('match the phone and the NRC in any form, and keep neither in clear', async () => {
    const store = createMemoryStore();
    const written: string[] = [];
    const recording = {
      ...store,
      set: (key: string, value: string, ttl: number) => {
        written.push(`${key}=${value}`);
        return store.set(key, value, ttl);
      },
    };
    const tombstones = createErasureTombstones(recording, 'p:', 'server-secret');
    await tombstones.bury('+260 97 1234567', ['345678 10 1']);
    expect(await tombstones.erased({ phone: '0971234567' })).toBe(true);
    expect(await tombstones.erased({ nrc: NRC })).toBe(true);
    expect(await tombstones.erased({ phone: '260971234568', nrc: '345678/10/2' })).toBe(false);
    expect(written).toHaveLength(2);
    for (const key of written) expect(key).toMatch(/^p:erased:\{[\w-]{22}\}=1$/);
  });

  it('let the sync skip what was erased, and a sale lift it', async () => {
    const { tombstones, index, sync, sale, skipped } = world();
    await tombstones.bury(PHONE, [NRC]);
    await sync.record([
      { phone: PHONE, nrc: NRC, ref },
      { nrc: NRC, ref },
      { phone: '260971111111', nrc: '111111/11/1', ref },
    ]);
    expect(skipped).toEqual([2]);
    expect(await index.ofPhone(PHONE)).toEqual({ nrcs: [], refs: [] });
    expect(await index.ofNrcs([NRC])).toEqual([{ refs: [], phones: [] }]);
    expect((await index.ofPhone('260971111111')).refs).toEqual([ref]);

    await sale.record([{ phone: PHONE, nrc: NRC, ref }]);
    expect(await tombstones.erased({ phone: PHONE })).toBe(false);
    expect(await tombstones.erased({ nrc: NRC })).toBe(false);
    await sync.record([{ phone: PHONE, nrc: NRC, ref }]);
    expect(await index.ofPhone(PHONE)).toEqual({ nrcs: [NRC], refs: [ref] });
  });

  it('differ with the server secret', async () => {
    const store = createMemoryStore();
    await createErasureTombstones(store, 'p:', 'one').bury(PHONE, []);
    expect(await createErasureTombstones(store, 'p:', 'two').erased({ phone: PHONE })).toBe(false);
    expect(await createErasureTombstones(store, 'p:', 'one').erased({ phone: PHONE })).toBe(true);
  });
});
