/**
 * Every filter operator, in one table: its REST and GraphQL names, what its value is, which
 * attribute types it applies to, its SQL on each database, and its truth on a row of NULLs and
 * in memory. The REST parser, the GraphQL filter inputs, the SQL compiler, the in-memory matcher
 * and the OpenAPI description all read it, so an operator is added in one place (and a missing
 * database's SQL is a compile error). Steps: docs/architecture.md, "Adding an operator".
 *
 * The SQL text of SQLite and PostgreSQL is the engine's since the first release: case-sensitive
 * text operators use instr/substr on SQLite (its LIKE ignores case) and LIKE on PostgreSQL; the
 * `*i` forms and `eqi`/`nei` compare LOWER() of both sides; `ne`, `notIn`, `notContains` never
 * match NULL (SQL's three-valued logic, as Strapi); `eq null`/`ne null` are IS [NOT] NULL.
 * MySQL/MariaDB compare text through a binary cast where the others compare byte-wise (their
 * default collations ignore case and trailing spaces), and rely on LIKE's default escape
 * character, the backslash (so the session must not set NO_BACKSLASH_ESCAPES).
 */
import type { DatabaseKind } from './database.ts';
import { SCALAR_TYPE_NAMES, type ScalarType } from './scalar-types.ts';

/** A filter value coerced to its attribute's type (string for biginteger, ISO strings for dates). */
export type FilterScalar = string | number | boolean | null;
export type FilterValue = FilterScalar | readonly FilterScalar[];

/** A value bound to a SQL parameter: timestamps as Dates, which each database's driver binds in its stored form. */
export type SqlParam = string | number | boolean | null | Date;

/**
 * What an operator's value is:
 * - `unary`: a flag (`$null: true`);
 * - `binary`: one value; a list means "any of them" (Strapi's reading of `$eq: [a, b]`);
 * - `list`: a list of values (`$in`);
 * - `pair`: exactly two values (`$between`).
 */
export type Arity = 'unary' | 'binary' | 'list' | 'pair';

/** SQL's three truth values: true, false and unknown (null). */
export type Truth = boolean | null;

/** Where a LIKE pattern matches the needle. */
export type LikePosition = 'contains' | 'start' | 'end';

/** How the engine builds SQL, handed to the operators so that the contract stays free of it. */
export interface SqlKit<F> {
  /** A fragment of SQL with `?` placeholders and their values. */
  readonly sql: (text: string, params?: readonly SqlParam[]) => F;
  readonly not: (part: F) => F;
  /** The fragments that are always true and always false. */
  readonly always: F;
  readonly never: F;
}

/** One condition to render: the column's expressions (engine/values.ts) and the value. */
export interface SqlOperand<F> {
  readonly kit: SqlKit<F>;
  /** The column as compared. */
  readonly expr: string;
  /** The column as ordered: text byte-wise on every database. */
  readonly ordered: string;
  /** The column as text, for the text operators on any type. */
  readonly text: string;
  /** The placeholder of one value of the column's type (a cast for bigintegers). */
  readonly placeholder: string;
  /** A value as bound, in the column's stored format. */
  readonly bind: (value: FilterScalar) => SqlParam;
  /** Unary and binary operators: the value. */
  readonly value: FilterScalar;
  /** List and pair operators: the values. */
  readonly items: readonly FilterScalar[];
  /** `expr IN (ids)` bound as one parameter, when the column holds ids and every item is one. */
  readonly idMembership: () => F | undefined;
  /** A LIKE pattern of the needle, its wildcards escaped with a backslash. */
  readonly likePattern: (position: LikePosition, needle: string) => string;
}

export type RenderSql = <F>(operand: SqlOperand<F>) => F;

/** One condition evaluated in memory: a row's value (null when missing) and the filter's. */
export interface MemoryOperand {
  readonly actual: unknown;
  readonly value: FilterScalar;
  readonly items: readonly FilterScalar[];
  /** Orders two non-null values of the attribute's type. */
  readonly compare: (a: unknown, b: unknown) => number;
  /** A value as the engine compares it as text. */
  readonly text: (value: unknown) => string;
}

