import type { Unfinished } from '../src/conversation/flow.js';

/*
 * What a caller who dropped mid-flow left unfinished, for the resume offer ("You have an
 * unfinished motor cover purchase for BCD 4321."): read from a flow's answers so far, which a
 * stored snapshot holds as plain data (hence `unknown`, checked field by field).
 */

/** A text answer of `answers` by name; undefined when it is not a non-empty string. */
function textAnswer(answers: unknown, name: string): string | undefined {
  if (typeof answers !== 'object' || answers === null) return undefined;
  const value: unknown = (answers as Record<string, unknown>)[name];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** `key` with `{param}` when the answer is known, else `keyWithout`. */
function named(
  answers: unknown,
  name: string,
  key: string,
  keyWithout: string,
): Unfinished | undefined {
  const value = textAnswer(answers, name);
  return value === undefined ? { key: keyWithout } : { key, params: { [name]: value } };
}

/** Motor cover being bought or renewed: for the plate once it is typed. */
export const motorUnfinished = (answers: unknown): Unfinished | undefined =>
  named(answers, 'plate', 'resume.motorFor', 'resume.motor');

/** Travel cover being bought: to the destination once it is typed. */
export const travelUnfinished = (answers: unknown): Unfinished | undefined =>
  named(answers, 'destination', 'resume.travelTo', 'resume.travel');

/** A claim being made: for the loan or member once it is known. */
export const claimUnfinished = (answers: unknown): Unfinished | undefined =>
  named(answers, 'label', 'resume.claimFor', 'resume.claim');
