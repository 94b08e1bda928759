import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, operationNames } from '../../src/api/index.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

describe('buildOpenApiDocument', () => {
  const document = JSON.parse(JSON.stringify(buildOpenApiDocument())) as {
    openapi: string;
    info: { title: string; version: string };
    paths: Record<
      string,
      Record<string, { operationId: string; responses: Record<string, unknown> }>
    >;
    components: { securitySchemes: Record<string, { type: string; scheme: string }> };
    webhooks: Record<string, unknown>;
  };
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
  );

  it('is an OpenAPI 3.1 document with info, paths and bearer security', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info.title).toBeTruthy();
    expect(document.info.version).toBeTruthy();
    expect(document.components.securitySchemes.bearer).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    );
  });

  it('lists every operation of the table once, by operationId', () => {
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...operationNames].sort());
  });

  it('uses only HTTP methods as path item keys, and paths starting with a slash', () => {
    for (const { path, method } of operations) {
      expect(path.startsWith('/')).toBe(true);
      expect(METHODS).toContain(method);
    }
  });

  it('declares every path template parameter as a required path parameter', () => {
    for (const { path, operation } of operations) {
      const declared = (
        (operation as { parameters?: Array<{ name: string; in: string }> }).parameters ?? []
      )
        .filter((p) => p.in === 'path')
        .map((p) => p.name);
      const inTemplate = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      expect(declared.sort()).toEqual(inTemplate.sort());
    }
  });

  it('gives every operation a success response', () => {
    for (const { operation } of operations) expect(operation.responses).toHaveProperty('200');
  });

  it('shows a configured path override', () => {
    const overridden = buildOpenApiDocument({
      pathOverrides: { getCorporates: '/clients/corporates' },
    });
    expect(overridden.paths['/clients/corporates']?.get?.operationId).toBe('getCorporates');
  });

  it('resolves every $ref to a schema under components', () => {
    const text = JSON.stringify(document);
    const refs = new Set([...text.matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1] ?? ''));
    const schemas = (document.components as unknown as { schemas: Record<string, unknown> })
      .schemas;
    expect(refs.size).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref.startsWith('#/components/schemas/'), ref).toBe(true);
      expect(schemas, ref).toHaveProperty(ref.slice('#/components/schemas/'.length));
    }
  });

  it('matches the committed docs/partner-api.openapi.json (run `npm run openapi` after a change)', () => {
    const committed = JSON.parse(
      readFileSync(new URL('../../docs/partner-api.openapi.json', import.meta.url), 'utf8'),
    );
    expect(committed).toEqual(document);
  });

  it('describes the payment webhook', () => {
    expect(document.webhooks).toHaveProperty('paymentCallback');
  });
});
