import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reply } from '../../src/conversation/reply.js';
import { UNKNOWN_FIELDS } from '../../src/sandbox/index.js';
import { type SandboxWorld, setWorldDefaults, startSandboxWorld } from './sandbox-world.js';

/*
 * Every flow's journeys (sandbox-journeys.test.ts, and the paid ones of sandbox-payments.test.ts)
 * against the stricter sandbox (issue 24):
 * unknown extra fields on every object, null optional fields left out, "Processing" for a
 * pending transaction, 201 or 200 to a POST, pages capped at 50. The answers come 20 ms late
 * here so the run stays short; the journey below takes the real 1.5 s on every answer.
 */
setWorldDefaults({ strict: { lateMs: 20 } });
await import('./sandbox-journeys.test.js');
await import('./sandbox-payments.test.js');

it('runs the journeys above against the stricter sandbox', async () => {
  const world = await startSandboxWorld();
  try {
    const answer = await world.sandbox.app.inject({
      method: 'GET',
      url: '/api/v1/products/motor',
      headers: { authorization: `Bearer ${world.sandbox.apiKey}` },
    });
    expect(answer.json()).toMatchObject(UNKNOWN_FIELDS);
  } finally {
    await world.close();
  }
});

describe('a journey against an insurer answering 1.5 s late', () => {
  let world: SandboxWorld;
  beforeAll(async () => {
    world = await startSandboxWorld({ strict: {} });
  });
  afterAll(async () => {
    await world.close();
  });

  it('still lists the products of a motor quote, every answer 1.5 s late and carrying fields the spec never names', async () => {
    const reply = (r: Reply) =>
      world.engine.turn('strict:motor:1', r, { audience: 'policyholder', deadlineMs: 10_000 });
    await reply({ type: 'user.text', text: 'hi' });
    await reply({ type: 'user.choice', id: 'motor' });
    const products = await reply({ type: 'user.choice', id: 'new' });
    expect(products.key).toBe('motor.pickProduct');
    expect(products.choices?.some((c) => c.label === 'Motor Third Party')).toBe(true);
    // What the flow read carried fields the spec never names (and no nulls).
    const raw = await world.sandbox.app.inject({
      method: 'GET',
      url: '/api/v1/products/motor',
      headers: { authorization: `Bearer ${world.sandbox.apiKey}` },
    });
    expect(raw.json()).toMatchObject(UNKNOWN_FIELDS);
    expect(raw.body).not.toContain('null,');
  }, 30_000);
});
