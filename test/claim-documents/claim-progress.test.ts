import { describe, expect, it } from 'vitest';
import {
  type ClaimReports,
  claimProgressPrompt,
  createClaimProgress,
  createClaimReports,
} from '../../src/claim-documents/index.js';
import type { ChannelAddress, Prompt } from '../../src/conversation/index.js';
import { createLogger } from '../../src/log/index.js';
import { createMemoryStore, type KeyValueStore } from '../../src/storage/index.js';

const REACH: ChannelAddress = { channel: 'telegram', address: '4242', locale: 'ny' };
const CLAIM = { line: 'group-life', claimId: 'clm_1' } as const;

async function reportedClaim(store: KeyValueStore, reach?: ChannelAddress) {
  const reports = createClaimReports(store, 't:');
  await reports.reported(CLAIM, {
    number: 'GLC-000001',
    channel: reach?.channel ?? 'ussd',
    phone: '260955000111',
    onRecord: true,
    ...(reach ? { reach } : {}),
  });
  return reports;
}

/** A watcher whose notices are recorded; `failing` makes each send throw. */
function watcher(store: KeyValueStore, reports: ClaimReports, failing = { now: false }) {
  const told: { reach: ChannelAddress; prompt: Prompt }[] = [];
  const progress = createClaimProgress({
    store,
    prefix: 't:',
    reports,
    logger: createLogger({ level: 'silent' }),
    async tell(reach, prompt) {
      if (failing.now) throw new Error('platform down');
      told.push({ reach, prompt });
    },
  });
  /** One sync run that reads the claim in `status`. */
  const run = async (status: string) => {
    const watch = await progress.begin();
    watch.seen('group-life', { id: 'clm_1', claimNumber: 'GLC-000001', status });
    watch.seen('credit-life', { id: 'clm_1', status: 'Settled' });
    return watch.end();
  };
  return { told, run };
}

describe('claim progress', () => {
  it('tells the reporter of each new state once, in the conversation and language they reported it in', async () => {
    const store = createMemoryStore();
    const { told, run } = watcher(store, await reportedClaim(store, REACH));
    expect(await run('Intimated')).toBe(0);
    expect(await run('Approved')).toBe(1);
    expect(await run('Approved')).toBe(0);
    expect(await run('Settled')).toBe(1);
    expect(told).toEqual([
      { reach: REACH, prompt: claimProgressPrompt('GLC-000001', 'Approved') },
      { reach: REACH, prompt: claimProgressPrompt('GLC-000001', 'Settled') },
    ]);
  });

  it('tells once when two instances read the same books at once', async () => {
    const store = createMemoryStore();
    const reports = await reportedClaim(store, REACH);
    const one = watcher(store, reports);
    const two = watcher(store, reports);
    const counts = await Promise.all([one.run('Approved'), two.run('Approved')]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    expect(one.told.length + two.told.length).toBe(1);
  });

  it('tries again on the next run when the notice could not be sent', async () => {
    const store = createMemoryStore();
    const failing = { now: true };
    const { told, run } = watcher(store, await reportedClaim(store, REACH), failing);
    expect(await run('Approved')).toBe(0);
    failing.now = false;
    expect(await run('Approved')).toBe(1);
    expect(told).toHaveLength(1);
  });

  it('tells no one of a claim reported without a conversation to answer in, or whose reporter erased their data', async () => {
    const bare = createMemoryStore();
    const none = watcher(bare, await reportedClaim(bare));
    expect(await none.run('Approved')).toBe(0);

    const store = createMemoryStore();
    const reports = await reportedClaim(store, REACH);
    expect(await reports.forget('260955000111')).toBe(1);
    expect((await reports.of(CLAIM))?.reach).toBeUndefined();
    const erased = watcher(store, reports);
    expect(await erased.run('Approved')).toBe(0);
    expect(erased.told).toEqual([]);
  });

  it('words Documented as the insurer having the documents, any other state in the insurer’s word', () => {
    expect(claimProgressPrompt('GLC-1', 'Documented').key).toBe('claim.progress.documented');
    expect(claimProgressPrompt('GLC-1', 'Under review')).toMatchObject({
      key: 'claim.progress',
      params: { number: 'GLC-1', insurerStatus: 'Under review' },
    });
  });
});
