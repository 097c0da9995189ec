/**
 * What a column of each attribute type can hold, the same on SQLite and PostgreSQL: the one table
 * every input path (query filters, bodies, GraphQL arguments, path ids) checks a typed value
 * against before it reaches SQL. PostgreSQL refuses values outside its column types (a 2^31 in
 * an INTEGER, a NUL in TEXT or JSONB, 1e300 in DECIMAL(65,30), year 0 in a DATE) with an error
 * that would be a 500; SQLite stores most of them silently. Checking here gives both databases the
 * same strict answer, a 400 naming the parameter.
 */
import type { ScalarType } from './schema.ts';

export type ColumnDomain =
  | { readonly kind: 'integer'; readonly min: bigint; readonly max: bigint }
  /** DECIMAL(65,30): at most 35 digits before the point (more fraction digits are rounded). */
  | { readonly kind: 'decimal'; readonly integerDigits: number }
  /** DOUBLE PRECISION / REAL: any finite number. */
  | { readonly kind: 'float' }
  /** TEXT: PostgreSQL cannot store the NUL character. */
  | { readonly kind: 'text' }
  /** JSONB: no NUL in any string or key either. */
  | { readonly kind: 'json' }
  | { readonly kind: 'boolean' }
  /** DATE, TIMESTAMPTZ: years 1 to 9999, the four-digit years both databases read back alike. */
  | { readonly kind: 'temporal' }
  /** TIME: `HH:mm:ss.SSS` is already bounded by its format. */
  | { readonly kind: 'time' };

const INT32: ColumnDomain = { kind: 'integer', min: -(2n ** 31n), max: 2n ** 31n - 1n };
const INT64: ColumnDomain = { kind: 'integer', min: -(2n ** 63n), max: 2n ** 63n - 1n };
const TEXT: ColumnDomain = { kind: 'text' };
const JSON_DOMAIN: ColumnDomain = { kind: 'json' };
const TEMPORAL: ColumnDomain = { kind: 'temporal' };

/** Per attribute type, the domain of its column (docs/architecture.md, "Column types"). */
export const COLUMN_DOMAINS: { readonly [type in ScalarType]: ColumnDomain } = {
  string: TEXT,
  text: TEXT,
  richtext: TEXT,
  email: TEXT,
  password: TEXT,
  uid: TEXT,
  enumeration: TEXT,
  blocks: JSON_DOMAIN,
  json: JSON_DOMAIN,
  integer: INT32,
  biginteger: INT64,
  decimal: { kind: 'decimal', integerDigits: 35 },
  float: { kind: 'float' },
  boolean: { kind: 'boolean' },
  date: TEMPORAL,
  datetime: TEMPORAL,
  timestamp: TEMPORAL,
  time: { kind: 'time' },
};

/** Row ids (`id`, media ids, upload ids) are INTEGER columns. */
export const ROW_ID_DOMAIN = INT32;

/** Whether an id can name a row: positive and within the id column (a larger one names none). */
export function isRowId(id: number): boolean {
  return id > 0 && outside(ROW_ID_DOMAIN, id) === undefined;
}

export const MIN_YEAR = 1;
export const MAX_YEAR = 9999;

/**
 * Why a value of an attribute type does not fit its column, as "expected ..." wording, or
 * undefined when it fits. The value is already of the type's JavaScript shape: a number, a digit
 * string for bigintegers, a string for text and temporal values (or a Date for timestamps), anything for JSON.
 */
export function outsideDomain(type: ScalarType, value: unknown): string | undefined {
  return outside(COLUMN_DOMAINS[type], value);
}

