// Key-value storage for every part that keeps shared state: one port, a Redis adapter (shared by
// every instance) and a memory adapter (one process, the embedded default). The server builds one
// store and hands it to each part; parts name their own keys under the server's prefix.

export type { KeyValueStore, LinkedAppend, StreamEntry } from './key-value-store.js';
export { createMemoryStore, type MemoryStoreOptions } from './memory-store.js';
// Compact forms of what is kept on every request (a channel's state in the session record).
export { packField, readPackedFields, readPackedFieldsGeneral } from './packed-fields.js';
export { createRedisStore } from './redis-store.js';
export { shortDigest } from './short-digest.js';
