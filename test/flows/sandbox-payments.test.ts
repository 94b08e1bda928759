import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPrompt } from '../../src/conversation/index.js';
import type { Prompt } from '../../src/conversation/prompt.js';
import type { Reply } from '../../src/conversation/reply.js';
import { eventually } from '../support/eventually.js';
import { holderCar, type SandboxWorld, startSandboxWorld } from './sandbox-world.js';

// Payments that settle: the sandbox approves mobile money shortly after the request; the user
// asks "check status" until the outcome is known, as on a USSD phone with no push.

let world: SandboxWorld;
beforeAll(async () => {
  world = await startSandboxWorld({ settleDelayMs: 20 });
});
afterAll(async () => {
  await world.close();
});

const choose = (id: string): Reply => ({ type: 'user.choice', id });
const type = (text: string): Reply => ({ type: 'user.text', text });
const options = {
  audience: 'policyholder',
  deadlineMs: 10_000,
  address: { channel: 'ussd', address: '0971234567', locale: 'en' },
  caller: { kind: 'phone', phone: '0971234567' },
} as const;

async function say(key: string, ...replies: Reply[]): Promise<Prompt> {
  let shown: Prompt | undefined;
  for (const reply of replies) shown = await world.engine.turn(key, reply, options);
  if (!shown) throw new Error('nothing said');
  return shown;
}

/** Asks "check status" until the payment is no longer pending (bounded). */
async function checkUntilSettled(key: string): Promise<Prompt> {
  return eventually(
    'the payment is no longer pending',
    async () => {
      const shown = await say(key, choose('check'));
      return shown.key === 'pay.waitPhone' ? undefined : shown;
    },
    10_000,
  );
}

describe('motor cover paid by mobile money against the sandbox insurer', () => {
  it('issues the policy with its certificate, then renews it', async () => {
    await holderCar(world, 'AJQ 1912');
    const products = await say('test:pay:1', type('hi'), choose('motor'), choose('new'));
    const thirdParty = products.choices?.find((c) => c.label === 'Motor Third Party')?.id ?? '';
    const durations = await say('test:pay:1', choose(thirdParty), choose('mrc_private'));
    // The plate once priced; the caller's own number is the holder's without asking.
    const quote = await say(
      'test:pay:1',
      choose(durations.choices?.[0]?.id ?? ''),
      type('AJQ 1912'),
      choose('yes'),
      choose('yes'),
    );
    expect(quote.key, JSON.stringify(quote)).toBe('motor.confirmQuote');
    expect(await say('test:pay:1', choose('own'))).toMatchObject({ key: 'pay.waitPhone' });
    const issued = await checkUntilSettled('test:pay:1');
    expect(issued.key, JSON.stringify(issued)).toBe('motor.done');
    expect(issued.final).toBe(true);
    expect(issued.params?.policyNumber).not.toBe('');
    expect(issued.attachments?.[0]?.url).toMatch(/^https:\/\/files\.test\//);

    const renewal = await say(
      'test:pay:2',
      type('hi'),
      choose('motor'),
      choose('renew'),
      type('AJQ 1912'),
    );
    expect(renewal.key, JSON.stringify(renewal)).toBe('motor.confirmRenewal');
    expect(renewal.params?.policyNumber).toBe(issued.params?.policyNumber);
    expect(await say('test:pay:2', choose('own'))).toMatchObject({ key: 'pay.waitPhone' });
    const renewed = await checkUntilSettled('test:pay:2');
    expect(renewed.key, JSON.stringify(renewed)).toBe('motor.renewed');
  });

  it('tells the user a declined payment failed and lets them pay again', async () => {
    await holderCar(world, 'AJQ 1913');
    const products = await say('test:pay:3', type('hi'), choose('motor'), choose('new'));
    const thirdParty = products.choices?.find((c) => c.label === 'Motor Third Party')?.id ?? '';
    const durations = await say('test:pay:3', choose(thirdParty), choose('mrc_private'));
    await say(
      'test:pay:3',
      choose(durations.choices?.[0]?.id ?? ''),
      type('AJQ 1913'),
      choose('yes'),
      choose('yes'),
    );
    // A number ending in 1 declines in the sandbox.
    await say('test:pay:3', choose('other'), type('0977000001'));
    const failed = await checkUntilSettled('test:pay:3');
    expect(failed.key, JSON.stringify(failed)).toBe('pay.failed');
    expect(failed.choices?.map((c) => c.id)).toEqual(['retry', 'end']);
    expect((await say('test:pay:3', choose('retry'))).key).toBe('motor.confirmQuote');
  });
});

describe('travel cover paid by mobile money against the sandbox insurer', () => {
  it('issues the policy with its dates and certificate once paid', async () => {
    const destination = await say('test:pay:4', type('hi'), choose('travel'));
    expect(destination.key, JSON.stringify(destination)).toBe('travel.askDestination');
    const packages = await say(
      'test:pay:4',
      type('South Africa'),
      type('15/01/2099'),
      type('14'),
      type('Mwila Banda'),
      type('479974111'),
      choose('add'),
      type('Chanda Banda'),
      choose('spouse'),
      choose('continue'),
    );
    // Every package priced for the trip and the party before anything is chosen or paid.
    expect(packages).toMatchObject({ key: 'travel.pickPackage', params: { travellers: 2 } });
    const labels = renderPrompt(packages).choices.map((c) => c.label);
    expect(labels.every((label) => /: ZMW [\d,]+\.\d\d$/.test(label))).toBe(true);
    const pay = await say('test:pay:4', choose(packages.choices?.[0]?.id ?? ''));
    expect(pay).toMatchObject({
      key: 'travel.confirmQuote',
      params: { travellers: 2, startDate: '2099-01-15', endDate: '2099-01-28' },
    });
    expect(await say('test:pay:4', choose('own'))).toMatchObject({ key: 'pay.waitPhone' });
    const issued = await checkUntilSettled('test:pay:4');
    expect(issued.key, JSON.stringify(issued)).toBe('travel.done');
    expect(issued.params?.startDate).toBe('2099-01-15');
    expect(issued.params?.policyNumber).not.toBe('');
    expect(issued.attachments?.[0]?.url).toMatch(/^https:\/\/files\.test\//);
  });
});
