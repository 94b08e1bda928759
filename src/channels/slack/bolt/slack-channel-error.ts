import { CodedError } from '../../../errors/index.js';

/** Why the Slack channel failed outside Slack's own API errors. */
type SlackChannelErrorCode =
  | 'SLACK_SIGNING_SECRET_MISSING'
  | 'SLACK_FILE_UNAVAILABLE'
  | 'SLACK_ADDRESS_INVALID';

/** Raised when the channel is misconfigured, a file to upload cannot be fetched, or an address is bad. */
export class SlackChannelError extends CodedError<SlackChannelErrorCode> {
  override readonly name = 'SlackChannelError';
}
