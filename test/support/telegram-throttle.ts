/**
 * Telegram's outgoing rate limits as tests set them (`throttle` of a Telegram channel,
 * `telegramThrottle` of a server): the Bot API emulator has none, and Telegram's one message a
 * second per chat would only make every journey step wait a second. Each chat's calls still go
 * one at a time, so a chat reads its messages in the order they were sent.
 */
export const TEST_TELEGRAM_THROTTLE = {
  global: {},
  group: { maxConcurrent: 1, minTime: 0 },
  out: { maxConcurrent: 1, minTime: 0 },
} as const;
