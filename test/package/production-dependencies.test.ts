import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const root = new URL('../..', import.meta.url).pathname;
/** The oldest Node this project promises to run on (package.json `engines`). */
const OLDEST_NODE = '20.19.0';

const Manifest = z.object({
  engines: z.object({ node: z.string().optional() }).optional(),
  dependencies: z.record(z.string(), z.string()).optional(),
});
const Lock = z.object({
  packages: z.record(
    z.string(),
    z.object({ dev: z.boolean().optional(), optional: z.boolean().optional() }),
  ),
});

const lock = Lock.parse(JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')));
/** Every package a `--omit=dev` install puts in node_modules, as installed here. */
const production = Object.entries(lock.packages)
  .filter(([path, entry]) => path.startsWith('node_modules/') && entry.dev !== true)
  .map(([path]) => path);

function installedManifest(path: string): z.infer<typeof Manifest> | undefined {
  try {
    return Manifest.parse(JSON.parse(readFileSync(join(root, path, 'package.json'), 'utf8')));
  } catch {
    return undefined; // an optional build for another platform: not installed here
  }
}

describe('production dependencies', () => {
  it('all run on the oldest Node the project supports', () => {
    const excluding = production.flatMap((path) => {
      const range = installedManifest(path)?.engines?.node;
      return range && !semver.satisfies(OLDEST_NODE, range) ? [`${path} (${range})`] : [];
    });

    expect(production.length).toBeGreaterThan(50);
    expect(excluding).toEqual([]);
  });

  it('leave development tools out of a production install', () => {
    const manifest = Manifest.parse(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')));
    const shipped = Object.keys(manifest.dependencies ?? {});

    for (const tool of ['tsx', 'typescript', 'vitest', '@biomejs/biome'])
      expect(shipped).not.toContain(tool);
    expect(production).not.toContain('node_modules/tsx');
  });
});
