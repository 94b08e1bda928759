// Stores uploaded claim documents and serves them under expiring signed URLs.

export { registerFileRoutes } from './file-routes.js';
export type {
  FileAccessErrorCode,
  FileStoreOptions,
  OpenedFile,
  PutOptions,
} from './file-store.js';
export { createFileStore, FileAccessError, FileMeta, type FileStore } from './file-store.js';
