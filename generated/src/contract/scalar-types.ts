/**
 * Every scalar attribute type capi serves, in one table: what a schema file may say about it,
 * how its values are checked, stored (per database), served (REST and GraphQL), typed (OpenAPI,
 * TypeScript) and compared. Generator and runtime read their part of an entry instead of
 * switching over type names, so a new type is a compile error until each part is written, and
 * each consumer's table of behaviours (keyed by the small tags below) is complete by
 * construction. Steps: docs/architecture.md, "Adding a scalar type".
 */
import type { DatabaseKind } from './database.ts';

/** The shape a JSON value of an option must have; generator/validate/json-schema.ts turns it into a schema. */
export type OptionShape =
  | 'boolean'
  | 'string'
  | 'integer'
  | 'number'
  | 'count' // a non-negative integer
  | 'bigint' // an integer, or a string of digits (Strapi writes big integers as strings)
  | 'regex'
  | 'enumValues'
  | 'graphqlName' // a GraphQL type name, or '' (Strapi's "none")
  | 'mediaKinds'
  | 'componentList'
  | 'relationKind'
  | 'uidOptions'
  | 'pluginOptions'
  | 'any';

/** Options of an attribute in a schema file, each with the shape of its value. */
export type AttributeOptions = Readonly<Record<string, OptionShape>>;

/** `required`, the type's own options, then `private` and the options every type takes. */
function options(own: AttributeOptions): AttributeOptions {
  return { required: 'boolean', ...own, private: 'boolean', configurable: 'boolean', pluginOptions: 'pluginOptions' };
}

const TEXT_LENGTH: AttributeOptions = { minLength: 'count', maxLength: 'count' };

/** How `default` is checked beyond its JSON type (generator/validate/rules-defaults.ts). */
export type DefaultFormat = 'any' | 'enumeration' | 'date' | 'time' | 'datetime' | 'email' | 'uid';

/** How a body value is cast, checked and stored (templates/runtime/engine/body-scalars.ts). */
export type BodyCheck = 'string' | 'enumeration' | 'number' | 'boolean' | 'biginteger' | 'date' | 'datetime' | 'time' | 'json' | 'blocks';

/** How a filter value is coerced from its query-string text and bound to SQL (query/coerce.ts, engine/values.ts). */
export type Coercion = 'text' | 'number' | 'biginteger' | 'boolean' | 'date' | 'datetime' | 'time';

/** How a stored value becomes its API value (engine/values.ts decoders). */
export type Serialization = 'asIs' | 'number' | 'biginteger' | 'boolean' | 'date' | 'time' | 'datetime' | 'json';

/**
 * How values compare, in SQL (engine/values.ts: the expression compared and ordered, the
 * placeholder) and in memory (graphql/selection-match.ts).
 */
export type Comparison = 'text' | 'json' | 'number' | 'biginteger' | 'boolean' | 'date' | 'datetime' | 'time';

/** The TypeScript type of an entity's value in the server's generated modules (emit/modules.ts). */
export type EntityTsType = 'string' | 'number' | 'boolean' | 'json' | 'enumeration';

/**
 * What a column of the type can hold, the same on every database: every input path (query
 * filters, bodies, GraphQL arguments) checks a typed value against it before it reaches SQL
 * (templates/runtime/column-domains.ts applies it). PostgreSQL and MySQL refuse values outside
 * their column types (a 2^31 in an INTEGER, a NUL in TEXT or JSONB, 1e300 in DECIMAL(65,30),
 * year 0 in a DATE) with an error that would be a 500; SQLite stores most of them silently.
 */
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
  /** DATE, TIMESTAMPTZ: years 1 to 9999, the four-digit years every database reads back alike. */
  | { readonly kind: 'temporal' }
  /** TIME: `HH:mm:ss.SSS` is already bounded by its format. */
  | { readonly kind: 'time' };

