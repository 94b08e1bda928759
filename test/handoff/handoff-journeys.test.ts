import { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeSlack } from '../channels/slack/fake-slack.js';
import { freePort } from '../channels/telegram/test-support.js';
import { answerMotorStep, type Sent, telegramChat } from '../server/telegram-webhook-chat.js';
import { startTestServer, type TestServer } from '../server/test-server.js';
import { eventually } from '../support/eventually.js';
import { advanceRedisTtls } from '../support/manual-clock.js';
import { expectMasked, slackStaff } from './slack-staff.js';

/*
 * Customers handed to a person, through the whole server: Telegram by its Bot API emulator, USSD
 * by the web simulator's routes, staff by a local Slack Web API and signed Slack requests.
 */

const TELEGRAM_SECRET = 'handoff-telegram-secret';
const SIGNING_SECRET = 'handoff-slack-signing-secret';
const HANDOFF_CHANNEL = 'C0HANDOFF';

let emulator: TelegramServer;
let slack: FakeSlack;
let app: TestServer;
let second: TestServer;

const env = () => ({
  TELEGRAM_BOT_TOKEN: '616161:handoff-journeys',
  TELEGRAM_WEBHOOK_SECRET: TELEGRAM_SECRET,
  TELEGRAM_API_ROOT: emulator.config.apiURL,
  PUBLIC_URL: 'https://insurechat.example.test',
  SLACK_BOT_TOKEN: 'xoxb-handoff',
  SLACK_SIGNING_SECRET: SIGNING_SECRET,
  // The desk's allow-list does not name the agent: the handoff channel's members answer.
  SLACK_ALLOWED_USERS: 'U0DESKONLY',
  SLACK_API_URL: `${slack.baseUrl}/api`,
  SLACK_HANDOFF_CHANNEL: HANDOFF_CHANNEL,
});

beforeAll(async () => {
  emulator = new TelegramServer({ port: await freePort(), host: '127.0.0.1' });
  await emulator.start();
  slack = new FakeSlack();
  await slack.start();
  app = await startTestServer(env());
  // A second instance on the same Redis keys: what one opens, the other can answer.
  second = await startTestServer(env(), { keyPrefix: app.prefix });
}, 60_000);

afterAll(async () => {
  await second?.close();
  await app?.close();
  await slack?.stop();
  await emulator?.stop();
});

const local = (server: TestServer) => `http://127.0.0.1:${server.server.info.bound?.port}`;
const staff = () => slackStaff({ slack, signingSecret: SIGNING_SECRET, channel: HANDOFF_CHANNEL });
const chatOf = (chatId: number) =>
  telegramChat({ emulator, serverUrl: local(app), secret: TELEGRAM_SECRET, chatId });

const MINUTE = 60_000;
/** The session store's idle lifetime (SESSION_DEFAULTS.ttlSeconds), which the servers use. */
const IDLE_MS = 15 * MINUTE;

/** Moves both instances' time forward: their Redis keys (sessions, handoffs) age by `ms`. */
const pass = (ms: number) => advanceRedisTtls(app.redis, app.prefix, ms);

/** Milliseconds the session record named by `sessionKey` has left in Redis; -2 when gone. */
async function sessionLeft(sessionKey: string): Promise<number> {
  return app.redis.pttl(`${app.prefix}session:{${sessionKey}}`);
}

/** One Prometheus sample's value from `/metrics` (0 when absent). */
async function metric(server: TestServer, sample: string): Promise<number> {
  const text = await (await fetch(`${local(server)}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${sample} `));
  return line ? Number(line.slice(sample.length + 1)) : 0;
}

/** Walks a Telegram chat through motor cover up to confirming the policyholder the NRC found. */
async function toConfirmHolder(chat: ReturnType<typeof telegramChat>): Promise<Sent> {
  let screen = await chat.command('/start');
  for (let step = 0; step < 25; step += 1) {
    if (/Correct\?/i.test(screen.message.text ?? '')) return screen;
    // A vehicle the insurer already knows (an earlier walk quoted it) is confirmed, not typed.
    const known = /^Is .+ your .+\?/.test(screen.message.text ?? '');
    const next = await (known ? chat.tap(screen, /yes/i) : answerMotorStep(chat, screen));
    if (!next) throw new Error(`unexpected screen: ${screen.message.text}`);
    screen = next;
  }
  throw new Error('never reached the policyholder confirmation');
}

/**
 * Staff resolve the handoff of a customer paused on the policyholder confirmation `left`: the
 * customer is told, shown that step again, and their answer to it continues the flow.
 */
