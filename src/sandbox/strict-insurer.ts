/*
 * The stricter sandbox: what a real insurer may send that the spec allows and our own sandbox
 * never did. Each liberty is one function, applied to an answer on its way out, so a client that
 * leans on the sandbox's habits fails against it.
 */
import type { AnyContractEntry } from '../api/index.js';

/** Options of the stricter sandbox (SandboxOptions `strict`). */
export interface StrictInsurerOptions {
  /** How late every answer comes; default 1500 ms (a slow but healthy insurer). */
  readonly lateMs?: number;
  /** Most items one page holds, whatever PageSize asks for; default 50. */
  readonly maxPageSize?: number;
}

/** The defaults of {@link StrictInsurerOptions}. */
export const STRICT_DEFAULTS = { lateMs: 1_500, maxPageSize: 50 } as const;

/**
 * Fields the spec never names, added to every object of an answer ("fields not shown" in the
 * spec are real fields of a real insurer's records).
 */
export const UNKNOWN_FIELDS = {
  insurerTraceId: 'trc-0001',
  riskProfile: { band: 'B', reviewedBy: null },
} as const;

/**
 * Status words a real mobile-money rail sends for a transaction still in flight (MTN MoMo says
 * PENDING or ONGOING) where the sandbox says `Pending`: a word the client has not seen.
 */
export const UNSEEN_PENDING_STATUS = 'Processing';

/** Operations whose answers carry a transaction's status (at the top or under `payment`). */
function carriesTransactionStatus(entry: AnyContractEntry): boolean {
  return (
    entry.startsPayment === true ||
    entry.name === 'getTransactionStatus' ||
    entry.name === 'getTransaction'
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A copy of `value` in which every object gains {@link UNKNOWN_FIELDS} and loses its null
 * fields (an optional field left out rather than sent as null). Never mutates the sandbox's
 * records, which handlers may hand out as they are.
 */
function loosen(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(loosen);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (field === null || field === undefined) continue;
    out[key] = loosen(field);
  }
  return { ...out, ...UNKNOWN_FIELDS };
}

function renamePending(value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = { ...value };
  if (out.status === 'Pending') out.status = UNSEEN_PENDING_STATUS;
  if (isPlainObject(out.payment)) out.payment = renamePending(out.payment);
  return out;
}

/** An answer as the stricter insurer sends it (JSON answers only; files pass as they are). */
export function strictAnswer(entry: AnyContractEntry, answer: unknown): unknown {
  const loosened = loosen(answer);
  return carriesTransactionStatus(entry) ? renamePending(loosened) : loosened;
}

/** The query a paginated list is served with: its PageSize capped at `maxPageSize`. */
export function cappedPageQuery(
  query: Record<string, unknown>,
  maxPageSize: number,
): Record<string, unknown> {
  // Query text may still be a string here (a schema that coerces it later).
  const asked = Number(query.PageSize);
  return Number.isFinite(asked) && asked > maxPageSize
    ? { ...query, PageSize: maxPageSize }
    : query;
}

/**
 * The success status of a POST: 201 and 200 in turn (the OpenAPI document says 200, insurers
 * often send 201 for what they create). Any other method answers 200.
 */
export function strictStatusCode(method: string, count: number): 200 | 201 {
  return method === 'POST' && count % 2 === 0 ? 201 : 200;
}
