import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EnvSchema } from '../../src/server/config.js';
import {
  configurationMarkdown,
  schemaDefault,
  VARIABLE_DOCS,
} from '../../src/server/config-docs.js';

const PAGE = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');

describe('docs/configuration.md', () => {
  it('is what the configuration schema generates (run `npm run docs:config` after a change)', () => {
    expect(PAGE).toBe(configurationMarkdown());
  });

  it('has one row for every variable the server reads, with the schema’s own default', () => {
    for (const [name, field] of Object.entries(EnvSchema.shape)) {
      const rows = PAGE.split('\n').filter((line) => line.startsWith(`| \`${name}\` |`));
      expect(rows, name).toHaveLength(1);
      const own = schemaDefault(field);
      if (own !== undefined) expect(rows[0], name).toContain(`| \`${own}\``);
    }
  });

  it('cannot be generated for a variable the schema reads and the words leave out', () => {
    const schema = z.object({ ...EnvSchema.shape, NEW_VARIABLE: z.string().optional() });
    expect(() => configurationMarkdown(schema)).toThrow(/NEW_VARIABLE: no words/);
  });

  it('cannot be generated when the words give a default the schema does not', () => {
    const docs = { ...VARIABLE_DOCS, PORT: { what: 'HTTP port', unset: '`8080`' } };
    expect(() => configurationMarkdown(EnvSchema, docs)).toThrow(
      /PORT: the schema's default is 3000/,
    );
  });
});