/** INTEGER columns; row ids (`id`, media ids, upload ids) are INTEGER columns too. */
export const INT32_DOMAIN = { kind: 'integer', min: -(2n ** 31n), max: 2n ** 31n - 1n } as const satisfies ColumnDomain;
const INT64_DOMAIN = { kind: 'integer', min: -(2n ** 63n), max: 2n ** 63n - 1n } as const satisfies ColumnDomain;

/**
 * How `_q` (templates/runtime/engine/search.ts) looks at a column of the type: its text always,
 * its value as text only when the query reads as a number, or never (as Strapi: JSON, booleans,
 * dates; and passwords, which capi never lets a query probe).
 */
export type SearchForm = 'text' | 'number' | 'never';

/** Strapi's GraphQL scalars with a filter input, in the order Strapi registers the inputs. */
export const GRAPHQL_SCALARS = {
  String: { filterInput: 'StringFilterInput' },
  Int: { filterInput: 'IntFilterInput' },
  Long: { filterInput: 'LongFilterInput' },
  Float: { filterInput: 'FloatFilterInput' },
  Boolean: { filterInput: 'BooleanFilterInput' },
  Date: { filterInput: 'DateFilterInput' },
  DateTime: { filterInput: 'DateTimeFilterInput' },
  Time: { filterInput: 'TimeFilterInput' },
  JSON: { filterInput: 'JSONFilterInput' },
  ID: { filterInput: 'IDFilterInput' },
} as const satisfies Record<string, { readonly filterInput: string }>;

export type GraphqlScalar = keyof typeof GRAPHQL_SCALARS;

/** A JSON Schema (OpenAPI 3.1) of a value. */
export type ValueSchema = Readonly<Record<string, unknown>>;

/**
 * A column: its Prisma scalar type and, where the provider's default is not the column capi
 * wants, the native type attribute (`@db.<native>`).
 */
export interface ColumnType {
  readonly prisma: 'String' | 'Int' | 'BigInt' | 'Float' | 'Decimal' | 'Boolean' | 'DateTime' | 'Json';
  readonly native?: string;
}

export interface ScalarTypeSpec {
  /** What the type is, for schema-file authors (the published JSON Schema's description). */
  readonly description: string;
  /** Options of the attribute in a schema file (published JSON Schema, unknown-option errors). */
  readonly options: AttributeOptions;
  /** How `default` is checked beyond its JSON type. */
  readonly defaultFormat: DefaultFormat;
  /** How a body value is cast and checked. */
  readonly body: BodyCheck;
  /** The column on each database. Every attribute column is nullable (drafts). */
  readonly column: Readonly<Record<DatabaseKind, ColumnType>>;
  /** What the column can hold: values outside it are refused with a 400 before any SQL. */
  readonly domain: ColumnDomain;
  /**
   * Whether a unique attribute of the type gets a lookup index: long text and JSON values can
   * exceed what a B-tree entry holds (PostgreSQL) and cannot be indexed at all as LONGTEXT (MySQL).
   */
  readonly indexed: boolean;
  /** Strapi's GraphQL scalar of the type; enumerations are filtered as String. */
  readonly graphql: GraphqlScalar;
  /** JSON Schema of the value in REST answers and in writes (OpenAPI). */
  readonly jsonSchema: { readonly response: ValueSchema; readonly input: ValueSchema };
  /** TypeScript types: the server's entity value, the client's answer and write (client `capi.` names). */
  readonly typescript: { readonly entity: EntityTsType; readonly response: string; readonly input: string };
  /** How the stored value is served (REST and GraphQL answers). */
  readonly serialize: Serialization;
  /** How a filter value is coerced and bound. */
  readonly coerce: Coercion;
  /** How values compare and sort. */
  readonly compare: Comparison;
  /** How `_q` searches the column. */
  readonly search: SearchForm;
}

/** Text in a VARCHAR(255) on MySQL, as Strapi's `string` columns. */
const SHORT_TEXT: ScalarTypeSpec['column'] = { sqlite: { prisma: 'String' }, postgres: { prisma: 'String' }, mysql: { prisma: 'String', native: 'VarChar(255)' } };
/** Text without a length limit: TEXT on SQLite/PostgreSQL, LONGTEXT on MySQL. */
const LONG_TEXT: ScalarTypeSpec['column'] = { sqlite: { prisma: 'String' }, postgres: { prisma: 'String' }, mysql: { prisma: 'String', native: 'LongText' } };
/**
 * JSON: text on SQLite (a JSONB column would get NUMERIC affinity and turn "123" into a number),
 * JSONB on PostgreSQL, JSON on MySQL (LONGTEXT with a JSON check on MariaDB).
 */
