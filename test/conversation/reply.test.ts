import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isReply, Reply } from '../../src/conversation/reply.js';

describe('Reply', () => {
  it('accepts a user choice by id', () => {
    expect(Reply.parse({ type: 'user.choice', id: '2' })).toEqual({ type: 'user.choice', id: '2' });
  });

  it('rejects an event type no flow understands', () => {
    expect(Reply.safeParse({ type: 'user.shout', text: 'hi' }).success).toBe(false);
  });
});

describe('isReply', () => {
  it('agrees with the Reply schema on well-formed and malformed events alike', () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            type: fc.constantFrom(
              'user.text',
              'user.choice',
              'user.contact',
              'user.photo',
              'user.back',
              'user.cancel',
              'payment.settled',
              'user.shout',
            ),
            text: fc.oneof(fc.string(), fc.integer()),
            id: fc.oneof(fc.string(), fc.constant(null)),
            phone: fc.string(),
            url: fc.oneof(fc.string(), fc.boolean()),
            fileName: fc.oneof(fc.string(), fc.integer()),
            reference: fc.string(),
            outcome: fc.constantFrom('paid', 'failed', 'pending', 'lost'),
            policyNumber: fc.oneof(fc.string(), fc.integer()),
            reason: fc.string(),
          },
          { requiredKeys: ['type'] },
        ),
        (event) => {
          expect(isReply(event)).toBe(Reply.safeParse(event).success);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('refuses what is not an object', () => {
    for (const value of [null, undefined, 'user.back', 3, ['user.back']]) {
      expect(isReply(value)).toBe(false);
    }
  });
});
