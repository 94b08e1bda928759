import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type RunningServer, runServer } from '../../src/server/index.js';

// Issue 37: a generated FILES_SIGNING_SECRET was printed into the log stream. Standard output is
// the log stream wherever nobody sits at a terminal; secrets are shown only on a terminal.

/** Standard output as `npm start` has it: the banner and pino's lines, one stream. */
function stdout(isTTY: boolean) {
  let banner = '';
  let logs = '';
  const destination = new PassThrough();
  destination.on('data', (chunk: Buffer) => {
    logs += chunk.toString('utf8');
  });
  return {
    out: { isTTY, write: (text: string) => (banner += text) },
    destination,
    banner: () => banner,
    logs: () => logs,
  };
}

/** Starts the server as `npm start` does, without FILES_SIGNING_SECRET, logging everything. */
async function start(isTTY: boolean) {
  const output = stdout(isTTY);
  const running = await runServer({
    env: { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'trace' },
    out: output.out,
    logDestination: output.destination,
  });
  return { running, ...output };
}

/** Some traffic, so the log has more than start-up lines: a dial, a health check, a bad webhook. */
async function traffic({ url }: RunningServer): Promise<void> {
  await fetch(`${url}/healthz`);
  await fetch(`${url}/simulator/ussd`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ phoneNumber: '+260971234567', text: '' }),
  });
  await fetch(`${url}/payments/callback/not-the-secret`, { method: 'POST', body: '{}' });
}

describe('generated secrets at start-up', () => {
  it('never reach the log stream of a server started without FILES_SIGNING_SECRET', async () => {
    const { running, banner, logs } = await start(false);
    try {
      await traffic(running);
    } finally {
      await running.server.close();
    }
    const secrets = running.generated.map(({ value }) => value);
    expect(running.generated.map(({ variable }) => variable)).toContain('FILES_SIGNING_SECRET');
    const sandboxKey = running.server.info.sandboxKey ?? '';
    expect(sandboxKey).not.toBe('');
    expect(logs()).toMatch(/"level":\d+/);
    // Off a terminal the banner is part of the stream: it names what was generated, no value.
    const stream = `${banner()}${logs()}`;
    for (const secret of [...secrets, sandboxKey]) expect(stream).not.toContain(secret);
    expect(banner()).toContain('values shown only in a terminal');
    expect(banner()).toContain('FILES_SIGNING_SECRET');
  });

  it('are shown in the banner on a terminal, and still never in the log lines', async () => {
    const { running, banner, logs } = await start(true);
    try {
      await traffic(running);
    } finally {
      await running.server.close();
    }
    const files = running.generated.find(({ variable }) => variable === 'FILES_SIGNING_SECRET');
    expect(banner()).toContain(`FILES_SIGNING_SECRET=${files?.value}`);
    for (const { value } of running.generated) expect(logs()).not.toContain(value);
  });
});
