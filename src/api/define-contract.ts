import { z } from 'zod';

/** HTTP methods the contract uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** The spec's sections; used as OpenAPI tags. */
export type OperationGroup =
  | 'Clients and vehicles'
  | 'Products and quotations'
  | 'Policies'
  | 'Payments'
  | 'Credit life'
  | 'Group life'
  | 'Group funeral';

/** The names of the `{param}` placeholders in a path template. */
export type PathParamNames<P extends string> = P extends `${string}{${infer N}}${infer Rest}`
  ? N | PathParamNames<Rest>
  : never;

/** The zod object of a path template's parameters: every parameter is a non-empty string. */
type PathParamsSchema<P extends string> = z.ZodObject<
  { [K in PathParamNames<P>]: z.ZodString },
  z.core.$strip
>;

/** One operation as written in the table, before its name and path schema are derived. */
export interface OperationDefinition {
  /** The spec's own words for the operation, prefixed by its section for bullets. */
  readonly specName: string;
  /** Further spec phrases that name the same operation. */
  readonly alsoSpecNames?: readonly string[];
  readonly group: OperationGroup;
  readonly method: HttpMethod;
  /** Path template relative to the base URL (which includes `/api/v1`). */
  readonly path: string;
  /** True when the spec and published guides give no path and we chose one by convention. */
  readonly assumed?: boolean;
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType;
  readonly response: z.ZodType;
  readonly responseKind?: 'json' | 'stream';
  /**
   * Moves money: the client never retries it (the spec does not promise that a repeated reference
   * is de-duplicated); the caller looks its `reference` up before sending it again.
   */
  readonly startsPayment?: boolean;
  /** Returns the paginated list envelope and accepts PageNumber/PageSize. */
  readonly paginated?: boolean;
  /** The spec's Errors-section rules the body schema enforces, in words. */
  readonly rules?: readonly string[];
  /** Behaviour the spec states, for documentation. */
  readonly notes?: string;
}

/** A contract entry: the definition plus its name, path-parameter schema and defaults. */
export type ContractEntry<
  N extends string = string,
  D extends OperationDefinition = OperationDefinition,
> = D & {
  readonly name: N;
  readonly pathParams: PathParamsSchema<D['path']>;
  readonly assumed: boolean;
  readonly responseKind: D['responseKind'] extends 'stream' ? 'stream' : 'json';
};

/** Any entry of any contract, as generic code (client, sandbox, OpenAPI) sees it. */
export interface AnyContractEntry extends OperationDefinition {
  readonly name: string;
  readonly pathParams: z.ZodObject;
  readonly assumed: boolean;
  readonly responseKind: 'json' | 'stream';
}

const PARAM = /\{([^}]+)\}/g;

/** The parameter names of a path template, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(PARAM)].map((match) => match[1] ?? '');
}

function pathParamsFor(path: string): z.ZodObject {
  const shape: Record<string, z.ZodString> = {};
  for (const name of pathParamNames(path)) shape[name] = z.string().min(1);
  return z.object(shape);
}

/**
 * Builds the contract from its definitions: adds each entry's `name` (its key), a path-parameter
 * schema derived from the template, and the defaults `assumed: false`, `responseKind: 'json'`.
 */
export function defineContract<const T extends Record<string, OperationDefinition>>(
  definitions: T,
): { readonly [K in keyof T & string]: ContractEntry<K, T[K]> } {
  const out: Record<string, AnyContractEntry> = {};
  for (const [name, definition] of Object.entries(definitions)) {
    out[name] = {
      ...definition,
      name,
      pathParams: pathParamsFor(definition.path),
      assumed: definition.assumed ?? false,
      responseKind: definition.responseKind ?? 'json',
    };
  }
  return out as { readonly [K in keyof T & string]: ContractEntry<K, T[K]> };
}
