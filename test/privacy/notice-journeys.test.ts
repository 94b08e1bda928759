import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../../src/conversation/index.js';
import { FakeSlack } from '../channels/slack/fake-slack.js';
import { startTestServer, type TestServer } from '../server/test-server.js';
import { ussdCaller } from '../server/ussd-caller.js';
import { eventually } from '../support/eventually.js';

// Issue 37 through the real server and Redis, as production runs USSD (a first dial asks the
// language): nothing is stored about a phone before the privacy notice is agreed, and the full
// notice is read whole on USSD in every language.

let harness: TestServer;
const slack = new FakeSlack();
const HANDOFF_CHANNEL = 'C0PEOPLE';
const CONTROLLER = 'Mukuba Assurance Ltd';
const CONTACT = 'dpo@mukuba.example, 0211 000 111';

beforeAll(async () => {
  await slack.start();
  harness = await startTestServer(
    {
      USSD_ASK_LANGUAGE: 'true',
      PRIVACY_CONTROLLER: CONTROLLER,
      PRIVACY_CONTACT: CONTACT,
      SLACK_BOT_TOKEN: 'xoxb-notice',
      SLACK_SIGNING_SECRET: 'notice-signing-secret',
      SLACK_API_URL: `${slack.baseUrl}/api`,
      SLACK_HANDOFF_CHANNEL: HANDOFF_CHANNEL,
    },
    { askConsent: true },
  );
});
afterAll(async () => {
  await harness.close();
  await slack.stop();
});

/** Every key under the test's prefix, on every master, with its value as text. */
async function keysWithValues(): Promise<Array<{ key: string; text: string }>> {
  const { redis, prefix } = harness;
  const nodes = redis instanceof Cluster ? redis.nodes('master') : [redis];
  const found: Array<{ key: string; text: string }> = [];
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', `*${prefix}*`, 'COUNT', 500);
      cursor = next;
      for (const key of keys) {
        const type = await redis.type(key);
        const text =
          type === 'string'
            ? ((await redis.get(key)) ?? '')
            : type === 'hash'
              ? JSON.stringify(await redis.hgetall(key))
              : type === 'zset'
                ? JSON.stringify(await redis.zrange(key, '0', '-1'))
                : type === 'set'
                  ? JSON.stringify(await redis.smembers(key))
                  : '';
        found.push({ key, text });
      }
    } while (cursor !== '0');
  }
  return found;
}

/** Keys whose name or value names the phone (its last nine digits, in any form). */
async function keysNaming(msisdn: string): Promise<string[]> {
  const digits = msisdn.slice(-9);
  return (await keysWithValues())
    .filter(({ key, text }) => key.includes(digits) || text.includes(digits))
    .map(({ key }) => key);
}

describe('a first dial, before the notice', () => {
  it('picks Bemba, is shown the notice in Bemba at the first personal question, declines: no key names the phone', async () => {
    const phone = ussdCaller(() => harness.url, 'first-decline');
    expect(await phone.dial()).toMatch(/^CON Language \/ Ululimi \/ Chiyankhulo:/);
    const menu = await phone.send('2');
    // The menu itself asks nothing personal: no notice yet, in the language picked.
    expect(menu).toMatch(/^CON Mwaiseni/);
    // Only the call's own session names it (its key is the phone's); the language waits.
    expect(await keysNaming(phone.msisdn)).toEqual([
      `${harness.prefix}session:{ussd:${phone.msisdn}}`,
    ]);
    const notice = await phone.send('1');
    expect(notice).toMatch(/1\. Nasumina/);
    const declined = await phone.send('2');
    expect(declined).toMatch(/^END /);
    expect(await keysNaming(phone.msisdn)).toEqual([]);
    // Next dial: asked the language again, since nothing was kept.
    expect(await phone.dial()).toMatch(/^CON Language \/ Ululimi \/ Chiyankhulo:/);
  });

  it('keeps the language picked once the notice is agreed', async () => {
    const phone = ussdCaller(() => harness.url, 'first-agree');
    await phone.dial();
    await phone.send('3');
    expect(await phone.send('1')).toMatch(/1\. /);
    await phone.send('1');
    expect(await keysNaming(phone.msisdn)).not.toEqual([]);
    // Next dial: spoken to in Nyanja, not asked again.
    expect(await phone.dial()).toMatch(/^CON Muli ndi zimene simunamalize/);
    expect(await phone.send('2')).toMatch(/^CON Takulandirani/);
    expect(await phone.send('00')).toMatch(/^END/);
  });
});

