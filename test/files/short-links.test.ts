import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createShortLinks, registerShortLinkRoutes } from '../../src/files/index.js';
import { createMemoryStore } from '../../src/storage/index.js';

// Issue 38: a certificate's signed link (~130 characters) took the paid SMS to three segments.

const NOW = Date.parse('2026-11-28T10:00:00Z');
const signed = (exp: number) =>
  `https://bot.example.zm/files/${'f'.repeat(36)}?exp=${exp}&sig=${'s'.repeat(43)}`;

function links(now = () => NOW) {
  const store = createMemoryStore({ now });
  return createShortLinks({ store, keyPrefix: 't:', publicUrl: 'https://bot.example.zm/', now });
}

describe('short links', () => {
  it('stand for a signed link with an unguessable 12-character code', async () => {
    const shortLinks = links();
    const url = signed(NOW / 1000 + 3600);
    const short = await shortLinks.shorten(url);
    expect(short).toMatch(/^https:\/\/bot\.example\.zm\/c\/[A-Za-z0-9_-]{12}$/);
    expect(await shortLinks.shorten(url)).not.toBe(short);
    expect(await shortLinks.resolve(short.slice(-12))).toBe(url);
    expect(await shortLinks.resolve('AAAAAAAAAAAA')).toBeUndefined();
    expect(await shortLinks.resolve('../../etc')).toBeUndefined();
  });

  it('last as long as the signed link, and leave an expired one as it is', async () => {
    let now = NOW;
    const shortLinks = links(() => now);
    const short = await shortLinks.shorten(signed(NOW / 1000 + 60));
    now += 61_000;
    expect(await shortLinks.resolve(short.slice(-12))).toBeUndefined();
    const expired = signed(NOW / 1000 - 1);
    expect(await shortLinks.shorten(expired)).toBe(expired);
  });

  it('redirect to the signed link, and answer 404 for a code they do not know', async () => {
    const shortLinks = links();
    const app = Fastify();
    registerShortLinkRoutes(app, shortLinks);
    const url = signed(NOW / 1000 + 3600);
    const code = (await shortLinks.shorten(url)).slice(-12);
    const found = await app.inject({ method: 'GET', url: `/c/${code}` });
    expect(found.statusCode).toBe(302);
    expect(found.headers.location).toBe(url);
    expect((await app.inject({ method: 'GET', url: '/c/AAAAAAAAAAAA' })).statusCode).toBe(404);
    await app.close();
  });
});
