/**
 * How a scalar of each type looks on each side of the engine: the SQL expression that compares
 * and sorts it the same way on SQLite and PostgreSQL, the parameter a filter value becomes, and
 * the JSON value the API returns (Strapi 5's REST formats).
 *
 * Storage, per docs/architecture.md: SQLite keeps timestamps as ISO 8601 strings, dates as
 * `YYYY-MM-DD`, times as `HH:mm:ss.SSS`, JSON as text, booleans as 0/1; PostgreSQL has native
 * types, and its driver hands DATE/TIME/TIMESTAMPTZ/BIGINT/NUMERIC back as strings.
 */
import type { Dialect, SqlValue } from '../database.ts';
import type { FilterScalar } from '../query/types.ts';
import type { ScalarType } from '../schema.ts';
import type { ScalarColumn } from './registry.ts';
import { column } from './sql.ts';

const TEXT_TYPES: ReadonlySet<ScalarType> = new Set(['string', 'text', 'richtext', 'email', 'uid', 'enumeration', 'password']);

export function isTextType(type: ScalarType): boolean {
  return TEXT_TYPES.has(type);
}

function isJsonType(type: ScalarType): boolean {
  return type === 'json' || type === 'blocks';
}

/**
 * The expression a column is compared and sorted by. Dates on SQLite compare by their first ten
 * characters, so a date stored with a time part still equals its day. JSON compares as its text
 * on both databases (PostgreSQL would otherwise parse every compared value as JSONB and fail on
 * plain strings).
 */
export function valueExpr(dialect: Dialect, alias: string, scalar: ScalarColumn): string {
  const expr = column(alias, scalar.column);
  if (dialect === 'sqlite' && scalar.type === 'date') return `substr(${expr}, 1, 10)`;
  if (dialect === 'postgres' && isJsonType(scalar.type)) return `CAST(${expr} AS TEXT)`;
  return expr;
}

/** The expression for ordering: PostgreSQL text compares byte-wise ("C"), as SQLite's BINARY does. */
export function orderExpr(dialect: Dialect, alias: string, scalar: ScalarColumn): string {
  const expr = valueExpr(dialect, alias, scalar);
  return dialect === 'postgres' && (isTextType(scalar.type) || isJsonType(scalar.type)) ? `${expr} COLLATE "C"` : expr;
}

/** The column as text, for the string operators (contains, startsWith, ...) on any type. */
export function textExpr(dialect: Dialect, alias: string, scalar: ScalarColumn): string {
  const expr = valueExpr(dialect, alias, scalar);
  return isTextType(scalar.type) || isJsonType(scalar.type) ? expr : `CAST(${expr} AS TEXT)`;
}

/** The placeholder of a filter value: bigintegers arrive as digit strings and compare as numbers. */
export function placeholder(dialect: Dialect, type: ScalarType): string {
  if (type !== 'biginteger') return '?';
  return dialect === 'sqlite' ? 'CAST(? AS INTEGER)' : 'CAST(? AS BIGINT)';
}

/** A filter value as bound to SQL, in the stored format of its type. */
export function encodeFilterValue(dialect: Dialect, type: ScalarType, value: FilterScalar): SqlValue {
  if (value === null) return null;
  switch (type) {
    case 'biginteger':
      return String(value);
    case 'boolean':
      return typeof value === 'string' ? value === 'true' || value === '1' : Boolean(value);
    case 'time':
      return typeof value === 'string' ? formatTime(value) : value;
    case 'date':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}./.test(value) ? value.slice(0, 10) : value;
    case 'datetime':
    case 'timestamp':
      // SQLite compares timestamps as text: bring every accepted spelling to the stored one.
      if (dialect === 'sqlite' && typeof value === 'string') {
        const date = new Date(value);
        return Number.isNaN(date.getTime()) ? value : date.toISOString();
      }
      return value;
    default:
      return value;
  }
}

/** Turns a column value into its API value; undefined means "as is". */
export type Decoder = (value: unknown) => unknown;

export function decoder(dialect: Dialect, type: ScalarType): Decoder | undefined {
  switch (type) {
    case 'boolean':
      return decodeBoolean;
    case 'biginteger':
      return decodeBigInteger;
    case 'decimal':
    case 'float':
      return decodeNumber;
    case 'date':
      return formatDate;
    case 'time':
      return decodeTime;
    case 'datetime':
    case 'timestamp':
      return formatTimestamp;
    case 'json':
    case 'blocks':
      // PostgreSQL's driver parses JSONB itself; parsing its result again would turn the JSON
      // string "1" into the number 1.
      return dialect === 'sqlite' ? decodeJsonText : undefined;
    default:
      return undefined;
  }
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
