// Slack's own (its errors too), beside the channel's adapter (which imports it through this folder): the Bolt
// app over its transport (Socket Mode, or the receiver on fastify with its signature check) and
// its logger, readers of Slack payloads, the Block Kit views of Slack's own surfaces (lookup
// modal, App Home) and the Web API calls.
export { type BoltApp, type BoltAppOptions, createBoltApp } from './bolt-app.js';
export { SlackChannelError } from './slack-channel-error.js';
export { askOf, escapeMrkdwn, field, identity, isShared, type SlackAsk } from './slack-payload.js';
export {
  BLOCK_KIT,
  channelOfModal,
  fieldError,
  homeView,
  LOOKUP_BLOCK,
  LOOKUP_CALLBACK,
  LOOKUP_INPUT,
  lookupModal,
  noticeModal,
} from './slack-views.js';
export {
  type AnswerTarget,
  openDm,
  postAnswer,
  respondEphemeral,
  type SlackFile,
  uploadFile,
} from './slack-web-api.js';
