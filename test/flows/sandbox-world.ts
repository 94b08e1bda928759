import type { Readable } from 'node:stream';
import { pino } from 'pino';
import { createFlowRegistry, type FlowDeps } from '../../flows/index.js';
import { createPartnerClient, type PartnerClient } from '../../src/api/index.js';
import { createTurnEngine } from '../../src/conversation/index.js';
import {
  createMemoryHoldingsIndex,
  type HoldingsIndex,
  syncHoldings,
} from '../../src/holdings/index.js';
import { NO_PERSONAL_DATA, SANDBOX_PRIVACY_NOTICE } from '../../src/privacy/index.js';
import {
  createSandbox,
  type Sandbox,
  type SandboxCatalogue,
  SEED,
  type StrictInsurerOptions,
} from '../../src/sandbox/index.js';
import { MemorySessionStore } from '../../src/session/index.js';
import { directPayments } from './direct-payments.js';
import { SECOND_OFFER } from './fixtures.js';

/** A sandbox insurer on a free port, a client for it, and the turn engine with the real flows. */
export interface SandboxWorld {
  readonly sandbox: Sandbox;
  readonly client: PartnerClient;
  readonly engine: ReturnType<typeof createTurnEngine>;
  readonly files: Map<string, string>;
  /** SMS the flows sent, to whom and the Prompt's key. */
  readonly sms: { to: string; key: string }[];
  /** The engine's session store, to read a flow's live context (a payment reference) in tests. */
  readonly store: MemorySessionStore;
  /** Who holds what in the seeded book (synced at start), for deps built outside the world. */
  readonly holdings: HoldingsIndex;
  /** Runs the holdings sync: cover bought at the insurer directly reaches My cover. */
  syncHoldings(): Promise<void>;
  close(): Promise<void>;
}

/** How a sandbox world's insurer behaves. */
export interface SandboxWorldOptions {
  /** Bounds each API attempt. */
  readonly timeoutMs?: number;
  /** Bounds each payment; by default payments stay pending unless a test settles them. */
  readonly settleDelayMs?: number;
  /** Mobile-money payments answer Success or Failed at once (as the payer's number chooses). */
  readonly settleAtOnce?: boolean;
  /** Products on offer instead of the standard catalogue. */
  readonly catalogue?: Partial<SandboxCatalogue>;
  /**
   * The insurer is down: every call is answered 500. It goes down after the holdings sync filled
   * the index, as in production, where the index (Redis) outlives an outage of the insurer.
   */
  readonly outage?: boolean;
  /** The holder has no renewal due (reminders still on): the menu offers Stop reminders. */
  readonly noRenewalDue?: boolean;
  /** A second renewal is due after the seeded one: the menu lists both behind one entry. */
  readonly severalRenewalsDue?: boolean;
  /** No renewal is due and the holder turned reminders off: the menu offers them back. */
  readonly remindersOff?: boolean;
  /** The stricter sandbox: answers as a real insurer may (see src/sandbox/strict-insurer.ts). */
  readonly strict?: StrictInsurerOptions;
  /** The caller has not agreed to the current privacy notice: it comes before any flow. */
  readonly noticeNotAgreed?: boolean;
}

let worldDefaults: SandboxWorldOptions = {};

/**
 * Options every world of this test file starts with, under its own: a file that runs another
 * file's journeys against the stricter sandbox sets them before importing it.
 */
export function setWorldDefaults(defaults: SandboxWorldOptions): void {
  worldDefaults = defaults;
}

/**
 * The renewal the menu offers in these worlds: the seeded vehicle's first policy (the same id in
 * every world, prepared or not), reminders on.
 */
export function seededMotorOffers(sandbox: Sandbox) {
  const plate = SEED.vehicle.registrationNumber.replace(/\s/g, '');
  const policy = [...sandbox.state.policies.values()].find(
    (p) => p.line === 'motor' && p.registrationNumbers.some((r) => r.replace(/\s/g, '') === plate),
  );
  const offers = policy
    ? [
        {
          policyId: policy.id,
          policyNumber: policy.policyNumber,
          endDate: policy.endDate.slice(0, 10),
        },
      ]
    : [];
  return { offers, remindersOn: true };
}

