// Stores uploaded claim documents (local disk or an S3-compatible bucket) and serves them under
// signed URLs; a claim's documents are kept while the claim needs them. Beside them, small
// records that must outlive Redis (`FileStore.records`: the registrations of src/access).

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
export { diskBackend, type FileBackend } from './file-backend.js';
export { contentDisposition, fileResponseHeaders, registerFileRoutes } from './file-routes.js';
export type {
  ClaimReport,
  ClaimReporter,
  FileAccessErrorCode,
  FileStoreOptions,
  OpenedFile,
  PutOptions,
} from './file-store.js';
export {
  CLAIM_FILE_RETENTION_MS,
  createFileStore,
  FILE_RETENTION_MS,
  FileAccessError,
  FileClaim,
  FileMeta,
  type FileStore,
} from './file-store.js';
export type { RecordFolder } from './record-folder.js';
export {
  FileStoreUnavailableError,
  parseS3Url,
  S3Location,
  s3Backend,
} from './s3-backend.js';
// Server: short stand-ins for signed links, so an SMS carrying one fits one segment.
export {
  createShortLinks,
  registerShortLinkRoutes,
  SHORT_LINK_PATH,
  type ShortLinks,
  type ShortLinksOptions,
} from './short-links.js';
