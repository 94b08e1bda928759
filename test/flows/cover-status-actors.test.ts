import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, toPromise } from 'xstate';
import {
  type CoverAnswer,
  type Holding,
  truthOf,
  type UnknownReason,
} from '../../flows/cover-status.js';
import {
  CoverUnavailableError,
  coverStatusActors,
  findCover,
  inForce,
  MAX_CALLS_PER_LOOKUP,
} from '../../flows/cover-status-actors.js';
import type { FlowDeps } from '../../flows/index.js';
import {
  createRegistrations,
  NO_REGISTRATIONS,
  type Registrations,
  RegistrationsUnknownError,
} from '../../src/access/index.js';
import {
  ApiNotFoundError,
  ApiServerError,
  type OperationName,
  type PartnerClient,
} from '../../src/api/index.js';
import {
  createMemoryHoldingsIndex,
  type HoldingsIndex,
  syncHoldings,
} from '../../src/holdings/index.js';
import { createLogger } from '../../src/log/index.js';
import { DEMO_BOOK } from '../../src/sandbox/index.js';
import { createMemoryStore } from '../../src/storage/index.js';
import { type SandboxWorld, startSandboxWorld } from './sandbox-world.js';

let world: SandboxWorld;
let index: HoldingsIndex;
let deps: FlowDeps;
const logger = createLogger({ level: 'silent' });
const sync = () => syncHoldings({ client: world.client, index, logger });

beforeAll(async () => {
  world = await startSandboxWorld();
  index = createMemoryHoldingsIndex();
  deps = { client: world.client, payments: { start: never, check: never }, holdings: index };
  await sync();
});
afterAll(async () => {
  await world.close();
});

async function never(): Promise<never> {
  throw new Error('no payments here');
}

const START = '2026-01-01';

async function groupLifePolicies(count: number): Promise<string[]> {
  const quote = (await world.client.call('getGroupLifeQuotations')).find(
    (q) => q.status === 'Approved',
  );
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const policy = await world.client.call('createGroupLifePolicy', {
      body: { quotationId: String(quote?.id ?? ''), startDate: START },
    });
    ids.push(String(policy.id));
  }
  return ids;
}

describe('cover by NRC from the holdings index, confirmed by the sandbox insurer', () => {
  it('finds a member enrolled on the 12th of 12 group-life policies once the sync has run', async () => {
    const nrc = '612612/12/1';
    const policies = await groupLifePolicies(12);
    const twelfth = policies.at(-1) ?? '';
    await world.client.call('enrolGroupLifeBatch', {
      path: { policyId: twelfth },
      body: {
        members: [
          {
            fullName: 'Twelfth Member',
            nrcNumber: nrc,
            dateOfBirth: '1985-01-01',
            annualSalary: 60000,
          },
        ],
        currency: 'ZMW',
      },
    });
    expect((await findCover(deps, { nrc })).holdings).toEqual([]);
    await sync();
    const { holdings, calls } = await findCover(deps, { nrc });
    const member = holdings.filter((h) => h.line === 'group-life');
    expect(member).toHaveLength(1);
    expect(member[0]).toMatchObject({
      policyId: twelfth,
      status: 'Active',
      covers: 'Twelfth Member',
    });
    // The individuals with the NRC (who is on record), the household look-up, the member and
    // its policy: not one call per master policy.
    expect(calls).toBe(4);
  });

  it('shows a loan repaid early as Closed and the loan still on risk with its own status', async () => {
    const nrc = '734734/10/1';
    const quote = (await world.client.call('getCreditLifeQuotations')).find(
      (q) => q.status === 'Approved' && !q.requiresPrepayment,
    );
    const policy = await world.client.call('createCreditLifePolicy', {
      body: {
        quotationId: String(quote?.id ?? ''),
        startDate: new Date().toISOString().slice(0, 10),
      },
    });
    const policyId = String(policy.id);
    const loan = (reference: string) => ({
      fullName: 'Two Loans',
      nrcNumber: nrc,
      dateOfBirth: '1990-01-01',
      amount: 10000,
      startDate: new Date().toISOString().slice(0, 10),
      endDate: '2029-12-31',
      partnerLoanReference: reference,
    });
    await world.client.call('placeSingleLoan', { path: { policyId }, body: loan('KL-OPEN') });
    await world.client.call('placeSingleLoan', { path: { policyId }, body: loan('KL-REPAID') });
    await world.client.call('takeLoansOffCover', {
      path: { policyId },
      body: { loans: [{ partnerLoanReference: 'KL-REPAID' }] },
    });
    await sync();
    const { holdings } = await findCover(deps, { nrc });
    const loans = Object.fromEntries(
      holdings.filter((h) => h.line === 'credit-life').map((h) => [h.number, h.status]),
    );
    expect(loans['KL-REPAID']).toBe('Closed');
    // The policy's first period is unpaid but within grace: the open loan is on risk, in grace.
    expect(loans['KL-OPEN']).toMatch(/^(Active|InGrace)$/);
  });

  it('counts the policyholder registry and the funeral household as the phones on record', async () => {
    const { phones, holdings } = await findCover(deps, { nrc: '123456/10/1' });
    expect(phones).toContain('260966000444');
    expect(holdings.some((h) => h.line === 'funeral')).toBe(true);
  });

  it('asks the insurer at most the bounded number of times and shows the rest as not confirmed now', async () => {
    const nrc = '909090/10/1';
    // Thirty records of one NRC: the index names them, the insurer is asked about ten at most
    // (the individuals with the NRC, the household look-up and eight records, which it no
    // longer has).
    await index.record(
      Array.from({ length: 30 }, (_, i) => ({
        nrc,
        ref: { line: 'travel' as const, policyId: `TRV-MISSING-${i}`, number: `T-${i}` },
      })),
    );
    const { holdings, calls } = await findCover(deps, { nrc });
    expect(calls).toBe(MAX_CALLS_PER_LOOKUP);
    expect(holdings.filter((h) => h.unknown === 'late')).toHaveLength(
      30 - (MAX_CALLS_PER_LOOKUP - 2),
    );
  });

  it('drops from the index a record the insurer answers 404 for', async () => {
    const nrc = '808080/10/1';
    await index.record([
      { nrc, ref: { line: 'motor', policyId: 'no-such-policy', number: 'MTR-GONE' } },
    ]);
    expect((await index.ofNrcs([nrc]))[0]?.refs).toHaveLength(1);
    const { holdings } = await findCover(deps, { nrc });
    expect(holdings).toEqual([]);
    expect((await index.ofNrcs([nrc]))[0]?.refs).toEqual([]);
  });
});

