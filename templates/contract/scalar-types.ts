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
  /** Options of the attribute in a schema file (published JSON Schema, unknown-option errors). */
  readonly options: AttributeOptions;
  /** How `default` is checked beyond its JSON type. */
  readonly defaultFormat: DefaultFormat;
  /** How a body value is cast and checked. */
  readonly body: BodyCheck;
  /** The column on each database. Every attribute column is nullable (drafts). */
  readonly column: Readonly<Record<DatabaseKind, ColumnType>>;
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

const STRING_VALUE: ScalarTypeSpec['jsonSchema'] = { response: { type: 'string' }, input: { type: 'string' } };
const TEXT_TS: ScalarTypeSpec['typescript'] = { entity: 'string', response: 'string', input: 'string' };
const JSON_TS: ScalarTypeSpec['typescript'] = { entity: 'json', response: 'capi.JsonValue', input: 'capi.JsonValue' };

/** The parts every text type shares; the entries below add their options, column and checks. */
const TEXT = {
  defaultFormat: 'any',
  body: 'string',
  graphql: 'String',
  jsonSchema: STRING_VALUE,
  typescript: TEXT_TS,
  serialize: 'asIs',
  coerce: 'text',
  compare: 'text',
} as const satisfies Partial<ScalarTypeSpec>;

const INSTANT = {
  options: options({ unique: 'boolean', default: 'string' }),
  defaultFormat: 'datetime',
  body: 'datetime',
  column: INSTANT_COLUMN,
  graphql: 'DateTime',
  jsonSchema: { response: { type: 'string', format: 'date-time' }, input: { type: 'string', format: 'date-time' } },
  typescript: { entity: 'string', response: 'string', input: 'string | Date' },
  serialize: 'datetime',
  coerce: 'datetime',
  compare: 'datetime',
} as const satisfies ScalarTypeSpec;

const NUMBER_TS: ScalarTypeSpec['typescript'] = { entity: 'number', response: 'number', input: 'number' };

