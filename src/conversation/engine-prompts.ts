import type { Prompt } from './prompt.js';

/** Prompt keys the engine itself produces; channels and payments may test for them. */
export const ENGINE_PROMPTS = {
  stillWorking: 'engine.stillWorking',
  busy: 'engine.busy',
  interrupted: 'engine.interrupted',
  restarted: 'engine.restarted',
  error: 'engine.error',
  sessionEnded: 'engine.sessionEnded',
  goodbye: 'engine.goodbye',
} as const;

/** "Still working" (or "busy"), with a choice to check again. */
export function stillWorkingPrompt(key: string): Prompt {
  return {
    key,
    input: 'choice',
    final: false,
    choices: [{ id: 'refresh', label: 'engine.checkAgain' }],
  };
}

/** The apology a turn ends with when something inside the engine failed. */
export const errorPrompt: Prompt = { key: ENGINE_PROMPTS.error, input: 'none', final: true };

/** The answer to a system event that has no conversation left to go to. */
export const sessionEndedPrompt: Prompt = {
  key: ENGINE_PROMPTS.sessionEnded,
  input: 'none',
  final: true,
};

/** The prompt with the engine's notes (restarted, interrupted) added after its own. */
export function withNotes(prompt: Prompt, notes: readonly string[]): Prompt {
  if (notes.length === 0) return prompt;
  return { ...prompt, notes: [...(prompt.notes ?? []), ...notes.map((key) => ({ key }))] };
}
