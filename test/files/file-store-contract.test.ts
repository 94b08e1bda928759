import { createHmac, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClaimReport,
  type ClaimReporter,
  createFileStore,
  diskBackend,
  type FileBackend,
  type FileClaim,
  type FileStore,
  FileStoreUnavailableError,
  registerFileRoutes,
  s3Backend,
} from '../../src/files/index.js';
import { manualClock } from '../support/manual-clock.js';
import { startS3Server, type TestS3Server } from '../support/s3-server.js';

const DAY = 86_400_000;
const SECRET = 'contract-signing-secret';

/** A place two stores can share: a folder on disk, or a prefix of the test bucket. */
interface Place {
  backend(): FileBackend;
  cleanup(): Promise<void>;
}

let s3: TestS3Server;

const KINDS: Record<'disk' | 's3', () => Promise<Place>> = {
  async disk() {
    const dir = await mkdtemp(join(tmpdir(), 'insurechat-contract-'));
    return { backend: () => diskBackend(dir), cleanup: () => rm(dir, { recursive: true }) };
  },
  async s3() {
    const location = s3.location(`contract/${randomUUID()}`);
    return { backend: () => s3Backend(location), cleanup: async () => undefined };
  },
};

beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.close();
});

/** The path and query of a signed URL, for fastify's inject. */
function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

