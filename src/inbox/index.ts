// A durable queue between a platform's inbound webhook and the turns: each conversation's messages
// in arrival order (one lock per conversation, on any instance), each message id taken once, a
// failed turn retried with back-off and apologised for after its last try, and an answer kept
// until all of it is sent. On the key-value and job-scheduler ports; WhatsApp's webhook feeds it.
export {
  createInbox,
  createSeenMessages,
  type Inbox,
  type InboxAnswer,
  TURN_ATTEMPTS,
} from './inbox.js';
