import type { z } from 'zod';
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
 * `{status, message, errors}` when it parses, otherwise `rawBody` holds the text.
 */
export class ApiError extends Error {
  override readonly name: string = 'ApiError';
  readonly code: ApiErrorCode;
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
      `${init.operation} failed with HTTP ${init.status}${body?.message ? `: ${body.message}` : ''}`,
      options,
    );
    this.code = init.code ?? 'API_ERROR';
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

const BY_STATUS: Readonly<Record<number, readonly [typeof ApiError, ApiErrorCode]>> = {
  400: [ApiBadRequestError, 'API_BAD_REQUEST'],
  401: [ApiUnauthorizedError, 'API_UNAUTHORIZED'],
  403: [ApiForbiddenError, 'API_FORBIDDEN'],
  404: [ApiNotFoundError, 'API_NOT_FOUND'],
  409: [ApiConflictError, 'API_CONFLICT'],
  422: [ApiUnprocessableError, 'API_UNPROCESSABLE'],
  429: [ApiRateLimitError, 'API_RATE_LIMITED'],
};

/** Maps an HTTP error status to its error class: the one place that decides. */
export function apiErrorFromResponse(init: {
  status: number;
  operation: string;
  rawBody: string;
  retryAfterSeconds?: number | undefined;
}): ApiError {
  const known = BY_STATUS[init.status];
  if (known) return new known[0]({ ...init, code: known[1] });
  if (init.status === 503) return new ApiServerError({ ...init, code: 'API_UNAVAILABLE' });
  if (init.status >= 500) return new ApiServerError({ ...init, code: 'API_SERVER_ERROR' });
  return new ApiError(init);
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

/**
 * Raised when the request never got an answer: connection refused or reset, DNS failure, the
 * socket closed early, or the caller aborted. `sent` says whether the request may have reached
 * the insurer (it matters before repeating anything that moves money).
 */
export class ApiNetworkError extends Error {
  override readonly name: string = 'ApiNetworkError';
  readonly code: string = 'API_NETWORK';
  readonly operation: string;
  readonly sent: boolean;

  constructor(
    init: { operation: string; sent: boolean; message?: string },
    options: ErrorOptions = {},
  ) {
    super(init.message ?? `${init.operation}: network failure`, options);
    this.operation = init.operation;
    this.sent = init.sent;
  }
}

/** Raised when the insurer did not answer within `timeoutMs`. The request may have been handled. */
export class ApiTimeoutError extends ApiNetworkError {
  override readonly name = 'ApiTimeoutError';
  override readonly code = 'API_TIMEOUT';
  readonly timeoutMs: number;

  constructor(init: { operation: string; timeoutMs: number }, options: ErrorOptions = {}) {
    super(
      {
        operation: init.operation,
        sent: true,
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
  override readonly code = 'API_ABORTED';

  constructor(init: { operation: string }, options: ErrorOptions = {}) {
    super(
      { operation: init.operation, sent: true, message: `${init.operation} was aborted` },
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
export class ApiUnavailableError extends Error {
  override readonly name = 'ApiUnavailableError';
  readonly code = 'upstream_unavailable';
  readonly operation: string;
  readonly retryAfterMs: number;

  constructor(init: { operation: string; retryAfterMs: number }, options: ErrorOptions = {}) {
    super(
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
export class ResponseShapeError extends Error {
  override readonly name = 'ResponseShapeError';
  readonly code = 'API_RESPONSE_SHAPE';
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
    super(`${init.operation}: unexpected response at '${init.path}': ${init.message}`, options);
    this.operation = init.operation;
    this.path = init.path;
    this.issues = init.issues ?? [];
  }
}

/**
 * Raised before any request when the input breaks the operation's schema or one of the spec's
 * rules (e.g. a loan identified by both loanId and partnerLoanReference). `field` is a dotted path.
 */
export class ValidationError extends Error {
  override readonly name = 'ValidationError';
  readonly code = 'VALIDATION';
  readonly field: string;
  readonly issues: readonly z.core.$ZodIssue[];

  constructor(
    init: { field: string; message: string; issues?: readonly z.core.$ZodIssue[] },
    options: ErrorOptions = {},
  ) {
    super(init.message, options);
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
