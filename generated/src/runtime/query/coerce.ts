/**
 * Filter values, which arrive as strings, turned into the JavaScript value of their attribute's
 * type. A value that cannot be one is reported by name (what was expected), so the client gets a
 * 400 where Strapi hands the string to the database and answers 500.
 */
import type { FilterScalar } from './types.ts';
import { outsideDomain } from '../column-domains.ts';
import { SCALAR_TYPES, type Coercion } from '../../contract/scalar-types.ts';
import type { ScalarType } from '../schema.ts';
import { booleanLike } from './raw.ts';

/** Either the coerced value or what the value should have been. */
export type Coerced = { readonly ok: true; readonly value: FilterScalar } | { readonly ok: false; readonly expected: string };

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// A zone offset may come as ` 02:00`: an unencoded `+` in a query string decodes to a space.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+\- ]\d{2}(?::?\d{2})?)?)?$/i;
const TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/;

const ok = (value: FilterScalar): Coerced => ({ ok: true, value });
const fail = (expected: string): Coerced => ({ ok: false, expected });

/** The value of its attribute's type, within what the attribute's column can hold (column-domains.ts). */
export function coerceScalar(type: ScalarType, value: string | number | boolean): Coerced {
  const coerced = coerceToType(type, value);
  if (!coerced.ok) return coerced;
  const outside = outsideDomain(type, coerced.value);
  return outside === undefined ? coerced : fail(outside);
}

/** Per coercion of the contract's SCALAR_TYPES, how a filter value becomes the type's value. */
const COERCIONS: Readonly<Record<Coercion, (value: string | number | boolean) => Coerced>> = {
  number: coerceNumber,
  biginteger: coerceBigInteger,
  boolean: coerceBoolean,
  date: (value) => coerceDate(String(value)),
  datetime: (value) => coerceDateTime(String(value)),
  time: (value) => coerceTime(String(value)),
  // Text-like, enumeration, json and blocks compare as text: any value is fine.
  text: (value) => ok(String(value)),
};

function coerceToType(type: ScalarType, value: string | number | boolean): Coerced {
  return COERCIONS[SCALAR_TYPES[type].coerce](value);
}

function coerceNumber(value: string | number | boolean): Coerced {
  if (typeof value === 'number') return Number.isFinite(value) ? ok(value) : fail('a number');
  if (typeof value !== 'string' || !NUMBER.test(value.trim())) return fail('a number');
  const number = Number(value.trim());
  return Number.isFinite(number) ? ok(number) : fail('a number');
}

/** Bigintegers stay digit strings: a JavaScript number would lose digits past 2^53. */
function coerceBigInteger(value: string | number | boolean): Coerced {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? ok(String(value)) : fail('an integer');
  if (typeof value !== 'string' || !INTEGER.test(value.trim())) return fail('an integer');
  return ok(BigInt(value.trim()).toString());
}

function coerceBoolean(value: string | number | boolean): Coerced {
  const parsed = booleanLike(value);
  return parsed === undefined ? fail('a boolean ("true" or "false")') : ok(parsed);
}

/** A date is `YYYY-MM-DD`; a full timestamp is accepted and reduced to its (UTC) day. */
function coerceDate(value: string): Coerced {
  const text = value.trim();
  const day = DATE.exec(text);
  if (day !== null) return validDay(Number(day[1]), Number(day[2]), Number(day[3])) ? ok(text) : fail('a date (YYYY-MM-DD)');
  const instant = parseDateTime(text);
  return instant === undefined ? fail('a date (YYYY-MM-DD)') : ok(instant.toISOString().slice(0, 10));
}

/** ISO 8601, with or without time and zone (no zone means UTC), or milliseconds since 1970. */
function coerceDateTime(value: string): Coerced {
  const text = value.trim();
  const instant = /^\d{5,}$/.test(text) ? millis(text) : parseDateTime(text);
  return instant === undefined ? fail('a date-time (ISO 8601)') : ok(instant.toISOString());
}

function millis(text: string): Date | undefined {
  const date = new Date(Number(text));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function parseDateTime(text: string): Date | undefined {
  const match = DATE_TIME.exec(text);
  if (match === null) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zone = 'Z'] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (!validDay(year, month, day) || !validClock(Number(h), Number(mi), Number(s))) return undefined;
  const ms = Number(fraction.padEnd(3, '0').slice(0, 3));
  const date = new Date(utcMillis(year, month, day, Number(h), Number(mi), Number(s), ms) - zoneOffsetMinutes(zone) * 60_000);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function zoneOffsetMinutes(zone: string): number {
  if (zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  return sign * (hours * 60 + minutes);
}

/** A time is `HH:mm[:ss[.SSS]]`, normalized to `HH:mm:ss.SSS` as Strapi returns it. */
function coerceTime(value: string): Coerced {
  const match = TIME.exec(value.trim());
  if (match === null) return fail('a time (HH:mm:ss)');
  const [, h = '', m = '', s = '00', fraction = ''] = match;
  if (!validClock(Number(h), Number(m), Number(s))) return fail('a time (HH:mm:ss)');
  return ok(`${h}:${m}:${s}.${fraction.padEnd(3, '0').slice(0, 3)}`);
}

function validDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return day <= (lengths[month - 1] ?? 0);
}

/** Date.UTC, except that years 0-99 stay themselves instead of becoming 1900-1999. */
function utcMillis(year: number, month: number, day: number, hours: number, minutes: number, seconds: number, ms: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hours, minutes, seconds, ms);
  return date.getTime();
}

function validClock(hours: number, minutes: number, seconds: number): boolean {
  return hours <= 23 && minutes <= 59 && seconds <= 59;
}
