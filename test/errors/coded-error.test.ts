import { describe, expect, it } from 'vitest';
import { SlackChannelError } from '../../src/channels/slack/slack-channel-error.js';
import { SmsDeliveryError } from '../../src/channels/ussd/sms-notifier.js';
import { CodedError, CodedStatusError } from '../../src/errors/index.js';
import { SessionStoreError } from '../../src/session/session-store-error.js';

describe('CodedError', () => {
  it('gives each subclass its own name and instanceof, with the code and cause it was given', () => {
    const cause = new Error('down');
    const error = new SessionStoreError('redis_failed', 'no answer', { cause });
    expect(error).toBeInstanceOf(SessionStoreError);
    expect(error).toBeInstanceOf(CodedError);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(SlackChannelError);
    expect(error.name).toBe('SessionStoreError');
    expect(error.code).toBe('redis_failed');
    expect(error.message).toBe('no answer');
    expect(error.cause).toBe(cause);
    expect(String(error)).toBe('SessionStoreError: no answer');
  });

  it('keeps a status, and a cause only when there is one', () => {
    const answered = new SmsDeliveryError('SMS_HTTP_ERROR', 'answered 502', { status: 502 });
    expect(answered).toBeInstanceOf(CodedStatusError);
    expect(answered.name).toBe('SmsDeliveryError');
    expect(answered.status).toBe(502);
    expect('cause' in answered).toBe(false);
    const unreached = new SmsDeliveryError('SMS_NETWORK_ERROR', 'unreached', { cause: 'reset' });
    expect(unreached.status).toBeUndefined();
    expect(unreached.cause).toBe('reset');
  });
});