/** The table. Key order is the order capi lists types in (schema files' JSON Schema, messages). */
export const SCALAR_TYPES = {
  string: { ...TEXT, options: options({ unique: 'boolean', default: 'string', ...TEXT_LENGTH, regex: 'regex' }), column: SHORT_TEXT },
  text: { ...TEXT, options: options({ unique: 'boolean', default: 'string', ...TEXT_LENGTH, regex: 'regex' }), column: LONG_TEXT },
  richtext: { ...TEXT, options: options({ default: 'string', ...TEXT_LENGTH }), column: LONG_TEXT },
  blocks: {
    options: options({}),
    defaultFormat: 'any',
    body: 'blocks',
    column: JSON_COLUMN,
    graphql: 'JSON',
    jsonSchema: { response: { type: 'array', items: { type: 'object' } }, input: { type: 'array', items: { type: 'object' } } },
    typescript: JSON_TS,
    serialize: 'json',
    coerce: 'text',
    compare: 'json',
  },
  email: {
    ...TEXT,
    options: options({ unique: 'boolean', default: 'string', ...TEXT_LENGTH }),
    defaultFormat: 'email',
    column: SHORT_TEXT,
    jsonSchema: { response: { type: 'string', format: 'email' }, input: { type: 'string', format: 'email' } },
  },
  password: { ...TEXT, options: options({ ...TEXT_LENGTH }), column: SHORT_TEXT },
  uid: {
    ...TEXT,
    options: options({ targetField: 'string', options: 'uidOptions', default: 'string', ...TEXT_LENGTH, regex: 'regex' }),
    defaultFormat: 'uid',
    column: SHORT_TEXT,
  },
  integer: {
    options: options({ unique: 'boolean', default: 'integer', min: 'integer', max: 'integer' }),
    defaultFormat: 'any',
    body: 'number',
    column: { sqlite: { prisma: 'Int' }, postgres: { prisma: 'Int' }, mysql: { prisma: 'Int' } },
    graphql: 'Int',
    jsonSchema: { response: { type: 'integer' }, input: { type: 'integer' } },
    typescript: NUMBER_TS,
    serialize: 'asIs',
    coerce: 'number',
    compare: 'number',
  },
  biginteger: {
    options: options({ unique: 'boolean', default: 'bigint', min: 'bigint', max: 'bigint' }),
    defaultFormat: 'any',
    body: 'biginteger',
    column: { sqlite: { prisma: 'BigInt' }, postgres: { prisma: 'BigInt' }, mysql: { prisma: 'BigInt' } },
    graphql: 'Long',
    // Answered as a digit string (JSON numbers lose precision past 2^53); written as either.
    jsonSchema: { response: { type: 'string', pattern: '^-?\\d+$' }, input: { type: ['string', 'integer'] } },
    typescript: { entity: 'string', response: 'string', input: 'string | number' },
    serialize: 'biginteger',
    coerce: 'biginteger',
    compare: 'biginteger',
  },
  decimal: {
    options: options({ unique: 'boolean', default: 'number', min: 'number', max: 'number' }),
    defaultFormat: 'any',
    body: 'number',
    // Prisma's Decimal is DECIMAL(65,30) on PostgreSQL and MySQL (column-domains.ts bounds it).
    column: { sqlite: { prisma: 'Decimal' }, postgres: { prisma: 'Decimal' }, mysql: { prisma: 'Decimal', native: 'Decimal(65, 30)' } },
    graphql: 'Float',
    jsonSchema: { response: { type: 'number' }, input: { type: 'number' } },
    typescript: NUMBER_TS,
    serialize: 'number',
    coerce: 'number',
    compare: 'number',
  },
  float: {
    options: options({ unique: 'boolean', default: 'number', min: 'number', max: 'number' }),
    defaultFormat: 'any',
    body: 'number',
    column: { sqlite: { prisma: 'Float' }, postgres: { prisma: 'Float' }, mysql: { prisma: 'Float' } },
    graphql: 'Float',
    jsonSchema: { response: { type: 'number' }, input: { type: 'number' } },
    typescript: NUMBER_TS,
    serialize: 'number',
    coerce: 'number',
    compare: 'number',
  },
  boolean: {
    options: options({ default: 'boolean' }),
    defaultFormat: 'any',
    body: 'boolean',
    column: { sqlite: { prisma: 'Boolean' }, postgres: { prisma: 'Boolean' }, mysql: { prisma: 'Boolean', native: 'TinyInt(1)' } },
    graphql: 'Boolean',
    jsonSchema: { response: { type: 'boolean' }, input: { type: 'boolean' } },
    typescript: { entity: 'boolean', response: 'boolean', input: 'boolean' },
    serialize: 'boolean',
    coerce: 'boolean',
    compare: 'boolean',
  },
  date: {
    options: options({ unique: 'boolean', default: 'string' }),
    defaultFormat: 'date',
    body: 'date',
    column: { sqlite: { prisma: 'DateTime' }, postgres: { prisma: 'DateTime', native: 'Date' }, mysql: { prisma: 'DateTime', native: 'Date' } },
    graphql: 'Date',
    jsonSchema: { response: { type: 'string', format: 'date' }, input: { type: 'string', format: 'date' } },
    typescript: TEXT_TS,
    serialize: 'date',
    coerce: 'date',
    compare: 'date',
  },
  datetime: INSTANT,
  time: {
    options: options({ unique: 'boolean', default: 'string' }),
    defaultFormat: 'time',
    body: 'time',
    // `HH:mm:ss.SSS` text on SQLite.
    column: { sqlite: { prisma: 'String' }, postgres: { prisma: 'DateTime', native: 'Time(3)' }, mysql: { prisma: 'DateTime', native: 'Time(3)' } },
    graphql: 'Time',
    jsonSchema: { response: { type: 'string', format: 'time' }, input: { type: 'string', format: 'time' } },
    typescript: TEXT_TS,
    serialize: 'time',
    coerce: 'time',
    compare: 'time',
  },
  timestamp: INSTANT,
  enumeration: {
    ...TEXT,
    options: options({ enum: 'enumValues', default: 'string', enumName: 'graphqlName' }),
    defaultFormat: 'enumeration',
    body: 'enumeration',
    column: SHORT_TEXT,
    typescript: { entity: 'enumeration', response: 'string', input: 'string' },
  },
  json: {
    options: options({ default: 'any' }),
    defaultFormat: 'any',
    body: 'json',
    column: JSON_COLUMN,
    graphql: 'JSON',
    jsonSchema: { response: {}, input: {} },
    typescript: JSON_TS,
    serialize: 'json',
    coerce: 'text',
    compare: 'json',
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
