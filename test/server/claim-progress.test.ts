import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { startTestServer, type TestServer } from './test-server.js';
import { dialAndAnswer, GROUP_LIFE_DEATH_ANSWERS, ussdCaller } from './ussd-caller.js';

/*
 * Issue 40, claim progress pushed: a claim reported on USSD and moved on at the insurer (the
 * insurer's own steps, which the spec leaves unnamed) is told to its reporter by SMS once per
 * state, when the sync reads the claim books, through the real server, engine, Redis and sandbox.
 */

const REPORTER = '+260955123987';

let app: TestServer;
let local: string;

beforeAll(async () => {
  app = await startTestServer();
  local = `http://127.0.0.1:${app.server.info.bound?.port}`;
}, 60_000);

afterAll(async () => {
  await app?.close();
});

function sandbox(): Sandbox {
  const found = app.server.sandbox;
  if (!found) throw new Error('no embedded sandbox');
  return found;
}

/** What the sandbox's SMS provider delivered to the reporter about `number`, oldest first. */
const toldOf = (number: string) =>
  sandbox()
    .smsOutbox.list(REPORTER)
    .map((sms) => sms.message)
    .filter((message) => message.includes(number));

async function reportDeath(): Promise<string> {
  const screens = await dialAndAnswer(
    ussdCaller(() => local, 'progress', REPORTER),
    GROUP_LIFE_DEATH_ANSWERS,
  );
  const number = /GLC-\d+/.exec(screens.at(-1) ?? '')?.[0];
  if (!number) throw new Error(`no claim number on: ${screens.at(-1)}`);
  return number;
}

describe('claim progress pushed to its reporter', () => {
  it('tells the USSD reporter by SMS once per state the insurer moves the claim to, and nothing while it stays Intimated', async () => {
    const number = await reportDeath();
    const sync = () => app.server.holdingsSync.runNow();

    await sync();
    expect(toldOf(number).filter((message) => message.startsWith('Update on claim'))).toEqual([]);

    expect(sandbox().advanceClaim(number, 'Approved')).toBeDefined();
    await sync();
    await sync();
    const approved = toldOf(number).filter((message) => message.startsWith('Update on claim'));
    expect(approved).toEqual([`Update on claim ${number}: the insurer now shows it as Approved.`]);

    sandbox().advanceClaim(number, 'Settled');
    await sync();
    await sync();
    expect(toldOf(number).filter((message) => message.startsWith('Update on claim'))).toEqual([
      `Update on claim ${number}: the insurer now shows it as Approved.`,
      `Update on claim ${number}: the insurer now shows it as Settled.`,
    ]);
  }, 90_000);

  it('tells no one of a claim its reporter did not report through insurechat', async () => {
    const elsewhere = [...sandbox().state.claims.values()].find(
      (claim) => claim.status === 'Intimated' || claim.status === 'Documented',
    );
    expect(elsewhere).toBeDefined();
    const number = elsewhere?.claimNumber ?? '';
    const before = sandbox().smsOutbox.list().length;
    sandbox().advanceClaim(number, 'Approved');
    await app.server.holdingsSync.runNow();
    const after = sandbox()
      .smsOutbox.list()
      .slice(before)
      .filter((sms) => sms.message.includes(number));
    expect(after).toEqual([]);
  }, 60_000);
});
