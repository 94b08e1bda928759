/** Why a session store call failed. */
export type SessionStoreErrorCode = 'redis_failed' | 'bad_option';

/** Raised when the session store cannot be reached or is misconfigured; never for a busy lock. */
export class SessionStoreError extends Error {
  override readonly name = 'SessionStoreError';
  readonly code: SessionStoreErrorCode;

  constructor(code: SessionStoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
