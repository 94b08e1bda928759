import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnyActorLogic, createActor, toPromise } from 'xstate';
import { claimIntimationActors } from '../../flows/claim-intimation-actors.js';
import { paymentActors } from '../../flows/flow-deps.js';
import type { FlowDeps } from '../../flows/index.js';
import { motorQuoteActors } from '../../flows/motor-quote-actors.js';
import type { PaymentRequest } from '../../flows/payment-machine.js';
import { describeFailure, failurePrompt } from '../../flows/support.js';
import type { Principal } from '../../src/access/index.js';
import type { Prompt } from '../../src/conversation/index.js';
import {
  createMemoryHoldingsIndex,
  type HoldingsIndex,
  syncHoldings,
} from '../../src/holdings/index.js';
import {
  createLimits,
  DEFAULT_LIMITS,
  LimitReachedError,
  type LimitsConfig,
} from '../../src/limits/index.js';
import { createLogger } from '../../src/log/index.js';
import { DEMO_BOOK } from '../../src/sandbox/index.js';
import { type SandboxWorld, startSandboxWorld } from './sandbox-world.js';

/*
 * The flows' call sites of src/limits (issue 35), each on its own actor over the sandbox insurer:
 * "SMS the holder" from a chat nobody vouches for, a mobile-money prompt to someone else's
 * number, a claim typed by number; and the screen a refusal shows.
 */

const CONFIG: LimitsConfig = {
  ...DEFAULT_LIMITS,
  sms: { caller: { hour: 10, day: 0 }, target: { hour: 2, day: 0 } },
  payment: { caller: { hour: 0, day: 0 }, target: { hour: 0, day: 1 } },
  lookup: { caller: { hour: 3, day: 0 }, target: { hour: 0, day: 0 } },
  anonymous: { hour: 0, day: 0 },
};
const CALLER = '260971000009';
const NOBODY_ON_TELEGRAM = {
  principal: { kind: 'nobody' } as Principal,
  route: { sessionKey: 'telegram:42', channel: 'telegram' as const, address: '42', locale: 'en' },
};

let world: SandboxWorld;
// Claims typed by number are found through the holdings index (without one the answer is
// unknown), so the index is synced from the sandbox once.
let holdings: HoldingsIndex;
beforeAll(async () => {
  world = await startSandboxWorld();
  holdings = createMemoryHoldingsIndex();
  await syncHoldings({
    client: world.client,
    index: holdings,
    logger: createLogger({ level: 'silent' }),
  });
});
afterAll(async () => {
  await world.close();
});

/** Deps over the sandbox with fresh limits; every SMS is kept in `sent`. */
function limitedDeps() {
  const sent: Array<{ phone: string; prompt: Prompt }> = [];
  let started = 0;
  const deps: FlowDeps = {
    client: world.client,
    holdings,
    payments: {
      start: async (_attempt, pay) => {
        started += 1;
        const answer = await pay(`REF-${started}`);
        return { reference: `REF-${started}`, status: answer.status };
      },
      check: async () => 'pending',
    },
    sms: async (phone, prompt) => {
      sent.push({ phone, prompt });
    },
    limits: createLimits({ config: CONFIG, prefix: 'limited-actors:', secret: 'x'.repeat(32) }),
  };
  return { deps, sent, started: () => started };
}

/** Runs one promise actor to its end; resolves its output or rejects with its error. */
function run<T>(logic: AnyActorLogic, input: unknown): Promise<T> {
  return toPromise(createActor(logic, { input }).start()) as Promise<T>;
}

/** Runs `times` times, keeping each outcome: the output, or the error. */
async function runMany(logic: AnyActorLogic, input: unknown, times: number) {
  const outcomes: unknown[] = [];
  for (let i = 0; i < times; i += 1) outcomes.push(await run(logic, input).catch((e) => e));
  return outcomes;
}

describe('the flows’ limits', () => {
  it('texts a plate’s holder for a chat nobody vouches for only as often as the per-target count', async () => {
    const { deps, sent } = limitedDeps();
    const plate = DEMO_BOOK.motor.insured.registrationNumber;
    const outcomes = await runMany(
      motorQuoteActors(deps).tellHolder,
      { plate, mode: 'renew', ...NOBODY_ON_TELEGRAM },
      4,
    );
    expect(sent).toHaveLength(2);
    expect(outcomes.slice(0, 2)).toEqual([{ told: true }, { told: true }]);
    expect(outcomes[2]).toBeInstanceOf(LimitReachedError);
  });

  it('limits mobile-money prompts to another person’s number, never to the caller’s own', async () => {
    const { deps, started } = limitedDeps();
    const pay = async () => ({ status: 'Pending' });
    const startPayment = paymentActors(deps, pay).implementations.actors
      .startPayment as AnyActorLogic;
    const request = (msisdn: string): PaymentRequest => ({
      subject: { kind: 'quote', quoteId: 'Q1' },
      purchase: 'Q1.key',
      attempt: 1,
      payment: { method: 'mobileMoney', msisdn },
      amount: 100,
      currency: 'ZMW',
      callerPhone: CALLER,
    });
    const other = await runMany(startPayment, request('260977555555'), 2);
    expect(other[1]).toBeInstanceOf(LimitReachedError);
    const own = await runMany(startPayment, request(`0${CALLER.slice(3)}`), 3);
    expect(own.every((outcome) => !(outcome instanceof Error))).toBe(true);
    expect(started()).toBe(4);
  });

  it('counts claims typed by number per caller, and a refusal is the "asked too often" screen with Back', async () => {
    const { deps } = limitedDeps();
    const number = DEMO_BOOK.claims.intimated.claimNumber;
    const outcomes = await runMany(
      claimIntimationActors(deps).findClaim,
      { number, principal: { kind: 'phone', phone: CALLER } },
      4,
    );
    // Without an index the number itself is unknown here: what counts is that only the 4th is refused.
    expect(outcomes.slice(0, 3).some((outcome) => outcome instanceof LimitReachedError)).toBe(
      false,
    );
    const refusal = outcomes[3];
    expect(refusal).toBeInstanceOf(LimitReachedError);
    const failure = describeFailure(refusal);
    expect(failure).toEqual({ kind: 'limited', note: { key: 'limits.note.hour' } });
    const screen = failurePrompt(failure);
    expect(screen.key).toBe('flow.failed.limited');
    expect(screen.choices?.map((choice) => choice.id)).toEqual(['back', 'end']);
  });
});
