import { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeSlack } from '../channels/slack/fake-slack.js';
import { freePort } from '../channels/telegram/test-support.js';
import {
  ACCESS_TOKEN,
  PHONE_NUMBER_ID,
  type Screen,
  whatsappChat,
  whatsappEnv,
} from '../channels/whatsapp/whatsapp-chat.js';
import { type Sent, telegramChat } from '../server/telegram-webhook-chat.js';
import { startTestServer, type TestServer } from '../server/test-server.js';
import { tinyJpeg, tinyPdf } from '../support/document-bytes.js';
import { eventually } from '../support/eventually.js';
import { type GraphApi, startGraphApi } from '../support/graph-api.js';
import { slackStaff } from './slack-staff.js';

/*
 * A handoff drops nothing, through the whole server: staff replies sent "also to the channel"
 * and replies with files reach WhatsApp, Telegram and USSD customers; a reply after Resolve is
 * answered in the thread with Reopen; a customer's photo goes into the thread. WhatsApp by the
 * local Graph API, Telegram by its Bot API emulator, USSD by the simulator, staff by a local
 * Slack and signed Slack requests.
 */

const TELEGRAM_SECRET = 'handoff-files-telegram-secret';
const SIGNING_SECRET = 'handoff-files-slack-signing-secret';
const HANDOFF_CHANNEL = 'C0HANDFILES';
const PUBLIC_URL = 'https://insurechat.example.test';

let emulator: TelegramServer;
let slack: FakeSlack;
let graph: GraphApi;
let app: TestServer;

