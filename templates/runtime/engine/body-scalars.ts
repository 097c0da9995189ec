/**
 * One scalar attribute of a body: its type check, yup's casts (a number may come as "12", a
 * boolean as "true"), its constraints, and the value the column stores. Drafts get Strapi's
 * lighter rules: no required, minLength, min, regex, email or uid format checks (max and enum
 * always apply).
 *
 * Types Strapi leaves unchecked (yup.mixed: biginteger, date, datetime, time) fail in its
 * database layer instead, one at a time; here they are checked with the others, in yup's words.
 */
import { SCALAR_TYPES, type BodyCheck } from '../../contract/scalar-types.ts';
import { outsideDomain } from '../column-domains.ts';
import type { ScalarField } from '../schema.ts';
import { checkBlocks } from './body-blocks.ts';
import type { Issues } from './body-issues.ts';
import { messages, notType, type Path } from './body-messages.ts';

/** What a column stores: timestamps as Dates, bound in each database's stored form (Dialect.bindValue). */
export type ColumnValue = string | number | boolean | null | Date;

export interface ScalarRules {
  /** Validating a draft: required and the publish-only constraints are skipped. */
  readonly isDraft: boolean;
  /** creation: a missing required value is an error; update: a missing value keeps the stored one. */
  readonly mode: 'creation' | 'update';
  /** Values read back from the database: passwords are hashes, only their presence is checked. */
  readonly stored?: boolean;
}

/** `undefined` value: nothing to write (the key is absent). */
export type ScalarOutcome = { readonly ok: true; readonly value: ColumnValue | undefined } | { readonly ok: false };

