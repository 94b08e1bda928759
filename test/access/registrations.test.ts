import { afterEach, describe, expect, it } from 'vitest';
import {
  createRegistrations,
  phonesOnRecordForNrc,
  type Registrations,
} from '../../src/access/index.js';
import { createMemoryStore, createRedisStore } from '../../src/storage/index.js';
import { type TestRedis, testRedis } from '../payments/support.js';

let redis: TestRedis | undefined;

afterEach(async () => {
  await redis?.cleanup();
  redis = undefined;
});

function registrationsOver(backend: 'redis' | 'memory'): Registrations {
  if (backend === 'memory') return createRegistrations(createMemoryStore(), 'test:');
  redis = testRedis();
  return createRegistrations(createRedisStore(redis.redis), redis.prefix);
}

// Two individuals with one NRC: the insurer's own (the member's phone) and one insurechat made
// when another phone typed that NRC into a quote.
const MEMBER = { id: 41, phoneNumber: '260971234567' };
const TYPED_BY_OTHER = { id: 90, phoneNumber: '260955000111' };

describe.each(['redis', 'memory'] as const)('registrations over %s', (backend) => {
  it('leaves an individual created from an unproven NRC out of the phones on record', async () => {
    const registrations = registrationsOver(backend);
    await registrations.recordCreated({ clientId: '90', proven: false });

    const phones = await phonesOnRecordForNrc([MEMBER, TYPED_BY_OTHER], registrations);

    expect(phones).toEqual(['260971234567']);
  });

  it('counts the insurer own individuals and proven registrations as on record', async () => {
    const registrations = registrationsOver(backend);
    await registrations.recordCreated({ clientId: '90', proven: true });

    const phones = await phonesOnRecordForNrc([MEMBER, TYPED_BY_OTHER], registrations);

    expect(phones).toEqual(['260971234567', '260955000111']);
  });

  it('counts an individual as on record once its NRC is proven by a code', async () => {
    const registrations = registrationsOver(backend);
    await registrations.recordCreated({ clientId: '90', proven: false });
    await registrations.markProven('90');

    expect(await registrations.unprovenAmong(['41', '90'])).toEqual(new Set());
    expect(await phonesOnRecordForNrc([TYPED_BY_OTHER], registrations)).toEqual(['260955000111']);
  });

  it('names only the unproven ids it was asked about', async () => {
    const registrations = registrationsOver(backend);
    await registrations.recordCreated({ clientId: '90', proven: false });
    await registrations.recordCreated({ clientId: '91', proven: false });

    expect(await registrations.unprovenAmong(['41', '90', '90'])).toEqual(new Set(['90']));
  });
});