beforeAll(async () => {
  emulator = new TelegramServer({ port: await freePort(), host: '127.0.0.1' });
  await emulator.start();
  slack = new FakeSlack();
  await slack.start();
  graph = await startGraphApi({ phoneNumberId: PHONE_NUMBER_ID, accessToken: ACCESS_TOKEN });
  app = await startTestServer({
    ...whatsappEnv(graph),
    TELEGRAM_BOT_TOKEN: '646464:handoff-files',
    TELEGRAM_WEBHOOK_SECRET: TELEGRAM_SECRET,
    TELEGRAM_API_ROOT: emulator.config.apiURL,
    PUBLIC_URL,
    SLACK_BOT_TOKEN: 'xoxb-handoff-files',
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_ALLOWED_USERS: 'U0DESKONLY',
    SLACK_API_URL: `${slack.baseUrl}/api`,
    SLACK_HANDOFF_CHANNEL: HANDOFF_CHANNEL,
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await graph?.close();
  await slack?.stop();
  await emulator?.stop();
});

const local = () => `http://127.0.0.1:${app.server.info.bound?.port}`;
const staff = () => slackStaff({ slack, signingSecret: SIGNING_SECRET, channel: HANDOFF_CHANNEL });
/** A link the server gave out under PUBLIC_URL, fetched from the local server instead. */
const fetchLocal = (url: string) => fetch(url.replace(PUBLIC_URL, local()), { redirect: 'manual' });

/** A staff file as the Events API describes it in a `file_share` message, served by the fake. */
function staffFile(id: string, name: string, bytes: Uint8Array, mimetype: string) {
  return {
    id,
    name,
    title: name,
    mimetype,
    size: bytes.byteLength,
    url_private_download: slack.addFile(id, bytes, mimetype),
  };
}

/** What the local Slack received as file uploads into a thread. */
const uploadsTo = (threadTs: string) =>
  slack
    .callsTo('/api/files.completeUploadExternal')
    .map((call) => call.body as Record<string, unknown>)
    .filter((body) => body.thread_ts === threadTs);

describe('a WhatsApp customer with a person', () => {
  const chat = (waId: string) =>
    whatsappChat({
      graph,
      serverUrl: local(),
      waId,
      settled: async () => app.server.whatsapp?.settled(),
    });

  async function handedOver(waId: string): Promise<{
    root: { ts: string };
    people: ReturnType<typeof staff>;
    customer: ReturnType<typeof chat>;
  }> {
    const people = staff();
    const customer = chat(waId);
    let screen: Screen = await customer.text('Hi');
    for (let step = 0; step < 4 && !/talking to a person/i.test(screen.text); step += 1) {
      const choice = screen.choices.find((c) => /talk to a person|agree/i.test(c.title));
      if (!choice) throw new Error(`no way to a person on: ${screen.text}`);
      screen = await customer.tap(screen, new RegExp(choice.title));
    }
    expect(screen.text).toMatch(/talking to a person/i);
    return { root: await people.threadOpened(), people, customer };
  }

  it('gets a staff file as a document with its words, and a reply also sent to the channel, while forged events do nothing', async () => {
    // One chat per customer: its message ids count on (a repeated id is a duplicate).
    const { root, people, customer } = await handedOver('260971555001');
    const pdf = tinyPdf();
    const before = customer.sent().length;

    // A forged event (bad signature) with a file: refused, nothing fetched, nothing sent.
    const fetchedBefore = slack.callsTo('/files-pri').length;
    const forged = staffFile('F0FORGED', 'forged.pdf', pdf, 'application/pdf');
    expect(
      await people.reply(local(), root.ts, 'Forged file', 'v0=forged', {
        subtype: 'file_share',
        files: [forged],
      }),
    ).toBe(401);

    const file = staffFile('F0SCHEDULE', 'Your schedule.pdf', pdf, 'application/pdf');
    expect(
      await people.reply(local(), root.ts, 'Here is your schedule', undefined, {
        subtype: 'file_share',
        files: [file],
      }),
    ).toBe(200);
    await eventually('the document reached the customer', () =>
      customer.sent().some((message) => message.type === 'document'),
    );
    const sent = customer.sent().slice(before);
    const document = sent.find((message) => message.type === 'document')?.document as {
      link: string;
      filename: string;
    };
    expect(document.filename).toBe('Your schedule.pdf');
    const texts = sent
      .filter((message) => message.type === 'text')
      .map((message) => (message.text as { body: string }).body);
    expect(texts).toContain('From the insurer: Here is your schedule');
    // The file the customer opens is the one staff attached, fetched with the bot token.
    const opened = await fetchLocal(document.link);
    expect(opened.status).toBe(200);
    expect(Buffer.from(await opened.arrayBuffer())).toEqual(pdf);
    const fetched = slack.callsTo('/files-pri').slice(fetchedBefore);
    expect(fetched.map((call) => (call.body as { authorization: string }).authorization)).toEqual([
      'Bearer xoxb-handoff-files',
    ]);

    // "Also send to channel": a reply like any other.
    expect(
      await people.reply(local(), root.ts, 'Also for the team', undefined, {
        subtype: 'thread_broadcast',
        root: { ts: root.ts },
      }),
    ).toBe(200);
    await eventually('the broadcast reply reached the customer', () =>
      customer
        .sent()
        .some(
          (message) =>
            message.type === 'text' &&
            (message.text as { body: string }).body === 'From the insurer: Also for the team',
        ),
    );
    const all = customer.sent().map((message) => JSON.stringify(message));
    expect(all.some((text) => text.includes('Forged file') || text.includes('forged.pdf'))).toBe(
      false,
    );
  }, 90_000);

  it('gets one template for a staff file outside the 24-hour window, and the file with its words once they write', async () => {
    const waId = '260971555003';
    const { root, people, customer } = await handedOver(waId);
    // The window shuts, as its key's 24-hour TTL running out would.
    await app.redis.del(`${app.prefix}whatsapp-window:{${waId}}`);
    const before = customer.sent().length;
    const file = staffFile('F0LATE', 'Claim form.pdf', tinyPdf(), 'application/pdf');
    expect(
      await people.reply(local(), root.ts, 'Please sign this', undefined, {
        subtype: 'file_share',
        files: [file],
      }),
    ).toBe(200);
    await eventually('a template reached the customer', () =>
      customer
        .sent()
        .slice(before)
        .some((message) => message.type === 'template'),
    );
    await app.server.whatsapp?.settled();
    const pushed = customer.sent().slice(before);
    // One template, the one that promises a document: no words that leave the file behind.
    expect(pushed.map((message) => message.type)).toEqual(['template']);
    expect((pushed[0]?.template as { name?: string } | undefined)?.name).toBe(
      'insurechat_staff_file',
    );

    // Their reply reopens the window: the document and the words follow, once.
    const answered = await customer.text('ok');
    expect(answered.documents.map((document) => document.filename)).toEqual(['Claim form.pdf']);
    expect(answered.text).toContain('From the insurer: Please sign this');
    const again = await customer.text('thanks');
    expect(again.documents).toEqual([]);
  }, 90_000);

  it('puts a photo the customer sends during the handoff into the thread, and nothing into the flow', async () => {
    const { root, customer } = await handedOver('260971555002');
    graph.addMedia('media-handoff-1', tinyJpeg(), 'image/jpeg');
    const screen = await customer.photo('media-handoff-1');
    expect(screen.messages).toHaveLength(0);
    await eventually('the photo was uploaded to the thread', () => uploadsTo(root.ts).length > 0);
    const upload = uploadsTo(root.ts)[0] ?? {};
    expect(upload.channel_id).toBe(HANDOFF_CHANNEL);
    expect(String(upload.initial_comment)).toMatch(/Customer sent this file/);
    expect(String(upload.files)).toMatch(/\.jpg/);
    expect(slack.callsTo('/upload').length).toBeGreaterThan(0);
    await customer.text('done');
  }, 90_000);
});

describe('a Telegram customer with a person', () => {
  const chatOf = (chatId: number) =>
    telegramChat({ emulator, serverUrl: local(), secret: TELEGRAM_SECRET, chatId });

  it('gets a staff file with its words and a broadcast reply', async () => {
    const chat = chatOf(8_810_001);
    const people = staff();
    await chat.command('/start');
    expect((await chat.command('/human')).message.text).toMatch(/talking to a person/i);
    const root = await people.threadOpened();
    const jpeg = tinyJpeg();
    const file = staffFile('F0PHOTO', 'car.jpg', jpeg, 'image/jpeg');
    expect(
      await people.reply(local(), root.ts, '', undefined, { subtype: 'file_share', files: [file] }),
    ).toBe(200);
    // The emulator has no sendDocument: the channel sends the file as a link button instead.
    await eventually('the file reached the chat', () =>
      chat.sent().some((sent) => sent.message.text === 'File from the insurer'),
    );
    expect(chat.sent().map((sent) => sent.message.text)).toContain(
      'From the insurer: a file for you.',
    );
    const link = chat.sent().find((sent) => sent.message.text === 'File from the insurer') as Sent;
    const url = chat.buttonsOf(link)[0]?.url ?? '';
    const opened = await fetchLocal(url);
    expect(Buffer.from(await opened.arrayBuffer())).toEqual(jpeg);

    expect(
      await people.reply(local(), root.ts, 'Seen by the team too', undefined, {
        subtype: 'thread_broadcast',
      }),
    ).toBe(200);
    await eventually('the broadcast reached the chat', () =>
      chat.sent().some((sent) => sent.message.text === 'From the insurer: Seen by the team too'),
    );
    await chat.command('/done');
  }, 60_000);

  it('answers a reply after Resolve in the thread with Reopen, which brings the reply to the customer', async () => {
    const chat = chatOf(8_810_002);
    const people = staff();
    await chat.command('/start');
    await chat.command('/human');
    const root = await people.threadOpened();
    expect(await people.resolve(local(), root.ts)).toBe(200);
    await eventually('the customer was told', () =>
      chat.sent().some((sent) => /finished helping you/.test(sent.message.text ?? '')),
    );

    const texts = () => chat.sent().map((sent) => sent.message.text ?? '');
    const late = 'From the insurer: One more thing: bring your NRC.';
    expect(await people.reply(local(), root.ts, 'One more thing: bring your NRC.')).toBe(200);
    await eventually('the thread says the conversation is closed', () =>
      people.inThread(root.ts).some((message) => /conversation is closed/.test(message.text)),
    );
    const notice = people
      .inThread(root.ts)
      .find((message) => /conversation is closed/.test(message.text));
    expect(notice?.blocks).toContain('handoff.reopen');
    expect(texts()).not.toContain(late);

    // Reopen: the root gets Resolve back, the customer is told, then gets the reply.
    expect(await people.click(local(), root.ts, 'handoff.reopen', '1800000000.999999')).toBe(200);
    await eventually('the kept reply reached the chat', () => texts().includes(late));
    const reopened = texts().findIndex((text) => /has your conversation again/.test(text));
    expect(reopened).toBeGreaterThanOrEqual(0);
    expect(reopened).toBeLessThan(texts().indexOf(late));
    const restored = slack.callsTo('/api/chat.update').at(-1)?.body as Record<string, unknown>;
    expect(String(restored?.blocks)).toContain('handoff.resolve');
    // Open again: the next reply goes straight through, and a second Reopen changes nothing.
    expect(await people.reply(local(), root.ts, 'Thanks')).toBe(200);
    await eventually('the next reply reached the chat', () =>
      chat.sent().some((sent) => sent.message.text === 'From the insurer: Thanks'),
    );
    await chat.command('/done');
  }, 60_000);
});

describe('a USSD caller with a person', () => {
  const dial = (phoneNumber: string, sessionId: string) => async (input: string | null) => {
    const response = await fetch(`${local()}/simulator/ussd`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId, phoneNumber, input }),
    });
    return (await response.json()) as { text: string };
  };
  const sms = async (to: string): Promise<string[]> => {
    const response = await fetch(`${local()}/simulator/sms?to=${to}`);
    const body = (await response.json()) as { messages: { message: string }[] };
    return body.messages.map((message) => message.message);
  };

  it('gets a staff file as a short link by SMS, with the words of the reply', async () => {
    const phone = '0961333333';
    const people = staff();
    const call = dial(phone, `handoff-files-ussd-${Date.now()}`);
    const menu = await call(null);
    const item = /(\d+)\. Talk to a person/.exec(menu.text)?.[1] ?? '';
    expect((await call(item)).text).toMatch(/will reply to you by SMS/);
    const root = await people.threadOpened();
    const pdf = tinyPdf();
    const file = staffFile('F0LETTER', 'letter.pdf', pdf, 'application/pdf');
    expect(
      await people.reply(local(), root.ts, 'Your letter', undefined, {
        subtype: 'file_share',
        files: [file],
      }),
    ).toBe(200);
    await eventually('the SMS arrived', async () =>
      (await sms(phone)).some((text) => text.startsWith('From the insurer: Your letter')),
    );
    const text = (await sms(phone)).find((sent) => sent.startsWith('From the insurer: Your'));
    const link = /File from the insurer: (\S+)/.exec(text ?? '')?.[1] ?? '';
    expect(link).toMatch(new RegExp(`^${PUBLIC_URL}/c/[\\w-]{12}$`));
    expect(text?.length).toBeLessThanOrEqual(160);
    const redirect = await fetchLocal(link);
    expect(redirect.status).toBe(302);
    const opened = await fetchLocal(redirect.headers.get('location') ?? '');
    expect(Buffer.from(await opened.arrayBuffer())).toEqual(pdf);
    expect(await people.resolve(local(), root.ts)).toBe(200);
  }, 60_000);
});
