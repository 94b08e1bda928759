import { createReadStream, type Dirent } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where a {@link FileStore}'s objects live: a flat set of keys (`<id>.bin`, `<id>.json`,
 * `owned/<owner hash>/<id>`). The store's rules (signing, owners, claims, retention) are written
 * once over it, so local disk and an S3-compatible bucket behave the same.
 */
export interface FileBackend {
  /** Writes an object whole, replacing any object of that key. */
  write(key: string, body: Buffer): Promise<void>;
  /** The object's bytes; undefined when there is no such object. */
  read(key: string): Promise<Readable | undefined>;
  /** The object's text; undefined when there is no such object. */
  readText(key: string): Promise<string | undefined>;
  /** Deletes an object; nothing happens when it is not there. */
  delete(key: string): Promise<void>;
  /**
   * Keys directly under `prefix`'s folder whose name starts with the rest of `prefix`
   * (`owned/ab12/` lists that folder; `''` the top level), not those of deeper folders.
   */
  list(prefix: string): AsyncIterable<string>;
  /** Releases what the backend holds (a temporary folder, connections). */
  close(): Promise<void>;
}

/** A {@link FileBackend} in a folder on local disk; `temporary` removes the folder on close. */
export function diskBackend(dir: string, temporary = false): FileBackend {
  const pathOf = (key: string): string => join(dir, key);
  return {
    async write(key, body) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, body);
    },
    async read(key) {
      const stream = createReadStream(pathOf(key));
      // An absent file is known when the stream opens: wait for that, so the caller hears it.
      return new Promise<Readable | undefined>((resolve) => {
        stream.once('open', () => resolve(stream));
        stream.once('error', () => resolve(undefined));
      });
    },
    async readText(key) {
      try {
        return await readFile(pathOf(key), 'utf8');
      } catch {
        return undefined;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async *list(prefix) {
      const slash = prefix.lastIndexOf('/');
      const folder = prefix.slice(0, slash + 1);
      const start = prefix.slice(slash + 1);
      let entries: Dirent[];
      try {
        entries = await readdir(pathOf(folder), { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        if (entry.isFile() && entry.name.startsWith(start)) yield `${folder}${entry.name}`;
      }
    },
    async close() {
      if (temporary) await rm(dir, { recursive: true, force: true });
    },
  };
}
