import type { HoldingFact, HoldingsIndex, SyncCursor } from './holdings-index.js';
import { record } from './sync-fields.js';

/** What {@link createSyncPages} reads from and writes to during one run. */
interface SyncPagesState {
  readonly index: HoldingsIndex;
  /** The run's cursor, kept in step with the index's after every page. */
  readonly cursor: SyncCursor;
  readonly pageSize: number;
  /** This run's start (ISO): the end of every date window read. */
  readonly startedAt: string;
}

/**
 * The three ways one run of the sync reads the insurer's lists page by page, saving the cursor
 * after every page, and the count of pages and facts written.
 */
export function createSyncPages(state: SyncPagesState) {
  const { index, cursor, pageSize, startedAt } = state;
  let pages = 0;
  let facts = 0;
  const save = async (values: SyncCursor) => {
    Object.assign(cursor, values);
    await index.saveCursor(values);
  };
  const write = async (batch: HoldingFact[]) => {
    pages += 1;
    facts += batch.length;
    await index.record(batch);
  };

  /** A list read through its date window: created after `since`, up to this run's start. */
  const windowed = async (
    list: 'motor' | 'travel',
    read: (query: {
      FromDate?: string;
      ToDate: string;
      PageNumber: number;
      PageSize: number;
    }) => Promise<{ data: unknown[]; totalPages: number }>,
    factsOf: (item: Record<string, unknown>) => Promise<HoldingFact[]>,
  ) => {
    const since = cursor[`${list}.since`];
    const until = cursor[`${list}.until`] || startedAt;
    let page = Number(cursor[`${list}.page`] || 1);
    await save({ [`${list}.until`]: until, [`${list}.page`]: String(page) });
    for (;;) {
      const result = await read({
        ...(since ? { FromDate: since } : {}),
        ToDate: until,
        PageNumber: page,
        PageSize: pageSize,
      });
      const batch = (await Promise.all(result.data.map((item) => factsOf(record(item))))).flat();
      await write(batch);
      page += 1;
      if (page > result.totalPages || result.data.length === 0) break;
      await save({ [`${list}.page`]: String(page) });
    }
    await save({ [`${list}.since`]: until, [`${list}.until`]: '', [`${list}.page`]: '1' });
  };

  /**
   * A list without a date filter, read on from the items already read (it grows at the end).
   * Pages are counted in the size the insurer answered (its envelope's `pageSize`), never the
   * size asked for: an insurer that caps pages at 50 would otherwise be read at offsets of 500.
   */
  const appended = async (
    list: string,
    read: (query: { PageNumber: number; PageSize: number }) => Promise<{
      data: unknown[];
      totalItems: number;
      pageSize: number;
      totalPages: number;
    }>,
    factsOf: (item: Record<string, unknown>) => HoldingFact[],
  ) => {
    let done = Number(cursor[`${list}.read`] ?? 0);
    let size = Number(cursor[`${list}.size`] || pageSize);
    let resized = false;
    for (;;) {
      const page = Math.floor(done / size) + 1;
      const result = await read({ PageNumber: page, PageSize: pageSize });
      const answered = result.pageSize > 0 ? result.pageSize : result.data.length;
      if (answered > 0 && answered !== size && !resized) {
        // The page asked for was counted in the wrong size: ask again for the right one.
        size = answered;
        resized = true;
        await save({ [`${list}.size`]: String(size) });
        continue;
      }
      const fresh = result.data.slice(done - (page - 1) * size);
      await write(fresh.flatMap((item) => factsOf(record(item))));
      done += fresh.length;
      await save({ [`${list}.read`]: String(done) });
      if (page >= result.totalPages || result.data.length < size || done >= result.totalItems) {
        break;
      }
    }
  };

  /** Each master policy of a list (dozens), its members or loans read on from the last run. */
  const eachMaster = async (
    read: (query: { PageNumber: number; PageSize: number }) => Promise<{
      data: { id: unknown; policyNumber?: string | null | undefined }[];
      totalPages: number;
    }>,
    covered: (policyId: string, number: string) => Promise<void>,
  ) => {
    for (let page = 1; ; page += 1) {
      const policies = await read({ PageNumber: page, PageSize: pageSize });
      for (const policy of policies.data) {
        const policyId = String(policy.id);
        await covered(policyId, policy.policyNumber ?? policyId);
      }
      if (page >= policies.totalPages || policies.data.length === 0) break;
    }
  };

  return { windowed, appended, eachMaster, written: () => ({ pages, facts }) };
}
