import type { PartnerClient } from '../api/index.js';
import type { HoldingFact, HoldingRef } from './holdings-index.js';
import { phoneOf, record, text } from './sync-fields.js';

/**
 * The facts of one motor or travel policy of a line, for one run of the sync: the policy under its
 * holder's phone and under its NRC (not linked), read from the policy or (once per client id in the run) from the client it names.
 * A policy whose holder could not be read gives no facts and goes to `unread`, for the sync to
 * read again on its next run rather than leave it out until the weekly full pass.
 */
export function createPolicyFacts(
  client: Pick<PartnerClient, 'call'>,
  unread: (ref: HoldingRef) => void = () => undefined,
): (line: 'motor' | 'travel') => (policy: Record<string, unknown>) => Promise<HoldingFact[]> {
  // A motor policy names its holder by client id, or carries the policyholder object.
  type Holder = { phone?: string | undefined; nrc?: string | undefined; failed?: true };
  const clients = new Map<string, Promise<Holder>>();
  const clientOf = (id: string): Promise<Holder> => {
    let found = clients.get(id);
    if (!found) {
      found = client.call('getIndividual', { path: { id } }).then(
        (person): Holder => ({
          phone: phoneOf(person.phoneNumber),
          nrc: text(person.idNumber) || undefined,
        }),
        (): Holder => ({ failed: true }),
      );
      clients.set(id, found);
    }
    return found;
  };
  const holderOf = async (policy: Record<string, unknown>): Promise<Holder> => {
    const holder = record(policy.policyHolder);
    const nrc = text(holder.idNumber);
    const phone = phoneOf(holder.phone);
    if (nrc || phone) return { nrc: nrc || undefined, phone };
    const clientId = text(policy.clientId);
    return clientId ? clientOf(clientId) : {};
  };
  const policyFacts = (line: 'motor' | 'travel') => async (policy: Record<string, unknown>) => {
    const { phone, nrc, failed } = await holderOf(policy);
    const ref = { line, policyId: String(policy.id), number: text(policy.policyNumber) };
    if (failed) {
      unread(ref);
      return [];
    }
    // Filed under the holder's phone and NRC, never linking them: the policy is its holder's,
    // but the NRC may be one a caller typed (phone ↔ NRC comes from the policyholders list only).
    return [...(phone ? [{ phone, ref }] : []), ...(nrc ? [{ nrc, ref }] : [])];
  };
  return policyFacts;
}
