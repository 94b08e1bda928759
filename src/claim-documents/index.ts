// Claim documents from any phone: a short signed link sent by SMS opens a web page whose files
// are kept in the file store and posted to the insurer as URLs. Every channel's claim files go
// to the insurer through one function (createClaimEvidence): the file's kept link and name.

// The claim files as the conversation's file-step policy takes a chat's file.
export { chatFilesOf } from './chat-files.js';
export {
  type ClaimDocumentsInsurer,
  type ClaimDocumentsRouteOptions,
  type ClaimOnPage,
  registerClaimDocumentsRoutes,
} from './claim-documents-routes.js';
export {
  type ClaimDocument,
  type ClaimEvidence,
  ClaimEvidenceError,
  type ClaimEvidenceErrorCode,
  createClaimEvidence,
  type EvidenceResult,
  type EvidenceSender,
  insurerClaimReport,
  postClaimDocuments,
} from './claim-evidence.js';
export {
  CLAIM_MAX_BYTES,
  CLAIM_MAX_FILES,
  type ClaimFileInput,
  type ClaimFileRefusalCode,
  ClaimFileRefusedError,
  type ClaimFiles,
  type ClaimFilesOptions,
  claimOfPrompt,
  createClaimFiles,
  type KeptClaimFile,
} from './claim-files.js';
export {
  type ClaimProgressOptions,
  claimProgressPrompt,
  createClaimProgress,
} from './claim-progress.js';
export {
  CLAIM_REPORT_TTL_SECONDS,
  ClaimReport,
  type ClaimReports,
  createClaimReports,
  type NewClaimReport,
} from './claim-reports.js';
export { partnerClaimDocuments } from './partner-insurer.js';
export {
  createPhoneReach,
  type PhoneReach,
  type PhoneReachMiddlewareOptions,
  phoneReachMiddleware,
} from './phone-reach.js';
export {
  type ClaimDocumentsLine,
  createUploadLinks,
  type LinkedClaim,
  type LinkedUpload,
  UPLOAD_LINK_TTL_SECONDS,
  UploadLinkError,
  type UploadLinkErrorCode,
  type UploadLinkOptions,
  type UploadLinks,
} from './upload-links.js';
export { type UploadPageView, uploadPage } from './upload-page.js';
