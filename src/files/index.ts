// Stores uploaded claim documents and serves them under expiring signed URLs.

export {
  DOCUMENT_TYPES,
  type DocumentType,
  decodeFileName,
  documentFileName,
  MAX_FILE_BYTES,
  readAtMost,
  sniffDocumentType,
  storedType,
} from './document-type.js';
export { contentDisposition, fileResponseHeaders, registerFileRoutes } from './file-routes.js';
export type {
  FileAccessErrorCode,
  FileStoreOptions,
  OpenedFile,
  PutOptions,
} from './file-store.js';
export { createFileStore, FileAccessError, FileMeta, type FileStore } from './file-store.js';
