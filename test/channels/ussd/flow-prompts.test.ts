import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toUssdScreens, USSD_MAX_CHARS } from '../../../src/channels/ussd/index.js';
import type { Audience, Prompt } from '../../../src/conversation/index.js';
import { renderPrompt } from '../../../src/conversation/index.js';
import { startTestServer, type TestServer } from '../../server/test-server.js';

/** What a caller may type on any screen: choice digits, paging keys and plausible answers. */
const INPUTS = [
  '1',
  '1',
  '1',
  '2',
  '2',
  '3',
  '4',
  '5',
  '98',
  '0',
  '00',
  '479974111',
  '123456101',
  '0971234567',
  '0955000111',
  'ABC 1234',
  'Toyota',
  'Corolla',
  '2015',
  'CH123456',
  'EN123456',
  '15/06/2027',
  '01/01/2020',
  '5000',
  'Mwila Banda',
  'Banda',
  'mwila@example.com',
  'South Africa',
  'LOAN-0001',
  'x',
] as const;
const input = fc.constantFrom(...INPUTS);

let harness: TestServer;
let call = 0;

beforeAll(async () => {
  harness = await startTestServer();
});
afterAll(async () => {
  await harness.close();
});

describe('every screen the flows produce fits a USSD screen', () => {
  it('never sends a gateway screen over 182 characters, whatever the caller types', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(input, { minLength: 1, maxLength: 25 }), async (inputs) => {
        call += 1;
        const msisdn = `26095${String(1_000_000 + call).slice(-7)}`;
        const sessionId = `prop-${call}`;
        const screens = [await harness.server.ussd.handle({ sessionId, msisdn, input: undefined })];
        for (const typed of inputs) {
          if (screens.at(-1)?.end) break;
          screens.push(await harness.server.ussd.handle({ sessionId, msisdn, input: typed }));
        }
        for (const screen of screens) {
          expect(screen.text.length).toBeGreaterThan(0);
          expect(screen.text.length).toBeLessThanOrEqual(USSD_MAX_CHARS);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('renders every Prompt reached in every flow, for every audience, within 182 characters a screen', async () => {
    const engine = harness.server.engine;
    const byFlow = new Map<string, Set<string>>();
    const audiences: Audience[] = ['policyholder', 'funeral-member', 'staff'];
    const record = (prompt: Prompt) => {
      const flow = prompt.key.split('.')[0] ?? 'unknown';
      const keys = byFlow.get(flow) ?? new Set<string>();
      keys.add(prompt.key);
      byFlow.set(flow, keys);
      const screens = toUssdScreens(renderPrompt(prompt, 'en'), 'en');
      for (const screen of screens) expect(screen.length).toBeLessThanOrEqual(USSD_MAX_CHARS);
    };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...audiences),
        fc.array(fc.oneof(input, fc.nat({ max: 8 })), { minLength: 1, maxLength: 25 }),
        async (audience, steps) => {
          call += 1;
          const sessionKey = `ussd:26096${String(1_000_000 + call).slice(-7)}`;
          const options = {
            audience,
            address: { channel: 'ussd' as const, address: sessionKey.slice(5), locale: 'en' },
            caller: { kind: 'phone' as const, phone: sessionKey.slice(5) },
          };
          let prompt = await engine.turn(sessionKey, { type: 'user.text', text: '' }, options);
          record(prompt);
          for (const step of steps) {
            if (prompt.final) break;
            const choices = prompt.choices ?? [];
            const reply =
              typeof step === 'number' && choices.length > 0
                ? { type: 'user.choice' as const, id: choices[step % choices.length]?.id ?? '' }
                : step === '0'
                  ? { type: 'user.back' as const }
                  : step === '00'
                    ? { type: 'user.cancel' as const }
                    : { type: 'user.text' as const, text: String(step) };
            prompt = await engine.turn(sessionKey, reply, options);
            record(prompt);
          }
        },
      ),
      { numRuns: 150 },
    );
    const summary = [...byFlow].map(([flow, keys]) => `${flow}: ${keys.size}`).join(', ');
    console.info(`distinct prompts rendered per flow: ${summary}`);
    expect(byFlow.size).toBeGreaterThan(3);
  });
});
