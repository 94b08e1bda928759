import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RegistrationsUnknownError } from '../../src/access/index.js';
import type { PartnerClient } from '../../src/api/index.js';
import { createMemoryHoldingsIndex, syncHoldings } from '../../src/holdings/index.js';
import { createLogger } from '../../src/log/index.js';
import { DEMO_BOOK } from '../../src/sandbox/index.js';
import { type SandboxWorld, startSandboxWorld } from '../flows/sandbox-world.js';

let world: SandboxWorld;
beforeAll(async () => {
  world = await startSandboxWorld();
});
afterAll(async () => {
  await world.close();
});

const logger = createLogger({ level: 'silent' });

describe('the holdings sync', () => {
  it('resumes a run that died from where it stopped, then reads only what changed', async () => {
    const index = createMemoryHoldingsIndex();
    let away = true;
    // The sandbox's client, except that the insurer goes away once the policyholders are read:
    // the first motor page fails (named by operation, not by a count of calls, which depends on
    // how many pages of policyholders the book holds).
    const call = ((...args: Parameters<PartnerClient['call']>) => {
      if (away && args[0] === 'getMotorPolicies') {
        return Promise.reject(new Error('insurer went away'));
      }
      return world.client.call(...args);
    }) as PartnerClient['call'];
    const client = { call };

    await expect(syncHoldings({ client, index, logger })).rejects.toThrow('insurer went away');
    const stopped = await index.cursor();
    expect(stopped.fullRun).toBe('1');
    expect(stopped['individuals.read']).toBeDefined();

    away = false;
    const resumed = await syncHoldings({ client, index, logger });
    expect(resumed.full).toBe(true);
    const borrower = DEMO_BOOK.creditLife.borrower;
    expect((await index.ofPhone(borrower.phoneNumber)).nrcs).toEqual([borrower.nrcNumber]);
    expect((await index.ofNrcs([borrower.nrcNumber]))[0]?.refs.length).toBeGreaterThan(0);

    const again = await syncHoldings({ client, index, logger });
    expect(again).toMatchObject({ full: false, facts: 0 });
  });

  it('keeps both claim books and reads them whole every run, finding each claim by its number', async () => {
    const index = createMemoryHoldingsIndex();
    const first = await syncHoldings({ client: world.client, index, logger });
    const { intimated, documented } = DEMO_BOOK.claims;
    expect(first.claims).toBeGreaterThanOrEqual(2);
    for (const claim of [intimated, documented]) {
      expect((await index.claimByNumber(claim.claimNumber))?.claimId).toBe(claim.id);
    }
    expect(Object.values(await index.claimsCompleteness())).toEqual(['fresh', 'fresh']);
    // Nothing changed at the insurer: no holding is written again, every claim is read again.
    const again = await syncHoldings({ client: world.client, index, logger });
    expect(again).toMatchObject({ facts: 0, claims: first.claims });
  });

  it('links no NRC and leaves the policyholders unstamped while the registrations are unknown, and goes on', async () => {
    const index = createMemoryHoldingsIndex();
    // Redis lost the registrations and their durable copy did not answer (src/access).
    const registrations = {
      unprovenAmong: async (): Promise<Set<string>> => {
        throw new RegistrationsUnknownError('REGISTRATIONS_UNKNOWN', 'durable copy down');
      },
    };
    await syncHoldings({ client: world.client, index, logger, registrations });

    const borrower = DEMO_BOOK.creditLife.borrower;
    expect((await index.ofPhone(borrower.phoneNumber)).nrcs).toEqual([]);
    const { lists } = await index.completeness();
    expect(lists.individuals).not.toBe('fresh');
    expect(lists.motor).toBe('fresh');
    expect((await index.ofNrcs([borrower.nrcNumber]))[0]?.refs.length).toBeGreaterThan(0);
  });

  it('leaves a claim book that fails unstamped and goes on: cover lists and the other book stay whole', async () => {
    const index = createMemoryHoldingsIndex();
    const call = ((...args: Parameters<PartnerClient['call']>) =>
      args[0] === 'getGroupLifeClaims'
        ? Promise.reject(new Error('claims down'))
        : world.client.call(...args)) as PartnerClient['call'];
    await syncHoldings({ client: { call }, index, logger });
    expect((await index.completeness()).complete).toBe(true);
    expect(await index.claimsCompleteness()).toEqual({
      'credit-life-claims': 'fresh',
      'group-life-claims': 'cold',
    });
  });
});