/** Starts a sandbox world (see {@link SandboxWorldOptions}). */
export async function startSandboxWorld(given: SandboxWorldOptions = {}): Promise<SandboxWorld> {
  const options = { ...worldDefaults, ...given };
  const sandbox = createSandbox({
    ...(options.strict ? { strict: options.strict } : {}),
    settleDelayMs: options.settleDelayMs ?? 600_000,
    ...(options.settleAtOnce ? { settleAtOnce: true } : {}),
    ...(options.catalogue ? { catalogue: options.catalogue } : {}),
  });
  // Hooks are added before the sandbox listens; this one answers 500 once the insurer is down.
  let down = false;
  if (options.outage) {
    sandbox.app.addHook('onRequest', async (_request, reply) => {
      if (down)
        return reply.code(500).send({ status: 500, message: 'Internal sandbox error', errors: {} });
    });
  }
  const { url } = await sandbox.listen();
  const client = createPartnerClient({
    baseUrl: url,
    apiKey: sandbox.apiKey,
    timeoutMs: options.timeoutMs ?? 5_000,
    maxRetries: 0,
  });
  const files = new Map<string, string>();
  const sms: { to: string; key: string }[] = [];
  // Who holds what in the seeded book, as the server's sync would have it before a first caller.
  const holdings = createMemoryHoldingsIndex();
  const sync = async () => {
    await syncHoldings({ client, index: holdings, logger: pino({ level: 'silent' }) });
  };
  await sync();
  if (options.outage) down = true;
  const deps: FlowDeps = {
    client,
    holdings,
    syncHoldings: async () => {
      await syncHoldings({
        client,
        index: holdings,
        logger: pino({ level: 'silent' }),
        full: true,
      });
      return { complete: (await holdings.completeness()).complete };
    },
    async sms(to, prompt) {
      sms.push({ to, key: prompt.key });
    },
    payments: directPayments(client),
    // The holder the aligned model walks (sandbox-alignment.ts), read from the sandbox's records
    // rather than over its API: production reads offers from its own store, so they show while
    // the insurer is down.
    reminders: {
      offersFor: async () => {
        if (options.remindersOff) return { offers: [], remindersOn: false, remindersOff: true };
        if (options.noRenewalDue) return { offers: [], remindersOn: true };
        const seeded = seededMotorOffers(sandbox);
        return options.severalRenewalsDue
          ? { ...seeded, offers: [...seeded.offers, SECOND_OFFER] }
          : seeded;
      },
      stop: async () => undefined,
      start: async () => undefined,
      recordPurchase: async () => ({ notice: false }),
    },
    claimUploads: { link: (claim) => `https://docs.test/d/${claim.claimId}` },
    ...(options.noticeNotAgreed
      ? {
          privacy: {
            notice: SANDBOX_PRIVACY_NOTICE,
            consented: async () => false,
            agree: async () => undefined,
            refused: async () => undefined,
            held: async () => NO_PERSONAL_DATA,
            erase: async () => ({ paymentsKept: 0 }),
          },
        }
      : {}),
    files: {
      async save(file: { fileName: string; body: Readable }) {
        let size = 0;
        for await (const chunk of file.body) size += (chunk as Buffer).length;
        const url = `https://files.test/${encodeURIComponent(file.fileName)}?sig=test`;
        files.set(url, `${size} bytes`);
        return { url };
      },
    },
  };
  const store = new MemorySessionStore();
  const engine = createTurnEngine({
    store,
    flows: createFlowRegistry(deps),
    logger: pino({ level: process.env.FLOW_TEST_LOG ?? 'silent' }),
  });
  return {
    sandbox,
    client,
    engine,
    files,
    sms,
    store,
    holdings,
    syncHoldings: sync,
    async close() {
      engine.close();
      await engine.idle();
      await client.close();
      await sandbox.close();
    },
  };
}

/**
 * Registers a car with no cover for the seeded holder: the seeded one (AJQ 1909) is insured in
 * the demo book, and buying for it again is refused as "already insured" (issue 36).
 */
export async function holderCar(world: Pick<SandboxWorld, 'client'>, plate: string): Promise<void> {
  const [holder] = (
    await world.client.call('getIndividuals', {
      query: { PhoneNumber: SEED.individual.phoneNumber, PageSize: 1 },
    })
  ).data;
  if (!holder) throw new Error('the sandbox lost its seeded holder');
  await world.client.call('createVehicle', {
    path: { id: String(holder.id) },
    body: {
      make: 'Toyota',
      model: 'Corolla',
      yearOfManufacture: 2018,
      registrationNumber: plate,
      chassisNumber: `CH${plate.replace(/\W/g, '')}`,
      engineNumber: `EN${plate.replace(/\W/g, '')}`,
      motorRiskCategoryId: 'mrc_private',
    },
  });
}
