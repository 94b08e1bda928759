import { expect } from 'vitest';
import { t } from '../../src/conversation/index.js';
import { DEMO_BOOK } from '../../src/sandbox/index.js';
import { eventually } from '../support/eventually.js';
import { GATEWAY_SECRET } from './test-server.js';

/**
 * A caller on the server's Africa's Talking route with a random number ending in 5 (the
 * sandbox's payments from it succeed), or `from` (`+260…`): each dial is a new gateway session,
 * each answer is sent with the whole `*`-joined history, as the gateway does.
 */
export function ussdCaller(serverUrl: () => string, label = 'journey', from?: string) {
  const digits = String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0');
  const number = from ?? `+26097${digits}5`;
  let session = 0;
  let history: string[] = [];
  const post = async (text: string): Promise<string> => {
    const response = await fetch(`${serverUrl()}/ussd/africastalking`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-ussd-secret': GATEWAY_SECRET,
      },
      body: new URLSearchParams({
        sessionId: `${label}-${digits}-${session}`,
        serviceCode: '*384#',
        phoneNumber: number,
        text,
      }),
    });
    return response.text();
  };
  return {
    number,
    msisdn: number.slice(1),
    dial() {
      session += 1;
      history = [];
      return post('');
    },
    send(input: string) {
      history.push(input);
      return post(history.join('*'));
    },
    /** The gateway repeats the last request as it was. */
    repeat() {
      return post(history.join('*'));
    },
  };
}

/** One caller of {@link ussdCaller}. */
export type UssdCaller = ReturnType<typeof ussdCaller>;

/** Whether a screen says the last request is still being worked on (engine.stillWorking / busy). */
export function isStillWorking(screen: string): boolean {
  const text = screen.replace(/^(CON|END) /, '');
  return text.startsWith(t('engine.stillWorking')) || text.startsWith(t('engine.busy'));
}

/**
 * `screen`, or, while it says "still working", what "Check again" (1) shows next; every screen
 * shown goes to `seen`. Bounded: a turn abandoned upstream would otherwise loop for ever.
 */
export async function throughStillWorking(
  phone: UssdCaller,
  screen: string,
  seen: string[] = [],
): Promise<string> {
  let shown = screen;
  seen.push(shown);
  for (let checks = 0; checks < 20 && isStillWorking(shown); checks += 1) {
    shown = await phone.send('1');
    seen.push(shown);
  }
  return shown;
}

/** Answers to each screen of a motor purchase up to the amount to pay, by the screen's text. */
export function answersFor(plate: string): ReadonlyArray<readonly [RegExp, () => string]> {
  return [
    [/^Welcome/, () => '1'],
    [/^Motor insurance:/, () => '1'],
    [/^Choose cover/, () => '1'],
    [/Vehicle use/i, () => '1'],
    [/Vehicle value/i, () => '150000'],
    [/Choose a period/i, () => '1'],
    [/number plate/i, () => plate],
    [/make, model and year/i, () => 'Toyota Corolla 2015'],
    [/Chassis/i, () => 'CH123456'],
    [/Engine number/i, () => 'EN123456'],
    [/mobile number/i, () => '1'],
    [/NRC/, () => `${100_000 + Math.floor(Math.random() * 899_999)}101`],
    [/full name/i, () => 'Mwila Banda'],
    [/e-?mail/i, () => 'mwila@example.com'],
    [/Correct\?/, () => '1'],
    [/^Is .* your /, () => '1'],
  ];
}

/**
 * Dials and answers until the screen that shows the amount and asks how to pay; a "still
 * working" screen on the way is answered "Check again". Every screen shown goes to `seen`.
 */
export async function toPayScreen(
  phone: UssdCaller,
  plate: string,
  seen: string[] = [],
): Promise<string> {
  const answers = answersFor(plate);
  let screen = await throughStillWorking(phone, await phone.dial(), seen);
  for (let step = 0; step < 30 && !/Pay with:/.test(screen); step += 1) {
    const text = screen.replace(/^(CON|END) /, '');
    const answer = answers.find(([pattern]) => pattern.test(text.split('\n')[0] ?? ''))?.[1];
    if (!answer) throw new Error(`no answer for screen:\n${screen}`);
    screen = await throughStillWorking(phone, await phone.send(answer()), seen);
  }
  expect(screen).toMatch(/^CON .*: ZMW [\d,]+\.\d\d .*Pay with:/s);
  return screen;
}

/** The amount a screen asks for, as shown. */
export function amountOn(screen: string): string {
  const found = /ZMW ([\d,]+\.\d\d)/.exec(screen)?.[1];
  if (!found) throw new Error(`no amount on:\n${screen}`);
  return found;
}

/**
 * After the mobile-money choice answered END (the call let go before the PIN prompt, issue 38):
 * dials again until the purchase's closing screen shows instead of the resume offer (the payment
 * started after the call, settled, and its outcome waits for the caller's next dial), read to its
 * last page; every screen shown goes to `seen`. Resolves `END` and the pages' text.
 */
export async function closingAfterEnd(
  phone: UssdCaller,
  ended: string,
  seen: string[] = [],
  timeoutMs = 30_000,
): Promise<string> {
  // In the caller's language: "Approve ZMW … when your phone asks for your PIN." in English.
  expect(ended).toMatch(/^END \S+ ZMW [\d,]+\.\d\d .*PIN/);
  let screen = await eventually(
    'the purchase closed',
    async () => {
      const shown = await phone.dial();
      seen.push(shown);
      // Pending (the resume offer), or the payment being started as the caller dials.
      return /unfinished session|still working/i.test(shown) ? undefined : shown;
    },
    timeoutMs,
  );
  const pages: string[] = [];
  for (let page = 0; page < 5 && screen.startsWith('CON '); page += 1) {
    pages.push(screen.slice(4).replace(/\n98 More$/, ''));
    screen = await phone.send('98');
    seen.push(screen);
  }
  return `END ${[...pages, screen.replace(/^END /, '')].join(' ')}`;
}

/** The number of the menu line whose label matches, on a USSD screen. */
export function option(screen: string, label: RegExp): string {
  const line = screen.split('\n').find((candidate) => label.test(candidate));
  const number = line?.split('.')[0]?.trim();
  if (!number || !/^\d+$/.test(number)) throw new Error(`no ${label} on: ${screen}`);
  return number;
}

/**
 * Dials and answers each screen: a RegExp picks the option it names, text is typed; an offer to
 * resume an unfinished session is answered "Start again". Every screen shown, in order.
 */
export async function dialAndAnswer(
  caller: UssdCaller,
  answers: readonly (RegExp | string)[],
): Promise<string[]> {
  const screens = [await caller.dial()];
  if (/unfinished session/i.test(screens[0] ?? '')) {
    screens.push(await caller.send(option(screens[0] ?? '', /start again/i)));
  }
  for (const answer of answers) {
    const screen = screens.at(-1) ?? '';
    screens.push(await caller.send(typeof answer === 'string' ? answer : option(screen, answer)));
  }
  return screens;
}

/** A death claim on README's group-life member, from Claims, as the USSD caller answers it. */
export const GROUP_LIFE_DEATH_ANSWERS: readonly (RegExp | string)[] = [
  /claims/i,
  /death/i,
  DEMO_BOOK.groupLife.policyNumber,
  DEMO_BOOK.groupLife.member.nrcNumber.replaceAll('/', ''),
  '01/11/2026',
  'Illness',
  /submit/i,
];
