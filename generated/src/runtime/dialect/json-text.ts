/**
 * JSON text written by SQL (Dialect.json.text): how each database prints a column of each
 * serialization of the contract exactly as JSON.stringify prints the value the per-row path
 * decodes (engine/values.ts). Where a database prints a value differently from JavaScript and SQL
 * cannot cheaply tell (floats JavaScript writes in exponent form, integers past 2^53, text that is
 * not in the stored format), the expression yields RENDER_FALLBACK instead: a body that holds it is
 * thrown away and the read runs through the per-row path, which is always exact.
 */
import type { Serialization } from '../../contract/scalar-types.ts';
import { aggregateOrderBy, fragment, joinFragments, type Fragment } from '../engine/sql.ts';
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

/** Thrown while rendering what the database cannot write as JSON text; the caller reads rows instead. */
export class NotRendered extends Error {}

/** The largest integer a double holds exactly (Number.MAX_SAFE_INTEGER). */
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

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
  // Comparisons, not abs(): abs() of -2^63 fails the statement.
  const plain = `((${x} >= 1e-4 AND ${x} < 1e15) OR (${x} <= -1e-4 AND ${x} > -1e15))`;
  return `CASE WHEN ${x} = CAST(${x} AS INTEGER) AND ${x} BETWEEN ${-MAX_SAFE} AND ${MAX_SAFE} THEN CAST(${x} AS INTEGER) WHEN ${plain} AND CAST(CAST(${x} AS TEXT) AS REAL) = ${x} THEN ${x} WHEN ${x} IS NULL THEN NULL ELSE ${SQLITE_FALLBACK} END`;
}

/** A SQL string literal. */
export function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * SQLite nests JSONB (the binary form its JSON functions take as a value as it is) and writes text
 * once, at the root: passing text up through each subquery would parse every level again, about a
 * tenth of a populate=* statement (docs/benchmarks.md).
 */
export const sqliteJsonText: JsonTextSupport = {
  populated: true,
  values: SQLITE_VALUES,
  object: (entries, outer) =>
    joinFragments(
      [
        fragment(outer ? 'json_object(' : 'jsonb_object('),
        joinFragments(
          entries.map(([key, value]) => joinFragments([fragment(`${sqlString(key)}, `), value], '')),
          ', ',
        ),
        fragment(')'),
      ],
      '',
    ),
  // A JSONB blob stays JSONB through a subquery; no row is NULL, which the objects write as `null`.
  nested: (subquery) => subquery,
  aggregate: (item, order) => joinFragments([fragment('jsonb_group_array('), item, aggregateOrderBy(order), fragment(')')], ''),
  // Texts joined as they are: json_group_array would parse each one again.
  textArray: (item, order) => joinFragments([fragment(`COALESCE('[' || group_concat(`), item, fragment(`, ','`), aggregateOrderBy(order), fragment(`) || ']', '[]')`)], ''),
  string: sqlString,
  emptyArray: 'jsonb_array()',
  count: (subquery) => subquery,
  null: 'NULL',
  fallback: SQLITE_FALLBACK,
  safeInteger: (x) => `CASE WHEN ${x} IS NULL THEN NULL WHEN typeof(${x}) = 'integer' AND ${x} BETWEEN ${-MAX_SAFE} AND ${MAX_SAFE} THEN ${x} ELSE ${SQLITE_FALLBACK} END`,
};

const FALLBACK_SQL = `'${RENDER_FALLBACK}'`;