export function outside(domain: ColumnDomain, value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  switch (domain.kind) {
    case 'integer':
      return integerProblem(domain.min, domain.max, value);
    case 'decimal':
      return typeof value === 'number' && !(Number.isFinite(value) && Math.abs(value) < 10 ** domain.integerDigits)
        ? `a number with at most ${domain.integerDigits} digits before the decimal point`
        : undefined;
    case 'float':
      return typeof value === 'number' && !Number.isFinite(value) ? 'a finite number' : undefined;
    case 'text':
      return typeof value === 'string' && hasNul(value) ? NO_NUL : undefined;
    case 'json':
      return jsonHasNul(value) ? NO_NUL : undefined;
    case 'temporal':
      return (typeof value === 'string' || value instanceof Date) && !yearInRange(value) ? `a date between the years ${MIN_YEAR} and ${MAX_YEAR}` : undefined;
    case 'boolean':
    case 'time':
      return undefined;
  }
}

const NO_NUL = 'text without NUL (\\u0000) characters';

function integerProblem(min: bigint, max: bigint, value: unknown): string | undefined {
  const range = `an integer between ${min} and ${max}`;
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return range;
    return BigInt(value) < min || BigInt(value) > max ? range : undefined;
  }
  if (typeof value === 'string' || typeof value === 'bigint') {
    const text = String(value).trim();
    if (!/^[+-]?\d+$/.test(text)) return range;
    const n = BigInt(text);
    return n < min || n > max ? range : undefined;
  }
  return undefined;
}

export function hasNul(text: string): boolean {
  return text.includes('\u0000');
}

/** Whether any string or key inside a JSON value holds a NUL; iterative, so any depth is safe. */
export function jsonHasNul(value: unknown): boolean {
  return nulPath(value) !== undefined;
}

/** Where the first string or key holding a NUL sits inside a value (keys and indexes), if any. */
export function nulPath(value: unknown): (string | number)[] | undefined {
  // Each entry points at its parent, so the walk is linear however deep the value is.
  interface Step {
    readonly item: unknown;
    readonly key: string | number | undefined;
    readonly parent: Step | undefined;
  }
  const pathOf = (step: Step | undefined, last?: string): (string | number)[] => {
    const reversed: (string | number)[] = last === undefined ? [] : [last];
    for (let at = step; at !== undefined && at.key !== undefined; at = at.parent) reversed.push(at.key);
    return reversed.reverse();
  };
  const stack: Step[] = [{ item: value, key: undefined, parent: undefined }];
  while (stack.length > 0) {
    const step = stack.pop() as Step;
    const { item } = step;
    if (typeof item === 'string') {
      if (hasNul(item)) return pathOf(step);
    } else if (Array.isArray(item)) {
      (item as unknown[]).forEach((inner, index) => stack.push({ item: inner, key: index, parent: step }));
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, inner] of Object.entries(item)) {
        if (hasNul(key)) return pathOf(step, key);
        stack.push({ item: inner, key, parent: step });
      }
    }
  }
  return undefined;
}

/** ISO text starting with a four-digit year in range (`+010000-...` or `0000-...` are not), or a Date whose UTC year is. */
function yearInRange(value: string | Date): boolean {
  const match = /^(\d{4})-/.exec(value instanceof Date ? value.toISOString() : value.trim());
  if (match === null) return false;
  const year = Number(match[1]);
  return year >= MIN_YEAR && year <= MAX_YEAR;
}

/** Whether a JSON value nests objects and arrays more than `limit` deep (`{}` is 1), measured without recursion. */
export function jsonDepthExceeds(value: unknown, limit: number): boolean {
  const stack: { readonly item: unknown; readonly depth: number }[] = [{ item: value, depth: 0 }];
  while (stack.length > 0) {
    const { item, depth } = stack.pop() as { item: unknown; depth: number };
    if (typeof item !== 'object' || item === null) continue;
    if (depth + 1 > limit) return true;
    for (const inner of Array.isArray(item) ? (item as unknown[]) : Object.values(item)) {
      if (typeof inner === 'object' && inner !== null) stack.push({ item: inner, depth: depth + 1 });
    }
  }
  return false;
}
