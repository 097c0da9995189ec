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

/** The marker as a value SQLite's JSON functions write as `"\u0000"`. */
const SQLITE_FALLBACK = 'char(0)';

/** Digits, dashes and colons of the stored formats (GLOB: no regular expression per value). */
const DATE_GLOB = '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]';
const TIME_GLOB = '[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]';

/**
 * SQLite: values json_object writes as JavaScript does. Guards cost: a CASE inside a correlated
 * subquery is evaluated per value of every populated row, and guarding the three timestamps of
 * each row took a quarter of a populate=* statement (docs/benchmarks.md). So what capi's own
 * writes guarantee is trusted, and the rest is checked:
 *
 * - text columns hold text (TEXT affinity), integer columns the integers capi writes (32-bit
 *   domain, row ids): json_object writes both as JSON.stringify does;
 * - timestamps: every write binds a Date, stored as `toISOString()` text (dialect/sqlite.ts
 *   encodeTimestamp), which formatTimestamp returns unchanged;
 * - JSON columns: stored as JSON.stringify wrote them, which json() writes back unchanged; text
 *   that is not JSON makes json() fail, and a failed rendered read runs in JavaScript;
 * - numbers are checked (JavaScript and SQLite print doubles differently), and so are booleans
 *   (0/1; anything else falls back) and the day and time formats, which are rarer.
 */
const SQLITE_VALUES: Readonly<Record<Serialization, (expr: string) => string>> = {
  asIs: (x) => x,
  number: (x) => sqliteNumber(x),
  biginteger: (x) => `CAST(${x} AS TEXT)`,
  boolean: (x) => `CASE ${x} WHEN 1 THEN json('true') WHEN 0 THEN json('false') ELSE iif(${x} IS NULL, NULL, ${SQLITE_FALLBACK}) END`,
  date: (x) => `CASE WHEN ${x} GLOB '${DATE_GLOB}*' THEN substr(${x}, 1, 10) WHEN ${x} IS NULL THEN NULL ELSE ${SQLITE_FALLBACK} END`,
  time: (x) => `CASE WHEN ${x} GLOB '${TIME_GLOB}' THEN ${x} WHEN ${x} IS NULL THEN NULL ELSE ${SQLITE_FALLBACK} END`,
  datetime: (x) => x,
  json: (x) => `jsonb(${x})`,
};

/**
 * A double as JavaScript writes it: integral values below 2^53 as integers; others as
 * json_object writes them (15 significant digits) where that reads back as the same double and
 * both write plain digits (JavaScript's shortest round trip then has the same digits); the rest
 * (exponent forms, 16-17 digits) falls back.
 */
function sqliteNumber(x: string): string {
  return `CASE WHEN ${x} = CAST(${x} AS INTEGER) AND abs(${x}) < 9007199254740992 THEN CAST(${x} AS INTEGER) WHEN abs(${x}) >= 1e-4 AND abs(${x}) < 1e15 AND CAST(CAST(${x} AS TEXT) AS REAL) = ${x} THEN ${x} WHEN ${x} IS NULL THEN NULL ELSE ${SQLITE_FALLBACK} END`;
}

/** A SQL string literal. */
function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * SQLite nests JSONB (the binary form its JSON functions take as a value as it is) and writes text
 * once, at the root: passing text up through each subquery would parse every level again, about a
 * tenth of a populate=* statement (docs/benchmarks.md).
 */
export const sqliteJsonText: JsonTextSupport = {
  values: SQLITE_VALUES,
  object: (entries, outer) =>
    joinFragments(
      [
        fragment(outer ? 'json_object(' : 'jsonb_object('),
        joinFragments(
          entries.map(([key, value]) => joinFragments([fragment(`${literal(key)}, `), value], '')),
          ', ',
        ),
        fragment(')'),
      ],
      '',
    ),
  // A JSONB blob stays JSONB through a subquery; no row is NULL, which the objects write as `null`.
  nested: (subquery) => subquery,
  aggregate: (item, order) => joinFragments([fragment('jsonb_group_array('), item, fragment(' ORDER BY '), order, fragment(')')], ''),
  string: literal,
  emptyArray: 'jsonb_array()',
  count: (subquery) => subquery,
};

const FALLBACK_SQL = `'${RENDER_FALLBACK}'`;

/** An ISO-8601 UTC timestamp with milliseconds, as toISOString writes it (years 1-9999). */
function pgTimestamp(x: string): string {
  return `to_char(${x} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

const POSTGRES_VALUES: Readonly<Record<Serialization, (expr: string) => string>> = {
  asIs: (x) => `COALESCE(to_json(${x})::text, 'null')`,
  number: (x) => `CASE WHEN ${x} IS NULL THEN 'null' WHEN ${x} = 0 THEN '0' WHEN abs(${x}) < 1e-4 OR abs(${x}) >= 1e15 THEN ${FALLBACK_SQL} ELSE (${x})::float8::text END`,
  biginteger: (x) => `COALESCE(to_json((${x})::text)::text, 'null')`,
  boolean: (x) => `COALESCE(to_json(${x})::text, 'null')`,
  date: (x) => `COALESCE('"' || to_char(${x}, 'YYYY-MM-DD') || '"', 'null')`,
  time: (x) => `COALESCE('"' || to_char(${x}, 'HH24:MI:SS.MS') || '"', 'null')`,
  datetime: (x) => `CASE WHEN ${x} IS NULL THEN 'null' WHEN ${x} < '0001-01-01T00:00:00Z' OR ${x} >= '10000-01-01T00:00:00Z' THEN ${FALLBACK_SQL} ELSE '"' || ${pgTimestamp(x)} || '"' END`,
  json: () => FALLBACK_SQL,
};

/**
 * PostgreSQL: JSON text by concatenation. Keys are written into the SQL text; `'` is doubled and
 * JSON.stringify escapes the rest.
 */
export const postgresJsonText: JsonTextSupport = {
  values: POSTGRES_VALUES,
  object(entries) {
    const parts: Fragment[] = [];
    entries.forEach(([key, value], i) => parts.push(fragment(literal(`${i === 0 ? '{' : ','}${JSON.stringify(key)}:`)), value));
    parts.push(fragment(literal(entries.length === 0 ? '{}' : '}')));
    return joinFragments(parts, ' || ');
  },
  nested: (subquery) => joinFragments([fragment('COALESCE('), subquery, fragment(`, 'null')`)], ''),
  aggregate: (item, order) => joinFragments([fragment(`COALESCE('[' || string_agg(`), item, fragment(`, ',' ORDER BY `), order, fragment(`) || ']', '[]')`)], ''),
  string: (value) => literal(JSON.stringify(value)),
  emptyArray: `'[]'`,
  count: (subquery) => joinFragments([fragment('('), subquery, fragment(')::text')], ''),
};
