/**
 * Applies the column domains of the contract's SCALAR_TYPES (`domain`: what a column of each
 * attribute type can hold, the same on every database) to typed values: every input path (query
 * filters, bodies, GraphQL arguments, path ids) asks here before a value reaches SQL. PostgreSQL
 * and MySQL refuse values outside their column types with an error that would be a 500; SQLite
 * stores most of them silently. Checking here gives every database the same strict answer, a 400
 * naming the parameter.
 */
import { INT32_DOMAIN, SCALAR_TYPE_SPECS, type ColumnDomain } from '../contract/scalar-types.ts';
import type { ScalarType } from './schema.ts';

/** Row ids (`id`, media ids, upload ids) are INTEGER columns, as integer attributes are. */
export const ROW_ID_DOMAIN: ColumnDomain = INT32_DOMAIN;

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
  return outside(SCALAR_TYPE_SPECS[type].domain, value);
}

export function outside(domain: ColumnDomain, value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  return (CHECKS[domain.kind] as (domain: ColumnDomain, value: unknown) => string | undefined)(domain, value);
}

type DomainOf<K extends ColumnDomain['kind']> = Extract<ColumnDomain, { readonly kind: K }>;

/** Per domain kind, the check of a non-null value (a new kind does not compile until it has one). */
const CHECKS: { readonly [K in ColumnDomain['kind']]: (domain: DomainOf<K>, value: unknown) => string | undefined } = {
  integer: (domain, value) => integerProblem(domain.min, domain.max, value),
  decimal: (domain, value) =>
    typeof value === 'number' && !(Number.isFinite(value) && Math.abs(value) < 10 ** domain.integerDigits)
      ? `a number with at most ${domain.integerDigits} digits before the decimal point`
      : undefined,
  float: (_domain, value) => (typeof value === 'number' && !Number.isFinite(value) ? 'a finite number' : undefined),
  text: (_domain, value) => (typeof value === 'string' && hasNul(value) ? NO_NUL : undefined),
  json: (_domain, value) => (jsonHasNul(value) ? NO_NUL : undefined),
  temporal: (_domain, value) => ((typeof value === 'string' || value instanceof Date) && !yearInRange(value) ? `a date between the years ${MIN_YEAR} and ${MAX_YEAR}` : undefined),
  boolean: () => undefined,
  time: () => undefined,
};

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
