// For src/server: build the channel and mount it; its error for whoever catches it; for
// src/handoff, which posts to Slack too, mrkdwn's escaping (written once).
export { escapeMrkdwn, SlackChannelError } from './bolt/index.js';
export { createSlackChannel, type SlackChannel } from './slack-channel.js';
