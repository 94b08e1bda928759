import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insurerWordKey, t } from '../../src/conversation/index.js';
import { startTestServer, type TestServer } from './test-server.js';
import { type UssdCaller, ussdCaller } from './ussd-caller.js';

// Issue 38: a new customer's motor purchase of a new car on USSD, in each language, through the
// real server (HTTP, engine, Redis, the embedded sandbox insurer), as a first dial shows it: the
// language, the main menu, the privacy notice. Screens are counted from the main menu (the
// privacy notice counts, the first dial's language choice does not), characters typed from the
// main menu to "Pay with" (every answer, choices included). docs/cover-and-claims.md cites the
// figures; this test fails when they no longer match it.

let harness: TestServer;

beforeAll(async () => {
  harness = await startTestServer(
    // A first dial asks the language, and the first flow asking for personal data the notice.
    { USSD_ASK_LANGUAGE: 'true' },
    { askConsent: true },
  );
});
afterAll(async () => {
  await harness.close();
});

const LANGUAGES = [
  { locale: 'en', choice: '1' },
  { locale: 'bem', choice: '2' },
  { locale: 'ny', choice: '3' },
] as const;

const PRODUCTS = [{ name: 'Motor Third Party' }, { name: 'Motor Comprehensive' }] as const;

/** An insurer's word (a product, a vehicle use) as a caller in `locale` reads it. */
function inWords(kind: 'product' | 'category', text: string, locale: string): string {
  const word = insurerWordKey(kind, text);
  if (!word) throw new Error(`no ${kind} word for ${text}`);
  return t(word.key, word.params ?? {}, locale);
}

/** A text matched as it is, inside a pattern. */
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The numbered choice on a screen whose line matches. */
function pick(screen: string, line: RegExp): string {
  const found = screen.split('\n').find((row) => line.test(row));
  if (!found) throw new Error(`no choice ${line} on:\n${screen}`);
  return found.split('.')[0] ?? '';
}

/** The last numbered choice on a screen: the longest period offered. */
function lastChoice(screen: string): string {
  const numbers = screen
    .split('\n')
    .map((row) => /^(\d+)\. /.exec(row)?.[1])
    .filter((n): n is string => n !== undefined);
  const last = numbers.at(-1);
  if (!last) throw new Error(`no choice on:\n${screen}`);
  return last;
}

/** A plate, chassis, engine and NRC of one caller's own, each of a fixed length. */
function ownDetails(caller: UssdCaller) {
  const digits = caller.msisdn.slice(-7, -1);
  return {
    plate: `NC${String.fromCharCode(65 + Number(digits[0]))} ${digits.slice(2)}`,
    chassis: `CH${digits}`,
    engine: `EN${digits}`,
    nrc: `${digits}101`,
  };
}

/** What one walk measured: screens from the main menu (it is 0) and characters typed. */
interface Walked {
  priceScreen: number;
  payScreen: number;
  typed: number;
  pay: string;
}

/**
 * Dials as a new phone, chooses `language`, and answers each screen, recognised by its message
 * in that language's catalogue, up to "Pay with".
 */
