import { normaliseCaller } from '../msisdn/index.js';

/** An insurer's field as text; '' when it is not a string. */
export const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** An insurer's object as a record; empty when it is not one. */
export const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

/** An insurer's phone field as a caller's number; undefined when empty. */
export const phoneOf = (raw: unknown): string | undefined =>
  text(raw) ? normaliseCaller(text(raw)) : undefined;