const FAIL: ScalarOutcome = { ok: false };
const UID_PATTERN = /^[A-Za-z0-9-_.~]*$/;
// Local part and domain of an address; unicode letters allowed, as yup's pattern allows them.
const EMAIL_PATTERN = /^[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+(\.[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+)*@([\p{L}\p{N}]([\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+[\p{L}]([\p{L}\p{N}-]*[\p{L}\p{N}])?$/u;
const TIME_PATTERN = /^(2[0-3]|[01]\d):([0-5]\d):([0-5]\d)(\.\d{1,3})?$/;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})/;
const DATETIME_PATTERN = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/i;

export function checkScalar(field: ScalarField, raw: unknown, path: Path, rules: ScalarRules, issues: Issues): ScalarOutcome {
  const required = !rules.isDraft && field.required;
  if (raw === undefined) {
    if (required && rules.mode === 'creation') {
      issues.add(path, messages.defined(path));
      return FAIL;
    }
    return { ok: true, value: undefined };
  }
  if (raw === null) return required ? requiredNull(field, path, rules, issues) : { ok: true, value: null };
  const before = issues.size;
  const value = castAndCheck(field, raw, path, rules, issues);
  if (value === undefined || issues.size > before) return FAIL;
  // What the column can hold (column-domains.ts); JSON is checked as sent, before stringifying.
  const body = SCALAR_TYPES[field.type].body;
  const outside = outsideDomain(field.type, body === 'json' || body === 'blocks' ? raw : value);
  if (outside === undefined) return { ok: true, value };
  issues.add(path, messages.domain(path, outside), value);
  return FAIL;
}

/** yup's answer to null where null is not allowed: a type error, except for untyped (mixed) values. */
function requiredNull(field: ScalarField, path: Path, rules: ScalarRules, issues: Issues): ScalarOutcome {
  const typed = NULL_TYPE_ERRORS[SCALAR_TYPES[field.type].body];
  if (typed !== undefined) issues.add(path, notType(path, typed.type, typed.value, typed.original), typed.value);
  else issues.add(path, rules.mode === 'creation' ? messages.defined(path) : messages.notNull(path), null);
  return FAIL;
}

/** The type error yup reports for null, per body check; undefined: yup.mixed (a "defined" error). */
const NULL_TYPE_ERRORS: Readonly<Record<BodyCheck, { readonly type: string; readonly value: unknown; readonly original: unknown } | undefined>> = {
  string: { type: 'string', value: null, original: null },
  enumeration: { type: 'string', value: null, original: null },
  // yup.number() casts null with parseFloat when null is not allowed.
  number: { type: 'number', value: Number.NaN, original: null },
  boolean: { type: 'boolean', value: null, original: null },
  blocks: { type: 'array', value: null, original: null },
  biginteger: undefined,
  date: undefined,
  datetime: undefined,
  time: undefined,
  json: undefined,
};

type Check = (field: ScalarField, raw: unknown, path: Path, rules: ScalarRules, issues: Issues) => ColumnValue | undefined;

/** Per body check of the contract's SCALAR_TYPES: the column value, or undefined after reporting why there is none. */
const CHECKS: Readonly<Record<BodyCheck, Check>> = {
  string: checkString,
  enumeration: (field, raw, path, _rules, issues) => checkEnumeration(field, raw, path, issues),
  number: checkNumber,
  boolean: (_field, raw, path, _rules, issues) => checkBoolean(raw, path, issues),
  biginteger: (_field, raw, path, _rules, issues) => checkBigInteger(raw, path, issues),
  date: (_field, raw, path, _rules, issues) => checkDate(raw, path, issues),
  datetime: (_field, raw, path, _rules, issues) => checkDateTime(raw, path, issues),
  time: (_field, raw, path, _rules, issues) => checkTime(raw, path, issues),
  json: (_field, raw) => JSON.stringify(raw),
  blocks: (_field, raw, path, _rules, issues) => {
    const before = issues.size;
    checkBlocks(raw, path, issues);
    return issues.size > before ? undefined : JSON.stringify(raw);
  },
};

function castAndCheck(field: ScalarField, raw: unknown, path: Path, rules: ScalarRules, issues: Issues): ColumnValue | undefined {
  return CHECKS[SCALAR_TYPES[field.type].body](field, raw, path, rules, issues);
}

function checkString(field: ScalarField, raw: unknown, path: Path, rules: ScalarRules, issues: Issues): ColumnValue | undefined {
  if (typeof raw !== 'string') {
    issues.add(path, notType(path, 'string', raw), raw);
    return undefined;
  }
  if (rules.stored && field.type === 'password') return raw;
  const publish = !rules.isDraft;
  if (publish && isPositiveInteger(field.minLength) && raw.length < field.minLength) issues.add(path, messages.minLength(path, field.minLength), raw);
  if (isPositiveInteger(field.maxLength) && raw.length > field.maxLength) issues.add(path, messages.maxLength(path, field.maxLength), raw);
  if (publish && field.regex !== undefined) {
    const regex = new RegExp(field.regex);
    // Strapi skips the pattern for an empty string when the attribute is optional.
    if (!(raw === '' && !field.required) && !regex.test(raw)) issues.add(path, messages.matches(path, regex), raw);
  }
  if (publish && field.type === 'email') {
    if (raw !== '' && !EMAIL_PATTERN.test(raw)) issues.add(path, messages.email(path), raw);
    if (raw.length < 1) issues.add(path, messages.emptyEmail(path), raw);
  }
  if (publish && field.type === 'uid' && !UID_PATTERN.test(raw)) issues.add(path, messages.matches(path, UID_PATTERN), raw);
  return raw;
}

function checkEnumeration(field: ScalarField, raw: unknown, path: Path, issues: Issues): ColumnValue | undefined {
  // yup.string() casts scalars to strings; arrays and objects stay what they are and fail the type.
  if (typeof raw === 'object') {
    issues.add(path, notType(path, 'string', raw), raw);
    return undefined;
  }
  const value = String(raw);
  const allowed = field.enum ?? [];
  if (!allowed.includes(value)) {
    issues.add(path, messages.oneOf(path, [...allowed, null]), value);
    return undefined;
  }
  return value;
}

function checkNumber(field: ScalarField, raw: unknown, path: Path, rules: ScalarRules, issues: Issues): ColumnValue | undefined {
  const value = castNumber(raw);
  if (Number.isNaN(value)) {
    issues.add(path, notType(path, 'number', value, raw), value);
    return undefined;
  }
  if (!Number.isFinite(value)) {
    issues.add(path, notType(path, 'number', value, raw), value);
    return undefined;
  }
  if (field.type === 'integer' && !Number.isInteger(value)) issues.add(path, messages.integer(path), value);
  const min = field.type === 'integer' && field.min !== undefined ? Math.trunc(field.min) : field.min;
  const max = field.type === 'integer' && field.max !== undefined ? Math.trunc(field.max) : field.max;
  if (!rules.isDraft && min !== undefined && value < min) issues.add(path, messages.min(path, min), value);
  if (max !== undefined && value > max) issues.add(path, messages.max(path, max), value);
  return value;
}

/** yup.number()'s cast: strings lose their whitespace and convert whole, anything else goes through parseFloat. */
function castNumber(raw: unknown): number {
  if (typeof raw === 'number') return raw;
  if (typeof raw === 'string') {
    const compact = raw.replace(/\s/g, '');
    return compact === '' ? Number.NaN : Number(compact);
  }
  return Number.parseFloat(String(raw));
}

function checkBoolean(raw: unknown, path: Path, issues: Issues): ColumnValue | undefined {
  if (typeof raw === 'boolean') return raw;
  const text = String(raw);
  if (/^(true|1)$/i.test(text)) return true;
  if (/^(false|0)$/i.test(text)) return false;
  issues.add(path, notType(path, 'boolean', raw), raw);
  return undefined;
}

/** Digits (optionally signed) within 64 bits, or a safe integer; stored and returned as a string. */
function checkBigInteger(raw: unknown, path: Path, issues: Issues): ColumnValue | undefined {
  let digits: bigint | undefined;
  if (typeof raw === 'number' && Number.isSafeInteger(raw)) digits = BigInt(raw);
  else if (typeof raw === 'string' && /^[+-]?\d+$/.test(raw)) digits = BigInt(raw);
  if (digits === undefined) {
    issues.add(path, notType(path, 'biginteger', raw), raw);
    return undefined;
  }
  return digits.toString();
}

/** `YYYY-MM-DD`, or an ISO date-time whose day is kept. */
function checkDate(raw: unknown, path: Path, issues: Issues): ColumnValue | undefined {
  if (typeof raw === 'string') {
    const match = DATE_PATTERN.exec(raw);
    const valid = match !== null && isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
    if (valid && (raw.length === 10 || (DATETIME_PATTERN.test(raw) && !Number.isNaN(Date.parse(isoText(raw)))))) return raw.slice(0, 10);
  }
  issues.add(path, notType(path, 'date', raw), raw);
  return undefined;
}

/**
 * An ISO 8601 date-time (or date), or a Unix time in milliseconds, as the instant it names: a
 * Date, so that the column gets a timestamp (SQLite stores it as toISOString writes it).
 */
function checkDateTime(raw: unknown, path: Path, issues: Issues): ColumnValue | undefined {
  let date: Date | undefined;
  if (typeof raw === 'number' && Number.isFinite(raw)) date = new Date(raw);
  else if (typeof raw === 'string' && /^\d+$/.test(raw)) date = new Date(Number(raw));
  else if (typeof raw === 'string' && DATETIME_PATTERN.test(raw)) {
    const match = DATE_PATTERN.exec(raw);
    if (match !== null && isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]))) date = new Date(isoText(raw));
  }
  if (date === undefined || Number.isNaN(date.getTime())) {
    issues.add(path, notType(path, 'datetime', raw), raw);
    return undefined;
  }
  return date;
}

