import { CodedError } from '../errors/index.js';

/** Why a session store call failed. */
export type SessionStoreErrorCode = 'redis_failed' | 'bad_option';

/** Raised when the session store cannot be reached or is misconfigured; never for a busy lock. */
export class SessionStoreError extends CodedError<SessionStoreErrorCode> {
  override readonly name = 'SessionStoreError';
}
