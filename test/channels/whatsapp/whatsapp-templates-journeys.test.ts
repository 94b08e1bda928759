import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slackStaff } from '../../handoff/slack-staff.js';
import { startTestServer, type TestServer } from '../../server/test-server.js';
import { eventually } from '../../support/eventually.js';
import { type GraphApi, type GraphSent, startGraphApi } from '../../support/graph-api.js';
import { FakeSlack } from '../slack/fake-slack.js';
import { buyMotorUntilPaying } from './motor-journey.js';
import {
  ACCESS_TOKEN,
  PHONE_NUMBER_ID,
  type Screen,
  whatsappChat,
  whatsappEnv,
} from './whatsapp-chat.js';

/*
 * Issue 40: business-initiated messages as Meta runs them, through the whole server. The
 * customer's 24-hour window is shut by deleting its Redis key (as its 24-hour TTL would);
 * templates are read from the local Graph API, SMS from the sandbox's outbox, staff act in a
 * local Slack.
 */

const SIGNING_SECRET = 'templates-slack-signing-secret';
const HANDOFF_CHANNEL = 'C0TEMPLATES';

let graph: GraphApi;
let slack: FakeSlack;
let app: TestServer;
let url = '';

beforeAll(async () => {
  graph = await startGraphApi({ phoneNumberId: PHONE_NUMBER_ID, accessToken: ACCESS_TOKEN });
  slack = new FakeSlack();
  await slack.start();
  app = await startTestServer(
    {
      ...whatsappEnv(graph),
      SLACK_BOT_TOKEN: 'xoxb-templates',
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_ALLOWED_USERS: 'U0DESKONLY',
      SLACK_API_URL: `${slack.baseUrl}/api`,
      SLACK_HANDOFF_CHANNEL: HANDOFF_CHANNEL,
    },
    // Long enough for the test to shut the window between paying and the outcome.
    { sandbox: { settleDelayMs: 1_500 } },
  );
  url = `http://127.0.0.1:${app.server.info.bound?.port}`;
}, 60_000);

afterAll(async () => {
  await app?.close();
  await slack?.stop();
  await graph?.close();
});

const settled = async () => {
  await app.server.whatsapp?.settled();
};
const chatOf = (waId: string) => whatsappChat({ graph, serverUrl: url, waId, settled });
const staff = () => slackStaff({ slack, signingSecret: SIGNING_SECRET, channel: HANDOFF_CHANNEL });

/** Shuts the customer's 24-hour window, as its key's TTL running out would. */
async function shutWindow(waId: string): Promise<void> {
  await app.redis.del(`${app.prefix}whatsapp-window:{${waId}}`);
}

/** How many messages are kept for the customer until they write. */
async function heldCount(waId: string): Promise<number> {
  const raw = await app.redis.get(`${app.prefix}whatsapp-held:{${waId}}`);
  return raw === null ? 0 : (JSON.parse(raw) as unknown[]).length;
}

const templatesIn = (sent: readonly GraphSent[]) =>
  sent.filter((message) => message.type === 'template');
const templateOfSent = (message: GraphSent | undefined) =>
  message?.template as {
    name: string;
    language: { code: string };
    components: { parameters: { parameter_name: string; text: string }[] }[];
  };

/** A signed template status webhook, as Meta sends it to the app's business account. */
function templateStatusBody(name: string, event: string) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'WABA',
        time: Math.floor(Date.now() / 1_000),
        changes: [
          {
            field: 'message_template_status_update',
            value: {
              event,
              message_template_id: 1_234_567,
              message_template_name: name,
              message_template_language: 'en',
              reason: event === 'APPROVED' ? null : 'NONE',
              // A field Meta may add: read as nothing.
              other_info: { title: 'FIRST_PAUSE' },
            },
          },
        ],
      },
    ],
  };
}

/** The SMS the sandbox's gateway took for a number, oldest first. */
async function smsTo(waId: string): Promise<string[]> {
  const response = await fetch(`${url}/simulator/sms?to=${waId}`);
  const body = (await response.json()) as { messages: { message: string }[] };
  return body.messages.map((message) => message.message);
}

