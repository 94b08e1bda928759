import { describe, expect, it } from 'vitest';
import { signatureOf, verifySignature } from '../../../src/channels/whatsapp/index.js';

describe('the webhook signature', () => {
  const body = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');
  it('accepts the HMAC of the raw body under the app secret and nothing else', () => {
    expect(verifySignature(body, signatureOf(body, 's3cret'), 's3cret')).toBe(true);
    expect(verifySignature(body, signatureOf(body, 'other'), 's3cret')).toBe(false);
    expect(verifySignature(Buffer.from(`${body} `), signatureOf(body, 's3cret'), 's3cret')).toBe(
      false,
    );
    expect(verifySignature(body, undefined, 's3cret')).toBe(false);
    expect(verifySignature(body, ['sha256=00'], 's3cret')).toBe(false);
    expect(verifySignature(body, 'sha1=abc', 's3cret')).toBe(false);
  });
});
