// Slack's own, beside the channel's adapter (which imports it through this folder): the Bolt
// app over its transport (Socket Mode, or the receiver on fastify with its signature check) and
// its logger, readers of Slack payloads, the Block Kit views of Slack's own surfaces (lookup
// modal, App Home) and the Web API calls.
export { type BoltApp, type BoltAppOptions, createBoltApp } from './bolt-app.js';
export { escapeMrkdwn, field, identity, isShared } from './slack-payload.js';
export {
  channelOfModal,
  fieldError,
  homeView,
  LOOKUP_BLOCK,
  LOOKUP_CALLBACK,
  LOOKUP_INPUT,
  lookupModal,
  noticeModal,
} from './slack-views.js';
export { openDm, respondEphemeral, type SlackFile, uploadFile } from './slack-web-api.js';
