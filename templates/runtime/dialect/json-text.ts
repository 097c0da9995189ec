/**
 * JSON text written by SQL (Dialect.json.text): how each database prints a column of each
 * serialization of the contract exactly as JSON.stringify prints the value the per-row path
 * decodes (engine/values.ts). Where a database prints a value differently from JavaScript and SQL
 * cannot cheaply tell (floats JavaScript writes in exponent form, integers past 2^53, text that is
 * not in the stored format), the expression yields RENDER_FALLBACK instead: a body that holds it is
 * thrown away and the read runs through the per-row path, which is always exact.
 */
import type { Serialization } from '../../contract/scalar-types.ts';
import { fragment, joinFragments, type Fragment } from '../engine/sql.ts';
import type { JsonTextSupport } from './types.ts';

/**
 * The JSON string of a NUL character. No stored text holds a NUL (column-domains.ts refuses it
 * on every input; PostgreSQL cannot store one), so a rendered body containing `\u0000` can only
 * carry this marker, or in the worst case data that then reads through JavaScript, still exact.
 */
export const RENDER_FALLBACK = '"\\u0000"';

/** Whether a body rendered in SQL holds the fallback marker and must be read in JavaScript. */
export function needsFallback(body: string): boolean {
  return body.includes('\\u0000');
}

const FALLBACK_SQL = `'${RENDER_FALLBACK}'`;

/** `'[' || group_concat(...) || ']'`, `[]` for no rows. */
function textAggregate(concat: string) {
  return (item: Fragment, order: Fragment): Fragment =>
    joinFragments([fragment(`COALESCE('[' || ${concat}(`), item, fragment(`, ',' ORDER BY `), order, fragment(`) || ']', '[]')`)], '');
}

/** A SQL string literal holding `json` (JSON text has no quote that SQL would need doubled, but keys may). */
function literal(json: string): string {
  return `'${json.replaceAll("'", "''")}'`;
}

const SQLITE_VALUES: Readonly<Record<Serialization, (expr: string) => string>> = {
  asIs: (x) => `CASE typeof(${x}) WHEN 'real' THEN ${sqliteNumber(x)} WHEN 'integer' THEN ${sqliteInteger(x)} ELSE json_quote(${x}) END`,
  number: (x) => `CASE typeof(${x}) WHEN 'real' THEN ${sqliteNumber(x)} WHEN 'integer' THEN ${sqliteInteger(x)} WHEN 'null' THEN 'null' ELSE ${FALLBACK_SQL} END`,
  biginteger: (x) => `CASE WHEN ${x} IS NULL THEN 'null' ELSE json_quote(CAST(${x} AS TEXT)) END`,
  boolean: (x) => `CASE WHEN ${x} IS NULL THEN 'null' WHEN typeof(${x}) <> 'integer' THEN ${FALLBACK_SQL} WHEN ${x} <> 0 THEN 'true' ELSE 'false' END`,
  date: (x) =>
    `CASE WHEN ${x} IS NULL THEN 'null' WHEN typeof(${x}) = 'text' AND ${x} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN json_quote(substr(${x}, 1, 10)) ELSE ${FALLBACK_SQL} END`,
  time: (x) =>
    `CASE WHEN ${x} IS NULL THEN 'null' WHEN typeof(${x}) = 'text' AND length(${x}) = 12 AND ${x} GLOB '[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]' THEN json_quote(${x}) ELSE ${FALLBACK_SQL} END`,
  datetime: (x) =>
    `CASE WHEN ${x} IS NULL THEN 'null' WHEN typeof(${x}) = 'text' AND length(${x}) = 24 AND ${x} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z' THEN json_quote(${x}) ELSE ${FALLBACK_SQL} END`,
  // Stored by JSON.stringify: printed again only when json() leaves it unchanged (minified, valid).
  json: (x) => `CASE WHEN ${x} IS NULL THEN 'null' WHEN json_valid(${x}) AND json(${x}) = ${x} THEN ${x} ELSE ${FALLBACK_SQL} END`,
};

/** An integer JavaScript holds exactly. */
function sqliteInteger(x: string): string {
  return `CASE WHEN ${x} BETWEEN -9007199254740991 AND 9007199254740991 THEN CAST(${x} AS TEXT) ELSE ${FALLBACK_SQL} END`;
}

/**
 * A double as JavaScript prints it, in the range where both print plain digits: integral values
 * as integers, others with the fewest of 15/16/17 significant digits that read back the same
 * (what JavaScript's shortest round trip chooses).
 */
function sqliteNumber(x: string): string {
  const digits = (n: number) => `printf('%.${n}g', ${x})`;
  return `CASE WHEN ${x} = 0 THEN '0' WHEN abs(${x}) < 1e-4 OR abs(${x}) >= 1e15 THEN ${FALLBACK_SQL} WHEN ${x} = CAST(${x} AS INTEGER) THEN CAST(CAST(${x} AS INTEGER) AS TEXT) WHEN CAST(${digits(15)} AS REAL) = ${x} THEN ${digits(15)} WHEN CAST(${digits(16)} AS REAL) = ${x} THEN ${digits(16)} ELSE ${digits(17)} END`;
}

export const sqliteJsonText: JsonTextSupport = {
  values: SQLITE_VALUES,
  aggregate: textAggregate('group_concat'),
  literal,
};

/** An ISO-8601 UTC timestamp with milliseconds, as toISOString writes it (years 1-9999). */
function pgTimestamp(x: string): string {
  return `to_char(${x} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

const POSTGRES_VALUES: Readonly<Record<Serialization, (expr: string) => string>> = {
  asIs: (x) => `COALESCE(to_json(${x})::text, 'null')`,
  number: (x) =>
    `CASE WHEN ${x} IS NULL THEN 'null' WHEN ${x} = 0 THEN '0' WHEN abs(${x}) < 1e-4 OR abs(${x}) >= 1e15 THEN ${FALLBACK_SQL} ELSE (${x})::float8::text END`,
  biginteger: (x) => `COALESCE(to_json((${x})::text)::text, 'null')`,
  boolean: (x) => `COALESCE(to_json(${x})::text, 'null')`,
  date: (x) => `COALESCE('"' || to_char(${x}, 'YYYY-MM-DD') || '"', 'null')`,
  time: (x) => `COALESCE('"' || to_char(${x}, 'HH24:MI:SS.MS') || '"', 'null')`,
  datetime: (x) =>
    `CASE WHEN ${x} IS NULL THEN 'null' WHEN ${x} < '0001-01-01T00:00:00Z' OR ${x} >= '10000-01-01T00:00:00Z' THEN ${FALLBACK_SQL} ELSE '"' || ${pgTimestamp(x)} || '"' END`,
  json: () => FALLBACK_SQL,
};

export const postgresJsonText: JsonTextSupport = {
  values: POSTGRES_VALUES,
  aggregate: textAggregate('string_agg'),
  literal,
};
