import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmsNotifier, SmsDeliveryError } from '../../../src/channels/sms/index.js';
import { renderPrompt } from '../../../src/conversation/index.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.js';

let sandbox: Sandbox;
let messagingUrl: string;

beforeAll(async () => {
  sandbox = createSandbox({ seed: false });
  const { origin } = await sandbox.listen(0);
  messagingUrl = `${origin}/version1/messaging`;
});
afterAll(async () => {
  await sandbox.close();
});

const address = { channel: 'ussd' as const, address: '260971234567', locale: 'en' };

describe('createSmsNotifier', () => {
  it("sends the rendered Prompt and its links through Africa's Talking's messaging API", async () => {
    const notifier = createSmsNotifier({
      url: messagingUrl,
      apiKey: sandbox.apiKey,
      username: 'sandbox',
      from: 'INSURE',
      render: renderPrompt,
    });
    await notifier.notify(address, {
      key: 'engine.goodbye',
      input: 'none',
      final: true,
      attachments: [{ kind: 'link', url: 'https://files.example/cert.pdf', label: 'certificate' }],
    });
    const [sms] = sandbox.smsOutbox.list('0971234567');
    expect(sms?.to).toBe('+260971234567');
    expect(sms?.from).toBe('INSURE');
    expect(sms?.message).toContain('Thank you for using our service.');
    expect(sms?.message).toContain('https://files.example/cert.pdf');
  });

  it('labels each link and says how to carry on when the conversation waits for an answer', async () => {
    const notifier = createSmsNotifier({
      url: messagingUrl,
      apiKey: sandbox.apiKey,
      username: 'sandbox',
      render: renderPrompt,
      serviceCode: '*384*4628#',
    });
    const to = { ...address, address: '260971230008' };
    await notifier.notify(to, {
      key: 'pay.failed',
      params: { currency: 'ZMW', amount: '693.00', what: 'Motor Comprehensive for ABC 123' },
      input: 'choice',
      final: false,
      attachments: [
        { kind: 'link', url: 'https://files.example/cert.pdf', label: 'motor.certificate' },
      ],
    });
    const [sms] = sandbox.smsOutbox.list('0971230008');
    expect(sms?.message).toBe(
      [
        'Payment of ZMW 693.00 for Motor Comprehensive for ABC 123 did not go through. Nothing was charged.',
        'Insurance certificate: https://files.example/cert.pdf',
        'To carry on, dial *384*4628# and choose Continue.',
      ].join('\n'),
    );
  });

  it('sends the paid message with a short certificate link in one segment, the reminder notice on its own (issue 38)', async () => {
    const notifier = createSmsNotifier({
      url: messagingUrl,
      apiKey: sandbox.apiKey,
      username: 'sandbox',
      render: renderPrompt,
      shortLink: async () => 'https://bot.example.zm/c/AbCdEfGhIjKl',
      takeNotice: (_, prompt) =>
        prompt.key === 'motor.done'
          ? {
              key: 'reminder.smsNotice',
              params: { policyNumber: 'MTR-2026-000123' },
              input: 'none',
              final: true,
            }
          : undefined,
    });
    const signed = `https://bot.example.zm/files/${'f'.repeat(36)}?exp=1900000000&sig=${'s'.repeat(43)}`;
    for (const [locale, to] of [
      ['en', '260971230011'],
      ['bem', '260971230012'],
      ['ny', '260971230013'],
    ] as const) {
      await notifier.notify(
        { ...address, address: to, locale },
        {
          key: 'motor.done',
          params: {
            currency: 'ZMW',
            amount: '693.00',
            what: 'Motor Third Party for BCD 4321',
            startDate: '2026-11-28',
            endDate: '2027-11-27',
            policyNumber: 'MTR-2026-000123',
          },
          input: 'none',
          final: true,
          attachments: [{ kind: 'document', url: signed, label: 'motor.certificate' }],
        },
      );
      const sent = sandbox.smsOutbox.list(`0${to.slice(3)}`);
      expect(sent).toHaveLength(2);
      const [paid, notice] = sent;
      expect(paid?.message).toContain('https://bot.example.zm/c/AbCdEfGhIjKl');
      expect(paid?.message).not.toContain(signed);
      expect(paid?.message.length, `${locale}: ${paid?.message}`).toBeLessThanOrEqual(160);
      expect(notice?.message).toMatch(/MTR-2026-000123/);
      expect(notice?.message.length).toBeLessThanOrEqual(160);
    }
  });

  it('throws SmsDeliveryError when the provider refuses the request', async () => {
    const notifier = createSmsNotifier({
      url: messagingUrl,
      apiKey: '',
      username: 'sandbox',
      render: renderPrompt,
    });
    const sending = notifier.notify(address, { key: 'engine.goodbye', input: 'none', final: true });
    await expect(sending).rejects.toBeInstanceOf(SmsDeliveryError);
    await expect(sending).rejects.toMatchObject({ code: 'SMS_HTTP_ERROR', status: 401 });
  });

  it('throws SmsDeliveryError when the provider cannot be reached', async () => {
    const notifier = createSmsNotifier({
      url: 'http://127.0.0.1:9/version1/messaging',
      apiKey: 'k',
      username: 'sandbox',
      render: renderPrompt,
      timeoutMs: 1000,
    });
    await expect(
      notifier.notify(address, { key: 'engine.goodbye', input: 'none', final: true }),
    ).rejects.toMatchObject({ name: 'SmsDeliveryError', code: 'SMS_NETWORK_ERROR' });
  });
});
