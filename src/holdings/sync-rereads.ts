import { ApiNotFoundError, type PartnerClient } from '../api/index.js';
import {
  type HoldingFact,
  type HoldingRef,
  type HoldingsIndex,
  refField,
} from './holdings-index.js';
import { record, text } from './sync-fields.js';

/** Runs in a row a record may be answered 404 before the sync stops asking for it. */
const REREAD_MISSES = 3;

/**
 * Reads again, one by one, the records the last runs could not read (a holder read that failed)
 * or a lookup was answered 404 for: each read is recorded and taken off the list; one answered
 * 404 again stays for {@link REREAD_MISSES} runs (the insurer's fault may last), then goes; any
 * other failure leaves it for the next run. Returns how many were recorded again.
 */
export async function readAgain(
  client: Pick<PartnerClient, 'call'>,
  index: HoldingsIndex,
  policyFacts: (
    line: 'motor' | 'travel',
  ) => (policy: Record<string, unknown>) => Promise<HoldingFact[]>,
  unread: ReadonlyMap<string, HoldingRef>,
): Promise<number> {
  let recorded = 0;
  for (const { ref, misses } of await index.toReread()) {
    try {
      const facts = await factsOf(client, ref, policyFacts);
      // Its holder could not be read again: it stays on the list (the run marks it).
      if (unread.has(refField(ref))) continue;
      await index.record(facts);
      await index.reread([ref]);
      recorded += facts.length;
    } catch (err) {
      if (!(err instanceof ApiNotFoundError)) continue;
      if (misses + 1 >= REREAD_MISSES) await index.reread([ref]);
      else await index.markReread([ref], misses + 1);
    }
  }
  return recorded;
}

/** The facts of one record, read by its id. */
async function factsOf(
  client: Pick<PartnerClient, 'call'>,
  ref: HoldingRef,
  policyFacts: (
    line: 'motor' | 'travel',
  ) => (policy: Record<string, unknown>) => Promise<HoldingFact[]>,
): Promise<HoldingFact[]> {
  switch (ref.line) {
    case 'motor': {
      const policy = await client.call('getMotorPolicy', { path: { policyId: ref.policyId } });
      return policyFacts('motor')(record(policy));
    }
    case 'travel': {
      const policy = await client.call('getTravelPolicy', { path: { policyId: ref.policyId } });
      return policyFacts('travel')(record(policy));
    }
    case 'group-life': {
      const path = { policyId: ref.policyId, memberId: ref.memberId };
      const member = await client.call('getCoveredMember', { path });
      const nrc = text(record(member).nrcNumber);
      return nrc ? [{ nrc, ref }] : [];
    }
    case 'credit-life': {
      const path = { policyId: ref.policyId, loanId: ref.loanId };
      const loan = await client.call('getCoveredLoan', { path });
      const nrc = text(record(loan).nrcNumber);
      return nrc ? [{ nrc, ref }] : [];
    }
  }
}
