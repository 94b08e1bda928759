import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ApiAbortedError,
  ApiBadRequestError,
  ApiConflictError,
  ApiError,
  ApiNetworkError,
  ApiNotFoundError,
  ApiServerError,
  ApiTimeoutError,
  ApiUnauthorizedError,
  ApiUnprocessableError,
  contract,
  createPartnerClient,
  type PartnerClient,
  type PartnerClientOptions,
  ResponseShapeError,
  ValidationError,
} from '../../src/api/index.js';
import { createLogger } from '../../src/log/index.js';
import { drop, type HttpStub, hang, json, startStub, text } from './http-stub.js';

const individual = {
  firstName: 'Mwila',
  lastName: 'Banda',
  phoneNumber: '260971234567',
  email: 'mwila@example.com',
  idNumber: '479974/11/1',
  idType: 'NRC',
};
const card = { city: 'Lusaka', country: 'ZM', address: 'Plot 1', zip: 10101 };

let stub: HttpStub;
let client: PartnerClient;

function clientFor(options: Partial<PartnerClientOptions> = {}): PartnerClient {
  return createPartnerClient({
    baseUrl: stub.baseUrl,
    apiKey: 'test-key',
    retryBaseDelayMs: 1,
    ...options,
  });
}

beforeEach(async () => {
  stub = await startStub();
  client = clientFor();
});

afterEach(async () => {
  await client.close();
  await stub.close();
});

describe('requests', () => {
  it('sends the API key as a bearer token on every request', async () => {
    stub.respond(json(200, []));
    await client.call('getCreditLifeProducts');
    expect(stub.requests[0]?.headers.authorization).toBe('Bearer test-key');
  });

  it('puts the path under the base URL and percent-encodes path parameters', async () => {
    stub.respond(json(200, { reference: 'ref/1 a', status: 'Pending' }));
    await client.call('getTransactionStatus', { path: { reference: 'ref/1 a' } });
    expect(stub.requests[0]?.method).toBe('GET');
    expect(stub.requests[0]?.url).toBe('/api/v1/payments/transactions/ref%2F1%20a/status');
  });

  it('encodes query parameters and leaves out the ones not given', async () => {
    stub.respond(json(200, { totalItems: 0, pageSize: 5, pageNumber: 2, totalPages: 0, data: [] }));
    await client.call('getIndividuals', {
      query: { FirstName: 'Jo Ann&Co', PageNumber: 2, PageSize: 5 },
    });
    const url = new URL(stub.requests[0]?.url ?? '', 'http://x');
    expect(url.pathname).toBe('/api/v1/policyholders/individuals');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      FirstName: 'Jo Ann&Co',
      PageNumber: '2',
      PageSize: '5',
    });
  });

  it('sends the body as JSON, keeping fields the schema does not know', async () => {
    stub.respond(json(201, { id: 'c1', ...individual }));
    const created = await client.call('createIndividual', {
      body: { ...individual, occupation: 'farmer' },
    });
    expect(stub.requests[0]?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(stub.requests[0]?.body ?? '')).toEqual({
      ...individual,
      occupation: 'farmer',
    });
    expect(created.id).toBe('c1');
  });

  it('keeps response fields the schema does not know', async () => {
    stub.respond(json(200, { id: 'c1', firstName: 'Mwila', loyaltyTier: 'gold' }));
    const found = await client.call('getIndividual', { path: { id: 'c1' } });
    expect(found).toMatchObject({ id: 'c1', loyaltyTier: 'gold' });
  });

  it('uses a configured path override instead of the table path', async () => {
    await client.close();
    client = clientFor({ pathOverrides: { getCorporates: '/clients/corporates' } });
    stub.respond(
      json(200, { totalItems: 0, pageSize: 10, pageNumber: 1, totalPages: 0, data: [] }),
    );
    await client.call('getCorporates');
    expect(stub.requests[0]?.url).toBe('/api/v1/clients/corporates');
    expect(client.pathOf('getCorporates')).toBe('/clients/corporates');
  });

  it('rejects input that breaks the schema before sending anything', async () => {
    const { phoneNumber: _missing, ...withoutPhone } = individual;
    const error = await client
      // @ts-expect-error phoneNumber is required: the runtime check must also catch it
      .call('createIndividual', { body: withoutPhone })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe('phoneNumber');
    expect(stub.requests).toHaveLength(0);
  });
});

