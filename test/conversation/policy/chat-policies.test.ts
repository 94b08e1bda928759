import { describe, expect, it } from 'vitest';
import {
  type CallerLanguages,
  type ChatInput,
  ChatUpdate,
  type Handoff,
  type HandoffRequest,
  type Prompt,
} from '../../../src/conversation/index.js';
import { PolicyEngine } from '../../support/policy-engine.js';

const step: Prompt = { key: 'motor.askPlate', input: 'text', final: false };
const photoStep: Prompt = { key: 'claim.askPhoto', input: 'photo', final: false };

/** One update through `engine`, as a chat channel hands it over. */
async function send(
  engine: PolicyEngine,
  input: ChatInput,
  platformLocale?: string,
  filesBehind?: () => boolean,
) {
  const update = new ChatUpdate(input, {
    channel: 'telegram',
    address: '7',
    platformLocale,
    fallbackLocale: 'en',
    repeatStep: false,
    filesBehind,
  });
  const prompt = await engine.turn('tg:7', update.reply, update.turnOptions({}));
  return { update, prompt, call: engine.calls.at(-1) };
}

describe('the conversation policies', () => {
  it('answers in the language the user chose, else their app’s, else the default', async () => {
    let chosen: string | undefined;
    const languages: CallerLanguages = { chosen: () => chosen, choose: async () => undefined };
    const engine = new PolicyEngine({ languages, session: { prompt: step } });
    expect((await send(engine, { kind: 'text', text: 'x' })).update.locale).toBe('en');
    expect((await send(engine, { kind: 'text', text: 'x' }, 'ny')).update.locale).toBe('ny');
    chosen = 'bem';
    expect((await send(engine, { kind: 'text', text: 'x' }, 'ny')).update.locale).toBe('bem');
  });

  it('remembers a language picked and shows the step again in it, the flow never seeing the pick', async () => {
    const chosen: string[] = [];
    const languages: CallerLanguages = {
      chosen: () => undefined,
      choose: async (_holder, locale) => {
        chosen.push(locale);
      },
    };
    const engine = new PolicyEngine({ languages, session: { prompt: step, state: 's' } });
    const { update, call } = await send(engine, { kind: 'choice', id: 'language:bem' });
    expect(chosen).toEqual(['bem']);
    expect(update).toMatchObject({ locale: 'bem', languageChanged: true, answer: 'step' });
    expect(update.lead).toEqual({ key: 'language.changed' });
    expect(call?.reached).toBeUndefined();
    expect(call?.kept).toBe('s');
  });

  it('opens a handoff from the turn’s own glance, and forwards what the user then writes', async () => {
    const opened: HandoffRequest[] = [];
    let active = false;
    const handoff: Handoff = {
      active: async () => active,
      open: async (request) => {
        opened.push(request);
        active = true;
        return 'opened';
      },
      forward: async () => (active ? 'forwarded' : 'none'),
      end: async () => active,
    };
    const engine = new PolicyEngine({ handoff: () => handoff, session: { prompt: step } });
    const asked = await send(engine, { kind: 'command', command: 'person' });
    expect(asked.update).toMatchObject({ answer: 'notice', lead: { key: 'handoff.opened' } });
    // Read under this turn's lock: the handoff never calls the engine again.
    expect(opened[0]?.glance?.prompt).toEqual(step);
    const written = await send(engine, { kind: 'text', text: 'my car was hit' });
    expect(written.update.answer).toBe('none');
    expect(written.call?.reached).toBeUndefined();
    const tapped = await send(engine, { kind: 'choice', id: 'motor' });
    expect(tapped.update.lead).toEqual({ key: 'handoff.already' });
    expect(tapped.call?.reached).toBeUndefined();
  });

  it('sends a photo sent during a handoff to the person, not the flow, and says when it is too large', async () => {
    const forwarded: string[] = [];
    let answer: 'forwarded' | 'tooLarge' | 'none' = 'forwarded';
    const handoff: Handoff = {
      active: async () => answer !== 'none',
      open: async () => 'opened',
      forward: async () => 'forwarded',
      forwardFile: async (sessionKey) => {
        forwarded.push(sessionKey);
        return answer;
      },
      end: async () => false,
    };
    const engine = new PolicyEngine({ handoff: () => handoff, session: { prompt: photoStep } });
    const file = { read: async () => ({ bytes: new Uint8Array([1]) }) };
    const sent = await send(engine, { kind: 'file', file });
    expect(sent.update.answer).toBe('none');
    expect(sent.call?.reached).toBeUndefined();
    expect(forwarded).toEqual(['tg:7']);
    answer = 'tooLarge';
    const large = await send(engine, { kind: 'file', file });
    expect(large.update).toMatchObject({ answer: 'notice', lead: { key: 'handoff.fileTooLarge' } });
    expect(large.call?.reached).toBeUndefined();
  });

  it('opens the menu afresh for a reminder’s button, picking it there', async () => {
    const engine = new PolicyEngine({ session: { prompt: step } });
    const { update, call } = await send(engine, { kind: 'choice', id: 'renew:pol-1' });
    expect(update.answer).toBe('screen');
    expect(call?.reached).toEqual({
      kind: 'start',
      flowId: 'main-menu',
      start: { pick: 'renew:pol-1' },
    });
  });

  it('reads a file only on a step asking for one', async () => {
    let reads = 0;
    const file = {
      size: 10,
      read: async () => {
        reads += 1;
        return { bytes: new Uint8Array([1]), name: 'a.jpg' };
      },
    };
    const engine = new PolicyEngine({
      files: {
        maxFileBytes: 100,
        tooLarge: () => ({ key: 'files.refused.tooLarge' }),
        keep: async ({ name }) => ({ url: 'https://files.test/1', fileName: name }),
        refusalOf: () => undefined,
      },
      session: { prompt: step },
    });
    const elsewhere = await send(engine, { kind: 'file', file });
    expect(elsewhere.update).toMatchObject({ answer: 'step', hint: true });
    expect(elsewhere.update.lead).toEqual({ key: 'chat.unexpectedFile' });
    expect(reads).toBe(0);
    engine.session = { ...engine.session, prompt: photoStep };
    const asked = await send(engine, { kind: 'file', file });
    expect(reads).toBe(1);
    expect(asked.call?.reached).toEqual({
      kind: 'reply',
      reply: { type: 'user.photo', url: 'https://files.test/1', fileName: 'a.jpg' },
    });
    const large = await send(engine, { kind: 'file', file: { ...file, size: 101 } });
    expect(large.update.lead).toEqual({ key: 'files.refused.tooLarge' });
    expect(reads).toBe(1);
  });

  it('takes every photo of a sending and shows the step once, after the last of them (issue 40)', async () => {
    let kept = 0;
    const engine = new PolicyEngine({
      files: {
        maxFileBytes: 100,
        tooLarge: () => ({ key: 'files.refused.tooLarge' }),
        keep: async () => {
          kept += 1;
          return { url: `https://files.test/${kept}`, fileName: `${kept}.jpg` };
        },
        refusalOf: () => undefined,
      },
      session: { prompt: photoStep },
    });
    const file = { size: 10, read: async () => ({ bytes: new Uint8Array([1]) }) };
    const behind = [true, true, false];
    const answers: string[] = [];
    for (const more of behind) {
      const { update } = await send(engine, { kind: 'file', file }, undefined, () => more);
      answers.push(update.answer);
    }
    expect(kept).toBe(3);
    expect(engine.replies().map((reply) => reply.type)).toEqual([
      'user.photo',
      'user.photo',
      'user.photo',
    ]);
    expect(answers).toEqual(['none', 'none', 'flow']);
    // A step that no longer takes photos (a failure, the end) is shown whatever waits behind.
    engine.session = { ...engine.session, prompt: step };
    const elsewhere = await send(engine, { kind: 'file', file }, undefined, () => true);
    expect(elsewhere.update.answer).toBe('step');
  });
});