describe('the full notice on USSD', () => {
  const languages = [
    { key: '1', locale: 'en', more: 'More', back: 'Back', abroad: 'outside Zambia' },
    { key: '2', locale: 'bem', more: 'Na fimbi', back: 'Bwelelamo', abroad: 'kunse ya Zambia' },
    { key: '3', locale: 'ny', more: 'Zina', back: 'Bwererani', abroad: 'kunja kwa Zambia' },
  ];
  const words = (text: string) => text.replace(/\s+/g, ' ').trim();

  it.each(languages)(
    'is read whole in $locale: every page reached with 98, nothing cut, back with 0',
    async ({ key, locale, more, back, abroad }) => {
      const phone = ussdCaller(() => harness.url, `full-${locale}`);
      await phone.dial();
      await phone.send(key);
      await phone.send('1');
      const pages = [await phone.send('3')];
      while (pages.at(-1)?.includes(`\n98 ${more}`)) pages.push(await phone.send('98'));
      expect(pages.length).toBeGreaterThan(3);
      for (const page of pages) {
        expect(page.startsWith('CON ')).toBe(true);
        expect(page.length - 4).toBeLessThanOrEqual(182);
        expect(page).not.toMatch(/\.\.\.(\n|$)/);
      }
      // Back from the last page shows the one before it.
      expect(await phone.send('0')).toBe(pages.at(-2));
      const read = words(
        pages
          .map((page) =>
            page.replace(/^CON /, '').replace(`\n98 ${more}`, '').replace(`\n0 ${back}`, ''),
          )
          .join('\n'),
      );
      const notice = t('privacy.noticeFull', { controller: CONTROLLER, contact: CONTACT }, locale);
      expect(read).toContain(words(notice));
      for (const named of [CONTROLLER, CONTACT, 'Telegram', 'Meta (WhatsApp)', 'Slack', 'SMS']) {
        expect(read).toContain(named);
      }
      expect(read).toContain(abroad);
      expect(read).toContain('Data Protection Commissioner');
      expect(read).toContain('Data Protection Act No. 3 of 2021');
      // The choices follow the text, numbered as on every screen.
      expect(pages.at(-1)).toMatch(new RegExp(`\\n1\\. .+\\n2\\. .+\\n0 ${back}$`));
      expect(await phone.send('2')).toMatch(/^END /);
      expect(await keysNaming(phone.msisdn)).toEqual([]);
    },
  );
});

describe('talking to a person', () => {
  /** What the local Slack received for the handoff channel, as text. */
  const posted = () =>
    slack
      .callsTo('/api/chat.postMessage')
      .map((call) => JSON.stringify(call.body))
      .filter((body) => body.includes(HANDOFF_CHANNEL));

  it('asks consent before anything reaches staff; declining sends nothing, agreeing posts the words with NRC and phone masked', async () => {
    const phone = ussdCaller(() => harness.url, 'person');
    const before = posted().length;
    await phone.dial();
    const menu = await phone.send('1');
    const person = /(\d+)\. Talk to a person/.exec(menu)?.[1] ?? '';
    expect(person).not.toBe('');
    const consent = await phone.send(person);
    expect(consent).toMatch(
      /^CON A person at the insurer will read what you write and see the photos you send, in Slack/,
    );
    expect(consent).toMatch(/1\. Agree, talk to a person\n2\. Decline/);
    expect(posted()).toHaveLength(before);

    const declined = await phone.send('2');
    expect(declined).toMatch(/Nothing was sent to a person\./);
    expect(declined).toMatch(/Talk to a person/);
    expect(posted()).toHaveLength(before);
    expect(await keysNaming(phone.msisdn)).toEqual([
      `${harness.prefix}session:{ussd:${phone.msisdn}}`,
    ]);

    expect(await phone.send(person)).toMatch(/^CON A person at the insurer/);
    expect(await phone.send('1')).toMatch(/A person has your request/);
    await eventually('the thread opened', () => posted().length > before);
    const sent = await phone.send(
      'My NRC is 479974111 and call me on 971234567 or 0971 234 567 please',
    );
    expect(sent).toMatch(/Sent\. The person will reply to you by SMS/);
    await eventually('the words reached the thread', () =>
      posted().some((body) => body.includes('call me on')),
    );
    const words = posted().find((body) => body.includes('call me on')) ?? '';
    expect(words).toContain('My NRC is ••••••/••/• and call me on ••••••567 or •••••••567 please');
    for (const body of posted()) {
      expect(body).not.toMatch(/479974111|971234567|0971 234 567|234 567/);
      expect(body).not.toContain(phone.msisdn.slice(-9));
    }
  });
});
