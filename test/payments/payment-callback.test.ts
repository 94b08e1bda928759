import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { PaymentWebhook } from '../../src/api/index.js';
import { type PaymentCallbackOptions, registerPaymentCallback } from '../../src/payments/index.js';

const SECRET = 's3cret-path-token';

const body = {
  policyId: 'POL-1',
  paymentReference: 'REF-1',
  partnerReference: 'REF-1',
  status: 'Success',
  amount: 100,
  currency: 'ZMW',
  policyNumber: 'MTR/2026/0001',
  policyStatus: 'Active',
  paidAt: '2026-11-22T10:00:00Z',
};

let app: FastifyInstance;

afterEach(async () => {
  await app.close();
});

function server(options: Partial<PaymentCallbackOptions> = {}): PaymentWebhook[] {
  const accepted: PaymentWebhook[] = [];
  app = Fastify();
  registerPaymentCallback(app, {
    secret: SECRET,
    service: { accept: (hint) => accepted.push(hint) },
    ...options,
  });
  return accepted;
}

describe('payment callback route', () => {
  it('answers 200 and hands the body on when the path carries the right secret', async () => {
    const accepted = server();

    const response = await app.inject({
      method: 'POST',
      url: `/payments/callback/${SECRET}`,
      payload: body,
    });

    expect(response.statusCode).toBe(200);
    expect(accepted).toEqual([body]);
  });

  it('hands on a body whose status is a gateway word of its own, since the status is only a hint', async () => {
    const accepted = server();

    const response = await app.inject({
      method: 'POST',
      url: `/payments/callback/${SECRET}`,
      payload: { ...body, status: 'SUCCESSFUL' },
    });

    expect(response.statusCode).toBe(200);
    expect(accepted.map((hint) => hint.status)).toEqual(['SUCCESSFUL']);
  });

  it('accepts the secret in the x-callback-secret header', async () => {
    const accepted = server();

    const response = await app.inject({
      method: 'POST',
      url: '/payments/callback',
      headers: { 'x-callback-secret': SECRET },
      payload: body,
    });

    expect(response.statusCode).toBe(200);
    expect(accepted).toHaveLength(1);
  });

  it('rejects a forged callback with a wrong secret and hands nothing on', async () => {
    const accepted = server();

    const inPath = await app.inject({
      method: 'POST',
      url: '/payments/callback/guess',
      payload: body,
    });
    const inHeader = await app.inject({
      method: 'POST',
      url: '/payments/callback',
      headers: { 'x-callback-secret': `${SECRET}x` },
      payload: body,
    });
    const none = await app.inject({ method: 'POST', url: '/payments/callback', payload: body });

    expect([inPath.statusCode, inHeader.statusCode, none.statusCode]).toEqual([401, 401, 401]);
    expect(inPath.body).not.toContain(SECRET);
    expect(accepted).toEqual([]);
  });

  it('rejects a body that is not the published webhook with 400 and hands nothing on', async () => {
    const accepted = server();
    const url = `/payments/callback/${SECRET}`;

    const wrongShape = await app.inject({ method: 'POST', url, payload: { ...body, status: 42 } });
    const noReference = await app.inject({
      method: 'POST',
      url,
      payload: { ...body, paymentReference: null, partnerReference: null },
    });
    const notJson = await app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json' },
      payload: '{"status":',
    });

    expect([wrongShape.statusCode, noReference.statusCode, notJson.statusCode]).toEqual([
      400, 400, 400,
    ]);
    expect(wrongShape.json()).toMatchObject({ fields: ['status'] });
    expect(accepted).toEqual([]);
  });

  it('rejects a caller outside the IP allow-list even with the right secret', async () => {
    const accepted = server({ allowedIps: ['10.1.2.3'] });

    const response = await app.inject({
      method: 'POST',
      url: `/payments/callback/${SECRET}`,
      remoteAddress: '10.9.9.9',
      payload: body,
    });

    expect(response.statusCode).toBe(403);
    expect(accepted).toEqual([]);
  });

  it('accepts a caller on the IP allow-list, also when it comes as an IPv4-mapped address', async () => {
    const accepted = server({ allowedIps: ['10.1.2.3'] });

    const response = await app.inject({
      method: 'POST',
      url: `/payments/callback/${SECRET}`,
      remoteAddress: '::ffff:10.1.2.3',
      payload: body,
    });

    expect(response.statusCode).toBe(200);
    expect(accepted).toHaveLength(1);
  });

  it('refuses to register without a secret', () => {
    app = Fastify();

    expect(() =>
      registerPaymentCallback(app, { secret: '', service: { accept: () => {} } }),
    ).toThrow(RangeError);
  });
});