export interface OperatorSpec {
  readonly rest: `$${string}`;
  /** The field of Strapi's `<Scalar>FilterInput`, or null when Strapi's GraphQL has none. */
  readonly graphql: string | null;
  readonly arity: Arity;
  /** `attribute`: values are coerced to the attribute's type; `text`: kept as text whatever the type. */
  readonly valueType: 'attribute' | 'text';
  /** The attribute types the operator filters. */
  readonly appliesTo: readonly ScalarType[];
  readonly sql: Readonly<Record<DatabaseKind, RenderSql>>;
  /** The condition on a NULL column: whether Strapi's LEFT JOIN row of NULLs matches (engine/missing-row.ts). */
  readonly onNull: (value: FilterScalar, items: readonly FilterScalar[]) => Truth;
  /** The condition on a row in memory, with SQL's three-valued logic (graphql/selection-match.ts). */
  readonly evaluate: (operand: MemoryOperand) => Truth;
}

const ALL_TYPES: readonly ScalarType[] = SCALAR_TYPE_NAMES;

/** Read as true by `$null`/`$notNull`, as the engine always has. */
export function truthy(value: FilterScalar): boolean {
  return value === true || value === 'true' || value === 1 || value === '1';
}

// --- SQL -----------------------------------------------------------------------------------------

/** `= ?` / `<> ?`, where a null value is IS NULL / IS NOT NULL. `side` is the expression compared. */
function equality(symbol: '=' | '<>', side: 'expr' | 'ordered'): RenderSql {
  const nullTest = symbol === '=' ? 'IS NULL' : 'IS NOT NULL';
  return (o) => (o.value === null ? o.kit.sql(`${o.expr} ${nullTest}`) : o.kit.sql(`${o[side]} ${symbol} ${o.placeholder}`, [o.bind(o.value)]));
}

/**
 * MySQL's `=` / `IN` on text: `expr = ? AND CAST(expr AS BINARY) = ?`. The binary cast alone is
 * exact but hides the column from its index; the collation's own comparison (utf8mb4_bin, which
 * ignores trailing spaces only) finds a superset through the index, and the cast keeps the
 * answer exact. Types that do not compare as text have `ordered === expr` and keep one test.
 */
function indexedEquality(): RenderSql {
  const exact = equality('=', 'ordered');
  return (o) => (o.value === null || o.ordered === o.expr ? exact(o) : o.kit.sql(`(${o.expr} = ${o.placeholder} AND ${o.ordered} = ${o.placeholder})`, [o.bind(o.value), o.bind(o.value)]));
}

/** `IN` as indexedEquality: the column's own test for the index, the binary cast for exactness. */
function indexedMembership(): RenderSql {
  const exact = membership(false, 'ordered');
  return (o) => {
    if (o.ordered === o.expr || o.items.length === 0) return exact(o);
    const ids = o.idMembership();
    if (ids !== undefined) return ids;
    const list = o.items.map(() => o.placeholder).join(', ');
    const params = o.items.map(o.bind);
    return o.kit.sql(`(${o.expr} IN (${list}) AND ${o.ordered} IN (${list}))`, [...params, ...params]);
  };
}

/**
 * `LOWER(text) = LOWER(?)`. MySQL compares the lowered text as bytes: its default collations
 * would also ignore trailing spaces.
 */
function equalityIgnoringCase(symbol: '=' | '<>', binary = false): RenderSql {
  const nullTest = symbol === '=' ? 'IS NULL' : 'IS NOT NULL';
  return (o) => {
    if (o.value === null) return o.kit.sql(`${o.expr} ${nullTest}`);
    const lowered = binary ? `CAST(LOWER(${o.text}) AS BINARY)` : `LOWER(${o.text})`;
    return o.kit.sql(`${lowered} ${symbol} LOWER(?)`, [String(o.value)]);
  };
}

/** `<`, `<=`, `>`, `>=` on the ordered expression (text byte-wise everywhere). */
function ordering(symbol: '<' | '<=' | '>' | '>='): RenderSql {
  return (o) => o.kit.sql(`${o.ordered} ${symbol} ${o.placeholder}`, [o.bind(o.value)]);
}

