/**
 * `default` must be a value the attribute could hold. Its JSON type is checked by the schema;
 * this checks what the schema cannot: the formats of dates and times, enumeration membership,
 * and the attribute's own bounds, length and pattern.
 */
import { finding, type Finding } from './finding.ts';
import type { AttributeView, TypeView } from './view.ts';
import { isScalarType, SCALAR_TYPES, type DefaultFormat } from '../../templates/contract/scalar-types.ts';
import { ATTRIBUTE_OPTIONS } from './catalog.ts';
import { bound, regexProblem } from './values.ts';
import { jsonDepthExceeds } from '../../templates/runtime/column-domains.ts';
import { JSON_BODY_LIMITS } from '../../templates/runtime/body-guard.ts';

/**
 * The deepest `default` a JSON attribute may have: the deepest value a client can write into it
 * (inside `{"data":{...}}`, which the body limit counts). Deeper values would also overflow the
 * stack of the recursive walks that emit them into the generated code.
 */
export const MAX_DEFAULT_DEPTH = JSON_BODY_LIMITS.depth - 2;

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,3})?)?$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Strapi's UID alphabet. */
const UID = /^[A-Za-z0-9\-_.~]*$/;

export function checkDefault(type: TypeView, attribute: AttributeView): Finding[] {
  if (!('default' in attribute.options) || attribute.type === undefined) return [];
  const value = attribute.options['default'];
  if (jsonDepthExceeds(value, MAX_DEFAULT_DEPTH)) {
    // Not quoted: the value is too deep to be worth reading in a message.
    const hint = `flatten it to at most ${MAX_DEFAULT_DEPTH} levels, or set the value in a lifecycle hook`;
    return [finding(type.file, `${attribute.pointer}/default`, `default nests arrays and objects deeper than ${MAX_DEFAULT_DEPTH} levels`, hint)];
  }
  const problem = formatProblem(attribute, value) ?? boundsProblem(attribute, value);
  if (problem === undefined) return [];
  return [finding(type.file, `${attribute.pointer}/default`, `default ${JSON.stringify(value)} ${problem.message}`, problem.hint)];
}

interface Problem {
  readonly message: string;
  readonly hint: string;
}

/** The check of a text `default` per format of the contract's scalar types (DefaultFormat). */
const FORMAT_CHECKS: Readonly<Record<DefaultFormat, (value: string, attribute: AttributeView) => Problem | undefined>> = {
  any: () => undefined,
  enumeration: (value, attribute) => {
    const values = Array.isArray(attribute.options['enum']) ? [...new Set(attribute.options['enum'].map(String))] : [];
    return values.includes(value) ? undefined : { message: 'is not one of the enumeration values', hint: `use one of: ${values.join(', ')}` };
  },
  date: (value) => (isCalendarDate(value) ? undefined : { message: 'is not a date', hint: 'write it as YYYY-MM-DD, e.g. "2024-01-31"' }),
  time: (value) => (TIME.test(value) ? undefined : { message: 'is not a time of day', hint: 'write it as HH:mm:ss.SSS, e.g. "09:30:00.000"' }),
  datetime: (value) => (DATETIME.test(value) && isCalendarDate(value.slice(0, 10)) ? undefined : { message: 'is not an ISO 8601 date-time', hint: 'write it like "2024-01-31T09:30:00.000Z"' }),
  email: (value) => (EMAIL.test(value) ? undefined : { message: 'is not an e-mail address', hint: 'write an address like "name@example.com", or remove "default"' }),
  uid: (value) => (UID.test(value) ? undefined : { message: 'is not a valid uid', hint: 'use only letters, digits and "-", "_", ".", "~"' }),
};

function formatProblem(attribute: AttributeView, value: unknown): Problem | undefined {
  if (typeof value !== 'string') return undefined; // a wrong JSON type is the schema's to report
  if (attribute.type === undefined || !isScalarType(attribute.type)) return undefined;
  return FORMAT_CHECKS[SCALAR_TYPES[attribute.type].defaultFormat](value, attribute);
}

/** YYYY-MM-DD naming a day that exists (Date.parse would roll 2024-02-30 over to March). */
function isCalendarDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function boundsProblem(attribute: AttributeView, value: unknown): Problem | undefined {
  if (attribute.type === undefined) return undefined;
  const options = attribute.options;
  const allowed = ATTRIBUTE_OPTIONS[attribute.type];
  // Big integers (a `bigint` default) may be written as digit strings; other strings are text.
  const amount = allowed['default'] === 'bigint' ? bound(value) : typeof value === 'number' ? value : undefined;
  if (amount !== undefined && 'min' in allowed) {
    const min = bound(options['min']);
    const max = bound(options['max']);
    if (min !== undefined && amount < min) return { message: `is less than "min" (${String(options['min'])})`, hint: 'raise the default, or lower "min"' };
    if (max !== undefined && amount > max) return { message: `is greater than "max" (${String(options['max'])})`, hint: 'lower the default, or raise "max"' };
  }
  if (typeof value === 'string' && 'minLength' in allowed) return textBoundsProblem(options, 'regex' in allowed, value);
  return undefined;
}

function textBoundsProblem(options: Readonly<Record<string, unknown>>, hasRegex: boolean, value: string): Problem | undefined {
  const minLength = bound(options['minLength']);
  const maxLength = bound(options['maxLength']);
  if (minLength !== undefined && value.length < minLength) return { message: `is shorter than "minLength" (${String(options['minLength'])})`, hint: 'lengthen the default, or lower "minLength"' };
  if (maxLength !== undefined && value.length > maxLength) return { message: `is longer than "maxLength" (${String(options['maxLength'])})`, hint: 'shorten the default, or raise "maxLength"' };
  const regex = hasRegex && typeof options['regex'] === 'string' ? options['regex'] : undefined;
  if (regex !== undefined && regexProblem(regex) === undefined && !new RegExp(regex).test(value)) {
    return { message: 'does not match "regex"', hint: 'change the default so that it matches the pattern, or fix "regex"' };
  }
  return undefined;
}
