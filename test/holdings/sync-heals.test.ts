import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { largeBookHolder } from '../../src/sandbox/index.js';
import { sandboxOf, startTestServer, type TestServer } from '../server/test-server.js';

// Issue 36: the holdings sync heals itself. Through the HTTP server, real Redis on the test's own
// prefix and the embedded sandbox.

describe('an insurer that caps its pages at 50, with a book of many pages', () => {
  const BOOK = 1_500;
  let harness: TestServer;
  beforeAll(async () => {
    harness = await startTestServer(
      {},
      { sandbox: { settleDelayMs: 300, bookSize: BOOK, strict: { lateMs: 0, maxPageSize: 50 } } },
    );
  }, 120_000);
  afterAll(async () => {
    await harness?.close();
  });

  it('indexes every policy, member and loan, the last page’s as the first’s', async () => {
    // The server synced at start; every page of each list was read in the size answered (50).
    const last = largeBookHolder(BOOK - 1);
    const first = largeBookHolder(0);
    const entries = await harness.server.holdings.ofNrcs([first.nrcNumber, last.nrcNumber]);
    for (const entry of entries) {
      expect(entry.refs.map((ref) => ref.line).sort()).toEqual([
        'credit-life',
        'group-life',
        'motor',
        'travel',
      ]);
    }
    // Every holder of the book, not a first page of each list.
    const all = await harness.server.holdings.ofNrcs(
      Array.from({ length: BOOK }, (_, i) => largeBookHolder(i).nrcNumber),
    );
    expect(all.filter((entry) => entry.refs.length === 4)).toHaveLength(BOOK);
    expect(sandboxOf(harness).state.members.size).toBeGreaterThan(BOOK);
  }, 120_000);
});