describe.each(['disk', 's3'] as const)('FileStore contract on %s', (kind) => {
  const opened: FileStore[] = [];
  const places: Place[] = [];
  const clock = manualClock(1_700_000_000_000);

  /** A store (and an HTTP app serving it) over `place`, or a fresh place. */
  async function setup(given?: Place, extra: { maxBytes?: number } = {}) {
    const place = given ?? (await KINDS[kind]());
    if (!given) places.push(place);
    const store = await createFileStore({
      backend: place.backend(),
      signingSecret: SECRET,
      publicUrl: 'http://files.test',
      now: clock.now,
      ...extra,
    });
    opened.push(store);
    const app = Fastify();
    registerFileRoutes(app, store);
    const get = (url: string) => app.inject({ method: 'GET', url: pathOf(url) });
    return { store, app, get, place };
  }

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
    await Promise.all(places.splice(0).map((place) => place.cleanup()));
  });

  it('keeps small records beside the files, which a sweep and a second store leave as they are', async () => {
    const { store, place } = await setup();
    const records = store.records('identity');
    await records.write('90', '{"proven":false}');
    await records.write('a/b c', '{"proven":true}');
    await records.write('90', '{"proven":true}');
    clock.advance(400 * 86_400_000);

    expect(await store.sweep()).toBe(0);
    const { store: again } = await setup(place);
    const read = await again.records('identity').readAll();
    expect(read.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: '90', text: '{"proven":true}' },
      { name: 'a/b c', text: '{"proven":true}' },
    ]);
    expect(await again.records('other').readAll()).toEqual([]);
  });

  it('serves a stored buffer and a stored stream to the holder of a signed URL', async () => {
    const { store, get } = await setup();
    const pdf = await store.put(Buffer.from('%PDF-1.4 claim form'), {
      contentType: 'application/pdf',
      fileName: 'claim.pdf',
    });
    const photo = await store.put(Readable.from([Buffer.from('photo '), Buffer.from('bytes')]), {
      contentType: 'image/jpeg',
      fileName: 'car.jpg',
    });
    const first = await get(store.signedUrl(pdf.id, 60));
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/pdf');
    expect(first.body).toBe('%PDF-1.4 claim form');
    expect((await get(store.link(photo.id))).body).toBe('photo bytes');
    const { meta } = await store.open(photo.id);
    expect(meta).toMatchObject({ fileName: 'car.jpg', contentType: 'image/jpeg', size: 11 });
  });

  it('answers 404 for an unknown file and refuses forged, altered and expired links', async () => {
    const { store, get } = await setup();
    const a = await store.put(Buffer.from('a'), { contentType: 'text/plain', fileName: 'a.txt' });
    const b = await store.put(Buffer.from('b'), { contentType: 'text/plain', fileName: 'b.txt' });
    const unknown = '00000000-0000-4000-8000-000000000000';
    await expect(store.open(unknown)).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    expect((await get(store.link(unknown))).statusCode).toBe(404);

    const altered = new URL(store.link(a.id));
    altered.searchParams.set('sig', `${altered.searchParams.get('sig')?.slice(0, -2)}AA`);
    expect((await get(altered.toString())).statusCode).toBe(403);
    // One file's signature opens no other.
    const other = new URL(store.link(a.id));
    expect((await get(`http://files.test/files/${b.id}${other.search}`)).statusCode).toBe(403);
    // An expiring link with its expiry cut off is no kept link.
    const cut = new URL(store.signedUrl(a.id, 60));
    cut.searchParams.delete('exp');
    expect((await get(cut.toString())).statusCode).toBe(403);
    expect((await get(`http://files.test/files/${a.id}`)).statusCode).toBe(403);

    const expiring = store.signedUrl(a.id, 60);
    clock.advance(61_000);
    const expired = await get(expiring);
    expect(expired.statusCode).toBe(403);
    expect(expired.json()).toMatchObject({ error: 'FILE_URL_EXPIRED' });
  });

  it('still verifies expiring links issued before kept links existed', async () => {
    const { store, get } = await setup();
    const { id } = await store.put(Buffer.from('evidence'), {
      contentType: 'text/plain',
      fileName: 'e.txt',
    });
    // What the store signed for the insurer until now: HMAC of `<id>.<exp>`, 90 days out.
    const exp = Math.floor(clock.now() / 1000) + 90 * 24 * 3600;
    const sig = createHmac('sha256', SECRET).update(`${id}.${exp}`).digest('base64url');
    const issued = `http://bot.example/files/${id}?exp=${exp}&sig=${sig}`;
    expect((await get(issued)).body).toBe('evidence');
    expect(store.idOf(issued)).toBe(id);
  });

  it('knows its own links by id, and no other URL', async () => {
    const { store } = await setup();
    const { id } = await store.put(Buffer.from('x'), { contentType: 'text/plain', fileName: 'x' });
    expect(store.idOf(store.link(id))).toBe(id);
    expect(store.idOf(store.signedUrl(id))).toBe(id);
    expect(store.idOf(store.link(id).replace(/sig=.{4}/, 'sig=AAAA'))).toBeUndefined();
    expect(store.idOf('https://elsewhere.example/photo.jpg')).toBeUndefined();
    expect(store.idOf('not a url')).toBeUndefined();
  });

  it('refuses a file larger than the limit', async () => {
    const { store } = await setup(undefined, { maxBytes: 4 });
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

  it("counts and forgets one owner's files from another instance sharing the place, naming no one", async () => {
    const one = await setup();
    const two = await setup(one.place);
    const mine = await one.store.put(Buffer.from('claim photo'), {
      contentType: 'image/jpeg',
      fileName: 'car.jpg',
      owner: 'telegram:4242',
    });
    const theirs = await one.store.put(Buffer.from('other photo'), {
      contentType: 'image/jpeg',
      fileName: 'car.jpg',
      owner: 'telegram:5151',
    });
    const metaText = await one.place.backend().readText(`${mine.id}.json`);
    expect(metaText).toBeDefined();
    expect(metaText).not.toContain('4242');
    expect(await two.store.countOwned('telegram:4242')).toBe(1);
    expect(await two.store.forgetOwner('telegram:4242')).toBe(1);
    expect(await one.store.countOwned('telegram:4242')).toBe(0);
    expect((await one.get(one.store.link(mine.id))).statusCode).toBe(404);
    expect((await two.get(one.store.link(theirs.id))).body).toBe('other photo');
  });

  it('sweeps files with no claim 30 days after upload and keeps younger ones', async () => {
    const { store, get } = await setup();
    const old = await store.put(Buffer.from('old'), {
      contentType: 'text/plain',
      fileName: 'a',
      owner: 'whatsapp:1',
    });
    clock.advance(29 * DAY);
    const young = await store.put(Buffer.from('young'), {
      contentType: 'text/plain',
      fileName: 'b',
    });
    clock.advance(2 * DAY);
    expect(await store.sweep()).toBe(1);
    expect((await get(store.link(old.id))).statusCode).toBe(404);
    expect(await store.countOwned('whatsapp:1')).toBe(0);
    expect((await get(store.link(young.id))).body).toBe('young');
  });

  describe('a claim’s files', () => {
    const claim: FileClaim = { line: 'group-life', claimId: 'clm_42' };
    /** What the fake insurer says of clm_42 now; every question is counted. */
    let said: ClaimReport;
    let questions: number;
    const insurer: ClaimReporter = async (asked) => {
      questions += 1;
      expect(asked).toEqual(claim);
      return said;
    };

    async function claimed(fileName = 'death-certificate.pdf') {
      const setupResult = await setup();
      const { id } = await setupResult.store.put(Buffer.from(`%PDF ${fileName}`), {
        contentType: 'application/pdf',
        fileName,
        claim,
      });
      return { ...setupResult, id };
    }

    it('are kept while the insurer reports the claim and a year after its last change once it stops', async () => {
      said = { kind: 'reported', status: 'Intimated' };
      questions = 0;
      const { store, get, id } = await claimed();
      const second = await store.put(Buffer.from('%PDF form'), {
        contentType: 'application/pdf',
        fileName: 'form.pdf',
        claim,
      });
      const url = store.link(id);
      clock.advance(31 * DAY);
      expect(await store.sweep(insurer)).toBe(0);
      expect(questions).toBe(1); // once per claim, not per file
      expect((await get(url)).statusCode).toBe(200);

      clock.advance(169 * DAY); // day 200: the claim moves on
      said = { kind: 'reported', status: 'Documented' };
      expect(await store.sweep(insurer)).toBe(0);
      expect((await get(url)).body).toBe('%PDF death-certificate.pdf');

      clock.advance(DAY); // the insurer stops reporting it
      said = { kind: 'gone' };
      expect(await store.sweep(insurer)).toBe(0);
      clock.advance(363 * DAY); // day 564: 364 days after the change seen on day 200
      expect(await store.sweep(insurer)).toBe(0);
      expect((await get(url)).statusCode).toBe(200);

      clock.advance(2 * DAY); // past 365 days since day 200
      expect(await store.sweep(insurer)).toBe(2);
      expect((await get(url)).statusCode).toBe(404);
      expect((await get(store.link(second.id))).statusCode).toBe(404);
    });

    it('are never deleted on an insurer that fails, answers unknown, or is not asked', async () => {
      const { store, get, id } = await claimed();
      clock.advance(2000 * DAY);
      said = { kind: 'unknown' };
      questions = 0;
      expect(await store.sweep(insurer)).toBe(0);
      expect(await store.sweep(async () => Promise.reject(new Error('insurer down')))).toBe(0);
      expect(await store.sweep()).toBe(0);
      expect(questions).toBe(1);
      expect((await get(store.link(id))).statusCode).toBe(200);
    });

    it('keepFor moves an uploaded file from the 30-day rule to the claim’s', async () => {
      const { store, get } = await setup();
      const { id } = await store.put(Buffer.from('chat photo'), {
        contentType: 'image/jpeg',
        fileName: 'car.jpg',
        owner: 'telegram:7',
      });
      const meta = await store.keepFor(id, claim);
      expect(meta.claim).toEqual(claim);
      await expect(
        store.keepFor('00000000-0000-4000-8000-000000000000', claim),
      ).rejects.toMatchObject({
        code: 'FILE_NOT_FOUND',
      });
      said = { kind: 'reported', status: 'Intimated' };
      clock.advance(45 * DAY);
      expect(await store.sweep(insurer)).toBe(0);
      expect((await get(store.link(id))).body).toBe('chat photo');
      // "Delete my data" still deletes it.
      expect(await store.forgetOwner('telegram:7')).toBe(1);
      expect((await get(store.link(id))).statusCode).toBe(404);
    });
  });
});