async function buyNewCar(language: (typeof LANGUAGES)[number], product: string): Promise<Walked> {
  const { locale } = language;
  const caller = ussdCaller(() => harness.url, `newcomer-${locale}`);
  const own = ownDetails(caller);
  // A screen is the question whose message (up to its first parameter) it starts with.
  const is = (screen: string, key: string) =>
    screen.replace(/^CON /, '').startsWith((t(key, {}, locale).split('{')[0] ?? '').slice(0, 40));
  const answers: ReadonlyArray<readonly [string, (screen: string) => string]> = [
    [
      'menu.policyholder',
      (s) => pick(s, new RegExp(`^\\d+\\. ${t('menu.choice.motor', {}, locale)}$`)),
    ],
    [
      'privacy.notice',
      (s) => pick(s, new RegExp(`^\\d+\\. ${t('privacy.choice.agree', {}, locale)}$`)),
    ],
    ['motor.mode', (s) => pick(s, new RegExp(`^\\d+\\. ${t('motor.choice.new', {}, locale)}$`))],
    [
      'motor.pickProduct',
      (s) => pick(s, new RegExp(`^\\d+\\. ${literally(inWords('product', product, locale))}$`)),
    ],
    [
      'motor.pickCategory',
      (s) => pick(s, new RegExp(`^\\d+\\. ${literally(inWords('category', 'Private', locale))}$`)),
    ],
    ['motor.askSumInsured', () => '150000'],
    ['motor.pickDuration', lastChoice],
    ['motor.askPlate', () => own.plate],
    ['motor.askVehicle', () => 'Toyota Corolla 2015'],
    ['motor.askChassis', () => own.chassis],
    ['motor.askEngine', () => own.engine],
    ['motor.askHolderNrc', () => own.nrc],
    ['motor.askName', () => 'Jane Banda'],
    ['motor.askEmail', () => 'jane@example.com'],
  ];

  expect(await caller.dial()).toMatch(/^CON Language \/ Ululimi \/ Chiyankhulo:/);
  let screen = await caller.send(language.choice);
  expect(is(screen, 'menu.policyholder'), screen).toBe(true);
  const seen = [screen];
  let typed = 0;
  let priceScreen = -1;
  for (let step = 0; step < 30 && !screen.includes(t('pay.choice.ownNumber', {}, locale)); step++) {
    const answer = answers.find(([key]) => is(screen, key));
    if (!answer) throw new Error(`no answer for screen:\n${screen}`);
    if (answer[0] === 'motor.pickDuration') priceScreen = seen.length - 1;
    const input = answer[1](screen);
    typed += input.length;
    screen = await caller.send(input);
    expect(screen, `after ${input}`).toMatch(/^CON /);
    seen.push(screen);
  }
  return { priceScreen, payScreen: seen.length - 1, typed, pay: screen };
}

/** The row for one walk, as docs/cover-and-claims.md shows the figures. */
const pageRow = (locale: string, product: string, walked: Walked) =>
  `| ${locale} | ${product} | ${walked.priceScreen} | ${walked.payScreen} | ${walked.typed} |`;

describe("a new customer's motor purchase of a new car on USSD", () => {
  const rows: string[] = [];

  describe.each(LANGUAGES)('in $locale', (language) => {
    it.each(PRODUCTS)(
      'shows $name priced by the 6th screen after the main menu and "Pay with" by the 14th, naming cover, plate and dates',
      async ({ name }) => {
        const walked = await buyNewCar(language, name);
        expect(walked.priceScreen).toBeGreaterThan(0);
        expect(walked.priceScreen).toBeLessThanOrEqual(6);
        expect(walked.payScreen).toBeLessThanOrEqual(14);
        // "Motor Third Party NCB 3456, 28/11/2026-27/11/2027: ZMW 693.00 (premium … + levy …)."
        expect(walked.pay).toMatch(
          new RegExp(
            `^CON ${literally(inWords('product', name, language.locale))} NC[A-Z] \\d{4}, \\d{2}/\\d{2}/\\d{4}-\\d{2}/\\d{2}/\\d{4}: ZMW [\\d,]+\\.\\d\\d \\(premium [\\d,]+\\.\\d\\d \\+ levy [\\d,]+\\.\\d\\d\\)\\. `,
          ),
        );
        rows.push(pageRow(language.locale, name, walked));
      },
    );
  });

  it('matches the figures docs/cover-and-claims.md cites', () => {
    expect(rows).toHaveLength(LANGUAGES.length * PRODUCTS.length);
    console.log(rows.join('\n'));
    const page = readFileSync(new URL('../../docs/cover-and-claims.md', import.meta.url), 'utf8');
    for (const row of rows) expect(page, row).toContain(row);
  });
});
