import { afterEach, describe, expect, it } from 'vitest';
import { CreateIndividualBody } from '../../src/api/schemas.js';
import { UNKNOWN_FIELDS, UNSEEN_PENDING_STATUS } from '../../src/sandbox/index.js';
import { missingSpecFields } from '../../src/sandbox/spec-required.js';
import { type Harness, raw, startHarness } from './sandbox-harness.js';

/* Issue 24: the stricter sandbox sends what a real insurer may; the sandbox reads the spec itself. */

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const person = (n: number) => ({
  firstName: 'Strict',
  lastName: `Person${n}`,
  phoneNumber: `26097700${String(n).padStart(4, '0')}`,
  email: `strict${n}@example.com`,
  idNumber: `${String(700000 + n)}/10/1`,
  idType: 'NRC',
});

describe('the stricter sandbox', () => {
  it('answers POSTs 201 and 200 in turn, where the plain sandbox answers 200 as the OpenAPI document says', async () => {
    harness = await startHarness({ strict: { lateMs: 0 } });
    const codes: number[] = [];
    for (const n of [1, 2, 3]) {
      codes.push((await raw(harness, 'POST', '/policyholders/individuals', person(n))).status);
    }
    expect(new Set(codes)).toEqual(new Set([200, 201]));
  });

  it('adds fields the spec never names to every object and leaves null fields out', async () => {
    harness = await startHarness({ strict: { lateMs: 0 } });
    const products = await raw(harness, 'GET', '/products/motor');
    expect(products.body).toMatchObject(UNKNOWN_FIELDS);
    const first = (products.body as { data: Record<string, unknown>[] }).data[0];
    expect(first).toMatchObject(UNKNOWN_FIELDS);
    expect(Object.values(first ?? {})).not.toContain(null);
  });

  it('caps a page at 50 items whatever PageSize asks for', async () => {
    harness = await startHarness({ strict: { lateMs: 0 } });
    for (let n = 10; n < 70; n += 1) {
      await raw(harness, 'POST', '/policyholders/individuals', person(n));
    }
    const page = await raw(harness, 'GET', '/policyholders/individuals?PageSize=100');
    expect(page.body).toMatchObject({ pageSize: 50 });
    expect((page.body as { data: unknown[] }).data).toHaveLength(50);
  });

  it('words a pending transaction in a way the client has not seen', async () => {
    harness = await startHarness({ strict: { lateMs: 0 }, settleDelayMs: 600_000 });
    const quote = harness.sandbox.state.quotations.values().next().value;
    if (!quote) throw new Error('the seed holds no quotation');
    await raw(harness, 'POST', `/payments/${quote.id}/pay`, {
      reference: 'strict-pending',
      payment: { mobileMoneyAccountNumber: '0971234567' },
    });
    const status = await raw(harness, 'GET', '/payments/transactions/strict-pending/status');
    expect(status.body).toMatchObject({ status: UNSEEN_PENDING_STATUS });
  });
});

describe("the sandbox's own reading of the spec's required fields", () => {
  it('refuses a request without a field the spec requires, whatever the client schema says', () => {
    const { email: _email, ...withoutEmail } = person(1);
    // A client schema that wrongly made email optional accepts the body...
    expect(CreateIndividualBody.partial({ email: true }).safeParse(withoutEmail).success).toBe(
      true,
    );
    // ...the sandbox, reading the spec, does not.
    expect(missingSpecFields('createIndividual', withoutEmail)).toEqual({
      email: ['Required by the Partner Insurance API'],
    });
    expect(missingSpecFields('createIndividual', person(1))).toEqual({});
  });

  it('answers 400 naming the missing field over HTTP', async () => {
    harness = await startHarness();
    const { idType: _idType, ...withoutIdType } = person(2);
    const refused = await raw(harness, 'POST', '/policyholders/individuals', withoutIdType);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toHaveProperty('idType');
  });
});