/** The world's client, except that `fails` names the operations that fail, and how. */
function failing(fails: Partial<Record<OperationName, () => Error>>): PartnerClient {
  const client = world.client;
  const call = ((operation: OperationName, ...rest: unknown[]) => {
    const fail = fails[operation];
    if (fail) return Promise.reject(fail());
    return (client.call as (...args: unknown[]) => Promise<unknown>)(operation, ...rest);
  }) as PartnerClient['call'];
  return new Proxy(client, {
    get: (target, property, receiver) =>
      property === 'call' ? call : Reflect.get(target, property, receiver),
  });
}

const serverError = (operation: string) => () =>
  new ApiServerError({ status: 500, operation, rawBody: '{}' });

describe('cover not read is unknown, never in force and never none (issue 36)', () => {
  const { borrower, payroll, inGrace } = DEMO_BOOK.creditLife;

  it.each([
    ['answers 500', serverError('getCreditLifePolicyStatus'), 'failed'],
    [
      'answers 404',
      () =>
        new ApiNotFoundError({
          status: 404,
          operation: 'getCreditLifePolicyStatus',
          rawBody: '{}',
        }),
      'failed',
    ],
  ] as const)(
    'an Active loan whose policy’s cover state %s is unknown, and the failed call is reported',
    async (_what, fail, reason) => {
      const reported: [OperationName, UnknownReason][] = [];
      const { holdings, missed } = await findCover(
        {
          ...deps,
          client: failing({ getCreditLifePolicyStatus: fail }),
          onUnknownAnswer: (operation, why) => reported.push([operation, why]),
        },
        { nrc: borrower.nrcNumber },
      );
      const loans = new Map(holdings.map((h) => [h.number, h]));
      for (const reference of [payroll.activeLoan.reference, inGrace.loan.reference]) {
        const loan = loans.get(reference);
        expect(loan?.unknown, reference).toBe(reason);
        expect(loan && inForce(loan), reference).toBe(false);
      }
      // A loan whose own word needs no cover state is still read: Closed is Closed.
      expect(loans.get(payroll.closedLoan.reference)).toMatchObject({ status: 'Closed' });
      expect(loans.get(payroll.closedLoan.reference)?.unknown).toBeUndefined();
      expect(missed).toBe(false);
      expect(truthOf(holdings, missed)).toBe('unknown');
      // A 500 and a cover state gone (404) alike: reported as the operation and why, no more.
      expect(reported).toContainEqual(['getCreditLifePolicyStatus', 'failed']);
    },
  );

  it('an NRC whose household look-up failed is unknown, not none, even with its loans read', async () => {
    const client = failing({ getGroupFuneralHouseholdByNrc: serverError('household') });
    const { holdings, missed } = await findCover({ ...deps, client }, { nrc: borrower.nrcNumber });
    expect(holdings.some((h) => h.number === payroll.activeLoan.reference)).toBe(true);
    expect(missed).toBe(true);
    expect(truthOf(holdings, missed)).toBe('unknown');
    // Nothing answered at all: the lookup fails (the flow offers Try again), it never says none.
    const down = failing({
      getGroupFuneralHouseholdByNrc: serverError('household'),
      getIndividuals: serverError('individuals'),
    });
    await expect(findCover({ ...deps, client: down }, { nrc: '101010/10/1' })).rejects.toThrow(
      ApiServerError,
    );
  });

  it('an NRC the insurer answered for in time, holding nothing, is none', async () => {
    const { holdings, missed } = await findCover(deps, { nrc: '101011/10/1' });
    expect(truthOf(holdings, missed)).toBe('none');
  });
});

