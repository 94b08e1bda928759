/*
 * The individuals insurechat itself registered at the insurer, and whether the NRC typed for each
 * was proven. The insurer cannot tell its own records from ours: a quotation needs a client, so a
 * caller who types someone else's NRC gets a second individual with that NRC and their own phone.
 * Kept here so such an individual is never taken as "on record" for that NRC's loans, members or
 * households: it grants only the policies its own phone bought (their client is that individual).
 */
import { z } from 'zod';
import { CodedError } from '../errors/index.js';
import type { RecordFolder } from '../files/index.js';
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
   * nothing by NRC. Unknown ids are the insurer's own records and are not returned. Throws
   * {@link RegistrationsUnknownError} when it cannot tell (Redis lost them and the durable copy
   * could not be read): the caller must say it cannot check now, never count everyone on record.
   */
  unprovenAmong(clientIds: readonly string[]): Promise<Set<string>>;
}

/**
 * Raised when which individuals insurechat registered cannot be known: Redis lost them and the
 * durable copy did not answer. Nobody counts as on record by NRC until it does (deny by default).
 */
export class RegistrationsUnknownError extends CodedError<'REGISTRATIONS_UNKNOWN'> {
  override readonly name = 'RegistrationsUnknownError';
}

/** One registration as kept in the durable folder, one object per client id. */
const DurableRegistration = z.object({
  clientId: z.string().min(1),
  proven: z.boolean(),
  at: z.string(),
});
type DurableRegistration = z.infer<typeof DurableRegistration>;

/** The durable folder's name in the file store (src/files): `identity/<client id>.json`. */
export const REGISTRATIONS_FOLDER = 'identity';
/**
 * Field of the unproven hash saying the hash was loaded from the durable copy. Kept in the same
 * key as what it vouches for: a flush, eviction or loss of that key takes both at once, so the
 * marker can never say "loaded" over a hash that is gone; and reading it costs no other key.
 */
const LOADED = '~loaded';
/** Fields per HSET when a restore writes back many registrations. */
const RESTORE_CHUNK = 500;

/** How long a lookup waits for a restore before answering unknown (the restore goes on). */
export const RESTORE_WAIT_MS = 1_500;

/** Options of {@link createRegistrations}. */
export interface RegistrationsOptions {
  /**
   * Where every registration is also kept, to be restored from after a Redis loss: the file
   * store's {@link REGISTRATIONS_FOLDER}. Unset: the key-value store is the whole truth.
   */
  readonly durable?: RecordFolder | undefined;
  /**
   * How long a lookup waits for a restore under way; past it the lookup answers unknown while the
   * restore goes on for later ones (a large copy in a slow bucket must not hold turns). Default
   * {@link RESTORE_WAIT_MS}, half a cover lookup's budget.
   */
  readonly restoreWaitMs?: number;
}

/**
 * Registrations on the key-value port, kept without expiry (the individuals outlive any TTL), and
 * each also written to `durable` (the file store's folder: local disk, or the shared bucket) so
 * a Redis flush or loss does not forget them. A lookup that finds an id unregistered and the hash
 * not marked loaded restores the hashes from `durable` first (once per process at a time: callers
 * meanwhile wait for that restore), then answers. Without `durable` (tests, a store that dies
 * with the process) the hashes are the whole truth.
 */
