import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, maskPersonal } from '../../src/log/index.js';

function capture() {
  const destination = new PassThrough();
  const lines: string[] = [];
  destination.on('data', (chunk: Buffer) =>
    lines.push(...chunk.toString('utf8').trim().split('\n')),
  );
  return { logger: createLogger({ level: 'debug', destination }), lines };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('createLogger', () => {
  it('redacts the configuration secrets by name, at the top and nested however spelt', async () => {
    const { logger, lines } = capture();
    logger.info(
      {
        signingSecret: 'top-signing',
        botToken: 'xoxb-top',
        callbackUrl: 'http://x/payments/callback/cb-secret',
        config: { files: { signingSecret: 'nested-signing' }, audit: { secret: 'nested-audit' } },
        env: { FILES_SIGNING_SECRET: 'env-signing', SLACK_APP_TOKEN: 'xapp-env', PORT: '3000' },
        err: Object.assign(new Error('refused'), { headers: { 'x-api-key': 'header-key' } }),
      },
      'line',
    );
    await flush();
    const text = lines.join('\n');
    for (const secret of [
      'top-signing',
      'xoxb-top',
      'cb-secret',
      'nested-signing',
      'nested-audit',
      'env-signing',
      'xapp-env',
      'header-key',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ env: { PORT: '3000' } });
  });

  it('redacts personal fields at the top of a line', async () => {
    const { logger, lines } = capture();
    logger.info({ msisdn: '260971234567', nrc: '479974/11/1', route: '/ussd' }, 'line');
    await flush();
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({ msisdn: '[REDACTED]', nrc: '[REDACTED]', route: '/ussd' });
  });

  it('masks personal fields nested in an error and its cause, and in a body', async () => {
    const { logger, lines } = capture();
    const cause = Object.assign(new Error('upstream said no'), {
      details: { holder: { firstName: 'Mwila', nrcNumber: '479974/11/1' } },
    });
    const error = Object.assign(new Error('call failed', { cause }), {
      body: { mobileMoneyAccountNumber: '260971234567' },
    });
    logger.error({ err: error, body: { client: { lastName: 'Banda', phone: '0971234567' } } });
    await flush();
    const text = lines.join('\n');
    for (const personal of ['Mwila', 'Banda', '479974', '971234567']) {
      expect(text).not.toContain(personal);
    }
    expect(text).toContain('call failed');
  });

  it('masks at any depth and keeps what is not personal', () => {
    expect(maskPersonal({ a: [{ b: { name: 'x', plate: 'AJQ 1909' } }] })).toEqual({
      a: [{ b: { name: '[REDACTED]', plate: 'AJQ 1909' } }],
    });
  });
});
