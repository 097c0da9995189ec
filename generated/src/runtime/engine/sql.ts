/**
 * SQL text with its parameters, and the few building blocks every planner module shares:
 * identifier quoting, boolean combinators and id-list membership. Statements use `?`
 * placeholders on both databases (the PostgreSQL driver numbers them), so a fragment's params
 * must be concatenated in the order its text is.
 */
import type { Dialect, SqlValue } from '../database.ts';

export interface Fragment {
  readonly sql: string;
  readonly params: readonly SqlValue[];
}

export const TRUE: Fragment = { sql: '1=1', params: [] };
export const FALSE: Fragment = { sql: '1=0', params: [] };

export function fragment(sql: string, params: readonly SqlValue[] = []): Fragment {
  return { sql, params };
}

/** A double-quoted identifier: the same quoting on SQLite and PostgreSQL, and case is kept. */
export function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

/** `alias."column"` */
export function column(alias: string, name: string): string {
  return `${alias}.${quote(name)}`;
}

/** Concatenates fragments with a separator, keeping params in text order. */
export function joinFragments(parts: readonly Fragment[], separator: string): Fragment {
  if (parts.length === 1) return parts[0]!;
  const params: SqlValue[] = [];
  for (const part of parts) params.push(...part.params);
  return { sql: parts.map((part) => part.sql).join(separator), params };
}

/** Conjunction; TRUE parts are dropped, a FALSE part makes the whole FALSE. */
export function and(parts: readonly Fragment[]): Fragment {
  const kept = parts.filter((part) => part !== TRUE);
  if (kept.includes(FALSE)) return FALSE;
  if (kept.length === 0) return TRUE;
  if (kept.length === 1) return kept[0]!;
  return wrap(joinFragments(kept, ' AND '));
}

/** Disjunction; FALSE parts are dropped, a TRUE part makes the whole TRUE. */
export function or(parts: readonly Fragment[]): Fragment {
  const kept = parts.filter((part) => part !== FALSE);
  if (kept.includes(TRUE)) return TRUE;
  if (kept.length === 0) return FALSE;
  if (kept.length === 1) return kept[0]!;
  return wrap(joinFragments(kept, ' OR '));
}

export function not(part: Fragment): Fragment {
  if (part === TRUE) return FALSE;
  if (part === FALSE) return TRUE;
  return { sql: `NOT (${part.sql})`, params: part.params };
}

function wrap(part: Fragment): Fragment {
  return { sql: `(${part.sql})`, params: part.params };
}

/**
 * `expr` is one of `ids`, bound as ONE parameter whatever the number of ids: a JSON array read
 * with json_each on SQLite, an array literal on PostgreSQL. So the statement text is the same
 * for 3 ids and for 30,000 (SQLite's prepared-statement cache hits), no placeholder limit is
 * ever reached, and a populate edge never needs to be split into several statements.
 */
export function inIds(dialect: Dialect, expr: string, ids: readonly (number | string)[], kind: 'integer' | 'text'): Fragment {
  if (ids.length === 0) return FALSE;
  if (dialect === 'sqlite') return { sql: `${expr} IN (SELECT value FROM json_each(?))`, params: [JSON.stringify(ids)] };
  return { sql: `${expr} = ANY(CAST(? AS ${kind}[]))`, params: [arrayLiteral(ids, kind)] };
}

/**
 * `ids` as a table of one column, `<alias>.value`, bound as ONE parameter (see inIds): the rows a
 * populate statement starts from. Loaders write `FROM <ids> CROSS JOIN <table> WHERE
 * <table>.<column> = <alias>.value`, which makes SQLite walk the id list and probe the index of
 * each id (CROSS JOIN fixes the join order there) instead of materializing an IN-subquery, and
 * which PostgreSQL plans as an ordinary join. Callers pass distinct ids: a repeated id would
 * repeat rows.
 */
export function idTable(dialect: Dialect, ids: readonly (number | string)[], kind: 'integer' | 'text', alias: string): Fragment {
  if (dialect === 'sqlite') return { sql: `json_each(?) AS ${alias}`, params: [JSON.stringify(ids)] };
  return { sql: `unnest(CAST(? AS ${kind}[])) AS ${alias}(value)`, params: [arrayLiteral(ids, kind)] };
}

function arrayLiteral(ids: readonly (number | string)[], kind: 'integer' | 'text'): string {
  return kind === 'integer' ? `{${ids.join(',')}}` : `{${ids.map(arrayElement).join(',')}}`;
}

/** An element of a PostgreSQL array literal: always quoted, so commas, braces and NULL are data. */
function arrayElement(value: number | string): string {
  return `"${String(value).replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/** Escapes LIKE wildcards for a pattern used with `ESCAPE '\'`. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
