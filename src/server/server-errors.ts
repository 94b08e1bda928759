import { CodedError } from '../errors/index.js';

/** Raised when a staff reply is for a channel this server has no notifier for. */
export class HandoffUnreachableError extends CodedError<'HANDOFF_UNREACHABLE'> {
  override readonly name = 'HandoffUnreachableError';
  constructor(channel: string) {
    super('HANDOFF_UNREACHABLE', `no notifier reaches ${channel} customers`);
  }
}

/** Raised when a notice (a claim's confirmation) is for a channel with no notifier here. */
export class NoticeUnreachableError extends CodedError<'NOTICE_UNREACHABLE'> {
  override readonly name = 'NoticeUnreachableError';
  constructor(channel: string) {
    super('NOTICE_UNREACHABLE', `no notifier reaches ${channel} users`);
  }
}

/** Raised when a flow asks for an SMS and no SMS provider is configured. */
export class SmsUnavailableError extends CodedError<'SMS_UNAVAILABLE'> {
  override readonly name = 'SmsUnavailableError';
  // Read by the flows' failure mapping: the service is not available, try later.
  readonly status = 503;
  constructor() {
    super('SMS_UNAVAILABLE', 'no SMS provider is configured');
  }
}

/** Raised when a flow tells staff something and Slack is not running (no bot token). */
export class StaffChannelUnavailableError extends CodedError<'STAFF_CHANNEL_UNAVAILABLE'> {
  override readonly name = 'StaffChannelUnavailableError';
  constructor() {
    super('STAFF_CHANNEL_UNAVAILABLE', 'no Slack notifier reaches the staff channel');
  }
}