const JSON_COLUMN: ScalarTypeSpec['column'] = { sqlite: { prisma: 'String' }, postgres: { prisma: 'Json' }, mysql: { prisma: 'Json' } };
/** Instants: ISO text on SQLite, TIMESTAMPTZ(3) on PostgreSQL, DATETIME(3) (UTC) on MySQL. */
const INSTANT_COLUMN: ScalarTypeSpec['column'] = {
  sqlite: { prisma: 'DateTime' },
  postgres: { prisma: 'DateTime', native: 'Timestamptz(3)' },
  mysql: { prisma: 'DateTime', native: 'DateTime(3)' },
};

const JSON_DOMAIN = { kind: 'json' } as const satisfies ColumnDomain;
const TEMPORAL_DOMAIN = { kind: 'temporal' } as const satisfies ColumnDomain;

const STRING_VALUE: ScalarTypeSpec['jsonSchema'] = { response: { type: 'string' }, input: { type: 'string' } };
const TEXT_TS: ScalarTypeSpec['typescript'] = { entity: 'string', response: 'string', input: 'string' };
const JSON_TS: ScalarTypeSpec['typescript'] = { entity: 'json', response: 'capi.JsonValue', input: 'capi.JsonValue' };

/** The parts every text type shares; the entries below add their options, column and checks. */
const TEXT = {
  defaultFormat: 'any',
  domain: { kind: 'text' },
  indexed: true,
  search: 'text',
  body: 'string',
  graphql: 'String',
  jsonSchema: STRING_VALUE,
  typescript: TEXT_TS,
  serialize: 'asIs',
  coerce: 'text',
  compare: 'text',
} as const satisfies Partial<ScalarTypeSpec>;

const INSTANT = {
  description: 'A date and time (ISO 8601).',
  options: options({ unique: 'boolean', default: 'string' }),
  defaultFormat: 'datetime',
  body: 'datetime',
  column: INSTANT_COLUMN,
  domain: TEMPORAL_DOMAIN,
  indexed: true,
  graphql: 'DateTime',
  jsonSchema: { response: { type: 'string', format: 'date-time' }, input: { type: 'string', format: 'date-time' } },
  typescript: { entity: 'string', response: 'string', input: 'string | Date' },
  serialize: 'datetime',
  coerce: 'datetime',
  compare: 'datetime',
  search: 'never',
} as const satisfies ScalarTypeSpec;

const NUMBER_TS: ScalarTypeSpec['typescript'] = { entity: 'number', response: 'number', input: 'number' };

