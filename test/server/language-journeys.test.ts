import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { GATEWAY_SECRET, sandboxOf, startTestServer, type TestServer } from './test-server.js';
import { closingAfterEnd, type UssdCaller, ussdCaller } from './ussd-caller.js';

// A caller in their own language (issue 27), over HTTP, through the engine, real Redis and the
// embedded sandbox insurer, with the server's own SMS notifier writing to the sandbox's outbox.

let harness: TestServer;

beforeAll(async () => {
  harness = await startTestServer(
    // The production default: a phone's first dial asks for the language.
    { USSD_ASK_LANGUAGE: 'true' },
    // Payments settle when the test says so; polls are far off.
    { sandbox: { settleDelayMs: 600_000 }, paymentBackoffMs: [600_000] },
  );
});
afterAll(async () => {
  await harness.close();
});

const sandbox = () => sandboxOf(harness);

const LANGUAGE_SCREEN =
  'CON Language / Ululimi / Chiyankhulo:\n1. English\n2. Ichibemba\n3. Chinyanja';

/** Answers to each Nyanja screen of a motor purchase up to the amount, by its first line. */
function nyanjaAnswers(plate: string): ReadonlyArray<readonly [RegExp, string]> {
  return [
    [/^Takulandirani/, '1'],
    [/^Inshuwalansi ya galimoto:/, '1'],
    [/^Sankhani inshuwalansi:/, '1'],
    [/^Galimoto imagwira ntchito/, '1'],
    [/^Sankhani nthawi/, '1'],
    [/^Nambala ya galimoto:/, plate],
    [/^Mtundu, model ndi chaka/, 'Toyota Corolla 2015'],
    [/^Nambala ya chassis/, 'CH123456'],
    [/^Nambala ya injini/, 'EN123456'],
    [/^Nambala ya foni ya mwini policy/, '1'],
    [/^Nambala ya NRC ya mwini policy/, `${100_000 + Math.floor(Math.random() * 899_999)}101`],
    [/^Dzina loyamba ndi la banja/, 'Mwila Banda'],
    [/^Imelo/, 'mwila@example.com'],
    [/Ndi zolondola\?/, '1'],
    [/^Kodi .* ndi .* yanu\?/, '1'],
  ];
}

/** Answers Nyanja screens from the menu until the one asking how to pay. */
async function toNyanjaPayScreen(phone: UssdCaller, menu: string, plate: string) {
  const answers = nyanjaAnswers(plate);
  let screen = menu;
  for (let step = 0; step < 30 && !/Lipirani ndi:/.test(screen); step += 1) {
    const firstLine = screen.replace(/^(CON|END) /, '').split('\n')[0] ?? '';
    const answer = answers.find(([pattern]) => pattern.test(firstLine))?.[1];
    if (answer === undefined) throw new Error(`no answer for screen:\n${screen}`);
    screen = await phone.send(answer);
  }
  return screen;
}

/** The Redis key of a holder's card, where their language is kept. */
const cardKey = (msisdn: string) => `${harness.prefix}reminder-card:{ussd:${msisdn}}`;

