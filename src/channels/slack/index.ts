// For src/server: build the channel and mount it; its error for whoever catches it.
export { createSlackChannel, type SlackChannel } from './slack-channel.js';
export { SlackChannelError } from './slack-channel-error.js';
