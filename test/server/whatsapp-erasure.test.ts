import { randomUUID } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { createWhatsAppStore } from '../../src/push/index.js';
import { whatsappPersonalData } from '../../src/server/build-services.js';
import { createRedisStore } from '../../src/storage/index.js';
import { connectTestRedis } from '../support/redis.js';

// "Delete my data" from a WhatsApp conversation erases what src/push keeps about it: the
// messages held outside the 24-hour window (a certificate's policy number, a plate) and the
// window itself; another customer's are untouched.

const redis = connectTestRedis();
const prefix = `test:wa-erasure:${randomUUID()}:`;
const store = createWhatsAppStore(createRedisStore(redis), prefix);
afterAll(() => redis.quit());

const held = (policyNumber: string) => ({
  prompt: { key: 'motor.done', input: 'none' as const, final: true, params: { policyNumber } },
  locale: 'en',
});
const subject = (address: string) => ({
  channel: 'whatsapp' as const,
  address,
  sessionKey: `whatsapp:${address}`,
});

it('erases a WhatsApp customer’s held messages and window, and no one else’s', async () => {
  await store.touch('260971000111');
  await store.hold('260971000111', held('MTR-2026-000111'));
  await store.touch('260971000222');
  await store.hold('260971000222', held('MTR-2026-000222'));

  await whatsappPersonalData(store).forget(subject('260971000111'));

  expect(await store.takeHeld('260971000111')).toEqual([]);
  expect(await store.isOpen('260971000111')).toBe(false);
  expect(await redis.keys(`${prefix}*260971000111*`)).toEqual([]);
  expect(await store.isOpen('260971000222')).toBe(true);
  expect((await store.takeHeld('260971000222')).map((m) => m.prompt.params)).toEqual([
    { policyNumber: 'MTR-2026-000222' },
  ]);
});

it('leaves WhatsApp’s keys alone when another channel’s conversation deletes its data', async () => {
  await store.hold('260971000333', held('MTR-2026-000333'));
  await whatsappPersonalData(store).forget({
    channel: 'ussd',
    address: '260971000333',
    sessionKey: 'ussd:260971000333',
  });
  expect(await store.takeHeld('260971000333')).toHaveLength(1);
});
