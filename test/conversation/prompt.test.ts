import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPrompt, Prompt } from '../../src/conversation/prompt.js';

const params = fc.oneof(
  fc.constant(undefined),
  fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.boolean())),
  fc.constant([]),
);

describe('isPrompt', () => {
  it('agrees with the Prompt schema on well-formed and malformed prompts alike', () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            key: fc.oneof(fc.string(), fc.integer()),
            input: fc.constantFrom('text', 'nrc', 'choice', 'none', 'voice'),
            final: fc.oneof(fc.boolean(), fc.constant('yes')),
            params,
            notes: fc.array(fc.record({ key: fc.oneof(fc.string(), fc.integer()), params })),
            choices: fc.array(
              fc.record(
                {
                  id: fc.string(),
                  label: fc.oneof(fc.string(), fc.constant(null)),
                  params,
                  literal: fc.oneof(fc.boolean(), fc.constant(1)),
                },
                { requiredKeys: ['id'] },
              ),
            ),
            attachments: fc.array(
              fc.record({
                kind: fc.constantFrom('link', 'document', 'video'),
                url: fc.string(),
                label: fc.string(),
              }),
            ),
          },
          { requiredKeys: ['key'] },
        ),
        (prompt) => {
          expect(isPrompt(prompt)).toBe(Prompt.safeParse(prompt).success);
        },
      ),
      { numRuns: 500 },
    );
  });
});
