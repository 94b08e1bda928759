import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Every relative link in the README and under docs/ leads somewhere: the file exists, and an
// anchor names a heading of the page it points to (as GitHub spells heading anchors).

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The markdown pages a reader follows links between. */
function pages(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return walk(path);
      return path.endsWith('.md') ? [path] : [];
    });
  return [join(ROOT, 'README.md'), ...walk(join(ROOT, 'docs'))];
}

/** The text outside fenced code blocks and inline code, where a link is a link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of each heading of a page, repeats numbered as GitHub numbers them. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const outside = markdown.replace(/^```[\s\S]*?^```/gm, '');
  for (const match of outside.matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const slug = (match[1] ?? '')
      .toLowerCase()
      .replace(/`/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
    seen.set(slug, count + 1);
  }
  return anchors;
}

/** What is wrong with each relative link of `file` (empty when every one resolves). */
function brokenLinks(file: string, markdown: string): string[] {
  const broken: string[] = [];
  for (const match of prose(markdown).matchAll(/\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1] ?? '';
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:…
    const [path = '', anchor] = target.split('#');
    const resolved = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
    const where = `${relative(ROOT, file)}: ${target}`;
    if (!existsSync(resolved)) {
      broken.push(`${where} (no such file)`);
      continue;
    }
    if (anchor !== undefined && resolved.endsWith('.md')) {
      const text = resolved === file ? markdown : readFileSync(resolved, 'utf8');
      if (!anchorsOf(text).has(anchor)) broken.push(`${where} (no such heading)`);
    }
  }
  return broken;
}

describe('the links of the README and docs/', () => {
  it('resolve, every relative one to a file and every anchor to a heading', () => {
    const files = pages();
    expect(files.length).toBeGreaterThan(10);
    const broken = files.flatMap((file) => brokenLinks(file, readFileSync(file, 'utf8')));
    expect(broken).toEqual([]);
  });

  it('are reported when a file or a heading is missing', () => {
    const file = join(ROOT, 'README.md');
    const markdown = [
      '# Title',
      '## A heading: with `code`',
      '[ok](#a-heading-with-code) [file](docs/architecture.md) [web](https://example.com)',
      '[gone](docs/no-such-page.md) [nowhere](#no-such-heading) [bad anchor](docs/architecture.md#nope)',
      '`[in code](docs/also-missing.md)`',
    ].join('\n');
    expect(brokenLinks(file, markdown)).toEqual([
      'README.md: docs/no-such-page.md (no such file)',
      'README.md: #no-such-heading (no such heading)',
      'README.md: docs/architecture.md#nope (no such heading)',
    ]);
  });
});