/** ISO-8601 UTC with milliseconds, as toISOString writes it. */
function pgTimestamp(x: string): string {
  return `to_char(${x} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/**
 * The driver hands DATE, TIME, TIMESTAMPTZ, BIGINT and NUMERIC over as the text PostgreSQL
 * prints (database-postgres.ts), which depends on the session's DateStyle and TimeZone; the
 * expressions follow what the decoders make of that text.
 */
const POSTGRES_VALUES: Readonly<Record<Serialization, (expr: string) => string>> = {
  // Text and integers: to_json escapes exactly the characters JSON.stringify does, alike.
  asIs: (x) => `COALESCE(to_json(${x})::text, 'null')`,
  // NUMERIC text read with Number(), a double as is: float8's shortest text (extra_float_digits
  // above 0, the default; else it is rounded) is JavaScript's in the range where both write plain
  // digits ([1e-4, 1e15) for PostgreSQL); NaN and infinities (null in JSON) fall back too.
  number: (x) =>
    `CASE WHEN ${x} IS NULL THEN 'null' WHEN ${x} = 0 THEN '0' WHEN abs(${x}) >= 1e-4 AND abs(${x}) < 1e15 AND (SELECT current_setting('extra_float_digits')::integer > 0) ` +
    `THEN (${x})::float8::text ELSE ${FALLBACK_SQL} END`,
  biginteger: (x) => `CASE WHEN ${x} IS NULL THEN 'null' ELSE '"' || (${x})::text || '"' END`,
  boolean: (x) => `CASE WHEN ${x} IS NULL THEN 'null' WHEN ${x} THEN 'true' ELSE 'false' END`,
  // formatDate of the date's text: cut to `YYYY-MM-DD` where it starts so ('0001-01-01 BC'),
  // else as is ('infinity', other DateStyles).
  date: (x) =>
    `CASE WHEN ${x} IS NULL THEN 'null' WHEN translate(left((${x})::text, 10), '123456789', '000000000') = '0000-00-00' THEN '"' || left((${x})::text, 10) || '"' ELSE to_json((${x})::text)::text END`,
  // TIME(3) prints `HH:MM:SS[.fff]` (up to 24:00:00); formatTime pads the fraction to 3 digits.
  time: (x) => `CASE WHEN ${x} IS NULL THEN 'null' ELSE '"' || to_char(${x}, 'HH24:MI:SS.MS') || '"' END`,
  // formatTimestamp reads the ISO DateStyle's text in any zone whose offset has no seconds (local
  // mean time before ~1900 has): the instant in UTC. Years 1-9999 in every zone, BC and infinity
  // do not read so (a day of margin on each side falls back too).
  datetime: (x) =>
    `CASE WHEN ${x} IS NULL THEN 'null' WHEN NOT (SELECT current_setting('DateStyle') LIKE 'ISO%') THEN ${FALLBACK_SQL} ` +
    `WHEN CASE WHEN (SELECT current_setting('TimeZone') IN ('UTC', 'Etc/UTC')) THEN ${x} >= '0001-01-01T00:00:00Z' AND ${x} < '10000-01-01T00:00:00Z' ` +
    `ELSE ${x} >= '0001-01-02T00:00:00Z' AND ${x} < '9999-12-31T00:00:00Z' AND date_part('timezone', ${x})::integer % 60 = 0 END ` +
    `THEN '"' || ${pgTimestamp(x)} || '"' ELSE ${FALLBACK_SQL} END`,
  json: postgresJson,
};

/**
 * jsonb's text with the escapes `\\` and `\"` replaced by control characters (which jsonb's text
 * never holds raw), so that every `"` left delimits a string: an anchored regular expression then
 * tells text inside strings from text outside them (`^[^"]*("[^"]*"[^"]*)*` ends outside). No
 * pattern holds a `?`, which statement text reserves for parameters (engine/sql.ts).
 */
const PG_OUTSIDE_STRINGS = '^[^"]*("[^"]*"[^"]*)*';

/**
 * Outside strings: number tokens JavaScript may print differently (16 or more digits, past what
 * every double reads back as written; a fraction ending in 0, as NUMERIC keeps the scale written:
 * `1.50`; below 1e-6, which JavaScript writes `1e-7`) and keys of digits (JavaScript lists
 * integer-like keys first, jsonb sorts keys by length).
 */
const PG_UNLIKE_JS = '[0-9](\\.{0,1}[0-9]){15}|\\.[0-9]*0([],}]|$)|0\\.0{6}|"[0-9]+": ';
const PG_JSON_UNLIKE_JS = `'${PG_OUTSIDE_STRINGS}(${PG_UNLIKE_JS})'`;

/** The same, or a string holding `, ` or `: `, which only the slow path keeps apart from jsonb's separators. */
const PG_JSON_NOT_PLAIN = `'${PG_OUTSIDE_STRINGS}(${PG_UNLIKE_JS}|"[^"]*(, |: ))'`;

