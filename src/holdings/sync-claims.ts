import type { PartnerClient } from '../api/index.js';
import type { Logger } from '../log/index.js';
import { claimFactOf, claimListOf } from './claims-index.js';
import type { HoldingsIndex, SyncCursor } from './holdings-index.js';
import type { createSyncPages } from './sync-pages.js';

/** What {@link syncClaims} needs of the sync run it is part of. */
interface SyncClaimsRun {
  readonly client: Pick<PartnerClient, 'call'>;
  readonly index: HoldingsIndex;
  /** The run's id: a book read to its end is stamped complete only while it is on record. */
  readonly run: string;
  readonly cursor: SyncCursor;
  readonly appended: ReturnType<typeof createSyncPages>['appended'];
  readonly logger: Logger;
  /** Told of every claim record read, for progress pushed to its reporter (optional). */
  readonly watcher?: ClaimWatcher | undefined;
}

/**
 * Follows the claims it cares about through the sync's whole read of both claim books: `begin`
 * once per run, `seen` for each claim record read (never awaited: a slow notice never holds the
 * read), `end` when both books are read; resolves how many reporters were told.
 */
export interface ClaimWatcher {
  begin(): Promise<ClaimWatch>;
}

/** One run's watch, from {@link ClaimWatcher.begin}. */
export interface ClaimWatch {
  seen(line: ClaimBookName, claim: Readonly<Record<string, unknown>>): void;
  end(): Promise<number>;
}

/** A claim book's name: credit-life or group-life. */
export type ClaimBookName = (typeof CLAIM_BOOKS)[number];

const CLAIM_BOOKS = ['credit-life', 'group-life'] as const;

/**
 * Reads both claim books to their end and keeps each claim in the index by its identifiers;
 * resolves how many claims were read. Whole every run, not on from the last run's end: the spec
 * does not say in which order a book lists its claims, so a claim listed first could be missed.
 * A book that fails is not stamped (its lookups say unknown) and the run goes on: the cover lists
 * read before it keep their stamps.
 */
export async function syncClaims(state: SyncClaimsRun): Promise<number> {
  const { client, index, run, cursor, appended } = state;
  let claims = 0;
  // A watcher that cannot start (its store down) costs the pushes of this run, never the read.
  const watch = await state.watcher?.begin().catch((error: unknown) => {
    state.logger.warn(
      {
        event: 'claims.progress.unwatched',
        reason: error instanceof Error ? error.name : 'unknown',
      },
      'claim progress not followed this run',
    );
    return undefined;
  });
  for (const line of CLAIM_BOOKS) {
    const list = `claims.${line}`;
    cursor[`${list}.read`] = '0';
    try {
      await appended(
        list,
        (query) =>
          line === 'credit-life'
            ? client.call('getCreditLifeClaims', { query })
            : client.call('getGroupLifeClaims', { query }),
        (claim) => {
          watch?.seen(line, claim);
          const fact = claimFactOf(line, claim);
          if (!fact) return [];
          claims += 1;
          // The NRC and the reporter's phone go with the fact for the erasure check only.
          return [{ nrc: fact.nrc, phone: fact.reporter, claim: fact }];
        },
      );
      await index.markComplete(claimListOf(line), run);
    } catch (error) {
      // The error's class only: an insurer's answer may quote what it was sent.
      const reason = error instanceof Error ? error.name : 'unknown';
      state.logger.warn(
        { event: 'holdings.claims.unread', book: line, reason },
        'claim book not read',
      );
    }
  }
  const told = (await watch?.end()) ?? 0;
  if (told > 0) {
    state.logger.info({ event: 'claims.progress.told', told }, 'claim progress told');
  }
  return claims;
}
