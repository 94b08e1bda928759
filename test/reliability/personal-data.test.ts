import { createHmac } from 'node:crypto';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { motorPurchaseInputs } from '../support/motor-purchase-inputs.js';
import { newPhone, startServer, TELEGRAM_SECRET, type TestServer, walk } from './harness.js';
import { freePort } from './redis-process.js';

/** The seeded policyholder the journeys reuse by NRC: 479974/11/1, Mwila Banda. */
const NRC_PATTERNS = [/479974\/11\/1/, /(?<!\d)479974111(?!\d)/];
const NAME_PATTERNS = [/mwila/i, /banda/i];

/** An MSISDN in any of its written forms: +260…, 260…, 0… or the bare national number. */
function msisdnPattern(msisdn: string): RegExp {
  const national = msisdn.replace(/\D/g, '').slice(-9);
  return new RegExp(`(?<!\\d)(?:\\+?260|0)?${national}(?!\\d)`);
}

const SLACK_SIGNING_SECRET = 'reliability-slack-signing-secret';
const SLACK_USER = 'U0RELIABLE';

/** Where Slack's `response_url` points: a local listener that keeps what the bot answered. */
interface ResponseHook {
  readonly url: string;
  readonly bodies: string[];
  close(): Promise<void>;
}

async function startResponseHook(): Promise<ResponseHook> {
  const bodies: string[] = [];
  const server: Server = createHttpServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      bodies.push(body);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/response`,
    bodies,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('personal data in logs', () => {
  let test: TestServer;
  let emulator: TelegramServer;
  let hook: ResponseHook;

  beforeAll(async () => {
    hook = await startResponseHook();
    emulator = new TelegramServer({ port: await freePort(), host: '127.0.0.1' });
    await emulator.start();
    test = await startServer({
      logLevel: 'debug',
      sandbox: { settleDelayMs: 20 },
      paymentBackoffMs: [200, 400],
      listen: true,
      telegramApiRoot: emulator.config.apiURL,
      env: {
        TELEGRAM_BOT_TOKEN: '123456:reliability',
        TELEGRAM_WEBHOOK_SECRET: TELEGRAM_SECRET,
        // Updates are posted to the webhook below, so Telegram runs in webhook mode (a public URL
        // set); the address itself is never called back in these tests.
        PUBLIC_URL: 'http://127.0.0.1:9',
        SLACK_BOT_TOKEN: 'xoxb-reliability',
        SLACK_SIGNING_SECRET,
        SLACK_ALLOWED_USERS: SLACK_USER,
      },
    });
  });

  afterAll(async () => {
    await test.close();
    await emulator.stop();
    await hook.close();
  });

  it('a USSD motor purchase paid by mobile money, with its SMS, leaves no NRC, MSISDN or name in the logs', async () => {
    const phone = newPhone();
    await walk(test, phone, motorPurchaseInputs(phone.msisdn));
    const paying = await test.ussd(phone, '1');
    expect(paying.status).toBe(200);
    const outbox = test.server.sandbox!.smsOutbox;
    await eventually('an SMS reached the phone', () => outbox.list(phone.msisdn).length > 0);
    await test.ussd(phone, '1');

    const logs = test.logs.text();
    expect(logs).toContain('"route":"/ussd/africastalking"');
    for (const pattern of [...NRC_PATTERNS, ...NAME_PATTERNS, msisdnPattern(phone.msisdn)]) {
      expect(logs).not.toMatch(pattern);
    }
  });

  it('a web-simulator journey paying from another number leaves neither number in the logs', async () => {
    const phone = newPhone();
    const payer = newPhone();
    const steps: Array<string | null> = [
      null,
      ...motorPurchaseInputs(phone.msisdn),
      '2',
      payer.msisdn.replace('+260', '0'),
    ];
    let last = '';
    for (const input of steps) {
      const response = await test.server.app.inject({
        method: 'POST',
        url: '/simulator/ussd',
        payload: { sessionId: phone.sessionId, phoneNumber: phone.msisdn, input },
      });
      expect(response.statusCode).toBe(200);
      last = response.body;
    }
    expect(last.length).toBeGreaterThan(0);

    const logs = test.logs.text();
    expect(logs).toContain('"route":"/simulator/ussd"');
    for (const pattern of [
      ...NRC_PATTERNS,
      ...NAME_PATTERNS,
      msisdnPattern(phone.msisdn),
      msisdnPattern(payer.msisdn),
    ]) {
      expect(logs).not.toMatch(pattern);
    }
  });

  it('a Telegram motor quote from a named user sharing their contact leaves no NRC, phone or name in the logs', async () => {
    const chatId = 700_000 + Math.floor(Math.random() * 100_000);
    const phone = newPhone();
    const from = { id: chatId, is_bot: false, first_name: 'Mwila', last_name: 'Banda' };
    const chat = { id: chatId, type: 'private', first_name: 'Mwila', last_name: 'Banda' };
    let updateId = Math.floor(Math.random() * 1_000_000);
    const send = async (update: Record<string, unknown>) => {
      updateId += 1;
      const response = await test.server.app.inject({
        method: 'POST',
        url: '/telegram/webhook',
        headers: { 'x-telegram-bot-api-secret-token': TELEGRAM_SECRET },
        payload: { update_id: updateId, ...update },
      });
      expect(response.statusCode).toBe(200);
    };
    const message = (extra: Record<string, unknown>) => ({
      message: { message_id: updateId, date: Math.floor(Date.now() / 1000), chat, from, ...extra },
    });

    const TYPED: Record<string, string> = {
      'motor.askPlate': 'BZQ 7001',
      'motor.askVehicle': 'Toyota Corolla 2018',
      'motor.askName': 'Jane Doe',
      'motor.askEmail': 'jane@example.com',
    };
    const shown: string[] = [];
    await send(
      message({ text: '/start', entities: [{ type: 'bot_command', offset: 0, length: 6 }] }),
    );
    // Answer whatever the flow asks, the way a user would, until it waits for the payment.
    for (let step = 0; step < 20; step += 1) {
      const prompt = await test.prompt(`tg:${chatId}`);
      if (!prompt || prompt.final || prompt.key.startsWith('pay.wait')) break;
      shown.push(prompt.key);
      // The NRC typed is another holder's: this user goes on as a new holder (no code, issue 35).
      const pick = prompt.choices?.find(
        (c) => !['back', 'end', 'card', 'renew', 'send'].includes(c.id),
      );
      if (prompt.input === 'phone' || prompt.input === 'contact') {
        await send(
          message({
            contact: { phone_number: phone.msisdn, first_name: 'Mwila', user_id: chatId },
          }),
        );
      } else if (prompt.input === 'nrc') {
        await send(message({ text: '479974/11/1' }));
      } else if (prompt.input === 'text') {
        // A car of the user's own, new to the insurer: another holder's plate is not quoted.
        await send(message({ text: TYPED[prompt.key] ?? 'Toyota' }));
      } else if (pick) {
        await send({
          callback_query: {
            id: `cb-${updateId}`,
            from,
            chat_instance: 'reliability',
            message: { message_id: 1, date: 0, chat, text: 'menu' },
            data: pick.id,
          },
        });
      } else {
        break;
      }
    }
    expect(shown).toEqual(
      expect.arrayContaining(['motor.askHolderNrc', 'motor.askName', 'pay.askPhone']),
    );

    const logs = test.logs.text();
    expect(logs).toContain('"route":"/telegram/webhook"');
    for (const pattern of [...NRC_PATTERNS, ...NAME_PATTERNS, msisdnPattern(phone.msisdn)]) {
      expect(logs).not.toMatch(pattern);
    }
  }, 90_000);

  it('a Slack staff lookup of a household by NRC leaves neither the NRC nor the household names in the logs', async () => {
    const body = new URLSearchParams({
      token: 'unused',
      team_id: 'T0RELIABLE',
      team_domain: 'reliability',
      channel_id: 'C0RELIABLE',
      channel_name: 'claims',
      user_id: SLACK_USER,
      user_name: 'staff',
      command: '/insure',
      text: 'household 123456/10/1',
      response_url: hook.url,
      trigger_id: 'trigger',
    }).toString();
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = createHmac('sha256', SLACK_SIGNING_SECRET)
      .update(`v0:${timestamp}:${body}`)
      .digest('hex');

    const response = await test.server.app.inject({
      method: 'POST',
      url: '/slack/events',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-slack-request-timestamp': timestamp,
        'x-slack-signature': `v0=${signature}`,
      },
      payload: body,
    });

    expect(response.statusCode).toBe(200);
    await eventually('the Slack answer was posted', () => hook.bodies.length > 0);
    // The lookup really ran: the staff member was shown the household.
    expect(hook.bodies.join(' ')).toContain('GF-2025-000001');
    const logs = test.logs.text();
    expect(logs).toContain('"route":"/slack/events"');
    for (const pattern of [/123456\/10\/1/, /(?<!\d)123456101(?!\d)/, /chanda/i, /mulenga/i]) {
      expect(logs).not.toMatch(pattern);
    }
  });
});
