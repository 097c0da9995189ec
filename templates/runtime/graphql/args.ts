/**
 * GraphQL arguments → the validated query AST of query/types.ts, the AST REST builds from its
 * query string. Filters and sort go through REST's own parsers (after a change of spelling), so
 * both APIs accept, refuse and word errors alike, and permissions on relation filters are checked
 * in one place. This module holds what the argument converters share.
 */
import type { ParseScope } from '../query/context.ts';
import type { GraphqlEnum } from './schema-binding.ts';

export interface ArgsContext {
  /** Targets of the model, and which content types the caller may read. */
  readonly scope: ParseScope;
  /** The GraphQL enums of a content type's or component's enumeration attributes, by attribute. */
  readonly enumsOf: (uid: string) => Readonly<Record<string, GraphqlEnum>>;
}

/** The arguments every list field takes (`filters`, `pagination`, `sort`), as graphql-js coerced them. */
export interface ListArgs {
  readonly filters?: unknown;
  readonly pagination?: unknown;
  readonly sort?: unknown;
}

/** A plain object of a coerced input value (graphql-js gives objects without prototype). */
export function isInputObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A key identifying what a list field asks of its rows (filters and sort, not pagination): two
 * selections with the same key read the same rows in the same order. Keys of objects are sorted,
 * so the key of a filter does not depend on how the client ordered it.
 */
export function listArgsKey(args: ListArgs): string {
  return canonicalJson({ filters: args.filters ?? null, sort: sortList(args.sort) });
}

/** `sort: "a"` is coerced to `["a"]` by graphql-js; null entries and a null list mean no sort. */
export function sortList(sort: unknown): string[] {
  if (typeof sort === 'string') return [sort];
  if (!Array.isArray(sort)) return [];
  return sort.filter((item): item is string => typeof item === 'string');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isInputObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
