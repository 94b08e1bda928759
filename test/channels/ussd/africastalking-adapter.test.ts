import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AfricasTalkingUssdBody, newestSegment } from '../../../src/channels/ussd/index.js';

/** Forms as a gateway (or anyone) might post them: fields present, missing, too long or odd. */
const forms = fc.record(
  {
    sessionId: fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.string({ minLength: 195, maxLength: 205 }),
    ),
    serviceCode: fc.oneof(fc.constant('*384*4628#'), fc.string({ maxLength: 55 })),
    phoneNumber: fc.oneof(fc.constant('+260971234567'), fc.string({ maxLength: 32 })),
    networkCode: fc.oneof(fc.constant('64502'), fc.string({ maxLength: 22 })),
    text: fc.oneof(
      fc.stringMatching(/^[0-9*]{0,20}$/),
      fc.string({ minLength: 1995, maxLength: 2005 }),
    ),
    extra: fc.string(),
  },
  { requiredKeys: [] },
);

describe("Africa's Talking form", () => {
  it('is checked by its compiled form exactly as by the schema: same data, same issues', () => {
    const compiled = z.compile(AfricasTalkingUssdBody);
    fc.assert(
      fc.property(fc.oneof(forms, fc.jsonValue()), (form) => {
        const plain = AfricasTalkingUssdBody.safeParse(form);
        const fast = compiled.safeParse(form);
        expect(fast.success).toBe(plain.success);
        if (plain.success) expect(fast.data).toStrictEqual(plain.data);
        else expect(fast.error?.issues).toStrictEqual(plain.error.issues);
      }),
      { numRuns: 1000 },
    );
  });

  it("takes the newest input as the text after the history's last '*'", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9A-Z *#]{1,30}$/), (text) => {
        expect(newestSegment(text)).toBe(text.split('*').at(-1));
      }),
    );
  });
});
