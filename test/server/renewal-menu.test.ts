import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_BOOK } from '../../src/sandbox/demo-book.js';
import { type ManualClock, manualClock } from '../support/manual-clock.js';
import { startTestServer, type TestServer } from './test-server.js';
import { ussdCaller } from './ussd-caller.js';

/*
 * The USSD main menu of a holder with renewals due, through the whole server: every item on the
 * first page of a cheap phone's screen, however many renewals are due and with the "pick one"
 * note shown; several renewals behind one entry that lists them.
 */

let server: TestServer;
let clock: ManualClock;

beforeAll(async () => {
  clock = manualClock();
  server = await startTestServer({}, { reminderClock: clock.now });
}, 60_000);

afterAll(async () => {
  await server?.close();
});

const local = () => `http://127.0.0.1:${server.server.info.bound?.port}`;

/** `YYYY-MM-DD`, `days` after the reminder clock's today. */
function inDays(days: number): string {
  return new Date(clock.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** The demo book's two motor policies, recorded as bought by `msisdn` on USSD. */
async function twoPoliciesDue(msisdn: string, count = 2) {
  const { insured, renewal } = DEMO_BOOK.motor;
  const due = [
    { ...insured, endDate: inDays(12) },
    { ...renewal, endDate: inDays(3) },
  ].slice(0, count);
  for (const policy of due) {
    await server.server.reminders.recordPurchase({
      route: { channel: 'ussd', address: msisdn, locale: 'en' },
      policyId: policy.policyId,
      policyNumber: policy.policyNumber,
      what: `Motor Third Party for ${policy.registrationNumber}`,
      endDate: policy.endDate,
      renewal: false,
    });
  }
  return due;
}

/** The numbered items of a USSD screen (`1. Motor insurance` → `Motor insurance`). */
const items = (screen: string) =>
  screen
    .split('\n')
    .map((line) => /^\d+\. (.*)$/.exec(line)?.[1])
    .filter((item): item is string => item !== undefined);

it('shows every main-menu item on the first USSD page when two renewals are due and the pick-one note is shown', async () => {
  const phone = ussdCaller(local, 'renewal-menu');
  await twoPoliciesDue(phone.msisdn);
  await phone.dial();
  // An answer that is no item: the menu comes back with the note above it.
  const menu = await phone.send('9');
  if (process.env.PRINT_REMINDERS) console.log(menu);
  expect(menu).toMatch(/^CON /);
  expect(menu).toMatch(/Please pick one/);
  expect(menu).not.toMatch(/\n98 /);
  expect(menu.length - 'CON '.length).toBeLessThanOrEqual(182);
  expect(items(menu)).toEqual([
    'Renew my cover (2 due)',
    'Motor insurance',
    'Travel insurance',
    'My cover',
    'Claims',
    'Talk to a person',
    'My data',
    'Language',
  ]);

  // One renewal due: named on the menu itself, as the reminder SMS says, still on one page.
  const single = ussdCaller(local, 'renewal-menu-one');
  await twoPoliciesDue(single.msisdn, 1);
  await single.dial();
  const one = await single.send('9');
  if (process.env.PRINT_REMINDERS) console.log(one);
  expect(one).toMatch(/Please pick one/);
  expect(one.length - 'CON '.length).toBeLessThanOrEqual(182);
  expect(items(one)).toEqual([
    `Renew ${DEMO_BOOK.motor.insured.policyNumber}`,
    'Motor insurance',
    'Travel insurance',
    'My cover',
    'Claims',
    'Talk to a person',
    'My data',
    'Language',
  ]);
});

it('lists the renewals due, soonest first, behind the menu entry, and opens the one picked at its price', async () => {
  const phone = ussdCaller(local, 'renewal-list');
  const due = await twoPoliciesDue(phone.msisdn);
  await phone.dial();
  const list = await phone.send('1');
  if (process.env.PRINT_REMINDERS) console.log(list);
  const [soonest, later] = [due[1], due[0]];
  const dm = (date: string | undefined) => date?.slice(5).split('-').reverse().join('/');
  expect(items(list)).toEqual([
    `${soonest?.policyNumber} (ends ${dm(soonest?.endDate)})`,
    `${later?.policyNumber} (ends ${dm(later?.endDate)})`,
  ]);
  const priced = await phone.send('1');
  expect(priced).toMatch(
    new RegExp(
      `^CON Renew ${soonest?.policyNumber} \\S+ to \\S+: ZMW [\\d,]+\\.\\d\\d\\. Pay with:`,
    ),
  );
});

/** The label of the menu's last item, Language, in each catalogue. */
const LANGUAGE_ITEM = { en: 'Language', bem: 'Ululimi', ny: 'Chiyankhulo' } as const;

it.each(['en', 'bem', 'ny'] as const)(
  'fits the whole main menu on one USSD page of at most 182 characters, CON included, in every state of a holder in %s',
  async (locale) => {
    const { insured } = DEMO_BOOK.motor;
    /** A holder on USSD in `locale`, after `prepare`; their menu, and after a stray key. */
    const menuOf = async (label: string, prepare: (msisdn: string) => Promise<unknown>) => {
      const phone = ussdCaller(local, `fit-${locale}-${label}`);
      await server.server.reminders.languages.choose(
        { channel: 'ussd', address: phone.msisdn },
        locale,
      );
      await prepare(phone.msisdn);
      const menu = await phone.dial();
      const again = await phone.send('9');
      return { menu, again };
    };
    const bought = (msisdn: string) =>
      server.server.reminders.recordPurchase({
        route: { channel: 'ussd', address: msisdn, locale },
        policyId: insured.policyId,
        policyNumber: insured.policyNumber,
        what: `Motor Third Party for ${insured.registrationNumber}`,
        endDate: inDays(300),
        renewal: false,
      });
    const states = {
      new: async () => undefined,
      'after a purchase': bought,
      'reminders off': async (msisdn: string) => {
        await bought(msisdn);
        await server.server.reminders.stop({ channel: 'ussd', address: msisdn });
      },
      'one renewal due': (msisdn: string) => twoPoliciesDue(msisdn, 1),
      'two renewals due': (msisdn: string) => twoPoliciesDue(msisdn, 2),
    };
    for (const [label, prepare] of Object.entries(states)) {
      const { menu, again } = await menuOf(label.replace(/ /g, '-'), prepare);
      if (process.env.PRINT_MENUS) console.log(`${locale}, ${label} (${menu.length}):\n${menu}`);
      expect(menu, label).toMatch(/^CON /);
      expect(menu, label).not.toMatch(/\n98 /);
      expect(menu.length, `${label}:\n${menu}`).toBeLessThanOrEqual(182);
      expect(items(menu).at(-1), label).toBe(LANGUAGE_ITEM[locale]);
      // A stray key adds "pick one": the greeting may be shortened, never an item pushed off.
      expect(again, label).not.toMatch(/\n98 /);
      expect(items(again), label).toEqual(items(menu));
    }
  },
);
