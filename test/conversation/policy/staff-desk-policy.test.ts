import { describe, expect, it } from 'vitest';
import {
  type Prompt,
  type Reply,
  type StartOptions,
  staffDeskPolicy,
  type TurnOptions,
} from '../../../src/conversation/index.js';
import { TurnEngineDouble } from '../../support/turn-engine-double.js';

const ANSWER: Prompt = { key: 'staff.menu', input: 'text', final: false };

/** Records what the desk asked of the engine, and the order of the audit and the engine. */
class DeskEngine extends TurnEngineDouble {
  readonly log: string[] = [];
  readonly options: (TurnOptions | undefined)[] = [];

  override async turn(sessionKey: string, reply: Reply, options?: TurnOptions) {
    this.log.push(`turn ${sessionKey} ${reply.type === 'user.choice' ? reply.id : reply.type}`);
    this.options.push(options);
    return ANSWER;
  }

  override async start(sessionKey: string, flowId: string, options?: StartOptions) {
    this.log.push(`start ${sessionKey} ${flowId} ${String(options?.start?.command)}`);
    this.options.push(options);
    return ANSWER;
  }
}

const ASKER = {
  who: 'T1:U1',
  member: 'U1',
  address: { channel: 'slack' as const, address: 'T1:D1:U1', locale: 'en' },
};

function deskOf(recorded: boolean) {
  const engine = new DeskEngine();
  const desk = staffDeskPolicy({
    engine,
    flowId: 'staff-desk',
    topics: ['policy', 'today'],
    deadlineMs: 5_000,
    record: async (attempt) => {
      engine.log.push(`record ${attempt.route} ${attempt.what}`);
      return recorded;
    },
  });
  return { engine, desk };
}

describe('the staff desk policy', () => {
  it('reads a command: a look-up by its topic, the audit, or the help naming what it was not', () => {
    const { desk } = deskOf(true);
    expect(desk.read('Policy ABC123')).toEqual({ kind: 'lookup', text: 'Policy ABC123' });
    expect(desk.read('audit verify')).toEqual({ kind: 'audit', args: ' verify' });
    expect(desk.read('')).toEqual({ kind: 'help' });
    expect(desk.read('help')).toEqual({ kind: 'help' });
    expect(desk.read('weather today')).toEqual({ kind: 'help', unknown: 'weather' });
    // Where only look-ups are asked for, the help is one (the flow's help screen); the audit not.
    expect([desk.runs('today'), desk.runs('help'), desk.runs('audit'), desk.runs('')]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it('records a look-up, then runs it as a fresh desk query; the App Home on a session apart', async () => {
    const { engine, desk } = deskOf(true);
    expect(await desk.query(ASKER, 'command', 'policy ABC123')).toBe(ANSWER);
    await desk.choose(ASKER, 'again');
    await desk.query(ASKER, 'home', 'today');
    expect(engine.log).toEqual([
      'record command policy ABC123',
      'start slack:T1:U1 staff-desk policy ABC123',
      'record button again',
      'turn slack:T1:U1 again',
      'record home today',
      'start slack-home:T1:U1 staff-desk today',
    ]);
    expect(engine.options[0]).toMatchObject({
      deadlineMs: 5_000,
      address: ASKER.address,
      audience: 'staff',
      caller: { kind: 'staff', member: 'U1' },
    });
  });

  it('makes no look-up it cannot record, and says so in the staff’s words', async () => {
    const { engine, desk } = deskOf(false);
    const refused = { key: 'slack.audit.unavailable', input: 'none', final: true };
    expect(await desk.query(ASKER, 'modal', 'policy ABC123')).toEqual(refused);
    expect(await desk.choose(ASKER, 'again')).toEqual(refused);
    expect(engine.log).toEqual(['record modal policy ABC123', 'record button again']);
  });
});
