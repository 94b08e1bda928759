import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Prompt } from '../../../src/conversation/index.js';
import {
  keypadMemo,
  readMemo,
  readMemoGeneral,
  writeMemo,
} from '../../../src/conversation/policy/keypad-memo.js';

const shown: Prompt = {
  key: 'menu.title',
  input: 'choice',
  final: false,
  choices: [{ id: 'motor', label: 'menu.motor' }],
  notes: [{ key: 'engine.restarted' }],
};

/** Memos of every kind the core writes. */
const memos = fc
  .record({
    g: fc.string({ maxLength: 30 }),
    m: fc.constantFrom<'p' | 'r'>('p', 'r'),
    p: fc.oneof(fc.nat(12), fc.nat()),
    s: fc.option(fc.constant(shown), { nil: undefined }),
    h: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
    a: fc.option(fc.string({ maxLength: 200 }), { nil: undefined }),
    e: fc.option(fc.constant(true as const), { nil: undefined }),
  })
  .map(({ g, m, p, s, h, a, e }) => keypadMemo(g, m, p, s, h, a, e));

/** Written memos with a few characters changed, dropped or added: mostly malformed states. */
const damaged = fc
  .tuple(
    memos.map(writeMemo),
    fc.array(
      fc.record({
        at: fc.nat(),
        cut: fc.nat(3),
        put: fc.oneof(
          fc.constantFrom('', ':', '-', 'e', '0', '9', '{', ' ', '1e2', '0x1', '+', '.5'),
          fc.string({ maxLength: 3 }),
        ),
      }),
      { maxLength: 3 },
    ),
  )
  .map(([state, edits]) => {
    let out = state;
    for (const edit of edits) {
      const at = edit.at % (out.length + 1);
      out = out.slice(0, at) + edit.put + out.slice(at + edit.cut);
    }
    return out;
  });

describe('keypad memo', () => {
  it('reads back every memo it writes', () => {
    fc.assert(
      fc.property(memos, (memo) => {
        expect(readMemo(writeMemo(memo))).toStrictEqual(memo);
      }),
    );
  });

  it('reads every state, well formed or not, exactly as the general reader does', () => {
    fc.assert(
      fc.property(fc.oneof(memos.map(writeMemo), damaged, fc.string()), (state) => {
        expect(readMemo(state)).toStrictEqual(readMemoGeneral(state));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads the forms only the general reader knows: a page written oddly', () => {
    for (const state of ['p1e2:2:ab---', 'p 1:2:ab---', 'pe:2:ab---', 'p0:02:ab---']) {
      expect(readMemo(state)).toStrictEqual(readMemoGeneral(state));
      expect(readMemo(state)).toBeDefined();
    }
    // The JSON memo of the format before this one (records of 15 minutes at most, gone since) is
    // no longer read: such a record is a call we hold nothing for.
    const json = JSON.stringify({ g: 'ATUid_1', m: 'p', p: 1, h: 'x', a: 'CON Hi' });
    expect(readMemo(json)).toBeUndefined();
  });

  it('refuses a state whose field runs past its end or whose prompt is not a Prompt', () => {
    expect(readMemo('p0:99:ab---')).toBeUndefined();
    expect(readMemo('p0:2:ab--5:{"a":1}')).toBeUndefined();
    expect(readMemo('p0:2:ab--2:{x')).toBeUndefined();
  });
});