/** The spelling JavaScript's Date parses everywhere: a `T` separator and `±HH:mm` offsets (PostgreSQL writes `+00`). */
export function isoText(value: string): string {
  return value.replace(' ', 'T').replace(/(T[\d:.]+)([+-]\d{2}):?(\d{2})?$/, (_all, time: string, hours: string, minutes: string | undefined) => `${time}${hours}:${minutes ?? '00'}`);
}

/** `HH:mm:ss` with up to three fraction digits, stored as `HH:mm:ss.SSS`. */
function checkTime(raw: unknown, path: Path, issues: Issues): ColumnValue | undefined {
  const match = typeof raw === 'string' ? TIME_PATTERN.exec(raw) : null;
  if (match === null) {
    issues.add(path, notType(path, 'time', raw), raw);
    return undefined;
  }
  const fraction = (match[4] ?? '.').slice(1).padEnd(3, '0');
  return `${match[1]}:${match[2]}:${match[3]}.${fraction}`;
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function isPositiveInteger(value: number | undefined): value is number {
  return value !== undefined && Number.isInteger(value) && value > 0;
}

/** Strapi checks uniqueness for `unique` attributes and for every uid attribute. */
export function isUniqueChecked(field: ScalarField): boolean {
  return field.unique || field.type === 'uid';
}
