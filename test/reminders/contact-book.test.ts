import { afterAll, describe, expect, it } from 'vitest';
import {
  type ContactBook,
  type ContactRecord,
  createMemoryContactBook,
  createRedisContactBook,
} from '../../src/reminders/index.js';
import { testRedis } from '../payments/support.js';

const redis = testRedis();
afterAll(() => redis.cleanup());

const contact = (policyId: string, address: string): ContactRecord => ({
  policyId,
  policyNumber: `MTR-${policyId}`,
  product: 'motor',
  what: 'Motor Third Party for BCD 4321',
  endDate: '2027-01-31',
  channel: 'ussd',
  address,
  locale: 'en',
  consent: true,
  recordedAt: '2026-02-01T10:00:00.000Z',
});

const books: ReadonlyArray<readonly [string, () => ContactBook]> = [
  ['in memory', () => createMemoryContactBook()],
  ['in Redis', () => createRedisContactBook(redis.redis, redis.prefix)],
];

describe.each(books)('the contact book %s', (_name, make) => {
  it("forgets a holder's card, contacts and due entries, and no one else's (issue 29)", async () => {
    const book = make();
    const holder = {
      channel: 'ussd',
      address: `2609710${Math.floor(Math.random() * 1e5)}`,
    } as const;
    await book.save(contact(`p1-${holder.address}`, holder.address));
    await book.save(contact(`p2-${holder.address}`, holder.address));
    await book.save(contact(`p3-${holder.address}`, '260977000000'));

    expect(await book.forgetHolder(holder)).toBe(2);
    expect((await book.cardOf(holder)).policies).toEqual([]);
    expect(await book.get(`p1-${holder.address}`)).toBeUndefined();
    const due = await book.endingBy(Number.MAX_SAFE_INTEGER);
    expect(due).not.toContain(`p1-${holder.address}`);
    expect(due).toContain(`p3-${holder.address}`);
  });
});

describe('the contact book in Redis', () => {
  it('gives a card made by a STOP from a number it never saw an expiry (issue 29)', async () => {
    const book = createRedisContactBook(redis.redis, redis.prefix);
    const holder = { channel: 'ussd', address: '260971999999' } as const;
    await book.setStopped(holder, true);
    const key = book.cardKey?.(holder) ?? '';
    expect(await redis.redis.ttl(key)).toBeGreaterThan(0);
  });
});