/** The table. Key order is the order capi lists types in (schema files' JSON Schema, messages). */
export const SCALAR_TYPES = {
  string: {
    ...TEXT,
    description: 'Short text (a single line, up to 255 characters by default).',
    options: options({ unique: 'boolean', default: 'string', ...TEXT_LENGTH, regex: 'regex' }),
    column: SHORT_TEXT,
  },
  text: { ...TEXT, description: 'Long plain text.', options: options({ unique: 'boolean', default: 'string', ...TEXT_LENGTH, regex: 'regex' }), column: LONG_TEXT, indexed: false },
  richtext: { ...TEXT, description: 'Markdown text.', options: options({ default: 'string', ...TEXT_LENGTH }), column: LONG_TEXT, indexed: false },
  blocks: {
    description: 'Strapi blocks rich text (a JSON array of blocks).',
    options: options({}),
    defaultFormat: 'any',
    body: 'blocks',
    column: JSON_COLUMN,
    domain: JSON_DOMAIN,
    indexed: false,
    graphql: 'JSON',
    jsonSchema: { response: { type: 'array', items: { type: 'object' } }, input: { type: 'array', items: { type: 'object' } } },
    typescript: JSON_TS,
    serialize: 'json',
    coerce: 'text',
    compare: 'json',
    search: 'never',
  },
  email: {
    ...TEXT,
    description: 'An e-mail address.',
    options: options({ unique: 'boolean', default: 'string', ...TEXT_LENGTH }),
    defaultFormat: 'email',
    column: SHORT_TEXT,
    jsonSchema: { response: { type: 'string', format: 'email' }, input: { type: 'string', format: 'email' } },
  },
  // Never served, filtered or searched; no lookup index, since nothing looks a password up by value.
  password: { ...TEXT, description: 'A password: never returned by the API.', options: options({ ...TEXT_LENGTH }), column: SHORT_TEXT, indexed: false, search: 'never' },
  uid: {
    ...TEXT,
    description: 'A URL-friendly identifier, optionally generated from another attribute ("targetField").',
    options: options({ targetField: 'string', options: 'uidOptions', default: 'string', ...TEXT_LENGTH, regex: 'regex' }),
    defaultFormat: 'uid',
    column: SHORT_TEXT,
  },
  integer: {
    description: 'A 32-bit integer.',
    options: options({ unique: 'boolean', default: 'integer', min: 'integer', max: 'integer' }),
    defaultFormat: 'any',
    body: 'number',
    column: { sqlite: { prisma: 'Int' }, postgres: { prisma: 'Int' }, mysql: { prisma: 'Int' } },
    domain: INT32_DOMAIN,
    indexed: true,
    graphql: 'Int',
    jsonSchema: { response: { type: 'integer' }, input: { type: 'integer' } },
    typescript: NUMBER_TS,
    serialize: 'asIs',
    coerce: 'number',
    compare: 'number',
    search: 'number',
  },
  biginteger: {
    description: 'A 64-bit integer, returned as a string.',
    options: options({ unique: 'boolean', default: 'bigint', min: 'bigint', max: 'bigint' }),
    defaultFormat: 'any',
    body: 'biginteger',
    column: { sqlite: { prisma: 'BigInt' }, postgres: { prisma: 'BigInt' }, mysql: { prisma: 'BigInt' } },
    domain: INT64_DOMAIN,
    indexed: true,
    graphql: 'Long',
    // Answered as a digit string (JSON numbers lose precision past 2^53); written as either.
    jsonSchema: { response: { type: 'string', pattern: '^-?\\d+$' }, input: { type: ['string', 'integer'] } },
    typescript: { entity: 'string', response: 'string', input: 'string | number' },
    serialize: 'biginteger',
    coerce: 'biginteger',
    compare: 'biginteger',
    search: 'number',
  },
  decimal: {
    description: 'A decimal number.',
    options: options({ unique: 'boolean', default: 'number', min: 'number', max: 'number' }),
    defaultFormat: 'any',
    body: 'number',
    // Prisma's Decimal is DECIMAL(65,30) on PostgreSQL and MySQL, bounded by its domain.
    column: { sqlite: { prisma: 'Decimal' }, postgres: { prisma: 'Decimal' }, mysql: { prisma: 'Decimal', native: 'Decimal(65, 30)' } },
    domain: { kind: 'decimal', integerDigits: 35 },
    indexed: true,
    graphql: 'Float',
    jsonSchema: { response: { type: 'number' }, input: { type: 'number' } },
    typescript: NUMBER_TS,
    serialize: 'number',
    coerce: 'number',
    compare: 'number',
    search: 'number',
  },
  float: {
    description: 'A floating-point number.',
    options: options({ unique: 'boolean', default: 'number', min: 'number', max: 'number' }),
    defaultFormat: 'any',
    body: 'number',
    column: { sqlite: { prisma: 'Float' }, postgres: { prisma: 'Float' }, mysql: { prisma: 'Float' } },
    domain: { kind: 'float' },
    indexed: true,
    graphql: 'Float',
    jsonSchema: { response: { type: 'number' }, input: { type: 'number' } },
    typescript: NUMBER_TS,
    serialize: 'number',
    coerce: 'number',
    compare: 'number',
    search: 'number',
  },
  boolean: {
    description: 'true or false.',
    options: options({ default: 'boolean' }),
    defaultFormat: 'any',
    body: 'boolean',
    column: { sqlite: { prisma: 'Boolean' }, postgres: { prisma: 'Boolean' }, mysql: { prisma: 'Boolean', native: 'TinyInt(1)' } },
    domain: { kind: 'boolean' },
    indexed: true,
    graphql: 'Boolean',
    jsonSchema: { response: { type: 'boolean' }, input: { type: 'boolean' } },
    typescript: { entity: 'boolean', response: 'boolean', input: 'boolean' },
    serialize: 'boolean',
    coerce: 'boolean',
    compare: 'boolean',
    search: 'never',
  },
  date: {
    description: 'A calendar date (YYYY-MM-DD).',
    options: options({ unique: 'boolean', default: 'string' }),
    defaultFormat: 'date',
    body: 'date',
    column: { sqlite: { prisma: 'DateTime' }, postgres: { prisma: 'DateTime', native: 'Date' }, mysql: { prisma: 'DateTime', native: 'Date' } },
    domain: TEMPORAL_DOMAIN,
    indexed: true,
    graphql: 'Date',
    jsonSchema: { response: { type: 'string', format: 'date' }, input: { type: 'string', format: 'date' } },
    typescript: TEXT_TS,
    serialize: 'date',
    coerce: 'date',
    compare: 'date',
    search: 'never',
  },
  datetime: INSTANT,
  time: {
    description: 'A time of day (HH:mm:ss.SSS).',
    options: options({ unique: 'boolean', default: 'string' }),
    defaultFormat: 'time',
    body: 'time',
    // `HH:mm:ss.SSS` text on SQLite.
    column: { sqlite: { prisma: 'String' }, postgres: { prisma: 'DateTime', native: 'Time(3)' }, mysql: { prisma: 'DateTime', native: 'Time(3)' } },
    domain: { kind: 'time' },
    indexed: true,
    graphql: 'Time',
    jsonSchema: { response: { type: 'string', format: 'time' }, input: { type: 'string', format: 'time' } },
    typescript: TEXT_TS,
    serialize: 'time',
    coerce: 'time',
    compare: 'time',
    search: 'never',
  },
  timestamp: { ...INSTANT, description: 'A date and time (ISO 8601), stored as a timestamp.' },
  enumeration: {
    ...TEXT,
    description: 'One value out of a fixed list ("enum").',
    options: options({ enum: 'enumValues', default: 'string', enumName: 'graphqlName' }),
    defaultFormat: 'enumeration',
    body: 'enumeration',
    column: SHORT_TEXT,
    typescript: { entity: 'enumeration', response: 'string', input: 'string' },
  },
  json: {
    description: 'Any JSON value.',
    options: options({ default: 'any' }),
    defaultFormat: 'any',
    body: 'json',
    column: JSON_COLUMN,
    domain: JSON_DOMAIN,
    indexed: false,
    graphql: 'JSON',
    jsonSchema: { response: {}, input: {} },
    typescript: JSON_TS,
    serialize: 'json',
    coerce: 'text',
    compare: 'json',
    search: 'never',
  },
} as const satisfies Record<string, ScalarTypeSpec>;

export type ScalarType = keyof typeof SCALAR_TYPES;

/** The table, typed by its interface (so that consumers read a ScalarTypeSpec of any type). */
export const SCALAR_TYPE_SPECS: Readonly<Record<ScalarType, ScalarTypeSpec>> = SCALAR_TYPES;

/** Scalar type names in table order. */
export const SCALAR_TYPE_NAMES = Object.keys(SCALAR_TYPES) as ScalarType[];

export function isScalarType(name: string): name is ScalarType {
  return Object.hasOwn(SCALAR_TYPES, name);
}

/** The spec of a scalar type. */
export function scalarSpec(type: ScalarType): ScalarTypeSpec {
  return SCALAR_TYPE_SPECS[type];
}
