import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packField, readPackedFields, readPackedFieldsGeneral } from '../../src/storage/index.js';

const fields = fc.array(fc.option(fc.string({ maxLength: 40 }), { nil: undefined }), {
  minLength: 1,
  maxLength: 5,
});

describe('packed fields', () => {
  it('reads back every field it packs, after any head', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 5 }), fields, (head, values) => {
        const into = values.map(() => 'stale' as string | undefined);
        expect(readPackedFields(head + values.map(packField).join(''), head.length, into)).toBe(
          true,
        );
        expect(into).toEqual(values);
      }),
    );
  });

  it('reads every text, well formed or not, exactly as the general reader does', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.nat(4), (text, count) => {
        const fast = Array.from({ length: count + 1 }, () => 'x' as string | undefined);
        const general = [...fast];
        const read = readPackedFields(text, 0, fast);
        expect(read).toBe(readPackedFieldsGeneral(text, 0, general));
        if (read) expect(fast).toEqual(general);
      }),
      { numRuns: 3000 },
    );
    for (const text of ['02:ab-', ' 2:ab-', '1e1:abcdefghij-', '2:ab']) {
      const into: (string | undefined)[] = [undefined, undefined];
      expect(readPackedFields(text, 0, into)).toBe(readPackedFieldsGeneral(text, 0, [...into]));
    }
  });

  it('refuses a field that runs past the end, and text left over', () => {
    expect(readPackedFields('9:ab', 0, [undefined])).toBe(false);
    expect(readPackedFields('2:ab-', 0, [undefined])).toBe(false);
  });
});
