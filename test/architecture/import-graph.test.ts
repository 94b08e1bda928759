import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as flows from '../../flows/index.js';

// Issue 39: a channel only parses and renders. Read from the TypeScript sources, so a rule
// broken anywhere under a folder names the file that broke it.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Every `.ts` file under `folder` (relative to the repository), recursively. */
function sourcesUnder(folder: string): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    for (const entry of readdirSync(path)) {
      const full = join(path, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (full.endsWith('.ts')) found.push(full);
    }
  };
  walk(join(ROOT, folder));
  return found;
}

/** What a source file imports (static, dynamic and re-exports), resolved to repository paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/\b(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map(
    (match) => match[1] ?? '',
  );
  return specifiers
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => relative(ROOT, resolve(dirname(file), specifier)));
}

const name = (file: string) => relative(ROOT, file);
const CHANNEL_FILES = sourcesUnder('src/channels');

/** The files under `folder` whose text names `word` as a whole word. */
function filesNaming(folder: string, word: string): string[] {
  const pattern = new RegExp(`\\b${word}\\b`);
  return sourcesUnder(folder)
    .filter((file) => pattern.test(readFileSync(file, 'utf8')))
    .map(name);
}

describe('the import graph of the channels', () => {
  it.each([
    ['src/handoff', 'human handoff is the handoff policy’s, in the engine'],
    ['src/reminders', 'reminder buttons and the language store are the policies’'],
    ['flows', 'flows are the engine’s to run'],
  ])('has no channel importing %s (%s)', (folder) => {
    const offending = CHANNEL_FILES.filter((file) =>
      importsOf(file).some((target) => target === folder || target.startsWith(`${folder}/`)),
    ).map(name);
    expect(offending).toEqual([]);
  });

  it('has no WhatsApp file importing the Telegram channel', () => {
    const offending = sourcesUnder('src/channels/whatsapp')
      .filter((file) =>
        importsOf(file).some((target) => target.startsWith('src/channels/telegram')),
      )
      .map(name);
    expect(offending).toEqual([]);
  });

  it('names no flow id in any channel file (the ids of the flow registry)', () => {
    const ids = Object.values(flows).flatMap((value) =>
      typeof value === 'object' && value !== null && 'machine' in value && 'id' in value
        ? [String((value as { id: unknown }).id)]
        : [],
    );
    // The registry's entry menu, staff desk and the flows a menu opens, at least.
    expect(ids).toEqual(expect.arrayContaining(['main-menu', 'staff-desk', 'motor-quote']));
    const offending = CHANNEL_FILES.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return ids
        .filter((id) => new RegExp(`['"\`]${id}['"\`]`).test(text))
        .map((id) => `${name(file)}: ${id}`);
    });
    expect(offending).toEqual([]);
  });

  // Names that belong to one home only: the folder must not name them at all. A rule is one row.
  it.each([
    ['src/channels', 'isMenuShortcut', 'the reminder-shortcut policy asks it'],
    [
      'src/channels',
      'RenderPrompt = ',
      'the render contract is declared once, in src/conversation',
    ],
  ])('has nothing under %s naming %s (%s)', (folder, word) => {
    const offending = word.endsWith(' = ')
      ? sourcesUnder(folder)
          .filter((file) => readFileSync(file, 'utf8').includes(`type ${word}`))
          .map(name)
      : filesNaming(folder, word);
    expect(offending).toEqual([]);
  });
});

/**
 * A channel's adapter code: its folder's files, but for a sub-folder beside them holding the
 * platform's own API client and payload schemas.
 */
function adapterLines(channel: string): number {
  const folder = join(ROOT, 'src/channels', channel);
  return readdirSync(folder)
    .map((entry) => join(folder, entry))
    .filter((path) => path.endsWith('.ts') && statSync(path).isFile())
    .reduce((lines, file) => lines + readFileSync(file, 'utf8').split('\n').length - 1, 0);
}

describe('the size of each channel', () => {
  const channels = readdirSync(join(ROOT, 'src/channels')).filter(
    (entry) => statSync(join(ROOT, 'src/channels', entry)).isDirectory() && entry !== 'shared',
  );

  it.each(channels)('keeps the %s adapter to 600 lines', (channel) => {
    expect(adapterLines(channel)).toBeLessThanOrEqual(600);
  });
});