async function resolveBackTo(
  chat: ReturnType<typeof telegramChat>,
  people: ReturnType<typeof staff>,
  threadTs: string,
  left: Sent,
): Promise<void> {
  const shownBefore = chat.sent().length;
  expect(await people.resolve(local(app), threadTs)).toBe(200);
  await eventually('the step was shown again', () => chat.sent().length >= shownBefore + 2);
  const [told, step] = chat.sent().slice(shownBefore);
  expect(told?.message.text).toMatch(/finished helping you. Here is where you were/);
  expect(step?.message.text).toBe(left.message.text);
  const next = await chat.tap(step as Sent, /yes|correct/i);
  expect(next.message.text).not.toBe(left.message.text);
  expect(next.message.text).toMatch(/ZMW|Pay with|e-?mail/i);
}

describe('human handoff on Telegram', () => {
  it('hands a customer mid-flow to a person in a Slack thread with masked context, carries messages both ways, and Resolve returns them to the step they left', async () => {
    const chat = chatOf(8_800_001);
    const people = staff();
    const openedBefore = await metric(app, 'insurechat_handoffs_opened_total{channel="telegram"}');
    const firstRepliesBefore = await metric(app, 'insurechat_handoff_first_reply_seconds_count');
    const resolvedBefore = await metric(app, 'insurechat_handoffs_resolved_total{by="staff"}');

    const left = await toConfirmHolder(chat);
    expect(left.message.text).toMatch(/Mwila Banda/);
    const asked = await chat.command('/human');
    expect(asked.message.text).toMatch(/talking to a person/i);

    // The thread root: channel, flow, the step as the customer sees it, answers — masked.
    const root = await people.threadOpened();
    expect(root.text).toMatch(/Telegram/);
    expect(root.blocks).toContain('motor-quote');
    expect(root.blocks).toMatch(/Policyholder: M\. B\.\.? Correct\?/);
    // The plate keeps its first letter (maskPersonalData, issue 37).
    expect(root.blocks).toContain('B•• ••••');
    expect(root.blocks).toMatch(/holderPhone: •+567/);
    expect(root.blocks).toContain('handoff.resolve');
    expectMasked(root.blocks, [
      '479974/11/1',
      '971234567',
      '8800001',
      'Mwila',
      'Banda',
      'BCE 7781',
    ]);
    expect(await metric(app, 'insurechat_handoffs_opened_total{channel="telegram"}')).toBe(
      openedBefore + 1,
    );

    // A forged staff reply does nothing; a signed one reaches the chat.
    const before = chat.sent().length;
    expect(await people.reply(local(app), root.ts, 'Forged words', 'v0=forged')).toBe(401);
    expect(await people.reply(local(app), root.ts, 'Hello, I am Mary. How can I help?')).toBe(200);
    await eventually('the staff reply reached the chat', () =>
      chat
        .sent()
        .some(
          (sent) => sent.message.text === 'From the insurer: Hello, I am Mary. How can I help?',
        ),
    );
    expect(
      chat
        .sent()
        .slice(before)
        .map((sent) => sent.message.text),
    ).not.toContain('From the insurer: Forged words');
    expect(await metric(app, 'insurechat_handoff_first_reply_seconds_count')).toBe(
      firstRepliesBefore + 1,
    );

    // The customer's answer goes into the thread, masked, and not to the paused flow.
    const quiet = chat.sent().length;
    await chat.send('Is my cover valid from today? NRC 479974/11/1, other number 0977123456');
    await eventually('the customer message reached the thread', () =>
      people.inThread(root.ts).some((message) => /^Customer: Is my cover valid/.test(message.text)),
    );
    const said = people.inThread(root.ts).find((message) => message.text.startsWith('Customer:'));
    expect(said?.text).toMatch(/NRC ••••••\/••\/•, other number •+456/);
    expectMasked(said?.text ?? '', ['479974/11/1', '0977123456']);
    expect(chat.sent()).toHaveLength(quiet);

    // A second staff reply is no first reply.
    expect(await people.reply(local(app), root.ts, 'Yes, once paid.')).toBe(200);
    await eventually('the second reply reached the chat', () =>
      chat.sent().some((sent) => sent.message.text === 'From the insurer: Yes, once paid.'),
    );

    // Resolve: the customer is shown the step they left, and their answer continues the flow.
    await resolveBackTo(chat, people, root.ts, left);
    expect(await metric(app, 'insurechat_handoffs_resolved_total{by="staff"}')).toBe(
      resolvedBefore + 1,
    );
    // The root lost its button and says who resolved it.
    const updated = slack.callsTo('/api/chat.update').at(-1)?.body as Record<string, unknown>;
    expect(String(updated?.ts)).toBe(root.ts);
    expect(String(updated?.blocks)).toContain('Resolved by <@U0AGENT>');
    expect(String(updated?.blocks)).not.toContain('handoff.resolve');

    // After the handoff a staff message in the old thread reaches no one.
    const after = chat.sent().length;
    expect(await people.reply(local(app), root.ts, 'Anything else?')).toBe(200);
    await chat.command('/help');
    expect(
      chat
        .sent()
        .slice(after)
        .map((sent) => sent.message.text),
    ).not.toContain('From the insurer: Anything else?');
    // Three staff messages, one first reply.
    expect(await metric(app, 'insurechat_handoff_first_reply_seconds_count')).toBe(
      firstRepliesBefore + 1,
    );
  }, 90_000);

  it('keeps the step of a customer whose handoff stays quiet for two hours: Resolve shows it, their next answer continues the flow, and the session then lives its usual idle time', async () => {
    const chat = chatOf(8_800_005);
    const people = staff();
    const left = await toConfirmHolder(chat);
    await chat.command('/human');
    const root = await people.threadOpened();

    // Longer than a session's idle lifetime, shorter than a handoff's: nobody writes meanwhile.
    await pass(2 * 60 * MINUTE);

    await resolveBackTo(chat, people, root.ts, left);

    // The handoff is over: the conversation is kept for the idle lifetime again, no longer.
    const idleLeft = await sessionLeft('tg:8800005');
    expect(idleLeft).toBeGreaterThan(0);
    expect(idleLeft).toBeLessThanOrEqual(IDLE_MS);
    await pass(IDLE_MS + 1_000);
    expect(await sessionLeft('tg:8800005')).toBe(-2);
    const gone = await chat.command('/done');
    expect(gone.message.text).toMatch(/not talking to a person/i);
    expect(gone.message.text).toMatch(/start/i);
  }, 90_000);

  it('keeps the step through a long handoff the customer ends with /done, and gives the session its usual idle time back', async () => {
    const chat = chatOf(8_800_006);
    const people = staff();
    const left = await toConfirmHolder(chat);
    await chat.command('/human');
    await people.threadOpened();
    await pass(3 * 60 * MINUTE);

    const back = await chat.command('/done');
    expect(back.message.text).toMatch(/back with the assistant/i);
    expect(back.message.text).toContain(left.message.text ?? '');
    const idleLeft = await sessionLeft('tg:8800006');
    expect(idleLeft).toBeGreaterThan(0);
    expect(idleLeft).toBeLessThanOrEqual(IDLE_MS);
  }, 90_000);

  it('opens from the menu button, keeps taps from the paused flow, and /done goes back to where the customer was', async () => {
    const chat = chatOf(8_800_002);
    const people = staff();
    const menu = await chat.command('/start');
    const asked = await chat.tap(menu, /talk to a person/i);
    expect(asked.message.text).toMatch(/talking to a person/i);
    const root = await people.threadOpened();
    expect(root.blocks).toContain('main-menu');

    // An old keyboard's tap does not move the paused flow.
    const tapped = await chat.tap(menu, /motor/i);
    expect(tapped.message.text).toMatch(/A person has your conversation/);

    const back = await chat.command('/done');
    expect(back.message.text).toMatch(/back with the assistant/i);
    expect(back.message.text).toMatch(/What would you like to do/);
    await eventually('the thread says the customer left', () =>
      people.inThread(root.ts).some((message) => /ended the conversation/.test(message.text)),
    );
    // Nothing more goes into the thread once it ended.
    const inThread = people.inThread(root.ts).length;
    const motor = await chat.tap(back, /motor/i);
    expect(motor.message.text).toMatch(/^Motor insurance/);
    expect(people.inThread(root.ts)).toHaveLength(inThread);
  }, 60_000);

  it("ignores the bot's own posts and edits in the thread, and says so when Slack refuses to open one", async () => {
    const chat = chatOf(8_800_004);
    const people = staff();
    await chat.command('/start');
    slack.refusing.add('chat.postMessage');
    const refused = await chat.command('/human');
    slack.refusing.delete('chat.postMessage');
    expect(refused.message.text).toMatch(/could not reach a person just now/);
    expect(refused.message.text).toMatch(/What would you like to do/);

    // Nothing was left half-open: asking again opens the thread.
    expect((await chat.command('/human')).message.text).toMatch(/talking to a person/i);
    const root = await people.threadOpened();
    const server = local(app);
    await people.reply(server, root.ts, 'Bot echo', undefined, { bot_id: 'B0INSURECHAT' });
    await people.reply(server, root.ts, 'Edited', undefined, { subtype: 'message_changed' });
    await people.reply(server, root.ts, 'The real reply');
    await eventually('the real reply arrived', () =>
      chat.sent().some((sent) => sent.message.text === 'From the insurer: The real reply'),
    );
    const texts = chat.sent().map((sent) => sent.message.text ?? '');
    expect(texts.filter((text) => text.startsWith('From the insurer:'))).toEqual([
      'From the insurer: The real reply',
    ]);
    await chat.command('/done');
  }, 60_000);

  it('delivers a staff reply received by another instance to a customer whose handoff was opened on the first', async () => {
    const chat = chatOf(8_800_003);
    const people = staff();
    await chat.command('/start');
    await chat.command('/human');
    const root = await people.threadOpened();

    expect(await people.reply(local(second), root.ts, 'Answered from instance B')).toBe(200);
    await eventually('the reply crossed instances', () =>
      chat
        .sent()
        .some((sent) => sent.message.text === 'From the insurer: Answered from instance B'),
    );
    expect(await people.resolve(local(second), root.ts)).toBe(200);
    await eventually('the resolve crossed instances', () =>
      chat.sent().some((sent) => /finished helping you/.test(sent.message.text ?? '')),
    );
  }, 60_000);
});

