/*
 * The individuals insurechat itself registered at the insurer, and whether the NRC typed for each
 * was proven. The insurer cannot tell its own records from ours: a quotation needs a client, so a
 * caller who types someone else's NRC gets a second individual with that NRC and their own phone.
 * Kept here so such an individual is never taken as "on record" for that NRC's loans, members or
 * households: it grants only the policies its own phone bought (their client is that individual).
 */
import { sameMsisdn } from '../msisdn/index.js';
import type { KeyValueStore } from '../storage/index.js';

/** How an individual insurechat created came to hold its NRC. */
export interface Registration {
  /** The insurer's id of the individual (its `clientId`). */
  readonly clientId: string;
  /**
   * True when the caller proved the NRC (a one-time code sent to a phone on record for it), or the
   * insurer held no other individual with it and the caller's own phone was already on record.
   */
  readonly proven: boolean;
}

/** Which individuals insurechat created unproven (see the module comment). */
export interface Registrations {
  /** Records an individual insurechat just created at the insurer. */
  recordCreated(registration: Registration): Promise<void>;
  /** The caller proved the NRC after all (a code): the individual counts as on record from now. */
  markProven(clientId: string): Promise<void>;
  /**
   * The ids among `clientIds` that insurechat created from an NRC nobody proved: they grant
   * nothing by NRC. Unknown ids are the insurer's own records and are not returned.
   */
  unprovenAmong(clientIds: readonly string[]): Promise<Set<string>>;
}

/** Registrations on the key-value port, kept without expiry (the individuals outlive any TTL). */
export function createRegistrations(store: KeyValueStore, prefix: string): Registrations {
  // One hash per state: a field per client id. Each call touches one key (Redis Cluster safe).
  const unprovenKey = `${prefix}identity:unproven`;
  const provenKey = `${prefix}identity:proven`;
  const stamp = () => new Date().toISOString();
  return {
    async recordCreated({ clientId, proven }) {
      if (proven) {
        await store.hashSet(provenKey, { [clientId]: stamp() });
        return;
      }
      await store.hashSet(unprovenKey, { [clientId]: stamp() });
    },
    async markProven(clientId) {
      // Proven first: a crash between the two leaves the stricter record in place.
      await store.hashSet(provenKey, { [clientId]: stamp() });
      await store.hashDelete(unprovenKey, clientId);
    },
    async unprovenAmong(clientIds) {
      const ids = [...new Set(clientIds)].filter(Boolean);
      const flags = await Promise.all(ids.map((id) => store.hashHas(unprovenKey, id)));
      return new Set(ids.filter((_, i) => flags[i]));
    },
  };
}

/** An individual the insurer holds for an NRC, as the owner rule needs to see it. */
export interface NrcHolder {
  readonly id: string | number;
  readonly phoneNumber?: string | null | undefined;
}

/**
 * The phones on record for an NRC's loans, memberships and households: those of the individuals
 * the insurer holds for it, less the ones insurechat created from an unproven typed NRC. The one
 * place this is decided; a typed NRC never makes a phone an owner.
 */
export async function phonesOnRecordForNrc(
  holders: readonly NrcHolder[],
  registrations: Registrations,
): Promise<string[]> {
  const unproven = await registrations.unprovenAmong(holders.map((h) => String(h.id)));
  return holders
    .filter((h) => !unproven.has(String(h.id)))
    .map((h) => (typeof h.phoneNumber === 'string' ? h.phoneNumber : ''))
    .filter(Boolean);
}

/** Without a registry (a flow test's deps) insurechat created nobody: every individual counts. */
export const NO_REGISTRATIONS: Registrations = {
  recordCreated: async () => undefined,
  markProven: async () => undefined,
  unprovenAmong: async () => new Set(),
};

/** An individual the insurer holds, as one lookup read it (by phone or by NRC). */
export interface HeldIndividual extends NrcHolder {
  readonly idNumber?: string | null | undefined;
}

/**
 * Who is on record, by the one rule, among the individuals one lookup read. Each answer names
 * only phones truly on record (a lookup that read fewer individuals learns fewer, never more).
 */
export interface OnRecord {
  /** Phones on record for an NRC's loans, memberships and households (see phonesOnRecordForNrc). */
  ofNrc(nrc: string): string[];
  /**
   * Phones on record for a motor or travel policy whose client is `clientId`: that client's own
   * phone, proven or not (an unproven registration grants what that phone bought itself).
   */
  ofClient(clientId: string): string[];
  /** The NRCs `phone` is on record for: its individuals' NRCs, less unproven registrations'. */
  nrcsOf(phone: string): string[];
  /** The ids of the individuals whose phone is `phone`, proven or not: what it bought is its own. */
  clientsOf(phone: string): string[];
}

/** {@link OnRecord} over `individuals`, asking `registrations` once which insurechat made unproven. */
export async function onRecordAmong(
  individuals: readonly HeldIndividual[],
  registrations: Registrations,
): Promise<OnRecord> {
  const unproven = await registrations.unprovenAmong(individuals.map((i) => String(i.id)));
  const phoneOf = (i: HeldIndividual) => (typeof i.phoneNumber === 'string' ? i.phoneNumber : '');
  const nrcOf = (i: HeldIndividual) => (typeof i.idNumber === 'string' ? i.idNumber : '');
  const proven = individuals.filter((i) => !unproven.has(String(i.id)));
  const distinct = (values: string[]) => [...new Set(values.filter(Boolean))];
  return {
    ofNrc: (nrc) => (nrc ? distinct(proven.filter((i) => nrcOf(i) === nrc).map(phoneOf)) : []),
    ofClient: (clientId) =>
      distinct(individuals.filter((i) => String(i.id) === clientId).map(phoneOf)),
    nrcsOf: (phone) =>
      distinct(proven.filter((i) => sameMsisdn(phoneOf(i) || undefined, phone)).map(nrcOf)),
    clientsOf: (phone) =>
      distinct(
        individuals
          .filter((i) => sameMsisdn(phoneOf(i) || undefined, phone))
          .map((i) => String(i.id)),
      ),
  };
}