/** IN / NOT IN; id lists travel as one parameter (no placeholder limit, whatever their length). */
function membership(negated: boolean, side: 'expr' | 'ordered'): RenderSql {
  return (o) => {
    if (o.items.length === 0) return negated ? o.kit.always : o.kit.never;
    const ids = o.idMembership();
    if (ids !== undefined) return negated ? o.kit.not(ids) : ids;
    const list = o.items.map(() => o.placeholder).join(', ');
    return o.kit.sql(`${o[side]} ${negated ? 'NOT IN' : 'IN'} (${list})`, o.items.map(o.bind));
  };
}

const between: RenderSql = (o) => {
  const [low = null, high = null] = o.items;
  return o.kit.sql(`${o.ordered} BETWEEN ${o.placeholder} AND ${o.placeholder}`, [o.bind(low), o.bind(high)]);
};

/** `$null: true` is IS NULL; `$null: false` IS NOT NULL; `$notNull` the other way round. */
function nullness(isNull: boolean): RenderSql {
  return (o) => o.kit.sql(`${o.expr} IS ${truthy(o.value) === isNull ? '' : 'NOT '}NULL`);
}

/**
 * The LIKE patterns escape their wildcards with a backslash, said explicitly on every database:
 * MySQL sessions run with NO_BACKSLASH_ESCAPES (so `'\\'` is one backslash), and in that mode its
 * LIKE has no default escape character.
 */
const ESCAPE = " ESCAPE '\\'";

/** Case-insensitive text operators: the same SQL on every database. */
type CaseSensitiveText = (text: string, position: LikePosition, needle: string) => { readonly sql: string; readonly params: readonly SqlParam[] };

/** SQLite's LIKE ignores case: positions by instr/substr instead. */
const SQLITE_TEXT: CaseSensitiveText = (text, position, needle) => {
  if (position === 'contains') return { sql: `instr(${text}, ?) > 0`, params: [needle] };
  if (position === 'start') return { sql: `substr(${text}, 1, length(?)) = ?`, params: [needle, needle] };
  return { sql: `substr(${text}, -length(?)) = ?`, params: [needle, needle] };
};

/**
 * A case-sensitive text match. A null needle is IS NULL; the empty needle matches every non-NULL
 * value (as LIKE '%%' does), on every database.
 */
function caseSensitive(position: LikePosition, negated: boolean, render: (o: SqlOperand<unknown>, needle: string) => { readonly sql: string; readonly params: readonly SqlParam[] }): RenderSql {
  return <F>(o: SqlOperand<F>): F => {
    const positive = ((): F => {
      if (o.value === null) return o.kit.sql(`${o.text} IS NULL`);
      const needle = String(o.value);
      if (needle === '') return o.kit.sql(`${o.text} IS NOT NULL`);
      const { sql, params } = render(o as SqlOperand<unknown>, needle);
      return o.kit.sql(sql, params);
    })();
    return negated ? o.kit.not(positive) : positive;
  };
}

const sqliteText = (position: LikePosition, negated = false): RenderSql => caseSensitive(position, negated, (o, needle) => SQLITE_TEXT(o.text, position, needle));
const postgresText = (position: LikePosition, negated = false): RenderSql =>
  caseSensitive(position, negated, (o, needle) => ({ sql: `${o.text} LIKE ? ESCAPE '\\'`, params: [o.likePattern(position, needle)] }));
const mysqlText = (position: LikePosition, negated = false): RenderSql =>
  caseSensitive(position, negated, (o, needle) => ({ sql: `CAST(${o.text} AS BINARY) LIKE ?${ESCAPE}`, params: [o.likePattern(position, needle)] }));

/** `LOWER(text) LIKE LOWER(?)`; a null needle is IS NULL. */
function caseInsensitive(position: LikePosition, negated: boolean, escape: string): RenderSql {
  return (o) => {
    const positive = o.value === null ? o.kit.sql(`${o.text} IS NULL`) : o.kit.sql(`LOWER(${o.text}) LIKE LOWER(?)${escape}`, [o.likePattern(position, String(o.value))]);
    return negated ? o.kit.not(positive) : positive;
  };
}

