/**
 * The custom scalars of Strapi's schema, with the formats the engine reads and writes:
 *
 *   JSON             any JSON value, literals included (objects, lists, variables inside)
 *   DateTime         ISO 8601 date-time string (`2024-01-15T10:30:00.000Z`); a date alone is refused, as in Strapi
 *   Date             `YYYY-MM-DD`
 *   Time             `HH:mm[:ss[.SSS]]`
 *   Long             a biginteger: a number in GraphQL, as in Strapi; beyond 2^53 (which a
 *                    number cannot hold exactly) it is sent and accepted as a string of digits
 *   I18NLocaleCode   a locale code, or `*`
 *   <Zone>Input      one dynamic-zone entry: a JSON object naming its component by `__typename`
 *
 * A malformed value is refused before anything runs (BAD_USER_INPUT for a variable,
 * GRAPHQL_VALIDATION_FAILED for a literal), with what was expected.
 */
import { Kind, valueFromASTUntyped, type ValueNode } from './graphql-js.ts';

type Variables = { readonly [name: string]: unknown } | null | undefined;

/**
 * A scalar's functions, handed to the schema as resolvers. Not a GraphQLScalarType: graphql-tools
 * would copy its (empty) description over the one the SDL declares.
 */
export interface ScalarResolver {
  serialize(value: unknown): unknown;
  parseValue(value: unknown): unknown;
  parseLiteral(ast: ValueNode, variables?: Variables): unknown;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// The time is required: Strapi's DateTime (graphql-scalars) refuses a bare date with BAD_USER_INPUT.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const TIME = /^([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?$/;
const DIGITS = /^[+-]?\d+$/;

function jsonLiteral(ast: ValueNode, variables: Variables): unknown {
  return valueFromASTUntyped(ast, variables ?? undefined);
}

export const jsonScalar: ScalarResolver = {
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: jsonLiteral,
};

/** A scalar whose values are strings of one format. */
function formattedString(name: string, valid: (text: string) => boolean, expected: string): ScalarResolver {
  const check = (value: unknown): string => {
    if (typeof value === 'string' && valid(value)) return value;
    throw new TypeError(`${name} cannot represent ${JSON.stringify(value) ?? String(value)}: expected ${expected}`);
  };
  return {
    serialize: (value) => (value instanceof Date ? value.toISOString() : value),
    parseValue: check,
    parseLiteral: (ast) => check(ast.kind === Kind.STRING ? ast.value : valueFromASTUntyped(ast)),
  };
}

function validDay(text: string): boolean {
  const match = DATE.exec(text.slice(0, 10));
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export const dateTimeScalar = formattedString('DateTime', (text) => DATE_TIME.test(text) && validDay(text) && !Number.isNaN(Date.parse(text)), 'an ISO 8601 date-time');
export const dateScalar = formattedString('Date', (text) => text.length === 10 && validDay(text), 'a date (YYYY-MM-DD)');
export const timeScalar = formattedString('Time', (text) => TIME.test(text), 'a time (HH:mm:ss.SSS)');
export const localeCodeScalar = formattedString('I18NLocaleCode', (text) => text.length > 0 && text.length <= 64, 'a locale code or "*"');

/** Digits as a number when a number holds them exactly, else as the digits. */
function longValue(value: unknown): number | string {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (typeof value === 'string' && DIGITS.test(value)) {
    const number = Number(value);
    return Number.isSafeInteger(number) ? number : BigInt(value).toString();
  }
  throw new TypeError(`Long cannot represent ${JSON.stringify(value) ?? String(value)}: expected an integer`);
}

export const longScalar: ScalarResolver = {
  serialize: longValue,
  parseValue: longValue,
  parseLiteral: (ast) => {
    if (ast.kind === Kind.INT || ast.kind === Kind.STRING) return longValue(ast.value);
    throw new TypeError('Long cannot represent a non-integer value');
  },
};

/** The input scalar of one dynamic zone: entries are objects, checked further when written. */
export function zoneInputScalar(name: string): ScalarResolver {
  const check = (value: unknown): unknown => {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
    throw new TypeError(`${name} cannot represent ${JSON.stringify(value) ?? String(value)}: expected an object with __typename`);
  };
  return {
    serialize: (value) => value,
    parseValue: check,
    parseLiteral: (ast, variables) => check(jsonLiteral(ast, variables)),
  };
}

/** The scalars every schema declares, by name. */
export function standardScalars(): Record<string, ScalarResolver> {
  return {
    JSON: jsonScalar,
    DateTime: dateTimeScalar,
    Date: dateScalar,
    Time: timeScalar,
    Long: longScalar,
    I18NLocaleCode: localeCodeScalar,
  };
}
