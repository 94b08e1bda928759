import { CodedError } from '../errors/index.js';

/** Field name → messages, as in the published error body. */
export type FieldErrors = Record<string, string[]>;

/** Stable codes for the sandbox's HTTP errors. */
export type SandboxErrorCode =
  | 'validation_failed'
  | 'unauthorised'
  | 'not_found'
  | 'conflict'
  | 'rule_broken';

const CODE_BY_STATUS: Record<number, SandboxErrorCode> = {
  400: 'validation_failed',
  401: 'unauthorised',
  404: 'not_found',
  409: 'conflict',
  422: 'rule_broken',
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
    super(CODE_BY_STATUS[status] ?? 'rule_broken', message, options);
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
