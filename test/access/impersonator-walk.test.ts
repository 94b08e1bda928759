import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Registrations } from '../../src/access/index.js';
import { startTestServer, type TestServer } from '../server/test-server.js';
import {
  DEMO_CLAIMS,
  DEMO_NRCS,
  describeLeak,
  findLeaks,
  impersonatorWalk,
  readmePeople,
  type WalkPerson,
  type WalkResult,
} from './impersonator-walk.js';

/*
 * Issue 35's acceptance walk (see impersonator-walk.ts): a phone that types a README person's
 * NRC and plate, and never pays, is shown and sent nothing of theirs, even after a full holdings
 * sync; the person's own phone still sees their cover; an unpaid quote squats no plate. Beside
 * it, the rule it replaced (every individual holding an NRC is on record for it) fails the walk.
 */

/** Every limit off (0 = no limit): no probe may pass by being refused as "too often". */
const NO_LIMITS = Object.fromEntries(
  ['SMS', 'CODE', 'PAYMENT', 'LOOKUP']
    .flatMap((kind) => ['CALLER', 'TARGET'].map((who) => `${kind}_${who}`))
    .concat('ANONYMOUS')
    .flatMap((name) => [`LIMIT_${name}_HOUR`, `LIMIT_${name}_DAY`])
    .map((name) => [name, '0']),
);

/** The rule before issue 35: no individual is ever taken as created from an unproven NRC. */
const OLD_RULE: Registrations = {
  recordCreated: async () => undefined,
  markProven: async () => undefined,
  unprovenAmong: async () => new Set(),
};

let app: TestServer;
let people: WalkPerson[];
let walk: WalkResult;

beforeAll(async () => {
  app = await startTestServer(NO_LIMITS);
  people = readmePeople(app);
  walk = await impersonatorWalk(app, people);
}, 120_000);
afterAll(async () => {
  await app?.close();
});

describe('a phone that types a README person’s NRC and plate, and never pays', () => {
  it('walks every README person, with their names, numbers and amounts to look for', () => {
    expect(people.map((p) => p.nrc).sort()).toEqual([...DEMO_NRCS].sort());
    const secrets = people.flatMap((p) => p.secrets);
    for (const word of [...DEMO_CLAIMS, 'KL-DEMO-GRACE', 'Bwalya Mulenga', '288,000.00']) {
      expect(secrets).toContain(word);
    }
    // It reached the screens it meant to, and read enough of them to mean something.
    expect(walk.shortfalls).toEqual([]);
    expect(walk.tooOften).toEqual([]);
    expect(walk.read.screens).toBeGreaterThan(100);
  });

  it('is shown and sent nothing of theirs, and no one else is sent it either', () => {
    expect(walk.leaks.map(describeLeak).join('\n')).toBe('');
  });

  it('leaves the person’s own phone seeing their cover and claims', () => {
    for (const person of people) {
      const cover = walk.ownCover.get(person.name) ?? '';
      for (const item of person.own) expect(cover, person.name).toContain(item);
      const tracked = walk.ownClaims.get(person.name) ?? '';
      for (const claim of person.claimNumbers) expect(tracked, person.name).toContain(claim);
    }
    expect(people.flatMap((p) => [...p.own, ...p.claimNumbers]).length).toBeGreaterThan(8);
  });

  it('leaves every quoted plate for its owner to buy', () => {
    // Each plate whose owner is turned away, with the screen they got instead of a price.
    const refused = [...walk.ownerBuys]
      .filter(([, screen]) => /another holder/.test(screen) || !/Pay with:/.test(screen))
      .map(([plate, screen]) => `${plate}: ${screen.replaceAll('\n', ' / ')}`);
    expect(refused.join('\n')).toBe('');
    expect(walk.ownerBuys.size).toBe(people.length);
  });
});

describe('the walk’s finder', () => {
  const bupe: WalkPerson = {
    name: 'Bupe Chilufya',
    nrc: '234567/10/1',
    phone: '260977234567',
    plates: [],
    claimNumbers: [],
    secrets: ['Bupe Chilufya', '234567/10/1', '234567101', 'GL-DEMO-000001', '288,000.00'],
    own: ['GL-DEMO-000001'],
  };
  const phone = '260955770000';

  it('flags her data on a screen, or in an SMS to any phone but hers', () => {
    const leaks = findLeaks(
      [bupe],
      [{ phone, flow: 'my cover', screen: 'CON Group life GL-DEMO-000001 in force', typed: [] }],
      [
        { to: `+${phone}`, message: 'Cover ZMW 288,000.00' },
        { to: '+260977234567', message: 'Your cover: GL-DEMO-000001, Bupe Chilufya' },
      ],
      new Map(),
    );
    expect(leaks.map((l) => `${l.item} ${l.where}`)).toEqual([
      `GL-DEMO-000001 screen ${phone} my cover`,
      `288,000.00 sms to +${phone}`,
    ]);
  });

  it('lets the phone see what it typed, the catalogue’s examples, and a larger amount', () => {
    const screens = [
      'CON Scheme policy number (e.g. GL-DEMO-000001):',
      'CON Death claim for 234567/10/1 on 26/11/2026.',
      'CON Claim GL-DEMO-000001: pays ZMW 1,288,000.00',
    ];
    const leaks = findLeaks(
      [bupe],
      screens.map((screen) => ({ phone, flow: 'death', screen, typed: ['GL-DEMO-000001'] })),
      [],
      new Map([[phone.slice(-9), ['234567101']]]),
    );
    expect(leaks).toEqual([]);
  });
});

describe('the walk under the old rule (any individual with the NRC is on record)', () => {
  it('finds the impersonator shown or sent the person’s cover and claims', async () => {
    const old = await startTestServer(NO_LIMITS, { registrations: OLD_RULE });
    try {
      const all = readmePeople(old);
      // The member and the borrower of the report are enough to show the finder works.
      const some = all.filter((p) => /Bupe|Natasha/.test(p.name));
      const result = await impersonatorWalk(old, some);
      expect(result.leaks.map((l) => l.person)).toEqual(
        expect.arrayContaining(['Bupe Chilufya', 'Natasha Phiri']),
      );
    } finally {
      await old.close();
    }
  }, 120_000);
});
