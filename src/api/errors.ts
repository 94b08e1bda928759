import type { z } from 'zod';
import { CodedError } from '../errors/index.js';
import { ApiErrorBody } from './schemas.js';

/** Stable codes of the client's errors. */
export type ApiErrorCode =
  | 'API_BAD_REQUEST'
  | 'API_UNAUTHORIZED'
  | 'API_FORBIDDEN'
  | 'API_NOT_FOUND'
  | 'API_CONFLICT'
  | 'API_UNPROCESSABLE'
  | 'API_RATE_LIMITED'
  | 'API_SERVER_ERROR'
  | 'API_UNAVAILABLE'
  | 'API_ERROR';

/** Options shared by the client's error constructors. */
interface ErrorOptions {
  readonly cause?: unknown;
}

/**
 * Raised when the insurer answered with a non-2xx status. `body` is the parsed error body
 * `{status, message, errors}` when it parses, otherwise `rawBody` holds the text. `code` is stable:
 * what the status means (`API_NOT_FOUND`), from the status when not given.
 */
export class ApiError extends CodedError<ApiErrorCode> {
  override readonly name: string = 'ApiError';
  readonly status: number;
  readonly operation: string;
  readonly body: ApiErrorBody | undefined;
  readonly rawBody: string;
  /** Per-field messages from `errors`, empty when the body had none. */
  readonly fieldErrors: Readonly<Record<string, readonly string[]>>;
  /** Seconds the server asked us to wait (`Retry-After`), when it said. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    init: {
      status: number;
      operation: string;
      rawBody: string;
      code?: ApiErrorCode;
      retryAfterSeconds?: number | undefined;
    },
    options: ErrorOptions = {},
  ) {
    const body = parseErrorBody(init.rawBody);
    super(
      init.code ?? codeOfStatus(init.status),
      `${init.operation} failed with HTTP ${init.status}${body?.message ? `: ${body.message}` : ''}`,
      options,
    );
    this.status = init.status;
    this.operation = init.operation;
    this.body = body;
    this.rawBody = init.rawBody;
    this.fieldErrors = body?.errors ?? {};
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

/** 400: the insurer rejected the request; `fieldErrors` says which fields. */
export class ApiBadRequestError extends ApiError {
  override readonly name = 'ApiBadRequestError';
}
/** 401: the API key is missing or wrong. */
export class ApiUnauthorizedError extends ApiError {
  override readonly name = 'ApiUnauthorizedError';
}
/** 403: the account may not do this. */
export class ApiForbiddenError extends ApiError {
  override readonly name = 'ApiForbiddenError';
}
/** 404: no such resource. */
export class ApiNotFoundError extends ApiError {
  override readonly name = 'ApiNotFoundError';
}
/** 409: a duplicate, e.g. a registration number already registered. */
export class ApiConflictError extends ApiError {
  override readonly name = 'ApiConflictError';
}
/** 422: well-formed but refused by a business rule. */
export class ApiUnprocessableError extends ApiError {
  override readonly name = 'ApiUnprocessableError';
}
/** 429: too many requests; see `retryAfterSeconds`. */
export class ApiRateLimitError extends ApiError {
  override readonly name = 'ApiRateLimitError';
}
/** 5xx: the insurer failed. */
export class ApiServerError extends ApiError {
  override readonly name = 'ApiServerError';
}

/** The stable code of an HTTP error status: the one table that reads status numbers. */
const CODE_BY_STATUS: Readonly<Record<number, ApiErrorCode>> = {
  400: 'API_BAD_REQUEST',
  401: 'API_UNAUTHORIZED',
  403: 'API_FORBIDDEN',
  404: 'API_NOT_FOUND',
  409: 'API_CONFLICT',
  422: 'API_UNPROCESSABLE',
  429: 'API_RATE_LIMITED',
  503: 'API_UNAVAILABLE',
};

function codeOfStatus(status: number): ApiErrorCode {
  return CODE_BY_STATUS[status] ?? (status >= 500 ? 'API_SERVER_ERROR' : 'API_ERROR');
}

const CLASS_BY_CODE: Readonly<Record<ApiErrorCode, typeof ApiError>> = {
  API_BAD_REQUEST: ApiBadRequestError,
  API_UNAUTHORIZED: ApiUnauthorizedError,
  API_FORBIDDEN: ApiForbiddenError,
  API_NOT_FOUND: ApiNotFoundError,
  API_CONFLICT: ApiConflictError,
  API_UNPROCESSABLE: ApiUnprocessableError,
  API_RATE_LIMITED: ApiRateLimitError,
  API_SERVER_ERROR: ApiServerError,
  API_UNAVAILABLE: ApiServerError,
  API_ERROR: ApiError,
};

/** Maps an HTTP error status to its error class and code: the one place that decides. */
export function apiErrorFromResponse(init: {
  status: number;
  operation: string;
  rawBody: string;
  retryAfterSeconds?: number | undefined;
}): ApiError {
  const code = codeOfStatus(init.status);
  return new CLASS_BY_CODE[code]({ ...init, code });
}

function parseErrorBody(raw: string): ApiErrorBody | undefined {
  if (raw.trim() === '') return undefined;
  try {
    const parsed = ApiErrorBody.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Codes of {@link ApiNetworkError} and its two kinds. */
type ApiNetworkErrorCode = 'API_NETWORK' | 'API_TIMEOUT' | 'API_ABORTED';

/**
 * Raised when the request never got an answer: connection refused or reset, DNS failure, the
 * socket closed early, or the caller aborted. `sent` says whether the request may have reached
 * the insurer (it matters before repeating anything that moves money).
 */
export class ApiNetworkError extends CodedError<ApiNetworkErrorCode> {
  override readonly name: string = 'ApiNetworkError';
  readonly operation: string;
  readonly sent: boolean;

  constructor(
    init: { operation: string; sent: boolean; message?: string; code?: ApiNetworkErrorCode },
    options: ErrorOptions = {},
  ) {
    super(
      init.code ?? 'API_NETWORK',
      init.message ?? `${init.operation}: network failure`,
      options,
    );
    this.operation = init.operation;
    this.sent = init.sent;
  }
}

/** Raised when the insurer did not answer within `timeoutMs`. The request may have been handled. */
export class ApiTimeoutError extends ApiNetworkError {
  override readonly name = 'ApiTimeoutError';
  readonly timeoutMs: number;

  constructor(init: { operation: string; timeoutMs: number }, options: ErrorOptions = {}) {
    super(
      {
        operation: init.operation,
        sent: true,
        code: 'API_TIMEOUT',
        message: `${init.operation} timed out after ${init.timeoutMs} ms`,
      },
      options,
    );
    this.timeoutMs = init.timeoutMs;
  }
}

/** Raised when the caller's AbortSignal ended the call. The request may have been handled. */
export class ApiAbortedError extends ApiNetworkError {
  override readonly name = 'ApiAbortedError';

  constructor(init: { operation: string }, options: ErrorOptions = {}) {
    super(
      {
        operation: init.operation,
        sent: true,
        code: 'API_ABORTED',
        message: `${init.operation} was aborted`,
      },
      options,
    );
  }
}

/**
 * Raised at once, without a request, while the client's circuit breaker is open because the
 * insurer kept failing (network errors, timeouts, 5xx). `retryAfterMs` is how long until a trial
 * call may test the insurer again (0 while one is under way); `cause` is the failure that opened
 * the circuit. Tell the user the insurer is unavailable and to try again later.
 */
export class ApiUnavailableError extends CodedError<'API_UPSTREAM_UNAVAILABLE'> {
  override readonly name = 'ApiUnavailableError';
  readonly operation: string;
  readonly retryAfterMs: number;

  constructor(init: { operation: string; retryAfterMs: number }, options: ErrorOptions = {}) {
    super(
      'API_UPSTREAM_UNAVAILABLE',
      `${init.operation}: the insurer is unavailable (circuit open); retry in ${Math.ceil(init.retryAfterMs / 1000)} s`,
      options,
    );
    this.operation = init.operation;
    this.retryAfterMs = init.retryAfterMs;
  }
}

/**
 * Raised when a 2xx response does not match the operation's response schema (or is not JSON).
 * `path` is the first failing field, e.g. `data.0.id`; empty for a body that is not JSON.
 */
export class ResponseShapeError extends CodedError<'API_RESPONSE_SHAPE'> {
  override readonly name = 'ResponseShapeError';
  readonly operation: string;
  readonly path: string;
  readonly issues: readonly z.core.$ZodIssue[];

  constructor(
    init: {
      operation: string;
      path: string;
      issues?: readonly z.core.$ZodIssue[];
      message: string;
    },
    options: ErrorOptions = {},
  ) {
    super(
      'API_RESPONSE_SHAPE',
      `${init.operation}: unexpected response at '${init.path}': ${init.message}`,
      options,
    );
    this.operation = init.operation;
    this.path = init.path;
    this.issues = init.issues ?? [];
  }
}

/**
 * Raised before any request when the input breaks the operation's schema or one of the spec's
 * rules (e.g. a loan identified by both loanId and partnerLoanReference). `field` is a dotted path.
 */
export class ValidationError extends CodedError<'VALIDATION'> {
  override readonly name = 'ValidationError';
  readonly field: string;
  readonly issues: readonly z.core.$ZodIssue[];

  constructor(
    init: { field: string; message: string; issues?: readonly z.core.$ZodIssue[] },
    options: ErrorOptions = {},
  ) {
    super('VALIDATION', init.message, options);
    this.field = init.field;
    this.issues = init.issues ?? [];
  }

  /**
   * Builds a ValidationError from a zod error, naming the first failing field under `prefix`.
   * `whole` names the field when the value itself is wrong (e.g. a missing body).
   */
  static fromZod(error: z.ZodError, prefix?: string, whole?: string): ValidationError {
    const first = error.issues[0];
    const inner = first ? first.path.map(String).join('.') : '';
    const joined = [prefix, inner].filter((part) => part !== undefined && part !== '').join('.');
    const field = joined === '' ? (whole ?? '') : joined;
    return new ValidationError(
      { field, message: first?.message ?? 'Invalid input', issues: error.issues },
      { cause: error },
    );
  }
}

/**
 * What a failed call to the insurer means to its caller, the one classification everything
 * outside src/api uses (by class and stable code, never by an HTTP status number):
 * - `notFound`: the insurer has no such record ({@link ApiNotFoundError});
 * - `denied`: our key may not do this (401, 403);
 * - `rejected`: the insurer (400, 409, 422) or our own schema check ({@link ValidationError})
 *   refused the request; `fieldErrors` or `field` say which answer;
 * - `timeout`: no answer in time, or the caller aborted: the request may have been handled;
 * - `unavailable`: the insurer is not usable now (network failure, open circuit, 5xx, 429, or an
 *   answer of the wrong shape);
 * - `unknown`: anything else, including errors that are not the client's.
 */
export type ApiFailureKind =
  | 'notFound'
  | 'denied'
  | 'rejected'
  | 'timeout'
  | 'unavailable'
  | 'unknown';

const KIND_BY_CODE: Readonly<Record<ApiErrorCode, ApiFailureKind>> = {
  API_BAD_REQUEST: 'rejected',
  API_UNAUTHORIZED: 'denied',
  API_FORBIDDEN: 'denied',
  API_NOT_FOUND: 'notFound',
  API_CONFLICT: 'rejected',
  API_UNPROCESSABLE: 'rejected',
  API_RATE_LIMITED: 'unavailable',
  API_SERVER_ERROR: 'unavailable',
  API_UNAVAILABLE: 'unavailable',
  API_ERROR: 'unknown',
};

/** Classifies an error thrown by the partner client (see {@link ApiFailureKind}). */
export function classifyApiError(error: unknown): ApiFailureKind {
  if (error instanceof ApiError) return KIND_BY_CODE[error.code];
  if (error instanceof ApiTimeoutError || error instanceof ApiAbortedError) return 'timeout';
  if (
    error instanceof ApiNetworkError ||
    error instanceof ApiUnavailableError ||
    error instanceof ResponseShapeError
  ) {
    return 'unavailable';
  }
  if (error instanceof ValidationError) return 'rejected';
  return 'unknown';
}
