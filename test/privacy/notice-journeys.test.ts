import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../server/test-server.js';
import { ussdCaller } from '../server/ussd-caller.js';

// Issue 37 through the real server and Redis, as production runs USSD (a first dial asks the
// language): nothing is stored about a phone before the privacy notice is agreed, and the full
// notice is read whole on USSD in every language.

let harness: TestServer;

beforeAll(async () => {
  harness = await startTestServer({ USSD_ASK_LANGUAGE: 'true' }, { askConsent: true });
});
afterAll(async () => {
  await harness.close();
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
