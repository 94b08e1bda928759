import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_SECRET, startTestServer, type TestServer } from '../../server/test-server.js';

let harness: TestServer;
let counter = 0;

beforeAll(async () => {
  harness = await startTestServer();
});
afterAll(async () => {
  await harness.close();
});

/** A fresh Africa's Talking caller: its own number and session, history joined by `*`. */
function caller() {
  counter += 1;
  const number = `+2609650${String(Date.now() % 1000).padStart(3, '0')}${String(counter).padStart(2, '0')}`;
  const session = `${number}-strand-${counter}`;
  const history: string[] = [];
  const post = async (text: string): Promise<string> => {
    const response = await fetch(`${harness.url}/ussd/africastalking`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-ussd-secret': GATEWAY_SECRET,
      },
      body: new URLSearchParams({
        sessionId: session,
        serviceCode: '*384*4628#',
        phoneNumber: number,
        networkCode: '64501',
        text,
      }),
    });
    return response.text();
  };
  return {
    dial: () => post(''),
    async send(input: string) {
      history.push(input);
      return post(history.join('*'));
    },
  };
}

describe('USSD callers are never stranded', () => {
  it.each([
    ['1', 'Motor insurance:'],
    ['2', 'Destination country:'],
    ['3', 'No policies were found'],
    ['4', 'Claims:'],
  ])(
    'returns to the main menu on 0 from the first screen of menu entry %s',
    async (entry, first) => {
      const phone = caller();
      await phone.dial();
      expect(await phone.send(entry)).toMatch(new RegExp(`^CON ${first}`));
      const back = await phone.send('0');
      expect(back).toMatch(/^CON Welcome\. What would you like to do\?/);
      expect(back).not.toContain('Cancelled');
      // The menu works again: the same entry opens the same flow.
      expect(await phone.send(entry)).toMatch(new RegExp(`^CON ${first}`));
    },
  );

  it('still ends the call with Cancelled on 00 from a first screen', async () => {
    const phone = caller();
    await phone.dial();
    await phone.send('1');
    expect(await phone.send('00')).toMatch(/^END Cancelled\./);
  });

  it('asks again for a travel destination that is no country, and takes one typed loosely', async () => {
    const phone = caller();
    await phone.dial();
    await phone.send('2');
    expect(await phone.send('Atlantis')).toBe(
      'CON Destination country:\nEnter a country, such as South Africa.',
    );
    expect(await phone.send('1')).toMatch(/^CON Destination country:/);
    expect(await phone.send('germany')).toMatch(/^CON Travel start date/);
  });

  it('keeps the call and the answers given after three wrong travel start dates', async () => {
    const phone = caller();
    await phone.dial();
    await phone.send('2');
    expect(await phone.send('Zambia')).toMatch(/^CON Travel start date/);
    const first = await phone.send('tomorrow');
    expect(first).toMatch(/^CON Travel start date \(DD\/MM\/YYYY\):/);
    expect(first).toContain('such as 05/03/2027');
    await phone.send('32/13/2026');
    const third = await phone.send('soon');
    expect(third).toMatch(/^CON Travel start date \(DD\/MM\/YYYY\):/);
    expect(third).toContain('go Back (0)');
    expect(third).toContain('Your answers are kept');
    expect(third).not.toContain('Too many tries');
    // A fourth wrong answer still re-asks; Back reaches the destination question, answer intact.
    expect(await phone.send('later')).toMatch(/^CON Travel start date/);
    expect(await phone.send('0')).toMatch(/^CON Destination country:/);
    expect(await phone.send('Zambia')).toMatch(/^CON Travel start date/);
    const next = new Date(Date.now() + 10 * 86_400_000);
    const typed = `${String(next.getUTCDate()).padStart(2, '0')}/${String(next.getUTCMonth() + 1).padStart(2, '0')}/${next.getUTCFullYear()}`;
    const after = await phone.send(typed);
    expect(after).toMatch(/^CON /);
    expect(after).not.toMatch(/Travel start date/);
  });

  // Issue 23: a stranger learns at the plate step, without the car's details, that it is someone
  // else's, not after typing their NRC, names and email.
  it("tells a stranger at the plate step that the README's insured plate is another holder's, and takes another plate", async () => {
    const phone = caller();
    await phone.dial();
    // Motor → New cover → Third Party → private use → first period: priced, then the plate.
    for (const input of ['1', '1', '1', '1', '1']) await phone.send(input);
    expect(await phone.send('AJQ 1909')).toBe(
      [
        'CON AJQ 1909 is registered to another holder. Only the phone on record for it can insure it here.',
        '1. SMS the holder',
        '2. Another plate',
        '3. End',
      ].join('\n'),
    );
    expect(await phone.send('2')).toBe('CON Vehicle number plate:');
    // Another plate is taken up at once: the new car from the README moves on to its questions.
    expect(await phone.send('BCD 4321')).toMatch(/^CON Make, model and year/);
  });
});
