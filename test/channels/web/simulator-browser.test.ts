import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/test-server.js';
import { launchChromium, type TestBrowser } from '../../support/chromium.js';

const ARTIFACTS = join(process.cwd(), 'test-artifacts');
let harness: TestServer;
let context: BrowserContext;
let chrome: TestBrowser | undefined;

beforeAll(async () => {
  harness = await startTestServer();
  chrome = await launchChromium();
  context = chrome.context;
}, 60_000);

afterAll(async () => {
  await chrome?.close();
  await harness?.close();
});

/** What a customer types on each screen of the motor purchase, chosen by what the screen asks. */
const ANSWERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^Welcome/, '1'],
  [/^Motor insurance:/, '1'],
  [/^Choose cover/, '1'],
  [/number plate/i, `BCA ${1000 + Math.floor(Math.random() * 8999)}`],
  [/make, model and year/i, 'Toyota Corolla 2015'],
  [/Vehicle use/i, '1'],
  [/Chassis/i, 'CH123456'],
  [/Engine number/i, 'EN123456'],
  [/Choose a period/i, '1'],
  [/mobile number/i, '1'],
  [/NRC/, '479974111'],
  [/full name/i, 'Mwila Banda'],
  [/e-?mail/i, 'mwila@example.com'],
  [/Correct\?/, '1'],
  [/Pay with/i, '1'],
  [/Confirm|Pay ZMW/i, '1'],
];

async function screenText(page: Page): Promise<string> {
  return (await page.getByTestId('ussd-screen').textContent()) ?? '';
}

describe('the web USSD simulator in a browser', () => {
  it('dials, buys a motor policy with a success test number and shows the confirmation SMS', async () => {
    const page = await context.newPage();
    await page.goto(`${harness.url}/`);
    await expect.poll(() => page.getByTestId('phone-number').inputValue()).toBe('0971234567');
    expect(await page.getByTestId('test-number').count()).toBeGreaterThanOrEqual(4);

    await page.getByTestId('dial-button').click();
    await expect
      .poll(() => page.getByTestId('session-status').getAttribute('data-status'))
      .toBe('active');

    const seen: string[] = [];
    for (let step = 0; step < 30; step += 1) {
      const text = await screenText(page);
      seen.push(text);
      // Mobile money lets the call go before the PIN prompt (issue 38): the session ends here.
      if (/Approve .* when your phone asks for your PIN/i.test(text)) break;
      const answer = ANSWERS.find(([pattern]) => pattern.test(text.split('\n')[0] ?? ''))?.[1];
      if (answer === undefined)
        throw new Error(`no answer for screen:\n${text}\nafter:\n${seen.join('\n---\n')}`);
      await page.getByTestId('reply-input').fill(answer);
      await page.getByTestId('send-button').click();
      // The next screen is there once it differs and the phone takes input again, or the
      // session has ended on it.
      await expect
        .poll(
          async () =>
            (await screenText(page)) !== text &&
            ((await page.getByTestId('send-button').isEnabled()) ||
              (await page.getByTestId('session-status').getAttribute('data-status')) === 'ended'),
        )
        .toBe(true);
    }
    expect(seen.at(-1)).toMatch(/Approve .* when your phone asks for your PIN/);
    expect(await page.getByTestId('session-status').getAttribute('data-status')).toBe('ended');

    // The sandbox settles the payment, calls the server back, and the outcome goes out by SMS.
    // The outcome is found by what it says: the reminder notice may come as its own SMS.
    const paid = page.getByTestId('sms-message').filter({ hasText: /Paid ZMW/ });
    await expect.poll(() => paid.count(), { timeout: 20_000, interval: 250 }).toBeGreaterThan(0);
    const message = (await paid.first().textContent()) ?? '';
    expect(message).not.toMatch(/did not go through/i);
    expect(message).toMatch(/Policy number/i);
    // The certificate link in the SMS is a short link (one SMS segment) to a signed URL this
    // server serves.
    const href = await paid.first().locator('a').first().getAttribute('href');
    expect(href).toMatch(/\/c\/[\w-]+$/);
    const certificate = await fetch(href ?? '');
    expect(certificate.status).toBe(200);
    expect(certificate.headers.get('content-type')).toBe('application/pdf');

    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({
      path: join(ARTIFACTS, 'simulator-motor-purchase.png'),
      fullPage: true,
    });
  }, 90_000);
});
