/**
 * Reading the untyped values `qs` produces (strings, arrays, objects with or without a
 * prototype) without ever trusting them: keys are read as own properties only, so a key such as
 * `constructor` or `__proto__` is just an unknown key, never a path into Object.prototype.
 */

export type RawRecord = { readonly [key: string]: unknown };

/** An object of key/value pairs: a plain or null-prototype object, not an array. */
export function isRecord(value: unknown): value is RawRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value of an own property, never an inherited one. */
export function own(record: RawRecord, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

export function isStringArray(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** A value that stands for one scalar in a query string (qs only makes strings). */
export function isPrimitive(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

const CANONICAL_INDEX = /^(0|[1-9]\d{0,8})$/;

/**
 * The items of a list: an array, or an object whose keys are all array indexes (qs builds one
 * when indexes are sparse or mixed with other keys), in index order. Undefined otherwise.
 */
export function listItems(value: unknown): readonly unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (!isRecord(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length === 0 || !keys.every((key) => CANONICAL_INDEX.test(key))) return undefined;
  return keys
    .map(Number)
    .sort((a, b) => a - b)
    .map((index) => value[String(index)]);
}

const TRUE_WORDS: readonly unknown[] = [true, 'true', 't', '1', 1];
const FALSE_WORDS: readonly unknown[] = [false, 'false', 'f', '0', 0];

/** Strapi's boolean spellings (`true`/`t`/`1`, `false`/`f`/`0`); undefined for anything else. */
export function booleanLike(value: unknown): boolean | undefined {
  if (TRUE_WORDS.includes(value)) return true;
  if (FALSE_WORDS.includes(value)) return false;
  return undefined;
}

/**
 * A number the way Strapi reads pagination values (lodash `toNumber`): blank is 0, anything that
 * is not a number is NaN. Kept so that error messages say what Strapi says.
 */
export function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return Number.NaN;
  const trimmed = value.trim();
  if (trimmed === '') return 0;
  return Number(trimmed);
}

/** Splits a comma list, trimming each item and dropping empty ones. */
export function commaList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** A user-supplied value as it may appear inside an error message: quoted and bounded. */
export function quote(value: unknown): string {
  const text = typeof value === 'string' ? value : describe(value);
  const bounded = text.length > 100 ? `${text.slice(0, 100)}…` : text;
  return JSON.stringify(bounded);
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return typeof value;
  }
}
