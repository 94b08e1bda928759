// Key-value storage for every part that keeps shared state: one port, a Redis adapter (shared by
// every instance) and a memory adapter (one process, the embedded default). The server builds one
// store and hands it to each part; parts name their own keys under the server's prefix.

export type { KeyValueStore, LinkedAppend, StreamEntry } from './key-value-store.js';
export { createMemoryStore, type MemoryStoreOptions } from './memory-store.js';
export { createRedisStore } from './redis-store.js';
