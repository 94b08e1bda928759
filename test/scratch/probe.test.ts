import { afterAll, beforeAll, it } from 'vitest';
import { startTestServer, type TestServer } from '../server/test-server.js';
import { ussdCaller } from '../server/ussd-caller.js';

let app: TestServer;
beforeAll(async () => { app = await startTestServer(); }, 60_000);
afterAll(async () => { await app?.close(); });

it('probe', async () => {
  for (const phone of (process.env.PHONES ?? '+260966345678').split(',')) {
    const c = ussdCaller(() => app.url, 'probe', phone);
    console.log(phone, await c.dial());
    const inputs = (process.env.PROBE ?? '5').split(',');
    for (const i of inputs) console.log('>', i, '\n', await c.send(i));
    const out = await fetch(`${app.server.info.sandboxUrl?.replace(/\/api\/v1$/, '')}/sandbox/sms-outbox?to=${phone.slice(1)}`);
    console.log(await out.text());
  }
}, 60_000);