describe('FileStore on an S3 server that does not answer', () => {
  it('fails with FileStoreUnavailableError, naming no credentials', async () => {
    const closed = await startS3Server();
    const location = {
      ...closed.location('gone'),
      credentials: { accessKeyId: 'K', secretAccessKey: 'very-secret-key' },
    };
    await closed.close();
    const store = await createFileStore({
      backend: s3Backend(location),
      signingSecret: SECRET,
      publicUrl: 'http://files.test',
    });
    try {
      const put = store.put(Buffer.from('x'), { contentType: 'text/plain', fileName: 'x' });
      await expect(put).rejects.toBeInstanceOf(FileStoreUnavailableError);
      const error = await put.catch((e: unknown) => e);
      expect(String((error as Error).message)).not.toContain('very-secret-key');
      await expect(store.open(randomUUID())).rejects.toBeInstanceOf(FileStoreUnavailableError);
      await expect(store.sweep()).rejects.toBeInstanceOf(FileStoreUnavailableError);
      await expect(store.records('identity').readAll()).rejects.toBeInstanceOf(
        FileStoreUnavailableError,
      );
    } finally {
      await store.close();
    }
  });
});

describe('FileStore on a bucket that does not exist', () => {
  it('says so rather than answering that a file is not there', async () => {
    const store = await createFileStore({
      backend: s3Backend({ ...s3.location('x'), bucket: 'no-such-bucket-here' }),
      signingSecret: SECRET,
      publicUrl: 'http://files.test',
    });
    try {
      await expect(store.open(randomUUID())).rejects.toBeInstanceOf(FileStoreUnavailableError);
      await expect(store.countOwned('telegram:1')).rejects.toBeInstanceOf(
        FileStoreUnavailableError,
      );
    } finally {
      await store.close();
    }
  });
});