/** The world's client, counting the calls in flight at once (each held a moment to overlap). */
function inFlight(): { client: PartnerClient; most: () => number; made: OperationName[] } {
  const client = world.client;
  let now = 0;
  let most = 0;
  const made: OperationName[] = [];
  const call = (async (operation: OperationName, ...rest: unknown[]) => {
    now += 1;
    most = Math.max(most, now);
    made.push(operation);
    try {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return await (client.call as (...args: unknown[]) => Promise<unknown>)(operation, ...rest);
    } finally {
      now -= 1;
    }
  }) as PartnerClient['call'];
  return {
    client: new Proxy(client, {
      get: (target, property, receiver) =>
        property === 'call' ? call : Reflect.get(target, property, receiver),
    }),
    most: () => most,
    made,
  };
}

describe('a cold index: the insurer is asked directly (issue 36)', () => {
  it('finds a member of the 12th of 12 group-life policies with no sync, at most 8 calls at once', async () => {
    const nrc = '612613/12/1';
    const policies = await groupLifePolicies(12);
    const twelfth = policies.at(-1) ?? '';
    await world.client.call('enrolGroupLifeBatch', {
      path: { policyId: twelfth },
      body: {
        members: [
          { fullName: 'Cold Member', nrcNumber: nrc, dateOfBirth: '1985-01-01', annualSalary: 1 },
        ],
        currency: 'ZMW',
      },
    });
    const counted = inFlight();
    const cold = createMemoryHoldingsIndex();
    const found = await findCover({ ...deps, client: counted.client, holdings: cold }, { nrc });
    expect(found.indexComplete).toBe(false);
    expect(found.holdings.filter((h) => h.line === 'group-life')).toMatchObject([
      { policyId: twelfth, covers: 'Cold Member' },
    ]);
    // Every master policy searched (24 and more by now), in parallel but never more than 8.
    expect(counted.made.filter((op) => op === 'searchCoveredMembers').length).toBeGreaterThan(12);
    expect(counted.most()).toBeGreaterThan(1);
    expect(counted.most()).toBeLessThanOrEqual(8);
    // No client record holds this NRC: the insurer said "no travel, no motor", so not missed.
    expect(found.missed).toBe(false);
  });

  it('says "none" for an NRC no direct path finds, and unknown when a path fails', async () => {
    const nrc = '551155/55/1';
    const cold = createMemoryHoldingsIndex();
    const none = await findCover({ ...deps, holdings: cold }, { nrc });
    expect(none.holdings).toEqual([]);
    expect(truthOf(none.holdings, none.missed)).toBe('none');

    const failed = await findCover(
      {
        ...deps,
        holdings: cold,
        client: failing({ searchCoveredLoans: serverError('searchCoveredLoans') }),
      },
      { nrc },
    );
    expect(failed.holdings).toEqual([]);
    expect(truthOf(failed.holdings, failed.missed)).toBe('unknown');
  });

  it('says unknown, never "none", for My cover from a phone no client record names: a policy issued with its holder inline cannot be found by phone', async () => {
    const cold = createMemoryHoldingsIndex();
    const mine = await findCover({ ...deps, holdings: cold }, { phone: '260955501234' });
    expect(mine.holdings).toEqual([]);
    expect(mine.indexComplete).toBe(false);
    expect(truthOf(mine.holdings, mine.missed)).toBe('unknown');
  });
});

