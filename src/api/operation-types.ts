import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { Contract, OperationName } from './contract.js';
import type { PathParamNames } from './define-contract.js';

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type PathPart<E> = E extends { readonly path: infer P extends string }
  ? [PathParamNames<P>] extends [never]
    ? unknown
    : { readonly path: { readonly [K in PathParamNames<P>]: string } }
  : unknown;

type QueryPart<E> = E extends { readonly query: infer Q extends z.ZodType }
  ? Record<string, never> extends z.input<Q>
    ? { readonly query?: z.input<Q> }
    : { readonly query: z.input<Q> }
  : unknown;

type BodyPart<E> = E extends { readonly body: infer B extends z.ZodType }
  ? { readonly body: z.input<B> }
  : unknown;

/** What a caller passes to an operation: `{ path?, query?, body? }` as its entry requires. */
export type OperationInput<N extends OperationName> = Simplify<
  PathPart<Contract[N]> & QueryPart<Contract[N]> & BodyPart<Contract[N]>
>;

/** The parsed response of a JSON operation; a Node stream for document/CSV operations. */
export type OperationOutput<N extends OperationName> = Contract[N]['responseKind'] extends 'stream'
  ? Readable
  : z.output<Contract[N]['response']>;

/** Operations answering JSON (used with `call`). */
export type JsonOperationName = {
  [N in OperationName]: Contract[N]['responseKind'] extends 'stream' ? never : N;
}[OperationName];

/** Operations answering a document or CSV (used with `download`). */
export type StreamOperationName = Exclude<OperationName, JsonOperationName>;

/** Operations returning the paginated list envelope (used with `paginate`). */
export type PaginatedOperationName = {
  [N in OperationName]: Contract[N] extends { readonly paginated: true } ? N : never;
}[OperationName];

/** One item of a paginated operation's pages. */
export type OperationItem<N extends PaginatedOperationName> =
  z.output<Contract[N]['response']> extends { data: Array<infer T> } ? T : never;

/** Operations whose input has no required part: their input argument may be left out. */
export type InputArgs<N extends OperationName, Options> =
  Record<string, never> extends OperationInput<N>
    ? [input?: OperationInput<N>, options?: Options]
    : [input: OperationInput<N>, options?: Options];
