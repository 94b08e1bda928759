import { createLogger } from '../log/index.js';
import { createSandbox, DEMO_BOOK, SANDBOX_TEST_MSISDNS } from './index.js';

/*
 * `npm run sandbox`: the sandbox insurer on its own. Port from SANDBOX_PORT (default 4010), API key
 * from SANDBOX_API_KEY (generated when unset), partner callback from SANDBOX_CALLBACK_URL.
 */

const logger = createLogger();

function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  }
  return value;
}

function flagFromEnv(name: string): boolean {
  const raw = (process.env[name] ?? '').trim().toLowerCase();
  if (raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

async function main(): Promise<void> {
  const port = numberFromEnv('SANDBOX_PORT', 4010);
  const deferredBilling = flagFromEnv('SANDBOX_DEFERRED_BILLING');
  const sandbox = createSandbox({
    ...(process.env.SANDBOX_API_KEY ? { apiKey: process.env.SANDBOX_API_KEY } : {}),
    ...(process.env.SANDBOX_CALLBACK_URL ? { callbackUrl: process.env.SANDBOX_CALLBACK_URL } : {}),
    levyRate: numberFromEnv('SANDBOX_LEVY_RATE', 0.05),
    settleDelayMs: numberFromEnv('SANDBOX_SETTLE_DELAY_MS', 3000),
    deferredBilling,
    // A large book besides the demo book, to measure cover lookups against (bench/README.md).
    bookSize: numberFromEnv('SANDBOX_BOOK_SIZE', 0),
    answerDelayMs: numberFromEnv('SANDBOX_ANSWER_DELAY_MS', 0),
    logger,
  });
  const { url, origin } = await sandbox.listen(port, process.env.SANDBOX_HOST ?? '127.0.0.1');
  const lines = [
    'Sandbox insurer running',
    `  PARTNER_API_URL=${url}`,
    `  PARTNER_API_KEY=${sandbox.apiKey}`,
    `  SMS (Africa's Talking style): POST ${origin}/version1/messaging, outbox ${origin}/sandbox/sms-outbox`,
    `  Demo book (README "Demo data"): insured ${DEMO_BOOK.motor.insured.registrationNumber}, renewal due ${DEMO_BOOK.motor.renewal.registrationNumber}, new car ${DEMO_BOOK.motor.newPlate}; funeral principal NRC ${DEMO_BOOK.funeral.principal.nrcNumber}`,
    `  Deferred billing (PayLater): ${deferredBilling ? 'on' : 'off'}`,
    '  Test MSISDNs (mobile money; the last digit decides):',
    ...SANDBOX_TEST_MSISDNS.map(
      (entry) =>
        `    ending ${entry.endsWith === '*' ? 'in anything else' : `in ${entry.endsWith}`} (e.g. ${entry.example}): ${entry.description}`,
    ),
  ];
  // The banner is for the person who started the sandbox, so it goes to stdout as text.
  process.stdout.write(`${lines.join('\n')}\n`);
  const stop = (): void => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  logger.error({ err: error }, 'sandbox failed to start');
  process.exit(1);
});