describe('a caller who chooses Nyanja', () => {
  it('is asked on the first dial, buys motor cover in Nyanja, is told by SMS in Nyanja, is greeted in Nyanja the next day, and has STOP confirmed in Nyanja', async () => {
    const phone = ussdCaller(() => harness.url, 'nyanja');
    expect(await phone.dial()).toBe(LANGUAGE_SCREEN);
    const menu = await phone.send('3');
    expect(menu).toMatch(/^CON Takulandirani\. Mufuna chiyani\?\n1\. Galimoto/);
    expect(menu).toMatch(/\d\. Chiyankhulo/);

    const pay = await toNyanjaPayScreen(
      phone,
      menu,
      `BCN ${1000 + Math.floor(Math.random() * 8999)}`,
    );
    expect(pay).toMatch(
      /^CON .*: ZMW [\d,]+\.\d\d \(premium .* \+ levy .*\)\. Lipirani ndi:\n1\. Nambala yanga/s,
    );
    // The call ends before the PIN prompt (issue 38), in Nyanja; the payment starts after it.
    const ended = await phone.send('1');
    expect(ended).toMatch(/^END Vomerezani ZMW [\d,]+\.\d\d kwa .* foni yanu ikakufunsani PIN\./);
    const attempt = await eventually('the payment after the call', () =>
      sandbox()
        .payments.all()
        .filter((transaction) => transaction.msisdn?.endsWith(phone.msisdn.slice(-9)))
        .at(-1),
    );
    sandbox().payments.settleNow(attempt.reference, 'success');

    // The insurer's callback: the outcome goes out by SMS, in the caller's language (as does
    // the notice that reminders will come).
    const outcomeOf = () =>
      sandbox()
        .smsOutbox.list(phone.number)
        .find((sms) => /^(Malipiro \S+ alandiridwa|Mwalipira ZMW)/.test(sms.message));
    await eventually('the outcome SMS', () => outcomeOf() !== undefined);
    const outcome = outcomeOf();
    expect(outcome?.message).toMatch(/^(Malipiro \S+ alandiridwa|Mwalipira ZMW)/);
    expect(outcome?.message).not.toMatch(/\b(Paid|Payment|received|Your policy)\b/);
    expect(await closingAfterEnd(phone, ended)).toMatch(
      /^END Mwalipira ZMW [\d,]+\.\d\d\. .*Nambala ya policy: MTR-/s,
    );

    // The next day the session is long gone (its idle lifetime is 15 minutes); the language is not.
    await harness.redis.del(`${harness.prefix}session:{ussd:${phone.msisdn}}`);
    expect(await harness.redis.hget(cardKey(phone.msisdn), 'lang')).toBe('ny');
    expect(await harness.redis.ttl(cardKey(phone.msisdn))).toBeGreaterThan(400 * 86_400);
    expect(await phone.dial()).toMatch(/^CON Takulandirani\. Mufuna chiyani\?/);

    // STOP to our SMS: the confirmation is in Nyanja too.
    const stopped = await fetch(`${harness.url}/sms/inbound?secret=${GATEWAY_SECRET}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ from: phone.number, to: '4628', text: 'STOP' }),
    });
    expect(stopped.status).toBe(200);
    // Found by what it says: the reminder notice may follow the outcome SMS around the reply.
    expect(
      sandbox()
        .smsOutbox.list(phone.number)
        .find((sms) => /^Zokumbutsa/.test(sms.message))?.message,
    ).toBe('Zokumbutsa zaimitsidwa. Yankhani START kuziyatsanso.');
  });

  it('reads the language with the session: a dial costs no Redis round trip of its own', async () => {
    const phone = ussdCaller(() => harness.url, 'nyanja-cost');
    await phone.dial();
    await phone.send('3');
    const before = harness.redisCommands();
    expect(await phone.dial()).toMatch(/^CON Takulandirani/);
    // The session's lock-and-read (with the card) and its write: two, as without languages.
    expect(harness.redisCommands() - before).toBe(2);
  });

  it('changes the language from the menu, and is asked nothing on a dial once chosen', async () => {
    const phone = ussdCaller(() => harness.url, 'change');
    await phone.dial();
    const english = await phone.send('1');
    expect(english).toMatch(/^CON Welcome\. What would you like to do\?/);
    const item = /(\d+)\. Language/.exec(english)?.[1];
    if (!item) throw new Error(`no Language item on:\n${english}`);
    expect(await phone.send(item)).toBe(LANGUAGE_SCREEN);
    expect(await phone.send('2')).toMatch(/^CON Ululimi lwenu nomba ni Ichibemba\.\n1\. /);
    expect(await phone.dial()).toMatch(/^CON Mwaiseni/);
  });

  it('goes back to the menu on 0 from the language screen opened there', async () => {
    const phone = ussdCaller(() => harness.url, 'back');
    await phone.dial();
    const english = await phone.send('1');
    const item = /(\d+)\. Language/.exec(english)?.[1];
    if (!item) throw new Error(`no Language item on:\n${english}`);
    expect(await phone.send(item)).toBe(LANGUAGE_SCREEN);
    expect(await phone.send('0')).toBe(english);
  });

  it('keeps a first dial on the language screen on 0, there being nothing to go back to', async () => {
    const phone = ussdCaller(() => harness.url, 'first-back');
    expect(await phone.dial()).toBe(LANGUAGE_SCREEN);
    expect(await phone.send('0')).toBe(LANGUAGE_SCREEN);
  });

  it('confirms a language changed from the menu in that language, on a menu without stale notes', async () => {
    const phone = ussdCaller(() => harness.url, 'confirm');
    await phone.dial();
    const english = await phone.send('1');
    // A stray key first: the menu says "Please pick one."
    expect(await phone.send('77')).toMatch(/Please pick one\./);
    const item = /(\d+)\. Language/.exec(english)?.[1];
    if (!item) throw new Error(`no Language item on:\n${english}`);
    expect(await phone.send(item)).toBe(LANGUAGE_SCREEN);
    const bemba = await phone.send('2');
    expect(bemba).toMatch(/^CON Ululimi lwenu nomba ni Ichibemba\.\n1\. Motoka/);
    expect(bemba).not.toMatch(/Please pick one|Napapata saleni/);
    // The confirmed menu takes its choices as the menu does.
    expect(await phone.send('1')).toMatch(/^CON Inshuwalansi ya motoka:/);
  });

  it.each([
    ['1', 'You have an unfinished session.', 'Buying travel cover for South Africa.', 'Continue'],
    [
      '2',
      'Mwaba ne fyo tamwapwishe.',
      'Ukushita inshuwalansi ya lwendo ku South Africa.',
      'Konkanyeni',
    ],
    [
      '3',
      'Muli ndi zimene simunamalize.',
      'Kugula inshuwalansi ya ulendo wopita ku South Africa.',
      'Pitirizani',
    ],
  ])(
    'names what is unfinished on the resume offer after a dropped call (language %s)',
    async (language, title, what, go) => {
      const phone = ussdCaller(() => harness.url, `resume-${language}`);
      await phone.dial();
      const menu = await phone.send(language);
      const travel = menu.split('\n')[2]?.slice(0, 1) ?? '';
      await phone.send(travel);
      await phone.send('South Africa');
      // The call drops; the caller dials again.
      const offer = await phone.dial();
      expect(offer.split('\n').slice(0, 3)).toEqual([`CON ${title}`, what, `1. ${go}`]);
      // Continue: the step the caller was on.
      expect(await phone.send('1')).not.toBe(offer);
    },
  );

  it('shows the language screen again on a key that is none of its choices', async () => {
    const phone = ussdCaller(() => harness.url, 'stray');
    expect(await phone.dial()).toBe(LANGUAGE_SCREEN);
    expect(await phone.send('7')).toBe(LANGUAGE_SCREEN);
    expect(await phone.send('hello')).toBe(LANGUAGE_SCREEN);
    expect(await phone.send('2')).toMatch(/^CON Mwaiseni/);
  });
});