/**
 * jsonb as JSON.parse of its text and JSON.stringify make it: jsonb has parsed the value already
 * (keys unique and sorted, strings escaped as JSON.stringify escapes them), so its text differs
 * from JavaScript's only by the space after each `,` and `:` and by numbers, which fall back where
 * their digits may differ (PG_JSON_UNLIKE_JS). The spaces are removed with replace() when no
 * string holds `, ` or `: ` (media formats, most JSON), else in the pieces of the text between
 * strings (slower: prose in blocks). `OFFSET 0` keeps PostgreSQL from pulling the
 * subqueries up, which would compute jsonb's text once per mention.
 */
function postgresJson(x: string): string {
  const unescaped = `replace(replace(t, '\\\\', chr(1)), '\\"', chr(2))`;
  // Split at the delimiting quotes, the pieces outside strings (odd places) lose their spaces.
  const pieces = `ARRAY(SELECT CASE WHEN n % 2 = 1 THEN replace(replace(piece, ', ', ','), ': ', ':') ELSE piece END FROM unnest(string_to_array(u, '"')) WITH ORDINALITY AS p(piece, n) ORDER BY n)`;
  const spaced = `replace(replace(array_to_string(${pieces}, '"'), chr(2), '\\"'), chr(1), '\\\\')`;
  return (
    `CASE WHEN ${x} IS NULL THEN 'null' ELSE (SELECT CASE WHEN u !~ ${PG_JSON_NOT_PLAIN} THEN replace(replace(t, ', ', ','), ': ', ':') ` +
    `WHEN u ~ ${PG_JSON_UNLIKE_JS} THEN ${FALLBACK_SQL} ELSE ${spaced} END ` +
    `FROM (SELECT t, ${unescaped} AS u FROM (SELECT (${x})::text AS t OFFSET 0) AS jsonb_text OFFSET 0) AS unescaped) END`
  );
}

/** PostgreSQL's most arguments to one function call. */
const PG_MAX_ARGUMENTS = 100;

/**
 * `concat(a, b, ...)`: one allocation for the whole text, where `a || b || ...` copies the growing
 * text once per operator. No part is NULL (every value writes `null`).
 */
function concatText(parts: readonly Fragment[]): Fragment {
  if (parts.length <= PG_MAX_ARGUMENTS) return joinFragments([fragment('concat('), joinFragments(parts, ', '), fragment(')')], '');
  const chunks: Fragment[] = [];
  for (let i = 0; i < parts.length; i += PG_MAX_ARGUMENTS) chunks.push(concatText(parts.slice(i, i + PG_MAX_ARGUMENTS)));
  return concatText(chunks);
}

/** JSON texts joined into an array text in `order`; `[]` for none. */
function stringAgg(item: Fragment, order: Fragment | undefined): Fragment {
  return joinFragments([fragment(`COALESCE('[' || string_agg(`), item, fragment(`, ','`), aggregateOrderBy(order), fragment(`) || ']', '[]')`)], '');
}

/**
 * PostgreSQL: JSON text by concatenation. Keys are written into the SQL text; `'` is doubled and
 * JSON.stringify escapes the rest.
 */
export const postgresJsonText: JsonTextSupport = {
  populated: false,
  values: POSTGRES_VALUES,
  object(entries) {
    if (entries.length === 0) return fragment(`'{}'`);
    const parts: Fragment[] = [];
    entries.forEach(([key, value], i) => parts.push(fragment(sqlString(`${i === 0 ? '{' : ','}${JSON.stringify(key)}:`)), value));
    parts.push(fragment(`'}'`));
    return concatText(parts);
  },
  nested: (subquery) => joinFragments([fragment('COALESCE('), subquery, fragment(`, 'null')`)], ''),
  aggregate: (item, order) => stringAgg(item, order),
  textArray: (item, order) => stringAgg(item, order),
  string: (value) => sqlString(JSON.stringify(value)),
  emptyArray: `'[]'`,
  count: (subquery) => joinFragments([fragment('('), subquery, fragment(')::text')], ''),
  null: `'null'`,
  fallback: FALLBACK_SQL,
  safeInteger: (x) => `CASE WHEN ${x} IS NULL THEN 'null' WHEN ${x} BETWEEN ${-MAX_SAFE} AND ${MAX_SAFE} THEN (${x})::text ELSE ${FALLBACK_SQL} END`,
};
