/**
 * How a scalar of each type looks on each side of the engine: the SQL expression that compares
 * and sorts it the same way on SQLite and PostgreSQL, the parameter a filter value becomes, and
 * the JSON value the API returns (Strapi 5's REST formats).
 *
 * Storage, per docs/architecture.md: SQLite keeps timestamps as ISO 8601 strings, dates as
 * `YYYY-MM-DD`, times as `HH:mm:ss.SSS`, JSON as text, booleans as 0/1; PostgreSQL has native
 * types, and its driver hands DATE/TIME/TIMESTAMPTZ/BIGINT/NUMERIC back as strings; MySQL has
 * DATETIME(3) in UTC, TINYINT(1) booleans and JSON as text on MariaDB. Which behaviour a type
 * has is its entry in the contract's SCALAR_TYPES (compare, coerce, serialize).
 */
import type { FilterScalar, SqlParam } from '../../contract/operators.ts';
import { SCALAR_TYPES, type Coercion, type Comparison, type Serialization } from '../../contract/scalar-types.ts';
import type { Dialect } from '../dialect/types.ts';
import type { ScalarType } from '../schema.ts';
import type { ScalarColumn } from './registry.ts';
import { column } from './sql.ts';

/** Whether values of the type are text (compared and sorted as strings). */
export function isTextType(type: ScalarType): boolean {
  return SCALAR_TYPES[type].compare === 'text';
}

/** Text and JSON compare as their text; the others are cast to text for the text operators. */
function comparesAsText(comparison: Comparison): boolean {
  return comparison === 'text' || comparison === 'json';
}

/** The expression an ORDER BY sorts on: text byte-wise on every database (dialect's `sortOrder`). */
export function orderExpr(dialect: Dialect, alias: string, scalar: ScalarColumn): string {
  const comparison = SCALAR_TYPES[scalar.type].compare;
  const expr = comparedValue(dialect, column(alias, scalar.column), comparison);
  return comparesAsText(comparison) ? dialect.sortOrder(expr) : expr;
}

/** The placeholder of a filter value: bigintegers arrive as digit strings and compare as numbers. */
export function placeholder(dialect: Dialect, type: ScalarType): string {
  return SCALAR_TYPES[type].compare === 'biginteger' ? dialect.bigIntegerParameter : '?';
}

/** What the contract's operators render a condition from: a column (`ref`) of a type on a database. */
export function columnExpressions(dialect: Dialect, ref: string, type: ScalarType): { readonly expr: string; readonly ordered: string; readonly text: string; readonly placeholder: string } {
  const comparison = SCALAR_TYPES[type].compare;
  const expr = comparedValue(dialect, ref, comparison);
  return {
    expr,
    ordered: comparesAsText(comparison) ? dialect.binaryOrder(expr) : expr,
    text: comparesAsText(comparison) ? expr : dialect.textCast(expr),
    placeholder: placeholder(dialect, type),
  };
}

/** Dates compare by their day and JSON by its text, in each database's spelling. */
function comparedValue(dialect: Dialect, ref: string, comparison: Comparison): string {
  if (comparison === 'date') return dialect.dateValue(ref);
  if (comparison === 'json') return dialect.jsonValue(ref);
  return ref;
}

type Bind = (value: string | number | boolean, dialect: Dialect) => SqlParam;

/** Per coercion of the contract, how a coerced filter value is bound: in the stored format of its type. */
const BINDS: Readonly<Record<Coercion, Bind>> = {
  text: (value) => value,
  number: (value) => value,
  biginteger: (value) => String(value),
  boolean: (value) => (typeof value === 'string' ? value === 'true' || value === '1' : Boolean(value)),
  time: (value) => (typeof value === 'string' ? formatTime(value) : value),
  date: (value) => (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}./.test(value) ? value.slice(0, 10) : value),
  datetime: (value, dialect) => (typeof value === 'string' ? dialect.encodeTimestamp(value) : value),
};

/** A filter value as bound to SQL, in the stored format of its type. */
export function encodeFilterValue(dialect: Dialect, type: ScalarType, value: FilterScalar): SqlParam {
  if (value === null) return null;
  return BINDS[SCALAR_TYPES[type].coerce](value, dialect);
}

/** Turns a column value into its API value; undefined means "as is". */
export type Decoder = (value: unknown) => unknown;

/** Per serialization of the contract, the decoder of a column value. */
const DECODERS: Readonly<Record<Serialization, (dialect: Dialect) => Decoder | undefined>> = {
  asIs: () => undefined,
  number: () => decodeNumber,
  biginteger: () => decodeBigInteger,
  boolean: () => decodeBoolean,
  date: () => formatDate,
  time: () => decodeTime,
  datetime: () => formatTimestamp,
  // PostgreSQL's driver parses JSONB itself; parsing its result again would turn the JSON string
  // "1" into the number 1. SQLite and MariaDB hand JSON over as text.
  json: (dialect) => (dialect.json.readsAsText ? decodeJsonText : undefined),
};

export function decoder(dialect: Dialect, type: ScalarType): Decoder | undefined {
  return DECODERS[SCALAR_TYPES[type].serialize](dialect);
}

function decodeBoolean(value: unknown): boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value;
  return Number(value) !== 0;
}

function decodeBigInteger(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : String(value);
}

function decodeNumber(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'number' ? value : Number(value);
}

function decodeJsonText(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

function decodeTime(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return formatTime(String(value));
}

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SQL_TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(\.\d+)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/** `2024-01-15T10:30:00.000Z` from an ISO string, PostgreSQL's `2024-01-15 10:30:00+00`, epoch ms or a Date. */
export function formatTimestamp(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    if (ISO_MS.test(value)) return value;
    const match = SQL_TIMESTAMP.exec(value);
    if (match === null) return value;
    const [, day, clock = '', fraction = '', zone = 'Z'] = match;
    const seconds = clock.length === 5 ? `${clock}:00` : clock;
    const millis = `${fraction.slice(1)}000`.slice(0, 3);
    if (zone === 'Z' || /^\+00(:?00)?$/.test(zone)) return `${day}T${seconds}.${millis}Z`;
    const offset = zone.length === 3 ? `${zone}:00` : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
    const date = new Date(`${day}T${seconds}.${millis}${offset}`);
    return Number.isNaN(date.getTime()) ? value : date.toISOString();
  }
  if (typeof value === 'number') return new Date(value).toISOString();
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/**
 * A timestamp column value as read (ISO text on SQLite and MySQL, PostgreSQL's timestamptz text,
 * a Date) as the instant it names, to bind it again as a timestamp.
 */
export function storedInstant(value: unknown): Date {
  return new Date(formatTimestamp(value) ?? Number.NaN);
}

/** `YYYY-MM-DD`. */
export function formatDate(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : value;
  if (typeof value === 'number') return new Date(value).toISOString().slice(0, 10);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value);
}

/** `HH:mm:ss.SSS` from `HH:mm`, `HH:mm:ss` or any number of fraction digits. */
export function formatTime(value: string): string {
  const match = /^(\d{2}):(\d{2})(?::(\d{2}))?(?:\.(\d+))?/.exec(value);
  if (match === null) return value;
  const [, hours, minutes, seconds = '00', fraction = ''] = match;
  return `${hours}:${minutes}:${seconds}.${`${fraction}000`.slice(0, 3)}`;
}