/** Opens a handoff from the main menu; resolves the customer's menu screen and the thread root. */
async function handOff(chat: ReturnType<typeof chatOf>, people: ReturnType<typeof staff>) {
  const menu = await chat.text('Hello');
  expect(menu.text).toMatch(/What would you like/);
  const asked = await chat.tap(menu, /talk to a person/i);
  expect(asked.text).toMatch(/person/i);
  const root = await people.threadOpened();
  return { menu, root };
}

describe('WhatsApp templates through the whole server', () => {
  it('sends exactly one template, the closing notice, when staff resolve outside the window; the step follows the customer reply', async () => {
    const waId = '260971230401';
    const chat = chatOf(waId);
    const people = staff();
    const { root } = await handOff(chat, people);
    await shutWindow(waId);

    const before = chat.sent().length;
    expect(await people.resolve(url, root.ts)).toBe(200);
    // Both pushes of Resolve are done once the closing notice and the step are kept.
    await eventually('the closing notice and the step were kept', async () =>
      (await heldCount(waId)) === 2 ? true : undefined,
    );
    const sent = chat.sent().slice(before);
    expect(sent).toHaveLength(1);
    expect(templatesIn(sent)).toHaveLength(1);
    expect(templateOfSent(sent[0]).name).toBe('insurechat_handoff_closed');
    expect(JSON.stringify(sent)).not.toMatch(/Welcome/);

    // Their reply reopens the window: where they were follows, in ordinary messages, once.
    const back: Screen = await chat.text('ok');
    expect(back.text).toMatch(/finished helping you\. Here is where you were:[\s\S]*Welcome/);
    expect(back.choices.some((choice) => /motor/i.test(choice.title))).toBe(true);
    expect(templatesIn(back.messages)).toHaveLength(0);
    expect(await heldCount(waId)).toBe(0);
  }, 60_000);

  it('sends one template for a payment outcome outside the window, and the certificate once the customer writes, once', async () => {
    const waId = '260971230404';
    const chat = chatOf(waId);
    await buyMotorUntilPaying(chat, 'BCT 4040', 'own');
    await shutWindow(waId);
    const from = chat.sent().length;
    await eventually('the outcome was pushed and its certificate kept', async () =>
      (await heldCount(waId)) === 1 ? true : undefined,
    );
    const pushed = chat.sent().slice(from);
    expect(pushed).toHaveLength(1);
    const template = templateOfSent(pushed[0]);
    expect(template.name).toBe('insurechat_policy_issued');
    expect(template.language.code).toBe('en');
    const parameters = Object.fromEntries(
      template.components[0]?.parameters.map((p) => [p.parameter_name, p.text]) ?? [],
    );
    expect(parameters.policy_number).toMatch(/^MTR-/);
    expect(parameters.amount).toMatch(/^ZMW [\d,.]+$/);
    // What was bought, as a sentence in the template's language, never the flow's data.
    expect(parameters.cover).toMatch(/^Motor [\w ]+ for BCT 4040$/);
    expect(parameters.start_date).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);

    // The reply the template asked for: the paid screen with its certificate.
    const reply = await chat.text('Thanks');
    expect(reply.text).toMatch(/^Paid ZMW [\s\S]*Your policy number is MTR-/);
    expect(reply.documents).toHaveLength(1);
    expect(reply.documents[0]?.filename).toBe(`${parameters.policy_number}-certificate.pdf`);

    // A second message is a turn as usual: the certificate is not sent again.
    const next = await chat.text('Hello');
    expect(next.documents).toHaveLength(0);
    expect(next.text).toMatch(/What would you like/);
  }, 90_000);

  it('sends by SMS while Meta has the template paused, and by template again once it is approved', async () => {
    const waId = '260971230407';
    const chat = chatOf(waId);
    const people = staff();
    const { root } = await handOff(chat, people);
    await shutWindow(waId);

    // Paused, with fields and values the channel does not know beside it: 200 all the same.
    const paused = await chat.post(templateStatusBody('insurechat_staff_reply', 'PAUSED'));
    expect(paused.status).toBe(200);
    expect((await chat.post(templateStatusBody('insurechat_other', 'SOMETHING_NEW'))).status).toBe(
      200,
    );

    const before = chat.sent().length;
    expect(await people.reply(url, root.ts, 'Your cover is valid from today.')).toBe(200);
    const sms = () => smsTo(waId);
    await eventually(
      'the reply went by SMS',
      async () =>
        (await sms()).some((text) => text.includes('From the insurer: Your cover is valid')) ||
        undefined,
    );
    expect(chat.sent().slice(before)).toHaveLength(0);

    // Approved again: the next reply goes as the template, its words a named parameter.
    expect((await chat.post(templateStatusBody('insurechat_staff_reply', 'APPROVED'))).status).toBe(
      200,
    );
    expect(await people.reply(url, root.ts, 'Anything else?')).toBe(200);
    await eventually('the reply went as a template', () =>
      templatesIn(chat.sent().slice(before)).length === 1 ? true : undefined,
    );
    const template = templateOfSent(templatesIn(chat.sent().slice(before))[0]);
    expect(template.name).toBe('insurechat_staff_reply');
    expect(template.components[0]?.parameters).toEqual([
      { type: 'text', parameter_name: 'reply', text: 'Anything else?' },
    ]);
    expect((await sms()).filter((text) => text.includes('Anything else?'))).toHaveLength(0);
  }, 60_000);

  it('sends by SMS a template Meta reports failed for being paused, once, and later events by SMS at once', async () => {
    const waId = '260971230408';
    const chat = chatOf(waId);
    const people = staff();
    const { root } = await handOff(chat, people);
    await shutWindow(waId);

    const before = chat.sent().length;
    expect(await people.reply(url, root.ts, 'We are checking your claim.')).toBe(200);
    await eventually('the reply went as a template', () =>
      templatesIn(chat.sent().slice(before)).length === 1 ? true : undefined,
    );
    const template = templatesIn(chat.sent().slice(before))[0];
    const failed = chat.envelope({
      statuses: [
        {
          id: template?.id,
          status: 'failed',
          timestamp: String(Math.floor(Date.now() / 1_000)),
          recipient_id: waId,
          errors: [{ code: 132015, title: 'Template is paused' }],
        },
      ],
    });
    // Meta may report it twice: one SMS.
    expect((await chat.post(failed)).status).toBe(200);
    expect((await chat.post(failed)).status).toBe(200);
    const told = async () =>
      (await smsTo(waId)).filter((text) => text.includes('We are checking your claim.'));
    await eventually('the failed template went by SMS', async () =>
      (await told()).length > 0 ? true : undefined,
    );
    expect(await told()).toHaveLength(1);

    // The template is taken as paused until Meta approves it again: the next reply is an SMS.
    expect(await people.reply(url, root.ts, 'Approved today.')).toBe(200);
    await eventually(
      'the next reply went by SMS',
      async () => (await smsTo(waId)).some((text) => text.includes('Approved today.')) || undefined,
    );
    expect(templatesIn(chat.sent().slice(before))).toHaveLength(1);
    await chat.post(templateStatusBody('insurechat_staff_reply', 'APPROVED'));
  }, 60_000);
  it('sends by SMS an event whose template Meta refuses as it is sent (paused), and the next one too', async () => {
    const waId = '260971230409';
    const chat = chatOf(waId);
    const people = staff();
    const { root } = await handOff(chat, people);
    await shutWindow(waId);

    const before = chat.sent().length;
    // Meta answers the template send itself with HTTP 400 and its code for a paused template.
    graph.failNext(1, 400, 132015);
    expect(await people.reply(url, root.ts, 'Your claim is with the assessor.')).toBe(200);
    const told = async (words: string) =>
      (await smsTo(waId)).filter((text) => text.includes(words));
    await eventually('the refused template went by SMS', async () =>
      (await told('Your claim is with the assessor.')).length > 0 ? true : undefined,
    );
    expect(await told('Your claim is with the assessor.')).toHaveLength(1);
    expect(templatesIn(chat.sent().slice(before))).toHaveLength(0);

    // Taken as paused: the next reply goes by SMS at once, with no template tried.
    expect(await people.reply(url, root.ts, 'The assessor calls tomorrow.')).toBe(200);
    await eventually('the next reply went by SMS', async () =>
      (await told('The assessor calls tomorrow.')).length > 0 ? true : undefined,
    );
    expect(templatesIn(chat.sent().slice(before))).toHaveLength(0);
    await chat.post(templateStatusBody('insurechat_staff_reply', 'APPROVED'));
  }, 60_000);
});
