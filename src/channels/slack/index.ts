// For src/server and src/main.ts: build the channel and mount it.

// Transport pieces, exported for tests and for anyone verifying Slack requests elsewhere.
export {
  FastifySlackReceiver,
  type FastifySlackReceiverOptions,
} from './fastify-slack-receiver.js';
// Rendering (masking lives in src/privacy).
export {
  type RenderPrompt,
  type SlackMessage,
  toSlackMessage,
} from './render-slack-message.js';
export {
  createSlackChannel,
  type SlackChannel,
  type SlackChannelOptions,
} from './slack-channel.js';
export { SlackChannelError, type SlackChannelErrorCode } from './slack-channel-error.js';
