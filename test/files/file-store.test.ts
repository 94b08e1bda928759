import { createHmac } from 'node:crypto';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileStore, type FileStore, registerFileRoutes } from '../../src/files/index.js';

const stores: FileStore[] = [];
let clock = 1_700_000_000_000;

async function setup() {
  const store = await createFileStore({
    signingSecret: 'test-signing-secret',
    publicUrl: 'http://files.test',
    now: () => clock,
  });
  stores.push(store);
  const app = Fastify();
  registerFileRoutes(app, store);
  return { store, app };
}

/** The path and query of a signed URL, for fastify's inject. */
function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

afterEach(async () => {
  clock = 1_700_000_000_000;
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

describe('FileStore', () => {
  it('serves a stored buffer to the holder of its signed URL', async () => {
    const { store, app } = await setup();
    const { id } = await store.put(Buffer.from('%PDF-1.4 claim form'), {
      contentType: 'application/pdf',
      fileName: 'claim.pdf',
    });
    const url = store.signedUrl(id, 60);
    expect(url.startsWith('http://files.test/files/')).toBe(true);

    const response = await app.inject({ method: 'GET', url: pathOf(url) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.body).toBe('%PDF-1.4 claim form');
  });

  it('stores a stream', async () => {
    const { store, app } = await setup();
    const { id } = await store.put(Readable.from([Buffer.from('photo '), Buffer.from('bytes')]), {
      contentType: 'image/jpeg',
      fileName: 'car.jpg',
    });
    const response = await app.inject({ method: 'GET', url: pathOf(store.signedUrl(id)) });
    expect(response.body).toBe('photo bytes');
  });

  it('refuses a URL whose signature was altered with 403', async () => {
    const { store, app } = await setup();
    const { id } = await store.put(Buffer.from('x'), {
      contentType: 'text/plain',
      fileName: 'x.txt',
    });
    const url = new URL(store.signedUrl(id, 60));
    url.searchParams.set('sig', `${url.searchParams.get('sig')?.slice(0, -2)}AA`);
    const response = await app.inject({ method: 'GET', url: pathOf(url.toString()) });
    expect(response.statusCode).toBe(403);
  });

  it('refuses a URL whose expiry was pushed out with 403', async () => {
    const { store, app } = await setup();
    const { id } = await store.put(Buffer.from('x'), {
      contentType: 'text/plain',
      fileName: 'x.txt',
    });
    const url = new URL(store.signedUrl(id, 60));
    url.searchParams.set('exp', String(Number(url.searchParams.get('exp')) + 3600));
    const response = await app.inject({ method: 'GET', url: pathOf(url.toString()) });
    expect(response.statusCode).toBe(403);
  });

  it('refuses an expired URL with 403', async () => {
    const { store, app } = await setup();
    const { id } = await store.put(Buffer.from('x'), {
      contentType: 'text/plain',
      fileName: 'x.txt',
    });
    const url = store.signedUrl(id, 60);
    clock += 61_000;
    const response = await app.inject({ method: 'GET', url: pathOf(url) });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: 'FILE_URL_EXPIRED' });
  });

  it('refuses a URL with no signature with 403', async () => {
    const { store, app } = await setup();
    const { id } = await store.put(Buffer.from('x'), {
      contentType: 'text/plain',
      fileName: 'x.txt',
    });
    const response = await app.inject({ method: 'GET', url: `/files/${id}` });
    expect(response.statusCode).toBe(403);
  });

  it('does not let a signature for one file open another', async () => {
    const { store, app } = await setup();
    const first = await store.put(Buffer.from('a'), {
      contentType: 'text/plain',
      fileName: 'a.txt',
    });
    const second = await store.put(Buffer.from('b'), {
      contentType: 'text/plain',
      fileName: 'b.txt',
    });
    const url = new URL(store.signedUrl(first.id, 60));
    const response = await app.inject({
      method: 'GET',
      url: `/files/${second.id}${url.search}`,
    });
    expect(response.statusCode).toBe(403);
  });

  it('refuses a file larger than the limit', async () => {
    const store = await createFileStore({ signingSecret: 's', publicUrl: 'http://x', maxBytes: 4 });
    stores.push(store);
    await expect(
      store.put(Buffer.from('too large'), { contentType: 'text/plain', fileName: 'a.txt' }),
    ).rejects.toThrow(RangeError);
    await expect(
      store.put(Readable.from([Buffer.from('too'), Buffer.from(' large')]), {
        contentType: 'text/plain',
        fileName: 'a.txt',
      }),
    ).rejects.toThrow(RangeError);
  });

  it('finds and deletes the files one owner uploaded, and no file names the owner (issue 29)', async () => {
    const { store, app } = await setup();
    const mine = await store.put(Buffer.from('claim photo'), {
      contentType: 'image/jpeg',
      fileName: 'car.jpg',
      owner: 'telegram:4242',
    });
    const theirs = await store.put(Buffer.from('other photo'), {
      contentType: 'image/jpeg',
      fileName: 'car.jpg',
      owner: 'telegram:5151',
    });
    expect(await store.countOwned('telegram:4242')).toBe(1);
    expect(await store.forgetOwner('telegram:4242')).toBe(1);
    expect(await store.countOwned('telegram:4242')).toBe(0);
    const gone = await app.inject({ method: 'GET', url: pathOf(store.signedUrl(mine.id)) });
    expect(gone.statusCode).toBe(404);
    const kept = await app.inject({ method: 'GET', url: pathOf(store.signedUrl(theirs.id)) });
    expect(kept.body).toBe('other photo');
  });

  it('sweeps files older than its retention and keeps younger ones', async () => {
    const { store, app } = await setup();
    const old = await store.put(Buffer.from('old'), { contentType: 'text/plain', fileName: 'a' });
    clock += 29 * 86_400_000;
    const young = await store.put(Buffer.from('young'), {
      contentType: 'text/plain',
      fileName: 'b',
    });
    clock += 2 * 86_400_000;
    expect(await store.sweep()).toBe(1);
    const swept = await app.inject({ method: 'GET', url: pathOf(store.signedUrl(old.id)) });
    expect(swept.statusCode).toBe(404);
    const kept = await app.inject({ method: 'GET', url: pathOf(store.signedUrl(young.id)) });
    expect(kept.body).toBe('young');
  });
});

describe('FileStore on a folder an earlier version wrote', () => {
  it('still finds, serves, forgets and sweeps its files and appended owner lists', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'insurechat-legacy-'));
    const secret = 'legacy-secret';
    const kept = '11111111-1111-4111-8111-111111111111';
    const old = '22222222-2222-4222-8222-222222222222';
    const meta = (createdAt: number) =>
      JSON.stringify({
        contentType: 'image/jpeg',
        fileName: 'car.jpg',
        size: 5,
        createdAt: new Date(createdAt).toISOString(),
      });
    // The earlier layout: `<id>.bin`, `<id>.json`, and `owners/<hmac>` listing ids line by line.
    await mkdir(join(dir, 'owners'), { recursive: true });
    for (const id of [kept, old]) await writeFile(join(dir, `${id}.bin`), 'photo');
    await writeFile(join(dir, `${kept}.json`), meta(clock));
    await writeFile(join(dir, `${old}.json`), meta(clock - 31 * 86_400_000));
    const list = (owner: string) =>
      join(dir, 'owners', createHmac('sha256', secret).update(`owner:${owner}`).digest('hex'));
    await writeFile(list('telegram:1'), `${kept}\n`);
    await writeFile(list('telegram:2'), `${old}\n`);

    const store = await createFileStore({
      dir,
      signingSecret: secret,
      publicUrl: 'http://x',
      now: () => clock,
    });
    stores.push(store);
    const app = Fastify();
    registerFileRoutes(app, store);
    expect((await app.inject({ method: 'GET', url: pathOf(store.link(kept)) })).body).toBe('photo');
    expect(await store.countOwned('telegram:1')).toBe(1);

    // The 30-day rule still holds, and the list naming only the swept file goes with it.
    expect(await store.sweep()).toBe(1);
    await expect(stat(list('telegram:2'))).rejects.toThrow();
    expect(await store.forgetOwner('telegram:1')).toBe(1);
    await expect(stat(list('telegram:1'))).rejects.toThrow();
    expect((await app.inject({ method: 'GET', url: pathOf(store.link(kept)) })).statusCode).toBe(
      404,
    );
    await rm(dir, { recursive: true, force: true });
  });
});
