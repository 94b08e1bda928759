/** Raised when a staff reply is for a channel this server has no notifier for. */
export class HandoffUnreachableError extends Error {
  override readonly name = 'HandoffUnreachableError';
  readonly code = 'HANDOFF_UNREACHABLE';
  constructor(channel: string) {
    super(`no notifier reaches ${channel} customers`);
  }
}

/** Raised when a notice (a claim's confirmation) is for a channel with no notifier here. */
export class NoticeUnreachableError extends Error {
  override readonly name = 'NoticeUnreachableError';
  readonly code = 'NOTICE_UNREACHABLE';
  constructor(channel: string) {
    super(`no notifier reaches ${channel} users`);
  }
}

/** Raised when a flow asks for an SMS and no SMS provider is configured. */
export class SmsUnavailableError extends Error {
  override readonly name = 'SmsUnavailableError';
  readonly code = 'SMS_UNAVAILABLE';
  // Read by the flows' failure mapping: the service is not available, try later.
  readonly status = 503;
  constructor() {
    super('no SMS provider is configured');
  }
}

/** Raised when a flow tells staff something and Slack is not running (no bot token). */
export class StaffChannelUnavailableError extends Error {
  override readonly name = 'StaffChannelUnavailableError';
  readonly code = 'STAFF_CHANNEL_UNAVAILABLE';
  constructor() {
    super('no Slack notifier reaches the staff channel');
  }
}
