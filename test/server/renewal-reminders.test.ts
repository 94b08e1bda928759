import { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../channels/telegram/test-support.js';
import { eventually } from '../support/eventually.js';
import { type ManualClock, manualClock } from '../support/manual-clock.js';
import { type Sent, telegramChat } from './telegram-webhook-chat.js';
import { GATEWAY_SECRET, startTestServer, type TestServer } from './test-server.js';
import { closingAfterEnd, ussdCaller } from './ussd-caller.js';

/*
 * Renewal reminders through the whole server: a motor policy bought on Telegram and one bought
 * on USSD, the reminder clock moved by hand to 14 and to 3 days before their end, two instances
 * sharing Redis (and the insurer) scanning at once; the Telegram reminder's Renew now and the
 * USSD menu's Renew item each lead to a paid renewal at the price shown.
 */

const SECRET = 'renewal-reminders-secret';
const TOKEN = '626262:renewal-reminders';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let emulator: TelegramServer;
let first: TestServer;
let second: TestServer;
let clock: ManualClock;

beforeAll(async () => {
  emulator = new TelegramServer({ port: await freePort(), host: '127.0.0.1' });
  await emulator.start();
  clock = manualClock();
  const telegram = {
    TELEGRAM_BOT_TOKEN: TOKEN,
    TELEGRAM_WEBHOOK_SECRET: SECRET,
    TELEGRAM_API_ROOT: emulator.config.apiURL,
    PUBLIC_URL: 'https://insurechat.example.test',
  };
  first = await startTestServer(telegram, { reminderClock: clock.now });
  const sandbox = first.server.sandbox;
  if (!sandbox || !first.server.info.sandboxUrl) throw new Error('no embedded sandbox');
  // A second instance: same Redis keys, same insurer, same SMS provider, same bot.
  second = await startTestServer(
    {
      ...telegram,
      PARTNER_API_URL: first.server.info.sandboxUrl,
      PARTNER_API_KEY: sandbox.apiKey,
      SMS_API_URL: `${new URL(first.server.info.sandboxUrl).origin}/version1/messaging`,
      SMS_API_KEY: sandbox.apiKey,
    },
    { reminderClock: clock.now, keyPrefix: first.prefix },
  );
}, 60_000);

afterAll(async () => {
  await second?.close();
  await first?.close();
  await emulator?.stop();
});

/** The first server itself (its `url` is PUBLIC_URL, which only Telegram is told). */
const local = () => `http://127.0.0.1:${first.server.info.bound?.port}`;

function sandbox() {
  const found = first.server.sandbox;
  if (!found) throw new Error('the first server runs the embedded sandbox');
  return found;
}

/** Sets the reminder clock to `hour` o'clock in Lusaka (UTC+2), `daysBefore` days before `date`. */
function setLusakaTime(date: string, daysBefore: number, hour: number): void {
  const target = Date.parse(`${date}T00:00:00Z`) - daysBefore * DAY + (hour - 2) * HOUR;
  clock.advance(target - clock.now());
}

/** Both instances scan at the same moment, as two workers of one schedule could. */
async function scanOnBoth() {
  const [a, b] = await Promise.all([first.server.reminders.scan(), second.server.reminders.scan()]);
  return { sent: a.sent + b.sent, quiet: a.quiet && b.quiet };
}

/** A USSD caller, with the SMS the sandbox's provider delivered to them (oldest first). */
function smsCaller() {
  const phone = ussdCaller(local, 'reminders');
  return { ...phone, sms: () => sandbox().smsOutbox.list(phone.number) };
}

/** Buys motor cover on USSD, paying from the caller's own number; resolves the closing screen. */
async function buyOnUssd(phone: ReturnType<typeof smsCaller>, plate: string): Promise<string> {
  const answers: ReadonlyArray<readonly [RegExp, string]> = [
    [/^Welcome/, '1'],
    [/^Motor insurance:/, '1'],
    [/^Choose cover/, '1'],
    [/number plate/i, plate],
    [/make, model and year/i, 'Toyota Corolla 2015'],
    [/Vehicle use/i, '1'],
    [/Chassis/i, `CH${plate.slice(-4)}01`],
    [/Engine number/i, `EN${plate.slice(-4)}01`],
    [/Choose a period/i, '1'],
    [/mobile number/i, '1'],
    [/NRC/, `${100_000 + Math.floor(Math.random() * 899_999)}101`],
    [/full name/i, 'Mwila Banda'],
    [/e-?mail/i, 'mwila@example.com'],
    [/Correct\?/, '1'],
    [/^Is .* your /, '1'],
    [/Pay with:/, '1'],
  ];
  let screen = await phone.dial();
  const closing: string[] = [];
  for (let step = 0; step < 40 && !/^END /.test(screen); step += 1) {
    if (/Pay with:/.test(screen)) {
      // The call ends before the PIN prompt (issue 38); the outcome shows on the next dial.
      const ended = await phone.send('1');
      await eventually('the payment settled', () =>
        sandbox()
          .payments.all()
          .some((t) => t.msisdn?.endsWith(phone.number.slice(-9)) && t.status !== 'Pending'),
      );
      screen = await closingAfterEnd(phone, ended);
      break;
    }
    const text = screen.replace(/^(CON|END) /, '');
    if (/^Paid /.test(text) || closing.length > 0) {
      // The closing screen runs over two pages: read them all.
      closing.push(text.replace(/\n98 More$/, ''));
      screen = await phone.send('98');
      continue;
    }
    if (/^Approve/.test(text)) {
      // The caller approves on their phone; the sandbox settles it shortly. Check status.
      await eventually('the payment settled', () =>
        sandbox()
          .payments.all()
          .some((t) => t.msisdn?.endsWith(phone.number.slice(-9)) && t.status !== 'Pending'),
      );
      screen = await phone.send('1');
      continue;
    }
    const answer = answers.find(([pattern]) => pattern.test(text))?.[1];
    if (answer === undefined) throw new Error(`no answer for screen:\n${screen}`);
    screen = await phone.send(answer);
  }
  return closing.length > 0 ? `END ${[...closing, screen.slice(4)].join(' ')}` : screen;
}

/** Buys motor cover on Telegram, paying by mobile money; resolves the chat's closing message. */
async function buyOnTelegram(chat: ReturnType<typeof telegramChat>, plate: string) {
  let screen = await chat.command('/start');
  const paid = () => chat.sent().find((sent) => /^Paid ZMW/.test(sent.message.text ?? ''));
  for (let step = 0; step < 40 && !/Approve/i.test(screen.message.text ?? ''); step += 1) {
    const text = screen.message.text ?? '';
    if (/What would you like/i.test(text)) screen = await chat.tap(screen, /motor/i);
    else if (/^Motor insurance/i.test(text)) screen = await chat.tap(screen, /new cover/i);
    else if (/^Choose cover|Vehicle use|Choose a period/i.test(text))
      screen = await chat.tap(screen, /./);
    else if (/number plate/i.test(text)) screen = await chat.type(plate);
    else if (/make, model and year/i.test(text)) screen = await chat.type('Toyota Corolla 2017');
    else if (/Chassis/i.test(text)) screen = await chat.type(`CH${plate.slice(-4)}02`);
    else if (/Engine number/i.test(text)) screen = await chat.type(`EN${plate.slice(-4)}02`);
    else if (/mobile number/i.test(text)) screen = await chat.shareOwnContact('+260971234567');
    else if (/NRC/i.test(text)) screen = await chat.type('479974/11/1');
    else if (/full name/i.test(text)) screen = await chat.type('Mwila Banda');
    else if (/e-?mail/i.test(text)) screen = await chat.type('mwila@example.com');
    else if (/Correct\?/i.test(text)) screen = await chat.tap(screen, /yes|correct/i);
    else if (/Pay with/i.test(text)) screen = await chat.tap(screen, /another/i);
    else if (/number to pay/i.test(text)) screen = await chat.shareOwnContact('+260971234567');
    else throw new Error(`unexpected screen: ${text}`);
  }
  await eventually('the outcome was pushed into the chat', () => paid() !== undefined);
  return paid() as Sent;
}

/**
 * The end date a closing screen names, as the user reads it ("… 23/11/2026 to 22/11/2027. …"),
 * back in the insurer's form `YYYY-MM-DD`.
 */
function endDateOn(text: string): string {
  const found = / to (\d{2})\/(\d{2})\/(\d{4})/.exec(text);
  if (!found) throw new Error(`no end date on: ${text}`);
  return `${found[3]}-${found[2]}-${found[1]}`;
}

const reminderSms = (phone: ReturnType<typeof smsCaller>) =>
  phone.sms().filter((sms) => /^Motor cover MTR-/.test(sms.message));

it('reminds a Telegram buyer and a USSD buyer once at 14 and once at 3 days, never at night nor after STOP, with two instances scanning; Renew now and the menu lead to a paid renewal at the price shown', async () => {
  const chat = telegramChat({
    emulator,
    serverUrl: local(),
    secret: SECRET,
    chatId: 7_800_001,
  });
  const bought = await buyOnTelegram(chat, 'BDR 4411');
  const telegramPolicy = /policy number is (MTR-\S+)\./.exec(bought.message.text ?? '')?.[1];
  expect(bought.message.text).toMatch(/We will remind you before it ends/);
  const phone = smsCaller();
  const ussdDone = await buyOnUssd(phone, 'BDR 4412');
  // One USSD page for the outcome; the notice that reminders will come rides on its SMS.
  expect(ussdDone).toMatch(/^END Paid ZMW [\d,.]+\. .* Your policy number is MTR-\S+\.$/);
  const ussdPolicy = /policy number is (MTR-\S+)\./.exec(ussdDone)?.[1];
  await eventually('the reminder notice arrived', () =>
    phone.sms().some((sms) => sms.message.includes('We will remind you by SMS')),
  );
  // The outcome SMS and the notice, each one segment: together they would take three
  // (issue 38); the notice rides on the outcome only when both fit one.
  expect(phone.sms()).toHaveLength(2);
  for (const sent of phone.sms()) expect(sent.message.length).toBeLessThanOrEqual(160);
  const notice = phone.sms().find((sms) => sms.message.includes('We will remind you by SMS'));
  expect(notice?.message).toContain(
    `We will remind you by SMS before ${ussdPolicy} ends, so you can renew in time. Reply STOP to opt out.`,
  );
  const stopper = smsCaller();
  await buyOnUssd(stopper, 'BDR 4413');
  // The third buyer replies STOP to our SMS, once it has come: an authenticated inbound SMS from
  // the gateway. (Replying before the purchase's SMS lands would leave that SMS the latest.)
  // Both of its messages: the outcome and the notice after it.
  await eventually('the third buyer got our SMS', () => stopper.sms().length > 1);
  const stop = await fetch(`${local()}/sms/inbound`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ from: stopper.number, to: '4628', text: 'STOP' }),
  });
  expect(stop.status).toBe(401);
  const stopped = await fetch(`${local()}/sms/inbound?secret=${GATEWAY_SECRET}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ from: stopper.number, to: '4628', text: ' stop ' }),
  });
  expect(stopped.status).toBe(200);
  // Found by what it says: the purchase's SMS may land around the reply.
  expect(stopper.sms().find((sms) => /^Renewal reminders are/.test(sms.message))?.message).toMatch(
    /^Renewal reminders are off/,
  );

  const end = endDateOn(bought.message.text ?? '');
  expect(endDateOn(ussdDone)).toBe(end);
  const reminders = () =>
    chat.sent().filter((sent) => /^Motor cover MTR-/.test(sent.message.text ?? ''));

  // 14 days before, at 21:00 and at 06:00 Lusaka time: quiet hours, nothing goes out.
  setLusakaTime(end, 14, 21);
  expect(await scanOnBoth()).toEqual({ sent: 0, quiet: true });
  setLusakaTime(end, 13, 6);
  expect(await scanOnBoth()).toEqual({ sent: 0, quiet: true });
  expect(reminders()).toHaveLength(0);
  expect(reminderSms(phone)).toHaveLength(0);

  // 07:00: both instances scan at once; each holder gets one reminder on their own channel.
  setLusakaTime(end, 13, 7);
  expect((await scanOnBoth()).sent).toBe(2);
  await eventually('the Telegram reminder arrived', () => reminders().length === 1);
  setLusakaTime(end, 13, 12);
  expect((await scanOnBoth()).sent).toBe(0);
  expect(reminders()).toHaveLength(1);
  expect(reminderSms(phone)).toHaveLength(1);
  expect(reminderSms(stopper)).toHaveLength(0);
  expect(reminders()[0]?.message.text).toBe(
    `Motor cover ${telegramPolicy} (Motor Third Party for BDR 4411) ends on ${end.split('-').reverse().join('/')}. Renew now to stay insured.`,
  );
  expect(chat.buttonsOf(reminders()[0] as Sent).map((button) => button.text)).toEqual([
    'Renew now',
    'Stop reminders',
  ]);
  // The purchase's notice may still be waiting when the clock jumps here: the gateway then sends
  // it in the same SMS after the reminder. The reminder leads either way.
  expect(reminderSms(phone)[0]?.message.split('\n')[0]).toBe(
    `Motor cover ${ussdPolicy} (Motor Third Party for BDR 4412) ends on ${end.split('-').reverse().join('/')}. To renew, dial *384*4628# and choose Renew ${ussdPolicy}. Reply STOP to stop reminders.`,
  );

  // 3 days before: one more each, whichever instance scans, however often.
  setLusakaTime(end, 3, 8);
  expect((await scanOnBoth()).sent).toBe(2);
  await eventually('the second Telegram reminder arrived', () => reminders().length === 2);
  setLusakaTime(end, 2, 9);
  expect((await scanOnBoth()).sent).toBe(0);
  expect(reminders()).toHaveLength(2);
  expect(reminderSms(phone)).toHaveLength(2);
  expect(reminderSms(stopper)).toHaveLength(0);

  // Telegram: Renew now on the reminder opens the renewal at its price, paid to the end.
  const priced = await chat.tap(reminders()[1] as Sent, /Renew now/);
  expect(priced.message.text).toMatch(
    new RegExp(`^Renew ${telegramPolicy} \\S+ to \\S+: ZMW [\\d,]+\\.\\d\\d\\. Pay with:`),
  );
  const shown = /ZMW ([\d,]+\.\d\d)/.exec(priced.message.text ?? '')?.[1] ?? '';
  const asked = await chat.tap(priced, /another/i);
  await chat.shareOwnContact('+260971234567');
  expect(asked.message.text).toMatch(/number to pay/i);
  const renewed = () =>
    chat.sent().find((sent) => /is renewed/.test(sent.message.text ?? '') && sent !== bought);
  await eventually('the renewal outcome was pushed into the chat', () => renewed() !== undefined);
  expect(renewed()?.message.text).toMatch(`Paid ZMW ${shown}. Policy ${telegramPolicy} is renewed`);
  const renewal = sandbox()
    .payments.all()
    .filter((t) => t.description === `Renewal of ${telegramPolicy}` && t.status === 'Success');
  expect(renewal).toHaveLength(1);
  expect(renewal[0]?.amount.toFixed(2)).toBe(shown.replace(/,/g, ''));

  // USSD: the next dial offers the renewal first, which opens at its price and is paid.
  const menu = await phone.dial();
  expect(menu).toMatch(
    new RegExp(`^CON Welcome\\. What would you like to do\\?\\n1\\. Renew ${ussdPolicy}\\n`),
  );
  const ussdPriced = await phone.send('1');
  expect(ussdPriced).toMatch(
    new RegExp(`^CON Renew ${ussdPolicy} \\S+ to \\S+: ZMW [\\d,]+\\.\\d\\d\\. Pay with:`),
  );
  const ussdShown = /ZMW ([\d,]+\.\d\d)/.exec(ussdPriced)?.[1] ?? '';
  // The call ends before the PIN prompt (issue 38); the next dial shows the outcome.
  const ussdEnded = await phone.send('1');
  expect(ussdEnded).toMatch(`END Approve ZMW ${ussdShown}`);
  await eventually('the USSD renewal settled', () =>
    sandbox()
      .payments.all()
      .some((t) => t.description === `Renewal of ${ussdPolicy}` && t.status !== 'Pending'),
  );
  expect(await closingAfterEnd(phone, ussdEnded)).toMatch(
    `END Paid ZMW ${ussdShown}. Policy ${ussdPolicy} is renewed`,
  );
  const ussdRenewal = sandbox()
    .payments.all()
    .filter((t) => t.description === `Renewal of ${ussdPolicy}` && t.status === 'Success');
  expect(ussdRenewal).toHaveLength(1);
  expect(ussdRenewal[0]?.amount.toFixed(2)).toBe(ussdShown.replace(/,/g, ''));

  // The Telegram holder turns reminders off from the menu; the USSD holder does not. At 14 days
  // before the renewed period ends, only the USSD holder is reminded, of the new end date.
  const newEnd = endDateOn(renewed()?.message.text ?? '');
  // The renewed policy's certificate follows its outcome message: let it arrive first.
  await eventually(
    'the renewal certificate arrived',
    () => chat.sent().filter((sent) => sent.message.text === 'Insurance certificate').length === 2,
  );
  const menuOnTelegram = await chat.command('/start');
  expect(chat.buttonsOf(menuOnTelegram).map((button) => button.text)).toContain('Stop reminders');
  const off = await chat.tap(menuOnTelegram, /Stop reminders/);
  expect(off.message.text).toMatch(/^Renewal reminders are off\./);
  setLusakaTime(newEnd, 14, 9);
  expect((await scanOnBoth()).sent).toBe(1);
  expect(reminders()).toHaveLength(2);
  expect(
    reminderSms(phone).some((sms) =>
      sms.message.startsWith(
        `Motor cover ${ussdPolicy} (Motor Third Party for BDR 4412) ends on ${newEnd.split('-').reverse().join('/')}.`,
      ),
    ),
  ).toBe(true);

  // /metrics: reminders by milestone and channel, and the renewals that followed them.
  const metrics = await (await fetch(`${local()}/metrics`)).text();
  expect(metrics).toMatch(
    /insurechat_renewal_reminders_sent_total\{milestone="14",channel="telegram"\} 1/,
  );
  expect(metrics).toMatch(
    /insurechat_renewal_reminders_sent_total\{milestone="3",channel="ussd"\} 1/,
  );
  expect(metrics).toMatch(/insurechat_renewals_after_reminder_total\{channel="telegram"\} 1/);
  expect(metrics).toMatch(/insurechat_renewals_after_reminder_total\{channel="ussd"\} 1/);

  // The Telegram holder turns reminders back on from the menu (no SMS to reply START to): the
  // 3-day reminder of the renewed period reaches them again, as it does the USSD holder.
  const menuWhileOff = await chat.command('/start');
  const switches = chat.buttonsOf(menuWhileOff).map((button) => button.text);
  expect(switches).toContain('Turn reminders on');
  expect(switches).not.toContain('Stop reminders');
  const on = await chat.tap(menuWhileOff, /Turn reminders on/);
  expect(on.message.text).toBe(
    'Renewal reminders are on again. We will remind you before your cover ends.',
  );
  setLusakaTime(newEnd, 3, 9);
  expect((await scanOnBoth()).sent).toBe(2);
  await eventually('the reminder after turning back on arrived', () => reminders().length === 3);
  expect(reminders()[2]?.message.text).toMatch(
    `Motor cover ${telegramPolicy} (Motor Third Party for BDR 4411) ends on ${newEnd.split('-').reverse().join('/')}.`,
  );
  expect(chat.buttonsOf(await chat.command('/start')).map((button) => button.text)).toContain(
    'Stop reminders',
  );

  if (process.env.PRINT_REMINDERS) {
    console.log(
      [
        '--- Telegram',
        ...chat
          .sent()
          .slice(-8)
          .map((sent) => sent.message.text),
        '--- SMS',
        ...phone.sms().map((sms) => sms.message),
        ...stopper.sms().map((sms) => sms.message),
      ].join('\n\n'),
    );
  }
}, 180_000);
