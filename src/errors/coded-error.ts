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
