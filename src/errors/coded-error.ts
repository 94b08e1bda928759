/**
 * An error that carries a stable `code` from its own union, for callers and logs to branch on
 * instead of the message. Each subclass keeps its own `name` (`override readonly name = '…'`).
 */
export class CodedError<Code extends string> extends Error {
  readonly code: Code;

  constructor(code: Code, message: string, options?: { readonly cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/**
 * A {@link CodedError} from a call to another service, with the status it answered (HTTP, or the
 * service's own per-item code) when it answered; `cause` is kept only when there is one.
 */
export class CodedStatusError<Code extends string> extends CodedError<Code> {
  readonly status: number | undefined;

  constructor(
    code: Code,
    message: string,
    options: { readonly status?: number; readonly cause?: unknown } = {},
  ) {
    super(code, message, options.cause === undefined ? {} : { cause: options.cause });
    this.status = options.status;
  }
}