describe('without a handoff channel', () => {
  it('says no one is available, on USSD and on Telegram, and leaves the customer where they were', async () => {
    const alone = await startTestServer({
      TELEGRAM_BOT_TOKEN: '626262:no-handoff',
      TELEGRAM_WEBHOOK_SECRET: TELEGRAM_SECRET,
      TELEGRAM_API_ROOT: emulator.config.apiURL,
      PUBLIC_URL: 'https://insurechat.example.test',
    });
    try {
      const step = async (sessionId: string, input: string | null) => {
        const response = await fetch(`${local(alone)}/simulator/ussd`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ sessionId, phoneNumber: '0971000001', input }),
        });
        return ((await response.json()) as { text: string }).text;
      };
      const menu = await step('no-handoff-1', null);
      const item = /(\d+)\. Talk to a person/.exec(menu)?.[1] ?? '';
      const refused = await step('no-handoff-1', item);
      expect(refused).toMatch(/no one is available/);
      expect(refused).toMatch(/1\. Motor insurance/);
      expect(await step('no-handoff-1', '1')).toMatch(/^Motor insurance/);

      const posts = slack.callsTo('/api/chat.postMessage').length;
      const chat = telegramChat({
        emulator,
        serverUrl: local(alone),
        secret: TELEGRAM_SECRET,
        chatId: 8_800_009,
      });
      await chat.command('/start');
      const asked = await chat.command('/human');
      expect(asked.message.text).toMatch(/no one is available/);
      expect(asked.message.text).toMatch(/What would you like to do/);
      expect(slack.callsTo('/api/chat.postMessage')).toHaveLength(posts);
    } finally {
      await alone.close();
    }
  }, 60_000);
});