export function createRegistrations(
  store: KeyValueStore,
  prefix: string,
  options: RegistrationsOptions = {},
): Registrations {
  const { durable } = options;
  const restoreWaitMs = options.restoreWaitMs ?? RESTORE_WAIT_MS;
  // One hash per state: a field per client id. Each call touches one key (Redis Cluster safe).
  const unprovenKey = `${prefix}identity:unproven`;
  const provenKey = `${prefix}identity:proven`;
  const stamp = () => new Date().toISOString();
  let restoring: Promise<void> | undefined;

  const keep = async (registration: DurableRegistration): Promise<void> => {
    await durable?.write(registration.clientId, JSON.stringify(registration));
  };

  /** `step` on the durable copy; its failure means the registrations cannot be known now. */
  const durably = async <T>(step: () => Promise<T>): Promise<T> => {
    try {
      return await step();
    } catch (cause) {
      throw new RegistrationsUnknownError(
        'REGISTRATIONS_UNKNOWN',
        'the registrations could not be restored from durable storage',
        { cause },
      );
    }
  };

  /** The hashes as the durable copy has them, with what only Redis held copied out to it. */
  const restore = async (folder: RecordFolder): Promise<void> => {
    const kept = await durably(async () =>
      (await folder.readAll()).map(({ text }) => DurableRegistration.parse(JSON.parse(text))),
    );
    const known = new Set(kept.map((r) => r.clientId));
    // Registrations from before the durable copy existed (or whose copy failed): kept now.
    const [unproven, proven] = await Promise.all([
      store.hashGetAll(unprovenKey),
      store.hashGetAll(provenKey),
    ]);
    for (const [hash, isProven] of [
      [unproven, false],
      [proven, true],
    ] as const) {
      for (const [clientId, at] of Object.entries(hash)) {
        if (clientId === LOADED || known.has(clientId)) continue;
        known.add(clientId);
        // An id in both hashes (a proof half-written) is taken as unproven: the stricter.
        const registration = { clientId, proven: isProven && !(clientId in unproven), at };
        // Not copied out: no marker, so the next lookup tries again.
        await durably(() => keep(registration));
      }
    }
    const write = async (key: string, records: DurableRegistration[]) => {
      for (let i = 0; i < records.length; i += RESTORE_CHUNK) {
        const fields = Object.fromEntries(
          records.slice(i, i + RESTORE_CHUNK).map((r) => [r.clientId, r.at]),
        );
        await store.hashSet(key, fields);
      }
    };
    await write(
      provenKey,
      kept.filter((r) => r.proven),
    );
    // A proof the durable copy holds wins over an unproven field Redis kept (a proof made on
    // another instance while this one restored).
    for (const r of kept) {
      if (r.proven && r.clientId in unproven) await store.hashDelete(unprovenKey, r.clientId);
    }
    await write(
      unprovenKey,
      kept.filter((r) => !r.proven),
    );
    // Last: the marker says "loaded" only once every registration is back.
    await store.hashSet(unprovenKey, { [LOADED]: stamp() });
  };

  /** One restore at a time in this process: concurrent callers wait for the same one. */
  const restored = (folder: RecordFolder): Promise<void> => {
    if (!restoring) {
      restoring = restore(folder).finally(() => {
        restoring = undefined;
      });
    }
    return restoring;
  };

  const unprovenOf = async (ids: readonly string[]): Promise<Set<string>> => {
    const flags = await Promise.all(ids.map((id) => store.hashHas(unprovenKey, id)));
    return new Set(ids.filter((_, i) => flags[i]));
  };

  return {
    async recordCreated({ clientId, proven }) {
      const at = stamp();
      // Redis first: it answers the lookups from now on; the durable copy only outlives it.
      await store.hashSet(proven ? provenKey : unprovenKey, { [clientId]: at });
      await keep({ clientId, proven, at });
    },
    async markProven(clientId) {
      // After a restore under way here, not under it: it must not write the old state back.
      await restoring?.catch(() => undefined);
      const at = stamp();
      // Proven first: a crash between the two leaves the stricter record in place.
      await store.hashSet(provenKey, { [clientId]: at });
      await store.hashDelete(unprovenKey, clientId);
      await keep({ clientId, proven: true, at });
    },
    async unprovenAmong(clientIds) {
      const ids = [...new Set(clientIds)].filter((id) => id && id !== LOADED);
      if (ids.length === 0) return new Set();
      if (!durable) return unprovenOf(ids);
      // The marker is read beside the ids (one more command, no more round trips), since most
      // lookups find no id registered and would then have to ask it anyway.
      const [found, loaded] = await Promise.all([
        unprovenOf(ids),
        store.hashHas(unprovenKey, LOADED),
      ]);
      if (loaded || found.size === ids.length) return found;
      // Flushed or never loaded: an id missing from the hash proves nothing until it is restored.
      await withinWait(restored(durable), restoreWaitMs);
      return unprovenOf(ids);
    },
  };
}

/** Waits for `restore` at most `waitMs`; past that, unknown (the restore itself goes on). */
async function withinWait(restore: Promise<void>, waitMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), waitMs);
    timer.unref();
  });
  try {
    if ((await Promise.race([restore, late])) === 'late') {
      throw new RegistrationsUnknownError(
        'REGISTRATIONS_UNKNOWN',
        'the registrations are still being restored from durable storage',
      );
    }
  } finally {
    clearTimeout(timer);
  }
}

/** An individual the insurer holds for an NRC, as the owner rule needs to see it. */
export interface NrcHolder {
  readonly id: string | number;
  readonly phoneNumber?: string | null | undefined;
}

/**
 * The phones on record for an NRC's loans, memberships and households: those of the individuals
 * the insurer holds for it, less the ones insurechat created from an unproven typed NRC. The one
 * place this is decided; a typed NRC never makes a phone an owner. Throws
 * {@link RegistrationsUnknownError} when that cannot be known: callers fail as when the insurer
 * does not answer (the caller hears it cannot be checked now), never taking everyone as on record.
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
  /**
   * False when which individuals insurechat registered could not be known (see
   * {@link RegistrationsUnknownError}): nobody is then on record by NRC, and a lookup must say it
   * cannot check now rather than "none". What a phone bought itself (`ofClient`) still counts.
   */
  readonly known: boolean;
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

/**
 * {@link OnRecord} over `individuals`, asking `registrations` once which insurechat made unproven;
 * when that cannot be known, an answer that is `known: false` and names nobody by NRC.
 */
export async function onRecordAmong(
  individuals: readonly HeldIndividual[],
  registrations: Registrations,
): Promise<OnRecord> {
  let unproven: Set<string> | undefined;
  try {
    unproven = await registrations.unprovenAmong(individuals.map((i) => String(i.id)));
  } catch (error) {
    if (!(error instanceof RegistrationsUnknownError)) throw error;
  }
  const phoneOf = (i: HeldIndividual) => (typeof i.phoneNumber === 'string' ? i.phoneNumber : '');
  const nrcOf = (i: HeldIndividual) => (typeof i.idNumber === 'string' ? i.idNumber : '');
  // Unknown: deny by default, nobody is on record by NRC (never "everyone").
  const proven = unproven ? individuals.filter((i) => !unproven.has(String(i.id))) : [];
  const distinct = (values: string[]) => [...new Set(values.filter(Boolean))];
  return {
    known: unproven !== undefined,
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
