import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { captureScreens } from '../../bench/ussd-section.js';

/** One question of a scripted journey: its screen, and whether a typed answer fits it. */
interface Question {
  readonly screen: string;
  readonly fits: (typed: string) => boolean;
}

const PLATE: Question = { screen: 'Vehicle number plate:', fits: (t) => /^[A-Z]{3} \d+$/.test(t) };
const MAKE: Question = {
  screen: 'Vehicle make (e.g. Toyota):',
  fits: (t) => /^[A-Za-z]+$/.test(t),
};
const PERIOD: Question = {
  screen: 'Choose a period:\n1. 1 quarter ZMW 173.25',
  fits: (t) => t === '1',
};
const PAY: Question = {
  screen: '1 quarter: ZMW 173.25. Pay with:\n1. My number',
  fits: (t) => t === '1',
};
const DONE: Question = { screen: 'Approve ZMW 173.25 on your phone.', fits: () => true };

let server: Server | undefined;

/**
 * A USSD gateway endpoint (Africa's Talking form) walking `questions` in order: an answer that
 * does not fit asks the same question again with a hint, as insurechat does.
 */
async function scriptedJourney(questions: readonly Question[]): Promise<string> {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      const text = new URLSearchParams(body).get('text') ?? '';
      let at = 0;
      let hint = '';
      for (const typed of text === '' ? [] : text.split('*')) {
        const question = questions[at];
        if (question?.fits(typed)) {
          at += 1;
          hint = '';
        } else hint = '\nPlease answer again.';
      }
      response.end(`CON ${questions[at]?.screen ?? 'the end'}${hint}`);
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

describe('the bench walk driven by what each screen asks', () => {
  it('stops at the screen it waits for, leaving the inputs after it untyped', async () => {
    const url = await scriptedJourney([PLATE, MAKE, PERIOD, PAY, DONE]);
    const screens = await captureScreens(url, {
      msisdn: '+260971234560',
      inputs: ['ABC 1234', 'Toyota', '1', '1', '1'],
      until: 'Pay with:',
    });
    expect(screens).toHaveLength(4);
    expect(screens.at(-1)).toContain('Pay with:');
  });

  it('follows a journey in another order when the inputs are in that order', async () => {
    const url = await scriptedJourney([PERIOD, PLATE, MAKE, PAY]);
    const screens = await captureScreens(url, {
      msisdn: '+260971234560',
      inputs: ['1', 'ABC 1234', 'Toyota'],
      until: 'Pay with:',
    });
    expect(screens.map((screen) => screen.split('\n')[0])).toEqual([
      'Choose a period:',
      'Vehicle number plate:',
      'Vehicle make (e.g. Toyota):',
      '1 quarter: ZMW 173.25. Pay with:',
    ]);
  });

  it('fails when a screen asks again what the one before asked', async () => {
    const url = await scriptedJourney([PERIOD, PLATE, MAKE, PAY]);
    await expect(
      captureScreens(url, {
        msisdn: '+260971234560',
        inputs: ['ABC 1234', 'Toyota', '1'],
        until: 'Pay with:',
      }),
    ).rejects.toThrow(/does not answer "Choose a period:/);
  });

  it('fails when the inputs run out before the screen it waits for', async () => {
    const url = await scriptedJourney([PLATE, MAKE, PERIOD, PAY]);
    await expect(
      captureScreens(url, {
        msisdn: '+260971234560',
        inputs: ['ABC 1234', 'Toyota'],
        until: 'Pay with:',
      }),
    ).rejects.toThrow(/ran out before "Pay with:"/);
  });
});
