import { CodedError } from '../errors/index.js';

/** Why a session store call failed. */
export type SessionStoreErrorCode = 'SESSION_REDIS_FAILED' | 'SESSION_BAD_OPTION';

/** Raised when the session store cannot be reached or is misconfigured; never for a busy lock. */
export class SessionStoreError extends CodedError<SessionStoreErrorCode> {
  override readonly name = 'SessionStoreError';
}