function textIgnoringCase(position: LikePosition, negated = false): OperatorSpec['sql'] {
  return {
    sqlite: caseInsensitive(position, negated, ESCAPE),
    postgres: caseInsensitive(position, negated, ESCAPE),
    mysql: caseInsensitive(position, negated, ESCAPE),
  };
}

function textWithCase(position: LikePosition, negated = false): OperatorSpec['sql'] {
  return { sqlite: sqliteText(position, negated), postgres: postgresText(position, negated), mysql: mysqlText(position, negated) };
}

// --- Truth on NULL and in memory ----------------------------------------------------------------

/** `= value` on NULL: IS NULL when the value is null, unknown otherwise. */
const nullIfNullValue = (value: FilterScalar): Truth => (value === null ? true : null);
const notNullIfNullValue = (value: FilterScalar): Truth => (value === null ? false : null);
/** The case-sensitive text operators read an empty needle as IS NOT NULL. */
const caseSensitiveOnNull = (value: FilterScalar): Truth => (value === null ? true : value === '' ? false : null);
const unknownOnNull = (): Truth => null;

function equalsInMemory(negated: boolean, ignoreCase: boolean): OperatorSpec['evaluate'] {
  return ({ actual, value, compare, text }) => {
    if (value === null) return negated ? actual !== null : actual === null;
    if (actual === null) return null;
    const equal = ignoreCase ? text(actual).toLowerCase() === String(value).toLowerCase() : compare(actual, value) === 0;
    return negated ? !equal : equal;
  };
}

function orderInMemory(holds: (order: number) => boolean): OperatorSpec['evaluate'] {
  return ({ actual, value, compare }) => (actual === null || value === null ? null : holds(compare(actual, value)));
}

function membershipInMemory(negated: boolean): OperatorSpec['evaluate'] {
  return ({ actual, items, compare }) => {
    if (items.length === 0) return negated;
    if (actual === null) return null;
    if (items.some((item) => item !== null && compare(actual, item) === 0)) return !negated;
    // SQL: `x IN (1, NULL)` is unknown when x is not 1.
    if (items.includes(null)) return null;
    return negated;
  };
}

function textInMemory(position: LikePosition, negated: boolean, ignoreCase: boolean): OperatorSpec['evaluate'] {
  return ({ actual, value, text }) => {
    // The engine reads a null needle as a nullness test, and the case-sensitive forms read the
    // empty needle as IS NOT NULL (so `notContains: ''` holds on NULL).
    if (value === null) return negated ? actual !== null : actual === null;
    if (!ignoreCase && value === '') return negated ? actual === null : actual !== null;
    if (actual === null) return null;
    const haystack = ignoreCase ? text(actual).toLowerCase() : text(actual);
    const needle = ignoreCase ? String(value).toLowerCase() : String(value);
    const found = position === 'contains' ? haystack.includes(needle) : position === 'start' ? haystack.startsWith(needle) : haystack.endsWith(needle);
    return negated ? !found : found;
  };
}

// --- The table ----------------------------------------------------------------------------------

const EQ = equality('=', 'expr');
const NE = equality('<>', 'expr');
const EQI = equalityIgnoringCase('=');
const NEI = equalityIgnoringCase('<>');

