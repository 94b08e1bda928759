/*
 * Claims found through the holdings index (src/holdings keeps them by NRC, reporting phone, loan,
 * member and number), each read fresh from the insurer by its id: a bounded number of reads made
 * at once by one deadline, never a claim book read to its end inside a turn. When the index
 * names nothing and its book was not read to the end lately (cold start, Redis lost, sync
 * behind), the answer is unknown, never "no claims". What a principal may see of a claim is
 * decided by the caller (accessTo), not here.
 */
import type { Claim, PartnerClient } from '../src/api/index.js';
import {
  type ClaimRef,
  type ClaimSubject,
  type ClaimsWhere,
  claimFactOf,
  claimListOf,
} from '../src/holdings/index.js';
import type { ClaimLine, ClaimRequest } from './claim-intimation.js';
import { LOOKUP_BUDGET_MS } from './cover-status-actors.js';
import type { FlowDeps } from './flow-deps.js';
import { isNotFound, UnknownAnswerError } from './support.js';

/** Most claims one lookup reads fresh from the insurer (at once, by {@link LOOKUP_BUDGET_MS}). */
export const MAX_CLAIM_READS = 8;

/** A claim of either line by id. */
export function getClaimOf(
  client: PartnerClient,
  line: ClaimLine,
  claimId: string,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
) {
  return line === 'credit-life'
    ? client.call('getCreditLifeClaim', { path: { claimId } }, options)
    : client.call('getGroupLifeClaim', { path: { claimId } }, options);
}

/** Claims read fresh, and whether some named by the index could not be read in time. */
interface FreshClaims {
  readonly claims: (Claim & { line: ClaimLine })[];
  /** A read failed or was late: more claims may exist than `claims` holds. */
  readonly missed: boolean;
}

/**
 * Reads the first {@link MAX_CLAIM_READS} of `refs` from the insurer, all at once, by one
 * deadline. A claim answered 404 is left out (the insurer no longer has it); one that failed or
 * was late makes `missed`.
 */
async function readClaims(client: PartnerClient, refs: readonly ClaimRef[]): Promise<FreshClaims> {
  const signal = AbortSignal.timeout(LOOKUP_BUDGET_MS);
  const endsAt = Date.now() + LOOKUP_BUDGET_MS;
  let missed = false;
  const read = await Promise.all(
    refs.slice(0, MAX_CLAIM_READS).map(async (ref) => {
      try {
        const timeoutMs = Math.max(1, endsAt - Date.now());
        const claim = await getClaimOf(client, ref.line, ref.claimId, { signal, timeoutMs });
        return { ...claim, line: ref.line };
      } catch (error) {
        if (!isNotFound(error)) missed = true;
        return null;
      }
    }),
  );
  return { claims: read.filter((claim) => claim !== null), missed };
}

/** Whether the sync read `line`'s claim book (and the holders it is found by) to its end lately. */
async function bookFresh(deps: FlowDeps, line: ClaimLine, holders: boolean): Promise<boolean> {
  const index = deps.holdings;
  if (!index) return false;
  const [claims, cover] = await Promise.all([
    index.claimsCompleteness(),
    holders ? index.completeness() : undefined,
  ]);
  if (claims[claimListOf(line)] !== 'fresh') return false;
  // By phone, claims are found through the NRCs and the loans or memberships the index links
  // to it: those lists must be whole too.
  return !cover || (cover.lists.individuals === 'fresh' && cover.lists[line] === 'fresh');
}

