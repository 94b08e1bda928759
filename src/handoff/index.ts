// Human handoff: a conversation handed to a person in a Slack thread, for src/server's wiring.
// Channels see it through src/conversation's `Handoff`.

// The engine middleware the handoff reads conversations through (src/server adds it).
export { handoffMiddleware, readConversation } from './conversation-read.js';
export {
  createHandoffService,
  type HandoffConsent,
  type HandoffMetrics,
  type HandoffService,
  type HandoffServiceOptions,
  type NotifyCustomer,
} from './handoff-service.js';
export {
  createHandoffStore,
  HANDOFF_TTL_MS,
  type HandoffStore,
  OpenHandoff,
} from './handoff-store.js';
export {
  customerText,
  type HandoffSlackClient,
  HandoffSlackError,
  REOPEN_ACTION,
  RESOLVE_ACTION,
  StaffFile,
  staffText,
} from './slack-thread.js';
export {
  type HandoffFiles,
  keepStaffFile,
  SLACK_FILE_ORIGIN,
  type StaffFileOutcome,
} from './staff-files.js';