describe('input checks', () => {
  it('names the body when the body is missing altogether', async () => {
    // @ts-expect-error the body is required: the runtime check must also catch it
    const error = await client.call('createIndividual', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ValidationError', field: 'body' });
    expect(stub.requests).toHaveLength(0);
  });

  it('names the path parameter that is missing', async () => {
    const error = await client
      // @ts-expect-error quoteId is required: the runtime check must also catch it
      .call('payQuotation', { path: {}, body: { reference: 'r1' } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ValidationError', field: 'quoteId' });
    expect(stub.requests).toHaveLength(0);
  });

  it('names a path parameter given as an empty string', async () => {
    const error = await client
      .call('getMotorProduct', { path: { productId: '' } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ValidationError', field: 'productId' });
    expect(stub.requests).toHaveLength(0);
  });

  it('names a path parameter given as a number', async () => {
    const error = await client
      // @ts-expect-error productId is a string: the runtime check must also catch it
      .call('getMotorProduct', { path: { productId: 7 } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ValidationError', field: 'productId' });
    expect(stub.requests).toHaveLength(0);
  });

  it('names the path parameters when they are given as null', async () => {
    const error = await client
      // @ts-expect-error path must be an object: the runtime check must also catch it
      .call('getMotorProduct', { path: null })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(stub.requests).toHaveLength(0);
  });

  it('rejects an operation name that only exists on Object.prototype', async () => {
    const call = (client.call as (name: string) => Promise<unknown>)('toString');
    await expect(call).rejects.toMatchObject({ name: 'ValidationError', field: 'operation' });
    expect(stub.requests).toHaveLength(0);
  });

  it('fills the parameters of an overridden path template', async () => {
    await client.close();
    client = clientFor({ pathOverrides: { getMotorProduct: '/motor/{productId}/detail' } });
    stub.respond(json(200, { id: 'p/1' }));
    await client.call('getMotorProduct', { path: { productId: 'p/1' } }).catch(() => undefined);
    expect(stub.requests[0]?.url).toBe('/api/v1/motor/p%2F1/detail');
  });
});

describe('pagination', () => {
  it('yields every item of every page, asking for each page in turn', async () => {
    const page = (pageNumber: number, ids: string[]) =>
      json(200, {
        totalItems: 5,
        pageSize: 2,
        pageNumber,
        totalPages: 3,
        data: ids.map((id) => ({ id })),
      });
    stub.respond(page(1, ['a', 'b']), page(2, ['c', 'd']), page(3, ['e']));
    const ids: Array<string | number> = [];
    for await (const product of client.paginate('getMotorProducts', { query: { PageSize: 2 } })) {
      ids.push(product.id);
    }
    expect(ids).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(
      stub.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('PageNumber')),
    ).toEqual(['1', '2', '3']);
  });

  it('stops at an empty page even when totalPages says there are more', async () => {
    stub.respond(json(200, { totalItems: 9, pageSize: 2, pageNumber: 1, totalPages: 5, data: [] }));
    const items = [];
    for await (const item of client.paginate('getCreditLifePolicies')) items.push(item);
    expect(items).toEqual([]);
    expect(stub.requests).toHaveLength(1);
  });
});

describe('downloads', () => {
  it('returns a document as a readable stream', async () => {
    stub.respond(text(200, 'loanId,amount\n1,5000\n', 'text/csv'));
    const stream = await client.download('getCreditLifeBordereau', { path: { policyId: 'p1' } });
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
    expect(Buffer.concat(chunks).toString()).toBe('loanId,amount\n1,5000\n');
    expect(stub.requests[0]?.url).toBe('/api/v1/credit-life/policies/p1/bordereau');
  });
});

describe('time limits and cancellation', () => {
  it('gives up with ApiTimeoutError when the insurer does not answer in time', async () => {
    stub.respond(hang);
    const error = await client
      .call('getMotorProduct', { path: { productId: '1' } }, { timeoutMs: 50 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect((error as ApiTimeoutError).timeoutMs).toBe(50);
  });

  it('stops with ApiAbortedError when the caller aborts', async () => {
    stub.respond(hang);
    const controller = new AbortController();
    const pending = client
      .call('getMotorProduct', { path: { productId: '1' } }, { signal: controller.signal })
      .catch((e: unknown) => e);
    controller.abort();
    expect(await pending).toBeInstanceOf(ApiAbortedError);
  });

  it('stops with ApiAbortedError when the caller aborts while the body is arriving', async () => {
    let headersSent: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      headersSent = resolve;
    });
    stub.respond((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"id":');
      headersSent();
    });
    const controller = new AbortController();
    const pending = client
      .call('getMotorProduct', { path: { productId: '1' } }, { signal: controller.signal })
      .catch((e: unknown) => e);
    await started;
    controller.abort();
    expect(await pending).toBeInstanceOf(ApiAbortedError);
  });

  it('gives up with ApiTimeoutError when the body stalls after the headers', async () => {
    stub.respond((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"id":');
    });
    const error = await client
      .call('getMotorProduct', { path: { productId: '1' } }, { timeoutMs: 50 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiTimeoutError);
  });

  it('answers normally and stops listening when the caller passes a signal that never fires', async () => {
    stub.respond(json(200, { reference: 'r1', status: 'Pending' }));
    const controller = new AbortController();
    const added: string[] = [];
    const removed: string[] = [];
    const signal = controller.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = (type: string, ...rest: [never, never?]) => {
      added.push(type);
      add(type, ...rest);
    };
    signal.removeEventListener = (type: string, ...rest: [never, never?]) => {
      removed.push(type);
      remove(type, ...rest);
    };
    const status = await client.call(
      'getTransactionStatus',
      { path: { reference: 'r1' } },
      { signal },
    );
    expect(status).toMatchObject({ reference: 'r1' });
    expect(added).toEqual(['abort']);
    expect(removed).toEqual(['abort']);
  });
});

describe('retries', () => {
  it('retries a GET answered 503 and returns the later success', async () => {
    stub.respond(json(503, { status: 503, message: 'busy' }), json(200, { id: 7 }));
    const product = await client.call('getMotorProduct', { path: { productId: '7' } });
    expect(product.id).toBe(7);
    expect(stub.requests).toHaveLength(2);
  });

  it('gives up on a GET after the configured number of retries', async () => {
    stub.respond(json(503, {}));
    await expect(
      client.call('getMotorProduct', { path: { productId: '7' } }),
    ).rejects.toBeInstanceOf(ApiServerError);
    expect(stub.requests).toHaveLength(3);
  });

  it('does not retry when Retry-After asks for longer than the client will wait', async () => {
    stub.respond(json(503, {}, { 'retry-after': '3600' }), json(200, { id: 7 }));
    const error = await client
      .call('getMotorProduct', { path: { productId: '7' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiServerError);
    expect((error as ApiServerError).retryAfterSeconds).toBe(3600);
    expect(stub.requests).toHaveLength(1);
  });

  it('never retries a POST answered 503 when it carries no idempotency reference', async () => {
    stub.respond(json(503, {}), json(201, { id: 'c1' }));
    await expect(client.call('createIndividual', { body: individual })).rejects.toBeInstanceOf(
      ApiServerError,
    );
    expect(stub.requests).toHaveLength(1);
  });

  it('never retries a payment answered 500', async () => {
    stub.respond(json(500, {}), json(200, { status: 'Pending' }));
    const call = client.call('payQuotation', {
      path: { quoteId: 'q1' },
      body: { reference: 'r1', payment: { mobileMoneyAccountNumber: '260971234567' } },
    });
    await expect(call).rejects.toBeInstanceOf(ApiServerError);
    expect(stub.requests).toHaveLength(1);
  });

  it('never retries a payment whose connection dropped after it was sent', async () => {
    stub.respond(drop, json(200, { status: 'Pending' }));
    const error = await client
      .call('payQuotation', { path: { quoteId: 'q1' }, body: { reference: 'r1' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiNetworkError);
    expect(stub.requests).toHaveLength(1);
  });

  it.each([429, 503])(
    'never retries a payment answered %i, even with its reference: the caller looks it up first',
    async (status) => {
      stub.respond(json(status, {}, { 'retry-after': '0' }), json(200, { status: 'Pending' }));
      const call = client.call('payQuotation', {
        path: { quoteId: 'q1' },
        body: { reference: 'r1', payment: { mobileMoneyAccountNumber: '260971234567' } },
      });
      await expect(call).rejects.toMatchObject({ status });
      expect(stub.requests).toHaveLength(1);
    },
  );

  it('marks pay and instant issue-and-pay as starting a payment in the contract, so neither is retried', () => {
    expect(contract.payQuotation.startsPayment).toBe(true);
    expect(contract.instantIssueAndPayMotorPolicy.startsPayment).toBe(true);
    // Reads are not: a lookup may be repeated.
    expect('startsPayment' in contract.getTransactionStatus).toBe(false);
  });

  it('retries even a POST whose connection was refused, since it was never sent', async () => {
    const port = await freePort();
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const offline = createPartnerClient({
      baseUrl: `http://127.0.0.1:${port}/api/v1`,
      apiKey: 'secret-key-123',
      retryBaseDelayMs: 1,
      logger: createLogger({ destination, level: 'debug' }),
    });
    const error = await offline
      .call('createIndividual', { body: individual })
      .catch((e: unknown) => e);
    await offline.close();
    expect(error).toBeInstanceOf(ApiNetworkError);
    expect((error as ApiNetworkError).sent).toBe(false);
    const retries = lines
      .map((line) => JSON.parse(line) as { msg: string; attempt?: number })
      .filter((line) => line.msg === 'partner api retry');
    expect(retries.map((line) => line.attempt)).toEqual([1, 2]);
    expect(lines.join('')).not.toContain('secret-key-123');
    expect(lines.join('')).not.toContain(individual.phoneNumber);
  });
});

describe('error mapping', () => {
  it('keeps the field errors of a 400', async () => {
    stub.respond(
      json(400, {
        status: 400,
        message: 'Validation failed',
        errors: { firstName: ['First name is required'] },
      }),
    );
    const error = await client
      .call('createIndividual', { body: individual })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiBadRequestError);
    const apiError = error as ApiBadRequestError;
    expect(apiError.status).toBe(400);
    expect(apiError.operation).toBe('createIndividual');
    expect(apiError.code).toBe('API_BAD_REQUEST');
    expect(apiError.body?.message).toBe('Validation failed');
    expect(apiError.fieldErrors).toEqual({ firstName: ['First name is required'] });
  });

  it.each([
    [401, ApiUnauthorizedError, 'API_UNAUTHORIZED'],
    [404, ApiNotFoundError, 'API_NOT_FOUND'],
    [409, ApiConflictError, 'API_CONFLICT'],
    [422, ApiUnprocessableError, 'API_UNPROCESSABLE'],
    [500, ApiServerError, 'API_SERVER_ERROR'],
  ])('maps HTTP %i to its own error class', async (status, errorClass, code) => {
    stub.respond(json(status, { status, message: 'no' }));
    const error = await client
      .call('createIndividual', { body: individual })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errorClass);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(status);
    expect((error as ApiError).code).toBe(code);
  });

  it('keeps the raw text of an error body that is not JSON', async () => {
    stub.respond(text(502, '<html>Bad gateway</html>', 'text/html'));
    const error = await client
      .call('createIndividual', { body: individual })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiServerError);
    expect((error as ApiError).body).toBeUndefined();
    expect((error as ApiError).rawBody).toBe('<html>Bad gateway</html>');
  });

  it('raises ResponseShapeError for a success body that is not JSON', async () => {
    stub.respond(text(200, '{"reference": '));
    const error = await client
      .call('getTransactionStatus', { path: { reference: 'r1' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect((error as ResponseShapeError).operation).toBe('getTransactionStatus');
  });

  it('raises ResponseShapeError naming the field of a response of the wrong shape', async () => {
    stub.respond(
      json(200, {
        totalItems: 1,
        pageSize: 1,
        pageNumber: 1,
        totalPages: 1,
        data: [{ name: 'no id' }],
      }),
    );
    const error = await client.call('getMotorProducts').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect((error as ResponseShapeError).path).toBe('data.0.id');
  });
});

describe('catalogue answers', () => {
  const products = {
    totalItems: 1,
    pageSize: 10,
    pageNumber: 1,
    totalPages: 1,
    data: [{ id: 101, name: 'Motor Third Party' }],
  };

  /** A client on a clock the test moves, holding catalogue answers `ttlMs`, never retrying. */
  async function heldFor(ttlMs: number) {
    const clock = { ms: 1_000_000 };
    await client.close();
    client = clientFor({ catalogueTtlMs: ttlMs, now: () => clock.ms, maxRetries: 0 });
    return clock;
  }

  it('checks a catalogue answer once while the insurer sends the same bytes, and shares it frozen', async () => {
    await heldFor(0);
    stub.respond(json(200, products), json(200, products));
    const first = await client.call('getMotorProducts');
    const second = await client.call('getMotorProducts');
    expect(second).toBe(first);
    expect(Object.isFrozen(second.data[0])).toBe(true);
    expect(stub.requests).toHaveLength(2);
  });

  it('checks a catalogue answer again once it changes, and refuses it when it breaks the contract', async () => {
    await heldFor(0);
    stub.respond(json(200, products), json(200, { ...products, data: [{ name: 'no id' }] }));
    await client.call('getMotorProducts');
    const error = await client.call('getMotorProducts').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect((error as ResponseShapeError).path).toBe('data.0.id');
  });

  it('answers a catalogue read again without asking the insurer while it is held', async () => {
    const clock = await heldFor(60_000);
    stub.respond(json(200, products));
    const first = await client.call('getMotorProducts', { query: { PageNumber: 1, PageSize: 5 } });
    clock.ms += 59_999;
    const again = await client.call('getMotorProducts', { query: { PageNumber: 1, PageSize: 5 } });
    expect(again).toBe(first);
    expect(stub.requests).toHaveLength(1);
  });

  it('asks the insurer again once the hold has run out, and for another page or operation at once', async () => {
    const clock = await heldFor(60_000);
    const changed = { ...products, data: [{ id: 102, name: 'Motor Comprehensive' }] };
    stub.respond(json(200, products), json(200, products), json(200, []), json(200, changed));
    await client.call('getMotorProducts', { query: { PageNumber: 1, PageSize: 5 } });
    await client.call('getMotorProducts', { query: { PageNumber: 2, PageSize: 5 } });
    await client.call('getMotorRiskCategories');
    clock.ms += 60_000;
    const fresh = await client.call('getMotorProducts', { query: { PageNumber: 1, PageSize: 5 } });
    expect(fresh.data[0]?.id).toBe(102);
    expect(stub.requests.map((request) => request.url)).toEqual([
      '/api/v1/products/motor?PageNumber=1&PageSize=5',
      '/api/v1/products/motor?PageNumber=2&PageSize=5',
      '/api/v1/policies/motor/risk-categories',
      '/api/v1/products/motor?PageNumber=1&PageSize=5',
    ]);
  });

  it('never holds a failed or malformed catalogue answer: the next read asks again', async () => {
    await heldFor(60_000);
    stub.respond(
      json(503, { message: 'down' }),
      json(200, { ...products, data: [{ name: 'no id' }] }),
      json(200, products),
    );
    const down = await client.call('getMotorProducts').catch((e: unknown) => e);
    expect(down).toBeInstanceOf(ApiServerError);
    const broken = await client.call('getMotorProducts').catch((e: unknown) => e);
    expect(broken).toBeInstanceOf(ResponseShapeError);
    const read = await client.call('getMotorProducts');
    expect(read.data[0]?.id).toBe(101);
    expect(stub.requests).toHaveLength(3);
  });

  it('never holds an answer outside the catalogue', async () => {
    await heldFor(60_000);
    const status = { reference: 'r1', status: 'Pending' };
    stub.respond(json(200, status), json(200, status));
    await client.call('getTransactionStatus', { path: { reference: 'r1' } });
    await client.call('getTransactionStatus', { path: { reference: 'r1' } });
    expect(stub.requests).toHaveLength(2);
  });

  it('parses every answer afresh outside the catalogue, even the same bytes', async () => {
    const status = { reference: 'r1', status: 'Pending' };
    stub.respond(json(200, status), json(200, status));
    const first = await client.call('getTransactionStatus', { path: { reference: 'r1' } });
    const second = await client.call('getTransactionStatus', { path: { reference: 'r1' } });
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
  });
});

describe("the spec's Errors-section rules, rejected before any request", () => {
  const claim = { claimType: 'Death', lossDate: '2026-01-02' };

  it('rejects a claim naming both loanId and partnerLoanReference', async () => {
    const error = await client
      .call('intimateCreditLifeClaim', {
        path: { policyId: 'p1' },
        body: { ...claim, loanId: 'l1', partnerLoanReference: 'LN-1' },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe('partnerLoanReference');
    expect(stub.requests).toHaveLength(0);
  });

  it('rejects a claim naming neither loanId nor partnerLoanReference', async () => {
    const call = client.call('intimateCreditLifeClaim', { path: { policyId: 'p1' }, body: claim });
    await expect(call).rejects.toBeInstanceOf(ValidationError);
    expect(stub.requests).toHaveLength(0);
  });

  it('rejects taking off cover a loan named by both loanId and partnerLoanReference', async () => {
    const call = client.call('takeLoansOffCover', {
      path: { policyId: 'p1' },
      body: { loans: [{ loanId: 'l1' }, { loanId: 'l2', partnerLoanReference: 'LN-2' }] },
    });
    await expect(call).rejects.toMatchObject({
      name: 'ValidationError',
      field: 'loans.1.partnerLoanReference',
    });
    expect(stub.requests).toHaveLength(0);
  });

  it('rejects a death claim naming both memberId and nrcNumber', async () => {
    const call = client.call('intimateGroupLifeClaim', {
      path: { policyId: 'p1' },
      body: { memberId: 'm1', nrcNumber: '479974/11/1', lossDate: '2026-01-02' },
    });
    await expect(call).rejects.toMatchObject({ name: 'ValidationError', field: 'nrcNumber' });
    expect(stub.requests).toHaveLength(0);
  });

  it('rejects taking members off cover by both memberIds and nrcNumbers', async () => {
    const call = client.call('takeMembersOffCover', {
      path: { policyId: 'p1' },
      body: { memberIds: ['m1'], nrcNumbers: ['479974/11/1'] },
    });
    await expect(call).rejects.toMatchObject({ name: 'ValidationError', field: 'nrcNumbers' });
    expect(stub.requests).toHaveLength(0);
  });

  it('rejects taking members off cover by neither memberIds nor nrcNumbers', async () => {
    const call = client.call('takeMembersOffCover', { path: { policyId: 'p1' }, body: {} });
    await expect(call).rejects.toBeInstanceOf(ValidationError);
    expect(stub.requests).toHaveLength(0);
  });

  it.each(['PayLater', 'External'])('rejects paying a batch premium by %s', async (method) => {
    const call = client.call('payCreditLifeSchedule', {
      path: { scheduleId: 's1' },
      body: { reference: 'r1', method },
    });
    await expect(call).rejects.toMatchObject({ name: 'ValidationError', field: 'method' });
    expect(stub.requests).toHaveLength(0);
  });

  it('rejects a batch premium payment that names a gateway', async () => {
    const call = client.call('payCreditLifeSchedule', {
      path: { scheduleId: 's1' },
      body: { reference: 'r1', mobileMoneyAccountNumber: '260971234567', gateway: 'MTN' },
    });
    await expect(call).rejects.toMatchObject({ name: 'ValidationError', field: 'gateway' });
    expect(stub.requests).toHaveLength(0);
  });

  it('rejects placing loans and paying with neither mobile money nor card', async () => {
    const call = client.call('placeLoansAndPay', {
      path: { policyId: 'p1' },
      body: {
        loans: [
          {
            fullName: 'Mwila Banda',
            nrcNumber: '479974/11/1',
            dateOfBirth: '1990-01-01',
            amount: 5000,
            startDate: '2026-01-01',
            endDate: '2027-01-01',
            partnerLoanReference: 'LN-1',
          },
        ],
        payment: { reference: 'r1' },
      },
    });
    await expect(call).rejects.toMatchObject({
      name: 'ValidationError',
      field: 'payment.mobileMoneyAccountNumber',
    });
    expect(stub.requests).toHaveLength(0);
  });

  it('accepts a batch premium paid by card', async () => {
    stub.respond(json(200, { status: 'Pending', redirectUrl: 'https://pay.example/3ds' }));
    const result = await client.call('payCreditLifeSchedule', {
      path: { scheduleId: 's1' },
      body: { reference: 'r1', cardDetails: card },
    });
    expect(result.redirectUrl).toBe('https://pay.example/3ds');
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}
