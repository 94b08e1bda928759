import { describe, expect, it } from 'vitest';
import {
  SlackSignatureError,
  signSlackRequest,
  verifySlackSignature,
} from '../../../src/channels/slack/index.js';

const SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
const NOW_MS = 1_700_000_000_000;
const TIMESTAMP = String(NOW_MS / 1_000);
const BODY = 'token=x&team_id=T1&command=%2Finsure&text=policy+P-1';

function failure(run: () => void): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof SlackSignatureError ? error.code : 'other';
  }
}

describe('verifySlackSignature', () => {
  const valid = {
    signingSecret: SECRET,
    rawBody: BODY,
    timestamp: TIMESTAMP,
    signature: signSlackRequest(SECRET, TIMESTAMP, BODY),
    nowMs: NOW_MS,
  };

  it('accepts a request signed with the secret over v0:timestamp:body', () => {
    expect(failure(() => verifySlackSignature(valid))).toBeUndefined();
  });

  it('reproduces the worked example in Slack’s request-verification guide', () => {
    const body =
      'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V' +
      '&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=' +
      '&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN' +
      '&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
    expect(signSlackRequest(SECRET, '1531420618', body)).toBe(
      'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
    );
  });

  it('rejects a missing signature or timestamp', () => {
    expect(failure(() => verifySlackSignature({ ...valid, signature: undefined }))).toBe('missing');
    expect(failure(() => verifySlackSignature({ ...valid, timestamp: undefined }))).toBe('missing');
    expect(failure(() => verifySlackSignature({ ...valid, timestamp: 'soon' }))).toBe('missing');
  });

  it('rejects a request more than five minutes old or ahead', () => {
    expect(failure(() => verifySlackSignature({ ...valid, nowMs: NOW_MS + 301_000 }))).toBe(
      'stale',
    );
    expect(failure(() => verifySlackSignature({ ...valid, nowMs: NOW_MS - 301_000 }))).toBe(
      'stale',
    );
    expect(
      failure(() => verifySlackSignature({ ...valid, nowMs: NOW_MS + 299_000 })),
    ).toBeUndefined();
  });

  it('rejects a wrong secret, a changed body and a truncated signature', () => {
    const other = signSlackRequest('other', TIMESTAMP, BODY);
    expect(failure(() => verifySlackSignature({ ...valid, signature: other }))).toBe('mismatch');
    expect(failure(() => verifySlackSignature({ ...valid, rawBody: `${BODY}&x=1` }))).toBe(
      'mismatch',
    );
    expect(
      failure(() => verifySlackSignature({ ...valid, signature: valid.signature.slice(0, 20) })),
    ).toBe('mismatch');
  });
});
