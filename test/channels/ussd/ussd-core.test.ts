import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createUssdCore } from '../../../src/channels/ussd/index.js';
import { type Prompt, renderPrompt, type TurnEngine, t } from '../../../src/conversation/index.js';
import { createLogger } from '../../../src/log/index.js';
import { engineOf } from '../../support/turn-engine-double.js';

const menu: Prompt = { key: 'menu.title', input: 'choice', final: false, choices: [] };

describe('USSD core answer backstop', () => {
  // The backstop's sweep reads Date.now() on an interval; the engines below answer on timers.
  beforeEach(() => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers "we will SMS you" once a turn runs past the backstop, and stays busy until it ends', async () => {
    let finish!: (prompt: Prompt) => void;
    const engine: TurnEngine = engineOf({
      turn: () => new Promise<Prompt>((resolve) => (finish = resolve)),
    });
    const core = createUssdCore({
      engine,
      render: renderPrompt,
      logger: createLogger({ level: 'silent' }),
      answerWithinMs: 30,
    });
    const answering = core.handle({ sessionId: 's1', msisdn: '260977000005', input: undefined });
    await vi.advanceTimersByTimeAsync(40);
    const answer = await answering;
    expect(answer).toEqual({ text: t('ussd.stillWorking'), end: true });
    let idle = false;
    const idled = core.idle().then(() => {
      idle = true;
    });
    await vi.advanceTimersByTimeAsync(20);
    expect(idle).toBe(false);
    finish(menu);
    await idled;
    expect(idle).toBe(true);
  });

  it('answers a turn that finishes in time with its screen, however many run at once', async () => {
    const engine: TurnEngine = engineOf({
      turn: () => new Promise<Prompt>((resolve) => setTimeout(() => resolve(menu), 5)),
    });
    const core = createUssdCore({
      engine,
      render: renderPrompt,
      logger: createLogger({ level: 'silent' }),
      answerWithinMs: 5_000,
    });
    const answering = Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        core.handle({
          sessionId: `s${index}`,
          msisdn: `2609770000${10 + index}`,
          input: undefined,
        }),
      ),
    );
    await vi.advanceTimersByTimeAsync(5);
    const answers = await answering;
    for (const answer of answers) expect(answer).toEqual({ text: t('menu.title'), end: false });
    await core.idle();
  });

  it('keeps the call open when the session is busy past the deadline: "still working" with Check again (issue 25)', async () => {
    const busy: Prompt = {
      key: 'engine.busy',
      input: 'choice',
      final: false,
      choices: [{ id: 'refresh', label: 'engine.checkAgain' }],
    };
    const engine: TurnEngine = engineOf({ turn: async () => busy });
    const core = createUssdCore({
      engine,
      render: renderPrompt,
      logger: createLogger({ level: 'silent' }),
    });
    const answer = await core.handle({ sessionId: 's1', msisdn: '260977000005', input: '1' });
    expect(answer).toEqual({
      text: `${t('engine.busy')}\n1. ${t('engine.checkAgain')}`,
      end: false,
    });
  });

  it('calls the engine once per request, handing it the request for the USSD middleware (issue 26)', async () => {
    const calls: unknown[] = [];
    const core = createUssdCore({
      engine: engineOf({
        turn: async (_key, _reply, options) => {
          calls.push(options?.channelRequest);
          return menu;
        },
      }),
      render: renderPrompt,
      logger: createLogger({ level: 'silent' }),
    });
    await core.handle({ sessionId: 's1', msisdn: '260977000005', input: undefined });
    await core.handle({ sessionId: 's1', msisdn: '260977000005', input: '1' });
    expect(calls).toHaveLength(2);
    expect(calls.every((request) => typeof request === 'object' && request !== null)).toBe(true);
  });
});
