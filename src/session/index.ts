// For the conversation engine and the process wiring (src/main.ts).

export type { RedisConnection } from './lua-script.js';
export { MemorySessionStore, type MemorySessionStoreOptions } from './memory-session-store.js';
export { RedisSessionStore, type RedisSessionStoreOptions } from './redis-session-store.js';
export type {
  AcquireOptions,
  AcquireResult,
  CommitResult,
  SessionLease,
  SessionStore,
  SessionStoreOptions,
  StoredSession,
} from './session-store.js';
export { SESSION_DEFAULTS } from './session-store.js';
export { SessionStoreError, type SessionStoreErrorCode } from './session-store-error.js';
