import { CodedError } from '../errors/index.js';

/** Field name → messages, as in the published error body. */
export type FieldErrors = Record<string, string[]>;

/**
 * Stable codes for the sandbox's HTTP errors, for its own logs and tests. Not on the wire: the
 * body the insurer's clients see is `{status, message, errors}`, and the spec shows no error codes.
 */
type SandboxErrorCode =
  | 'SANDBOX_VALIDATION_FAILED'
  | 'SANDBOX_UNAUTHORISED'
  | 'SANDBOX_NOT_FOUND'
  | 'SANDBOX_CONFLICT'
  | 'SANDBOX_RULE_BROKEN';

const CODE_BY_STATUS: Record<number, SandboxErrorCode> = {
  400: 'SANDBOX_VALIDATION_FAILED',
  401: 'SANDBOX_UNAUTHORISED',
  404: 'SANDBOX_NOT_FOUND',
  409: 'SANDBOX_CONFLICT',
  422: 'SANDBOX_RULE_BROKEN',
};

/**
 * Raised inside the sandbox when a request must be answered with the published error body
 * `{status, message, errors}`; the route layer turns it into that body and status code.
 */
export class SandboxHttpError extends CodedError<SandboxErrorCode> {
  override readonly name = 'SandboxHttpError';
  readonly status: 400 | 401 | 404 | 409 | 422;
  readonly errors: FieldErrors;

  constructor(
    status: 400 | 401 | 404 | 409 | 422,
    message: string,
    errors: FieldErrors = {},
    options?: { cause?: unknown },
  ) {
    super(CODE_BY_STATUS[status] ?? 'SANDBOX_RULE_BROKEN', message, options);
    this.status = status;
    this.errors = errors;
  }

  /** The published error body. */
  toBody(): { status: number; message: string; errors: FieldErrors } {
    return { status: this.status, message: this.message, errors: this.errors };
  }
}

/** 404 for a missing record of `what`. */
export function notFound(what: string, id: string | number): SandboxHttpError {
  return new SandboxHttpError(404, `${what} ${String(id)} was not found`);
}

/** 422 for a broken business rule; `field` names the offending input when there is one. */
export function ruleBroken(message: string, field?: string): SandboxHttpError {
  return new SandboxHttpError(422, message, field ? { [field]: [message] } : {});
}

/** 400 for invalid input on the named fields. */
export function invalid(message: string, errors: FieldErrors): SandboxHttpError {
  return new SandboxHttpError(400, message, errors);
}
