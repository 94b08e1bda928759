import { afterEach, describe, expect, it } from 'vitest';
import {
  createRegistrations,
  onRecordAmong,
  phonesOnRecordForNrc,
  REGISTRATIONS_FOLDER,
  type Registrations,
  RegistrationsUnknownError,
} from '../../src/access/index.js';
import { createFileStore, type FileStore, type RecordFolder } from '../../src/files/index.js';
import type { RedisConnection } from '../../src/redis/index.js';
import { createMemoryStore, createRedisStore } from '../../src/storage/index.js';
import { type TestRedis, testRedis } from '../payments/support.js';
import { eventually } from '../support/eventually.js';
import { countRedisCommands } from '../support/redis-command-count.js';
import { deleteKeys } from '../support/redis-modes.js';

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

describe('registrations after a Redis loss', () => {
  const opened: FileStore[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((files) => files.close()));
  });

  /** Registrations on the test Redis, copied to a file store in a temporary folder. */
  async function durableRegistrations(wrap: (folder: RecordFolder) => RecordFolder = (f) => f) {
    redis = testRedis();
    const files = await createFileStore({ signingSecret: 's', publicUrl: 'http://bot.test' });
    opened.push(files);
    const folder = wrap(files.records(REGISTRATIONS_FOLDER));
    const { prefix } = redis;
    const connection = redis.redis;
    const over = () =>
      createRegistrations(createRedisStore(connection), prefix, { durable: folder });
    // What a FLUSHALL does to this test's keys (other tests share the server: only this prefix).
    const flush = () => deleteKeys(connection, prefix);
    return { registrations: over(), over, flush, files, folder };
  }

  it('still leaves an unproven registration out of the phones on record after its keys are flushed', async () => {
    const { registrations, flush } = await durableRegistrations();
    await registrations.recordCreated({ clientId: '90', proven: false });
    await registrations.recordCreated({ clientId: '92', proven: true });
    await flush();

    expect(await phonesOnRecordForNrc([MEMBER, TYPED_BY_OTHER], registrations)).toEqual([
      '260971234567',
    ]);
    expect(await registrations.unprovenAmong(['41', '90', '92'])).toEqual(new Set(['90']));
  });

  it('restores a proof made before the flush as proven', async () => {
    const { registrations, flush } = await durableRegistrations();
    await registrations.recordCreated({ clientId: '90', proven: false });
    await registrations.markProven('90');
    await flush();

    expect(await registrations.unprovenAmong(['90'])).toEqual(new Set());
  });

  it('restores on a fresh instance too (the registry that wrote them is gone)', async () => {
    const { registrations, over, flush } = await durableRegistrations();
    await registrations.recordCreated({ clientId: '90', proven: false });
    await flush();

    expect(await over().unprovenAmong(['90', '41'])).toEqual(new Set(['90']));
  });

  it('does not take a registration written after the flush for a restored registry', async () => {
    const { registrations, flush } = await durableRegistrations();
    await registrations.recordCreated({ clientId: '90', proven: false });
    await flush();
    // The hash exists again, holding only this one: 90 must still be found.
    await registrations.recordCreated({ clientId: '91', proven: false });

    expect(await registrations.unprovenAmong(['90', '91'])).toEqual(new Set(['90', '91']));
  });

  it('copies registrations only Redis held (from before the durable copy) out on its first restore', async () => {
    const { over, flush, folder } = await durableRegistrations();
    const store = createRedisStore(redis?.redis as NonNullable<typeof redis>['redis']);
    await store.hashSet(`${redis?.prefix}identity:unproven`, { '90': '2026-01-01T00:00:00Z' });

    // The first lookup that finds an id missing restores, and copies 90 out.
    expect(await over().unprovenAmong(['41', '90'])).toEqual(new Set(['90']));
    expect((await folder.readAll()).map((r) => r.name)).toEqual(['90']);
    await flush();
    expect(await over().unprovenAmong(['90'])).toEqual(new Set(['90']));
  });

  it('answers unknown, not "everyone is on record", when the durable copy fails during a restore', async () => {
    const failing = (folder: RecordFolder): RecordFolder => ({
      write: (name, text) => folder.write(name, text),
      readAll: async () => {
        throw new Error('bucket down');
      },
    });
    const { registrations, flush } = await durableRegistrations(failing);
    await registrations.recordCreated({ clientId: '90', proven: false });
    await flush();

    await expect(registrations.unprovenAmong(['41', '90'])).rejects.toBeInstanceOf(
      RegistrationsUnknownError,
    );
    await expect(
      phonesOnRecordForNrc([MEMBER, TYPED_BY_OTHER], registrations),
    ).rejects.toBeInstanceOf(RegistrationsUnknownError);
    const onRecord = await onRecordAmong(
      [
        { ...MEMBER, idNumber: '234567101' },
        { ...TYPED_BY_OTHER, idNumber: '234567101' },
      ],
      registrations,
    );
    expect(onRecord.known).toBe(false);
    expect(onRecord.ofNrc('234567101')).toEqual([]);
    expect(onRecord.nrcsOf(TYPED_BY_OTHER.phoneNumber)).toEqual([]);
    // What the phone bought itself is still its own.
    expect(onRecord.ofClient('90')).toEqual([TYPED_BY_OTHER.phoneNumber]);
  });

  it('costs a loaded lookup one Redis command beside one per id, and a lookup of none nothing', async () => {
    const { registrations, flush } = await durableRegistrations();
    await registrations.recordCreated({ clientId: '90', proven: false });
    await flush();
    await registrations.unprovenAmong(['41']);
    let commands = 0;
    countRedisCommands(redis?.redis as RedisConnection, () => {
      commands += 1;
    });

    expect(await registrations.unprovenAmong(['41', '90', '93'])).toEqual(new Set(['90']));
    expect(commands).toBe(3 + 1);
    expect(await registrations.unprovenAmong([])).toEqual(new Set());
    expect(commands).toBe(4);
  });

  it('answers unknown while a restore outlasts its wait, and knows once the restore is done', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = (folder: RecordFolder): RecordFolder => ({
      write: (name, text) => folder.write(name, text),
      readAll: async () => {
        await gate;
        return folder.readAll();
      },
    });
    const { folder, flush } = await durableRegistrations(slow);
    const connection = redis?.redis as RedisConnection;
    const registrations = createRegistrations(createRedisStore(connection), redis?.prefix ?? '', {
      durable: folder,
      restoreWaitMs: 0,
    });
    await registrations.recordCreated({ clientId: '90', proven: false });
    await flush();

    await expect(registrations.unprovenAmong(['41', '90'])).rejects.toBeInstanceOf(
      RegistrationsUnknownError,
    );
    release();
    await eventually('the restore under way to finish', async () =>
      (await registrations.unprovenAmong(['41', '90']).catch(() => undefined))?.has('90'),
    );
  });

  it('restores once for many lookups at the same time after a flush', async () => {
    let reads = 0;
    const counting = (folder: RecordFolder): RecordFolder => ({
      write: (name, text) => folder.write(name, text),
      readAll: () => {
        reads += 1;
        return folder.readAll();
      },
    });
    const { registrations, flush } = await durableRegistrations(counting);
    await registrations.recordCreated({ clientId: '90', proven: false });
    await flush();

    const answers = await Promise.all(
      Array.from({ length: 20 }, () => registrations.unprovenAmong(['41', '90'])),
    );

    expect(answers).toEqual(answers.map(() => new Set(['90'])));
    expect(reads).toBe(1);
    // Loaded now: a lookup that finds nothing reads the durable copy no more.
    expect(await registrations.unprovenAmong(['41'])).toEqual(new Set());
    expect(reads).toBe(1);
  });
});