describe('human handoff on USSD', () => {
  /** One USSD step through the simulator's route, as the page posts it. */
  const dial = (phoneNumber: string, sessionId: string) => async (input: string | null) => {
    const response = await fetch(`${local(app)}/simulator/ussd`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId, phoneNumber, input }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { text: string; end: boolean };
  };
  const sms = async (to: string): Promise<string[]> => {
    const response = await fetch(`${local(app)}/simulator/sms?to=${to}`);
    const body = (await response.json()) as { messages: { message: string }[] };
    return body.messages.map((message) => message.message);
  };

  it('opens a thread from the main menu, brings the staff reply by SMS, shows the handoff screen on a re-dial, takes a message for the person there, and ends it', async () => {
    const phone = '0961111111';
    const people = staff();
    const openedBefore = await metric(app, 'insurechat_handoffs_opened_total{channel="ussd"}');

    const call = dial(phone, `handoff-ussd-${Date.now()}`);
    const menu = await call(null);
    const item = /(\d+)\. Talk to a person/.exec(menu.text)?.[1];
    expect(item).toBeDefined();
    const waiting = await call(item ?? '');
    expect(waiting.text).toMatch(/A person has your request and will reply to you by SMS/);
    expect(waiting.text).toMatch(/1\. End it and carry on/);

    const root = await people.threadOpened();
    expect(root.text).toMatch(/USSD/);
    expect(root.blocks).toMatch(/•+111/);
    expectMasked(root.blocks, ['961111111']);
    expect(await metric(app, 'insurechat_handoffs_opened_total{channel="ussd"}')).toBe(
      openedBefore + 1,
    );

    expect(
      await people.reply(
        local(app),
        root.ts,
        'We will call you at 10:00 <b>today</b> &amp; confirm.',
      ),
    ).toBe(200);
    await eventually('the staff reply arrived by SMS', async () =>
      (await sms(phone)).some((text) => text.startsWith('From the insurer: We will call you')),
    );
    expect((await sms(phone)).find((text) => text.startsWith('From the insurer'))).toBe(
      'From the insurer: We will call you at 10:00 <b>today</b> & confirm.',
    );

    // A new call during the handoff: the short screen, then back to the menu.
    const again = dial(phone, `handoff-ussd-again-${Date.now()}`);
    expect((await again(null)).text).toMatch(/will reply to you by SMS/);
    expect((await again('7')).text).toMatch(/will reply to you by SMS/);
    // Words typed there go to the person, masked; the screen still offers the way out.
    const sent = await again('Please call after 5pm. NRC 479974/11/1');
    expect(sent.text).toMatch(/^Sent\. The person will reply to you by SMS\.\n1\. End it/);
    await eventually('the caller message reached the thread', () =>
      people
        .inThread(root.ts)
        .some((message) => message.text === 'Customer: Please call after 5pm. NRC ••••••/••/•'),
    );
    const back = await again('1');
    expect(back.text).toMatch(/What would you like to do/);
    expect(back.end).toBe(false);
    await eventually('the thread says the caller left', () =>
      people.inThread(root.ts).some((message) => /ended the conversation/.test(message.text)),
    );
    // The next dial is an ordinary one.
    expect((await dial(phone, `handoff-ussd-after-${Date.now()}`)(null)).text).toMatch(
      /What would you like to do/,
    );
  }, 60_000);

  it("keeps a caller's session through a handoff that stays quiet for two hours, and gives it back its usual idle time once staff resolve it", async () => {
    const phone = '0961222222';
    const sessionKey = 'ussd:260961222222';
    const people = staff();
    const call = dial(phone, `handoff-ussd-quiet-${Date.now()}`);
    const menu = await call(null);
    const item = /(\d+)\. Talk to a person/.exec(menu.text)?.[1] ?? '';
    expect((await call(item)).text).toMatch(/will reply to you by SMS/);
    const root = await people.threadOpened();

    await pass(2 * 60 * MINUTE);
    // The paused conversation is still there, kept for the rest of the handoff's lifetime.
    expect(await sessionLeft(sessionKey)).toBeGreaterThan(IDLE_MS);
    expect((await dial(phone, `handoff-ussd-quiet-again-${Date.now()}`)(null)).text).toMatch(
      /will reply to you by SMS/,
    );

    expect(await people.resolve(local(app), root.ts)).toBe(200);
    await eventually('the caller was told by SMS', async () =>
      (await sms(phone)).some((text) => /finished helping you/.test(text)),
    );
    const idleLeft = await sessionLeft(sessionKey);
    expect(idleLeft).toBeGreaterThan(0);
    expect(idleLeft).toBeLessThanOrEqual(IDLE_MS);
    // The next dial is where the conversation stopped: the menu the handoff was opened from.
    expect((await dial(phone, `handoff-ussd-quiet-next-${Date.now()}`)(null)).text).toMatch(
      /What would you like to do/,
    );
    await pass(IDLE_MS + 1_000);
    expect(await sessionLeft(sessionKey)).toBe(-2);
  }, 60_000);

  it('tells a caller by SMS when staff resolve their handoff', async () => {
    const phone = '0971234567';
    const people = staff();
    const call = dial(phone, `handoff-ussd-resolve-${Date.now()}`);
    const menu = await call(null);
    const item = /(\d+)\. Talk to a person/.exec(menu.text)?.[1] ?? '';
    await call(item);
    const root = await people.threadOpened();
    expect(await people.resolve(local(app), root.ts)).toBe(200);
    await eventually('the caller was told by SMS', async () =>
      (await sms(phone)).some((text) =>
        /finished helping you. Dial \*384\*4628# to carry on/.test(text),
      ),
    );
    expect((await dial(phone, `handoff-ussd-next-${Date.now()}`)(null)).text).toMatch(
      /What would you like to do/,
    );
  }, 60_000);
});