/** Key order is Strapi's order of the fields of a GraphQL `<Scalar>FilterInput` (after and/or/not). */
export const OPERATORS = {
  eq: {
    rest: '$eq',
    graphql: 'eq',
    arity: 'binary',
    valueType: 'attribute',
    appliesTo: ALL_TYPES,
    sql: { sqlite: EQ, postgres: EQ, mysql: indexedEquality() },
    onNull: nullIfNullValue,
    evaluate: equalsInMemory(false, false),
  },
  eqi: {
    rest: '$eqi',
    graphql: 'eqi',
    arity: 'binary',
    valueType: 'text',
    appliesTo: ALL_TYPES,
    sql: { sqlite: EQI, postgres: EQI, mysql: equalityIgnoringCase('=', true) },
    onNull: nullIfNullValue,
    evaluate: equalsInMemory(false, true),
  },
  ne: {
    rest: '$ne',
    graphql: 'ne',
    arity: 'binary',
    valueType: 'attribute',
    appliesTo: ALL_TYPES,
    sql: { sqlite: NE, postgres: NE, mysql: equality('<>', 'ordered') },
    onNull: notNullIfNullValue,
    evaluate: equalsInMemory(true, false),
  },
  nei: {
    rest: '$nei',
    graphql: 'nei',
    arity: 'binary',
    valueType: 'text',
    appliesTo: ALL_TYPES,
    sql: { sqlite: NEI, postgres: NEI, mysql: equalityIgnoringCase('<>', true) },
    onNull: notNullIfNullValue,
    evaluate: equalsInMemory(true, true),
  },
  startsWith: {
    rest: '$startsWith',
    graphql: 'startsWith',
    arity: 'binary',
    valueType: 'text',
    appliesTo: ALL_TYPES,
    sql: textWithCase('start'),
    onNull: caseSensitiveOnNull,
    evaluate: textInMemory('start', false, false),
  },
  endsWith: {
    rest: '$endsWith',
    graphql: 'endsWith',
    arity: 'binary',
    valueType: 'text',
    appliesTo: ALL_TYPES,
    sql: textWithCase('end'),
    onNull: caseSensitiveOnNull,
    evaluate: textInMemory('end', false, false),
  },
  contains: {
    rest: '$contains',
    graphql: 'contains',
    arity: 'binary',
    valueType: 'text',
    appliesTo: ALL_TYPES,
    sql: textWithCase('contains'),
    onNull: caseSensitiveOnNull,
    evaluate: textInMemory('contains', false, false),
  },
  notContains: {
    rest: '$notContains',
    graphql: 'notContains',
    arity: 'binary',
    valueType: 'text',
    appliesTo: ALL_TYPES,
    sql: textWithCase('contains', true),
    onNull: (value) => (value === null ? false : value === '' ? true : null),
    evaluate: textInMemory('contains', true, false),
  },
  containsi: {
    rest: '$containsi',
    graphql: 'containsi',
    arity: 'binary',
    valueType: 'text',
    appliesTo: ALL_TYPES,
    sql: textIgnoringCase('contains'),
    onNull: nullIfNullValue,
    evaluate: textInMemory('contains', false, true),
  },
  notContainsi: {
    rest: '$notContainsi',
    graphql: 'notContainsi',
    arity: 'binary',
    valueType: 'text',
    appliesTo: ALL_TYPES,
    sql: textIgnoringCase('contains', true),
    onNull: notNullIfNullValue,
    evaluate: textInMemory('contains', true, true),
  },
  gt: {
    rest: '$gt',
    graphql: 'gt',
    arity: 'binary',
    valueType: 'attribute',
    appliesTo: ALL_TYPES,
    sql: { sqlite: ordering('>'), postgres: ordering('>'), mysql: ordering('>') },
    onNull: unknownOnNull,
    evaluate: orderInMemory((order) => order > 0),
  },
  gte: {
    rest: '$gte',
    graphql: 'gte',
    arity: 'binary',
    valueType: 'attribute',
    appliesTo: ALL_TYPES,
    sql: { sqlite: ordering('>='), postgres: ordering('>='), mysql: ordering('>=') },
    onNull: unknownOnNull,
    evaluate: orderInMemory((order) => order >= 0),
  },
  lt: {
    rest: '$lt',
    graphql: 'lt',
    arity: 'binary',
    valueType: 'attribute',
    appliesTo: ALL_TYPES,
    sql: { sqlite: ordering('<'), postgres: ordering('<'), mysql: ordering('<') },
    onNull: unknownOnNull,
    evaluate: orderInMemory((order) => order < 0),
  },
  lte: {
    rest: '$lte',
    graphql: 'lte',
    arity: 'binary',
    valueType: 'attribute',
    appliesTo: ALL_TYPES,
    sql: { sqlite: ordering('<='), postgres: ordering('<='), mysql: ordering('<=') },
    onNull: unknownOnNull,
    evaluate: orderInMemory((order) => order <= 0),
  },
  null: {
    rest: '$null',
    graphql: 'null',
    arity: 'unary',
    valueType: 'attribute',
    appliesTo: ALL_TYPES,
    sql: { sqlite: nullness(true), postgres: nullness(true), mysql: nullness(true) },
    onNull: (value) => value === true,
    evaluate: ({ actual, value }) => (actual === null) === truthy(value),
  },
  notNull: {
    rest: '$notNull',
    graphql: 'notNull',
    arity: 'unary',
    valueType: 'attribute',
    appliesTo: ALL_TYPES,
    sql: { sqlite: nullness(false), postgres: nullness(false), mysql: nullness(false) },
    onNull: (value) => value !== true,
    evaluate: ({ actual, value }) => (actual !== null) === truthy(value),
  },
  in: {
    rest: '$in',
    graphql: 'in',
    arity: 'list',
    valueType: 'attribute',
    appliesTo: ALL_TYPES,
    sql: { sqlite: membership(false, 'expr'), postgres: membership(false, 'expr'), mysql: indexedMembership() },
    onNull: (_value, items) => (items.length === 0 ? false : null),
    evaluate: membershipInMemory(false),
  },
  notIn: {
    rest: '$notIn',
    graphql: 'notIn',
    arity: 'list',
    valueType: 'attribute',
    appliesTo: ALL_TYPES,
    sql: { sqlite: membership(true, 'expr'), postgres: membership(true, 'expr'), mysql: membership(true, 'ordered') },
    onNull: (_value, items) => (items.length === 0 ? true : null),
    evaluate: membershipInMemory(true),
  },
  between: {
    rest: '$between',
    graphql: 'between',
    arity: 'pair',
    valueType: 'attribute',
    appliesTo: ALL_TYPES,
    sql: { sqlite: between, postgres: between, mysql: between },
    onNull: unknownOnNull,
    evaluate: ({ actual, items, compare }) => {
      const [low = null, high = null] = items;
      if (actual === null || low === null || high === null) return null;
      return compare(actual, low) >= 0 && compare(actual, high) <= 0;
    },
  },
  // Strapi's REST parser has these two; its GraphQL filter inputs do not.
  startsWithi: {
    rest: '$startsWithi',
    graphql: null,
    arity: 'binary',
    valueType: 'text',
    appliesTo: ALL_TYPES,
    sql: textIgnoringCase('start'),
    onNull: nullIfNullValue,
    evaluate: textInMemory('start', false, true),
  },
  endsWithi: {
    rest: '$endsWithi',
    graphql: null,
    arity: 'binary',
    valueType: 'text',
    appliesTo: ALL_TYPES,
    sql: textIgnoringCase('end'),
    onNull: nullIfNullValue,
    evaluate: textInMemory('end', false, true),
  },
} as const satisfies Record<string, OperatorSpec>;

