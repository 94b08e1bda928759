import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Readable } from 'node:stream';
import {
  createPartnerClient,
  type PartnerClient,
  type PaymentWebhook,
} from '../../src/api/index.js';
import {
  createManualClock,
  createSandbox,
  type ManualClock,
  type Sandbox,
  type SandboxOptions,
} from '../../src/sandbox/index.js';

/** A sandbox listening on a free port with a real client pointed at it. */
export interface Harness {
  readonly sandbox: Sandbox;
  readonly client: PartnerClient;
  readonly url: string;
  readonly origin: string;
  readonly clock: ManualClock;
  close(): Promise<void>;
}

/** Starts a sandbox (manual clock, fast settlement) and a client for it. */
export async function startHarness(options: SandboxOptions = {}): Promise<Harness> {
  const clock = createManualClock(new Date('2026-03-02T08:00:00.000Z'));
  const sandbox = createSandbox({
    apiKey: 'test-key',
    settleDelayMs: 10,
    callbackRetryBaseMs: 10,
    clock,
    ...options,
  });
  const { url, origin } = await sandbox.listen();
  const client = createPartnerClient({ baseUrl: url, apiKey: 'test-key', maxRetries: 0 });
  return {
    sandbox,
    client,
    url,
    origin,
    clock,
    async close() {
      await client.close();
      await sandbox.close();
    },
  };
}

/** Reads a downloaded document fully. */
export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** A raw request to the sandbox (for cases the client rejects before sending). */
export async function raw(
  harness: Harness,
  method: string,
  path: string,
  body?: unknown,
  apiKey: string | null = 'test-key',
): Promise<{
  status: number;
  body: { status?: number; message?: string; errors?: Record<string, string[]> } & Record<
    string,
    unknown
  >;
}> {
  const headers: Record<string, string> = {};
  if (apiKey !== null) headers.authorization = `Bearer ${apiKey}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${harness.url}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as never };
}

/** A local HTTP listener standing in for the partner's payment callback URL. */
export interface CallbackListener {
  readonly url: string;
  readonly received: PaymentWebhook[];
  /** Status codes to answer with, in order; 200 once they run out. */
  readonly answers: number[];
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      text += chunk;
    });
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}

/** Starts a callback listener on a free port. */
export async function startCallbackListener(answers: number[] = []): Promise<CallbackListener> {
  const received: PaymentWebhook[] = [];
  const server: Server = createServer((request, response) => {
    void readBody(request).then((text) => {
      const status = answers.shift() ?? 200;
      if (status === 200) received.push(JSON.parse(text) as PaymentWebhook);
      response.statusCode = status;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/insurer/payments`,
    received,
    answers,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loan row valid on 2026-03-02: 12 months, borrower aged 36. */
export function loanRow(reference: string, overrides: Record<string, unknown> = {}) {
  return {
    fullName: 'Test Borrower',
    nrcNumber: '111111/11/1',
    dateOfBirth: '1990-01-01',
    amount: 10_000,
    startDate: '2026-03-02',
    endDate: '2027-03-01',
    partnerLoanReference: reference,
    interestRate: 0.28,
    ...overrides,
  };
}

/** A census member row. */
export function memberRow(nrcNumber: string, annualSalary = 60_000) {
  return { fullName: 'Test Member', nrcNumber, dateOfBirth: '1990-06-15', annualSalary };
}
