import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { mergeSections, numberedSections } from '../../bench/lib/results-file.js';

const PREVIOUS = [
  '# insurechat benchmarks',
  '',
  '## Machine',
  'two cores',
  '',
  '## 1. USSD turns',
  'old figures',
  '',
  '## 2. Slow insurer',
  'slow figures',
  '',
  'Total bench time: 524 s.',
  '',
  '## 10. Instructions per turn',
  'callgrind figures',
  '',
].join('\n');

describe('bench/RESULTS.md merging', () => {
  it('replaces the sections a run wrote and keeps the others in number order', () => {
    const merged = mergeSections(['## 2. Slow insurer\nnew slow figures\n'], PREVIOUS).join('\n');
    expect(merged).toBe(
      '## 1. USSD turns\nold figures\n\n## 2. Slow insurer\nnew slow figures\n\n## 10. Instructions per turn\ncallgrind figures\n',
    );
    expect(merged).not.toContain('Machine');
    expect(merged).not.toContain('Total bench time');
  });

  it('reads every numbered section of the committed file, the callgrind one and index truth included', async () => {
    const results = await readFile(new URL('../../bench/RESULTS.md', import.meta.url), 'utf8');
    const numbers = numberedSections(results).map((section) => section.number);
    expect(numbers).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });
});