export type Operator = keyof typeof OPERATORS;

/** The table typed by its interface. */
export const OPERATOR_SPECS: Readonly<Record<Operator, OperatorSpec>> = OPERATORS;

export const OPERATOR_NAMES = Object.keys(OPERATORS) as Operator[];

/** The REST spelling of an operator (`$eq`) to its name, for the query parser. */
export const OPERATOR_BY_REST: ReadonlyMap<string, Operator> = new Map(OPERATOR_NAMES.map((name) => [OPERATORS[name].rest, name]));

/** Whether the operator's value is a list as a whole (every other operator reads a list as "any of"). */
export function takesList(operator: Operator): boolean {
  const { arity } = OPERATOR_SPECS[operator];
  return arity === 'list' || arity === 'pair';
}

/**
 * The logical operators: in a where-clause they combine clauses, below an attribute they combine
 * operator clauses. `list`: a list of clauses; `single`: one clause (negated).
 */
export const LOGICAL_OPERATORS = {
  and: { rest: '$and', graphql: 'and', operands: 'list' },
  or: { rest: '$or', graphql: 'or', operands: 'list' },
  not: { rest: '$not', graphql: 'not', operands: 'single' },
} as const satisfies Record<string, { readonly rest: `$${string}`; readonly graphql: string; readonly operands: 'list' | 'single' }>;

export type LogicalOperator = keyof typeof LOGICAL_OPERATORS;