describe('a certificate is texted only to the policy own client phone (issue 35)', () => {
  const certificateFor = async (phone: string, sent: string[]) => {
    const actors = coverStatusActors({
      ...deps,
      sms: async (to) => {
        sent.push(to);
      },
      files: { save: async () => ({ url: 'https://files.test/certificate.pdf' }) },
    });
    const actor = createActor(actors.certificate, {
      input: {
        line: 'motor',
        policyId: DEMO_BOOK.motor.insured.policyId,
        number: DEMO_BOOK.motor.insured.policyNumber,
        phone,
      },
    });
    actor.start();
    return toPromise(actor);
  };

  it('texts the holder the certificate of their car', async () => {
    const sent: string[] = [];
    await certificateFor(DEMO_BOOK.motor.holder.phoneNumber, sent);
    expect(sent).toEqual([DEMO_BOOK.motor.holder.phoneNumber]);
  });

  it('refuses another phone and texts nobody', async () => {
    const sent: string[] = [];
    await expect(certificateFor('260955000111', sent)).rejects.toThrow(CoverUnavailableError);
    expect(sent).toEqual([]);
  });
});

describe('My cover for a phone that typed someone else NRC into a quote (issue 35)', () => {
  const borrower = DEMO_BOOK.creditLife.borrower;
  const typedBy = '260955123457';

  /** The holdings a lookup answer lists (a limited answer lists none). */
  const listed = (answer: CoverAnswer): Holding[] =>
    answer.access === 'full' ? answer.holdings : [];
  const mine = async (registrations: Registrations) => {
    const actor = createActor(coverStatusActors({ ...deps, registrations }).lookupMine, {
      input: { phone: typedBy },
    });
    actor.start();
    return toPromise(actor);
  };

  it('lists none of her loans, warm index or cold, while the old rule would list them all', async () => {
    const typed = await world.client.call('createIndividual', {
      body: {
        firstName: 'Chipo',
        lastName: 'Zulu',
        phoneNumber: typedBy,
        email: 'chipo@example.com',
        idNumber: borrower.nrcNumber,
        idType: 'NRC',
      },
    });
    const registrations = createRegistrations(createMemoryStore(), 'test:');
    await registrations.recordCreated({ clientId: String(typed.id), proven: false });
    await syncHoldings({ client: world.client, index, logger, registrations, full: true });

    expect(listed(await mine(registrations))).toEqual([]);
    const cold = createActor(
      coverStatusActors({ ...deps, registrations, holdings: createMemoryHoldingsIndex() })
        .lookupMine,
      { input: { phone: typedBy } },
    );
    cold.start();
    expect(listed(await toPromise(cold))).toEqual([]);
    // Counted as on record (no registry, as before issue 35), the same phone sees her loans.
    const old = createActor(
      coverStatusActors({
        ...deps,
        registrations: NO_REGISTRATIONS,
        holdings: createMemoryHoldingsIndex(),
      }).lookupMine,
      { input: { phone: typedBy } },
    );
    old.start();
    const numbers = listed(await toPromise(old)).map((h) => h.number);
    expect(numbers).toContain(DEMO_BOOK.creditLife.payroll.activeLoan.reference);
  });

  it('asks once per lookup by phone which people insurechat registered unproven, when it read no one more', async () => {
    const asked: string[][] = [];
    const counting: Registrations = {
      ...NO_REGISTRATIONS,
      unprovenAmong: async (ids) => {
        asked.push([...ids]);
        return new Set();
      },
    };
    const actor = createActor(coverStatusActors({ ...deps, registrations: counting }).lookupMine, {
      input: { phone: borrower.phoneNumber },
    });
    actor.start();
    const answer = await toPromise(actor);
    expect(listed(answer).map((h) => h.number)).toContain(
      DEMO_BOOK.creditLife.payroll.activeLoan.reference,
    );
    expect(asked).toHaveLength(1);
  });

  it('says it cannot check now, to her and to that phone, when who insurechat registered is unknown', async () => {
    await world.client.call('createIndividual', {
      body: {
        firstName: 'Chipo',
        lastName: 'Zulu',
        phoneNumber: typedBy,
        email: 'chipo@example.com',
        idNumber: borrower.nrcNumber,
        idType: 'NRC',
      },
    });
    // Redis lost the registrations and the durable copy did not answer (src/access).
    const unknown: Registrations = {
      ...NO_REGISTRATIONS,
      unprovenAmong: async () => {
        throw new RegistrationsUnknownError('REGISTRATIONS_UNKNOWN', 'durable copy down');
      },
    };
    for (const phone of [typedBy, borrower.phoneNumber]) {
      const actor = createActor(
        coverStatusActors({
          ...deps,
          registrations: unknown,
          holdings: createMemoryHoldingsIndex(),
        }).lookupMine,
        { input: { phone } },
      );
      actor.start();
      const answer = await toPromise(actor);
      expect(listed(answer).map((h) => h.number)).not.toContain(
        DEMO_BOOK.creditLife.payroll.activeLoan.reference,
      );
      expect(answer.truth).toBe('unknown');
    }
  });
});
