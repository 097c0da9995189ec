/**
 * A rendered entity in a shape other than REST's: GraphQL's selection, where the response names
 * the keys (aliases), orders them (selection order), adds constants (`__typename`), wraps lists
 * (`<attr>_connection { nodes }`) and pages every list per parent. The caller describes the shape
 * once per distinct query (graphql/rendered.ts); the engine writes it in the same statement as
 * REST's rendered reads (read.ts, nested.ts), so the database returns the response's JSON.
 */
import { SCALAR_TYPES } from '../../contract/scalar-types.ts';
import { sqlString } from '../dialect/json-text.ts';
import type { JsonTextSupport } from '../dialect/types.ts';
import type { TypeInfo } from './registry.ts';
import { column, fragment, type Fragment } from './sql.ts';

/** The keys of one rendered entity (or of an object around its lists), in response order. */
export interface EntityLayout {
  readonly entries: readonly LayoutEntry[];
}

/** Which entries of a list a parent shows: from `start`, `limit` of them (-1: all). */
export interface ListWindow {
  readonly start: number;
  readonly limit: number;
}

/**
 * How a scalar column is written: as the attribute's own serialization (REST's), as a string of
 * its digits (GraphQL's ID of an integer column), as a number where a double holds it (GraphQL's
 * Long), or as one of an enum's names (GraphQL enums name stored values).
 */
export type ScalarFormat = { readonly kind: 'stored' } | { readonly kind: 'digits' } | { readonly kind: 'long' } | { readonly kind: 'enum'; readonly names: ReadonlyMap<string, string> };

export type LayoutEntry =
  /** A column; `nonNull`: a NULL there is an error only JavaScript reports, so the read falls back. */
  | { readonly kind: 'scalar'; readonly key: string; readonly attribute: string; readonly format: ScalarFormat; readonly nonNull: boolean }
  | { readonly kind: 'string'; readonly key: string; readonly value: string }
  | { readonly kind: 'null'; readonly key: string }
  | { readonly kind: 'emptyList'; readonly key: string }
  /** An object of more entries over the same row (`tags_connection { nodes }`). */
  | { readonly kind: 'object'; readonly key: string; readonly entries: readonly LayoutEntry[] }
  /** A populated relation, media, component or `localizations`; lists shown through `window`. */
  | { readonly kind: 'edge'; readonly key: string; readonly attribute: string; readonly window: ListWindow | undefined; readonly layout: EntityLayout }
  /** A dynamic zone: each entry written by its component's layout. */
  | { readonly kind: 'zone'; readonly key: string; readonly attribute: string; readonly layouts: ReadonlyMap<string, EntityLayout> };

export type EdgeEntry = Extract<LayoutEntry, { readonly kind: 'edge' | 'zone' }>;

/** Thrown where a layout names what the engine cannot write: the caller answers another way. */
export class LayoutNotRendered extends Error {}

/**
 * The entity at `alias` (rows of `type`) as JSON in SQL, in `layout`'s shape; `edge` writes the
 * populated attributes (nested.ts).
 */
export function layoutObject(text: JsonTextSupport, type: TypeInfo, alias: string, layout: EntityLayout, edge: (entry: EdgeEntry) => Fragment, outer = false): Fragment {
  const entries = (list: readonly LayoutEntry[]): (readonly [string, Fragment])[] =>
    list.map((entry): readonly [string, Fragment] => {
      switch (entry.kind) {
        case 'scalar':
          return [entry.key, fragment(scalarValue(text, type, alias, entry))];
        case 'string':
          return [entry.key, fragment(text.string(entry.value))];
        case 'null':
          return [entry.key, fragment(text.null)];
        case 'emptyList':
          return [entry.key, fragment(text.emptyArray)];
        case 'object':
          return [entry.key, text.object(entries(entry.entries), false)];
        case 'edge':
        case 'zone':
          return [entry.key, edge(entry)];
      }
    });
  return text.object(entries(layout.entries), outer);
}

function scalarValue(text: JsonTextSupport, type: TypeInfo, alias: string, entry: Extract<LayoutEntry, { kind: 'scalar' }>): string {
  const scalar = type.columns.get(entry.attribute);
  if (scalar === undefined || scalar.hidden) throw new LayoutNotRendered(`${type.uid} has no returned column ${entry.attribute}`);
  const expr = column(alias, scalar.column);
  const value = formatted(text, expr, scalar.type, entry.format);
  return entry.nonNull ? `CASE WHEN ${expr} IS NULL THEN ${text.fallback} ELSE ${value} END` : value;
}

function formatted(text: JsonTextSupport, expr: string, type: keyof typeof SCALAR_TYPES, format: ScalarFormat): string {
  switch (format.kind) {
    case 'stored':
      return text.values[SCALAR_TYPES[type].serialize](expr);
    case 'digits':
      return text.values.biginteger(expr);
    case 'long':
      return text.safeInteger(expr);
    case 'enum': {
      const cases = [...format.names].map(([stored, name]) => ` WHEN ${expr} = ${sqlString(stored)} THEN ${text.string(name)}`);
      return `CASE WHEN ${expr} IS NULL THEN ${text.null}${cases.join('')} ELSE ${text.fallback} END`;
    }
  }
}
