import type { FileBackend } from './file-backend.js';

/**
 * Small text records kept where the files are (a folder on local disk, or the bucket every
 * instance shares): state that must outlive a Redis loss. One object per record,
 * `<folder>/<encoded name>.json`, so records are written independently and never merged.
 */
export interface RecordFolder {
  /** Writes (or replaces) the record `name`. */
  write(name: string, text: string): Promise<void>;
  /**
   * Every record in the folder, name and text. Throws when the store fails, or when a listed
   * record cannot be read: a caller restoring from it must not take part of it for the whole.
   */
  readAll(): Promise<{ name: string; text: string }[]>;
}

const SUFFIX = '.json';
/** Records read at once by `readAll`. */
const READS_AT_ONCE = 16;

/** A {@link RecordFolder} under `folder` (no slashes) of `backend`. */
export function recordFolder(backend: FileBackend, folder: string): RecordFolder {
  const keyOf = (name: string): string => `${folder}/${encodeURIComponent(name)}${SUFFIX}`;
  return {
    async write(name, text) {
      await backend.write(keyOf(name), Buffer.from(text));
    },
    async readAll() {
      const keys: string[] = [];
      for await (const key of backend.list(`${folder}/`)) {
        if (key.endsWith(SUFFIX)) keys.push(key);
      }
      const read = async (key: string) => {
        const text = await backend.readText(key);
        if (text === undefined) throw new Error(`record ${key} is listed but cannot be read`);
        const base = key.slice(folder.length + 1, -SUFFIX.length);
        return { name: decodeURIComponent(base), text };
      };
      // A few reads at a time: a bucket's connection pool is shared with the claim files.
      const records: { name: string; text: string }[] = [];
      for (let i = 0; i < keys.length; i += READS_AT_ONCE) {
        records.push(...(await Promise.all(keys.slice(i, i + READS_AT_ONCE).map(read))));
      }
      return records;
    },
  };
}
