import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../../src/conversation/index.js';
import { newPhone, startServer, type TestServer } from './harness.js';

const SESSIONS = 2_000;
/** "Check again" on the engine's still-working screens. */
const CHECK_AGAIN = '1';
const MAX_CHECKS = 30;

/** A turn that ran past the USSD deadline is answered "still working" and finished later. */
function isStillWorking(body: string): boolean {
  return body.includes(t('engine.stillWorking')) || body.includes(t('engine.busy'));
}

/**
 * Four journeys whose screens differ at every step after the dial (motor, travel, cover by NRC,
 * claims): a session shown another session's screen, or a turn applied twice or not at all,
 * shows a screen its own journey does not have at that step.
 */
const JOURNEYS: readonly (readonly string[])[] = [
  ['1', '1'],
  ['2', '1'],
  ['3', '1'],
  ['4', '1'],
];

describe('load held', () => {
  let test: TestServer;
  let expected: string[][];

  beforeAll(async () => {
    test = await startServer({ logLevel: 'silent' });
    // Each journey's screens, walked once by a lone phone.
    expected = [];
    for (const inputs of JOURNEYS) {
      const phone = newPhone();
      const screens = [(await test.ussd(phone, '')).body];
      for (const input of inputs) screens.push((await test.ussd(phone, input)).body);
      expected.push(screens);
    }
  });

  afterAll(async () => {
    await test.close();
  });

  it('the four journeys show different screens at every step after the dial', () => {
    for (let step = 1; step <= 2; step += 1) {
      expect(new Set(expected.map((screens) => screens[step])).size).toBe(JOURNEYS.length);
    }
  });

  it(`serves ${SESSIONS} concurrent USSD sessions with no error, no lost turn and no crossed screen, even when turns outlast the deadline`, async () => {
    const failures: string[] = [];
    let turns = 0;
    await Promise.all(
      Array.from({ length: SESSIONS }, async (_, index) => {
        const journey = index % JOURNEYS.length;
        const phone = newPhone();
        const inputs = ['', ...JOURNEYS[journey]!];
        for (const [step, input] of inputs.entries()) {
          let answer = await test.ussd(phone, input);
          // Overloaded turns finish after the deadline; the phone asks again, as a user would.
          for (let check = 0; check < MAX_CHECKS && isStillWorking(answer.body); check += 1) {
            answer = await test.ussd(phone, CHECK_AGAIN);
          }
          turns += 1;
          if (answer.status !== 200 || answer.body !== expected[journey]![step]) {
            failures.push(`session ${index} step ${step}: ${answer.status} ${answer.body}`);
            return;
          }
        }
      }),
    );

    expect(failures.slice(0, 5)).toEqual([]);
    expect(turns).toBe(SESSIONS * 3);
  }, 180_000);
});
