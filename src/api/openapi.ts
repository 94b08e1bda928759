import { z } from 'zod';
import { contract, type OperationName } from './contract.js';
import type { AnyContractEntry } from './define-contract.js';
import { ApiErrorBody, named, PaymentWebhook } from './schemas.js';

/** A JSON Schema object as zod emits it. */
type JsonSchema = Record<string, unknown>;

/** The parts of an OpenAPI 3.1 document we emit (kept loose: it is written out as JSON). */
export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: { title: string; version: string; description: string };
  readonly servers: readonly { url: string; description?: string }[];
  readonly tags: readonly { name: string }[];
  readonly paths: Record<string, Record<string, JsonSchema>>;
  readonly webhooks: Record<string, Record<string, JsonSchema>>;
  readonly components: {
    securitySchemes: Record<string, JsonSchema>;
    schemas: Record<string, JsonSchema>;
  };
  readonly security: readonly Record<string, readonly string[]>[];
}

/** Options of {@link buildOpenApiDocument}. */
export interface OpenApiOptions {
  /** Server URL; default `{base_url}/api/v1` as the spec writes it. */
  readonly serverUrl?: string;
  /** The same overrides the client takes, so the document shows the paths actually used. */
  readonly pathOverrides?: Partial<Record<OperationName, string>>;
}

/**
 * Named schemas (registered in `named` in schemas.ts) collected while converting, emitted once under
 * components/schemas and referenced from operations, instead of being inlined at every use.
 */
type Components = Map<string, string>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output', components: Components): JsonSchema {
  const generated = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    metadata: named,
  }) as JsonSchema;
  const { $schema: _schema, $defs, ...rest } = generated;
  for (const [id, definition] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
    const text = JSON.stringify(definition);
    const existing = components.get(id);
    if (existing !== undefined && existing !== text) {
      throw new Error(
        `Schema ${id} converts differently as ${io}; give the two forms their own ids`,
      );
    }
    components.set(id, text);
  }
  return toComponentRefs(rest);
}

function toComponentRefs(schema: JsonSchema): JsonSchema {
  return JSON.parse(
    JSON.stringify(schema).replaceAll('"#/$defs/', '"#/components/schemas/'),
  ) as JsonSchema;
}

const ERROR_RESPONSE = {
  description: 'Error: `{status, message, errors}` (shape from the published guide).',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiErrorBody' } } },
};

function parametersOf(entry: AnyContractEntry, components: Components): JsonSchema[] {
  const parameters: JsonSchema[] = [];
  for (const name of Object.keys(entry.pathParams.shape)) {
    parameters.push({ name, in: 'path', required: true, schema: { type: 'string' } });
  }
  if (entry.query) {
    const schema = jsonSchema(entry.query, 'input', components);
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema.required ?? []) as string[]);
    for (const [name, property] of Object.entries(properties)) {
      parameters.push({ name, in: 'query', required: required.has(name), schema: property });
    }
  }
  return parameters;
}

function descriptionOf(entry: AnyContractEntry): string {
  const lines = [`Spec: "${entry.specName}".`];
  if (entry.alsoSpecNames?.length)
    lines.push(`Also named: ${entry.alsoSpecNames.map((n) => `"${n}"`).join(', ')}.`);
  if (entry.notes) lines.push(entry.notes);
  if (entry.rules?.length) lines.push(`Rejected before sending: ${entry.rules.join(' ')}`);
  if (entry.assumed) lines.push('Path assumed (not given by the spec or the published guides).');
  if (entry.startsPayment)
    lines.push('Starts a payment: carries the caller reference; never retried blindly.');
  return lines.join('\n\n');
}

function operationOf(entry: AnyContractEntry, components: Components): JsonSchema {
  const success =
    entry.responseKind === 'stream'
      ? {
          description: 'The document or CSV.',
          content: {
            'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
            'text/csv': { schema: { type: 'string' } },
            'application/pdf': { schema: { type: 'string', format: 'binary' } },
          },
        }
      : {
          description: 'Success.',
          content: {
            'application/json': { schema: jsonSchema(entry.response, 'output', components) },
          },
        };
  const operation: JsonSchema = {
    operationId: entry.name,
    summary: entry.specName,
    description: descriptionOf(entry),
    tags: [entry.group],
    parameters: parametersOf(entry, components),
    responses: { '200': success, default: ERROR_RESPONSE },
    'x-assumed-path': entry.assumed,
  };
  if (entry.body) {
    operation.requestBody = {
      required: true,
      content: { 'application/json': { schema: jsonSchema(entry.body, 'input', components) } },
    };
  }
  return operation;
}

/** Builds the OpenAPI 3.1 document of the whole contract table (zod 4's JSON Schema output). */
export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const tags = new Set<string>();
  const components: Components = new Map();
  const entries: Readonly<Record<string, AnyContractEntry>> = contract;
  for (const entry of Object.values(entries)) {
    const path = options.pathOverrides?.[entry.name as OperationName] ?? entry.path;
    paths[path] ??= {};
    paths[path][entry.method.toLowerCase()] = operationOf(entry, components);
    tags.add(entry.group);
  }
  const webhookBody = jsonSchema(PaymentWebhook, 'output', components);
  // Registers ApiErrorBody for the `$ref` every error response carries.
  jsonSchema(ApiErrorBody, 'output', components);
  const schemas: Record<string, JsonSchema> = {};
  for (const id of [...components.keys()].sort()) {
    schemas[id] = toComponentRefs(JSON.parse(components.get(id) ?? '{}') as JsonSchema);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Partner Insurance API',
      version: '1',
      description:
        'Generated from the insurechat contract table (src/api/contract.ts). Operations whose path is marked `x-assumed-path` follow the spec conventions; the spec does not give their paths.',
    },
    servers: [{ url: options.serverUrl ?? '{base_url}/api/v1' }],
    tags: [...tags].map((name) => ({ name })),
    paths,
    webhooks: {
      paymentCallback: {
        post: {
          summary: "Payment outcome POSTed to the partner profile's paymentCallbackUrl",
          description:
            'Unsigned (published guide): treat it as a hint and confirm with the transaction status operation. The partner answers 200.',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: webhookBody } },
          },
          responses: { '200': { description: 'Received.' } },
        },
      },
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The partner API key.' },
      },
      schemas,
    },
    security: [{ bearer: [] }],
  };
}