/** The claims of `line` the index links to `phone`, read fresh; `known`: nothing was missed. */
export async function claimsOfPhone(
  deps: FlowDeps,
  line: ClaimLine,
  phone: string,
): Promise<FreshClaims & { known: boolean }> {
  const index = deps.holdings;
  if (!index) return { claims: [], missed: true, known: false };
  const { nrcs } = await index.ofPhone(phone);
  const entries = await index.ofNrcs(nrcs);
  const where: ClaimsWhere = {
    phone,
    nrcs,
    subjects: entries.flatMap((entry) =>
      entry.refs.flatMap((ref): ClaimSubject[] => {
        if (ref.line === 'credit-life' && line === 'credit-life') {
          return [{ line, policyId: ref.policyId, field: 'loanId' as const, value: ref.loanId }];
        }
        if (ref.line === 'group-life' && line === 'group-life') {
          return [
            { line, policyId: ref.policyId, field: 'memberId' as const, value: ref.memberId },
          ];
        }
        return [];
      }),
    ),
  };
  const refs = (await index.claimsOf(where)).filter((ref) => ref.line === line);
  const [fresh, whole] = await Promise.all([
    readClaims(deps.client, refs),
    bookFresh(deps, line, true),
  ]);
  return { ...fresh, known: whole && !fresh.missed };
}

/**
 * The claim with this number, read fresh: null only when neither book holds it and both were
 * read to their end lately. Rejects with {@link UnknownAnswerError} when that cannot be known.
 */
export async function claimByNumber(
  deps: FlowDeps,
  number: string,
): Promise<(Claim & { line: ClaimLine }) | null> {
  const ref = await deps.holdings?.claimByNumber(number);
  if (ref) {
    const { claims, missed } = await readClaims(deps.client, [ref]);
    const [claim] = claims;
    if (claim) return claim;
    if (missed) throw new UnknownAnswerError({ key: 'claim.note.unknown' });
  }
  const fresh = await Promise.all([
    bookFresh(deps, 'credit-life', false),
    bookFresh(deps, 'group-life', false),
  ]);
  if (fresh.every(Boolean)) return null;
  throw new UnknownAnswerError({ key: 'claim.note.unknown' });
}

/** Claim states after which a claim is no longer open (the spec names only the first two). */
const CLOSED = /settled|paid|rejected|declined|repudiated|closed|withdrawn/i;

/**
 * The open claim already made for this member or loan, if any: the claims the index keeps for
 * it, read fresh. Rejects with {@link UnknownAnswerError} when none is found but one may exist
 * (a claim unread in time, or the book not read to its end lately): a duplicate is not started.
 */
export async function openClaimFor(
  deps: FlowDeps,
  input: Pick<ClaimRequest, 'line' | 'by' | 'subject'>,
  policyId: string,
): Promise<Claim | undefined> {
  const wanted = input.subject.toUpperCase();
  const index = deps.holdings;
  const kept = !index
    ? []
    : input.by === 'nrcNumber'
      ? await index.claimsOf({ nrcs: [input.subject] })
      : await index.claimsOf({
          subjects: [{ line: input.line, policyId, field: input.by, value: input.subject }],
        });
  const refs = kept.filter(
    (ref) => ref.line === input.line && (!ref.policyId || ref.policyId === policyId),
  );
  const { claims, missed } = await readClaims(deps.client, refs);
  const open = claims.find((claim) => {
    if (CLOSED.test(claim.status) || (claim.policyId && claim.policyId !== policyId)) return false;
    const subject = (claim as Record<string, unknown>)[input.by];
    return subject != null && String(subject).toUpperCase() === wanted;
  });
  if (open) return open;
  if (missed || !(await bookFresh(deps, input.line, false))) {
    throw new UnknownAnswerError({ key: 'claim.note.openUnknown' });
  }
  return undefined;
}

/**
 * Keeps a claim the bot just intimated in the index at once, by what the insurer answered and
 * what was sent (`known`: the policy and the loan or member as typed). Never fails the claim,
 * which exists already (the sync keeps it too).
 */
export async function recordClaim(
  deps: FlowDeps,
  line: ClaimLine,
  claim: Claim,
  known: Readonly<Record<string, unknown>>,
): Promise<void> {
  const fact = claimFactOf(line, claim, known);
  if (!fact || !deps.holdings) return;
  // The claim alone, no phone or NRC beside it: a claim reported is not its member or borrower
  // coming back, so it lifts no erasure (a sale does, through the same write).
  await deps.holdings.record([{ claim: fact }]).catch(() => undefined);
}
