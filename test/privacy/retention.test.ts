import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { keptWithoutTtl, RETENTION, retentionMarkdown } from '../../src/privacy/index.js';

describe('the retention table', () => {
  it('is the table docs/privacy-and-limits.md shows, word for word', async () => {
    const page = await readFile(
      new URL('../../docs/privacy-and-limits.md', import.meta.url),
      'utf8',
    );
    expect(page).toContain(retentionMarkdown());
  });

  it('names an expiry for sessions, payment routes, the index, cards, handoff, files, jobs and logs', () => {
    const rows = RETENTION.map((rule) => `${rule.what} ${rule.where}`).join('\n');
    for (const kind of [
      /session/i,
      /payment route/i,
      /holdings index/i,
      /card/i,
      /handoff/i,
      /files/i,
      /BullMQ/,
      /logs/i,
    ]) {
      expect(rows).toMatch(kind);
    }
    expect(RETENTION.every((rule) => rule.expiry.length > 0)).toBe(true);
  });

  it('keeps without a TTL only the structures it names: the due index, the audit, queue bookkeeping', () => {
    expect(keptWithoutTtl('reminder-due')).toBe(true);
    expect(keptWithoutTtl('{staff-audit}')).toBe(true);
    expect(keptWithoutTtl('{staff-audit}:head')).toBe(true);
    expect(keptWithoutTtl('{bull}:payments:meta')).toBe(true);
    expect(keptWithoutTtl('session:{ussd:260971234567}')).toBe(false);
    expect(keptWithoutTtl('consent:{ussd:260971234567}')).toBe(false);
    expect(keptWithoutTtl('reminder-card:{ussd:260971234567}')).toBe(false);
  });
});
