/**
 * Builds the two published JSON Schemas (schemas/content-type.schema.json and
 * schemas/component.schema.json) from the catalog. The structural validator compiles these very
 * objects, and a test checks that the published files are byte-identical to them, so what editors
 * autocomplete is what `capi validate` enforces.
 *
 * Draft-07 is used because it is what ajv's default build and most editors handle best. Attributes
 * are a discriminated union on `type` written as `if`/`then` pairs (not `oneOf`): an attribute is
 * checked against its declared type's options only, which gives one error per problem and lets
 * editors complete the options of the type being written.
 */
import {
  ATTRIBUTE_OPTIONS,
  ATTRIBUTE_TYPES,
  COMPONENT_ATTRIBUTE_TYPES,
  CONTENT_TYPE_KINDS,
  CUSTOM_FIELD_TYPE,
  IGNORED_ATTRIBUTE_KEYS,
  IGNORED_TYPE_OPTIONS,
  MEDIA_KINDS,
  POLYMORPHIC_RELATION_KINDS,
  RELATION_KINDS,
  TARGETLESS_RELATION_KINDS,
  REQUIRED_OPTIONS,
  type AttributeTypeName,
  type OptionShape,
  type ScalarTypeName,
} from './catalog.ts';
import { SCALAR_TYPE_NAMES, SCALAR_TYPE_SPECS } from '../../templates/contract/scalar-types.ts';

/** A JSON Schema node; kept loose on purpose, as JSON Schema itself is. */
export type JsonSchema = { readonly [keyword: string]: unknown };

const DRAFT = 'http://json-schema.org/draft-07/schema#';
export const CONTENT_TYPE_SCHEMA_ID = 'urn:capi:schema:content-type';
export const COMPONENT_SCHEMA_ID = 'urn:capi:schema:component';

/** Pattern of a kebab-case API name (`blog-post`). */
export const KEBAB_CASE = '^[a-z][a-z0-9]*(-[a-z0-9]+)*$';
/** Pattern of a SQL table name that needs no quoting. */
export const TABLE_NAME = '^[A-Za-z][A-Za-z0-9_-]*$';

/** What each attribute type is: a scalar type's description is its entry in the contract's SCALAR_TYPES. */
const TYPE_DESCRIPTIONS: Readonly<Record<AttributeTypeName, string>> = {
  ...(Object.fromEntries(SCALAR_TYPE_NAMES.map((type) => [type, SCALAR_TYPE_SPECS[type].description])) as Record<ScalarTypeName, string>),
  media: 'One or several uploaded files ("multiple").',
  relation: 'A link to entries of another content type.',
  component: 'An embedded component, single or repeatable.',
  dynamiczone: 'An ordered list of components of several kinds.',
};

const OPTION_DESCRIPTIONS: Readonly<Record<string, string>> = {
  type: 'The attribute type.',
  required: 'A value must be given on create and update.',
  private: 'The attribute never leaves the server: not in responses, filters, sort, fields or populate.',
  configurable: 'Whether the attribute can be edited in the Strapi admin (no effect in capi).',
  pluginOptions: 'Per-plugin options; capi reads i18n.localized.',
  unique: 'No two entries may hold the same value.',
  default: 'Value used when none is given on create.',
  minLength: 'Minimum number of characters.',
  maxLength: 'Maximum number of characters.',
  regex: 'JavaScript regular expression every value must match.',
  min: 'Minimum value.',
  max: 'Maximum value.',
  targetField: 'Name of the string or text attribute the uid is generated from.',
  options: 'How the uid is generated from targetField.',
  enum: 'The allowed values (strings; GraphQL names each as Strapi does: datetime-local is datetime_local).',
  enumName: 'Name of the GraphQL enum type (ENUM_<TYPE>_<ATTRIBUTE> when absent or empty).',
  multiple: 'Whether the attribute holds several files.',
  allowedTypes: 'Kinds of files allowed; every kind when absent.',
  relation: 'The relation kind.',
  target: 'UID of the target content type, e.g. "api::author.author".',
  inversedBy: 'Attribute of the target that points back; this side owns the relation.',
  mappedBy: 'Attribute of the target that owns the relation (it declares inversedBy).',
  morphBy: 'Attribute of the target that holds a polymorphic (morphTo*) relation back (accepted; polymorphic relations are not served).',
  component: 'UID of the component, "<category>.<name>".',
  repeatable: 'Whether the attribute holds a list of components.',
  components: 'UIDs of the components allowed in the zone, "<category>.<name>".',
};

/** Descriptions of options whose meaning depends on the type. */
const COUNT_DESCRIPTIONS: Readonly<Record<string, string>> = {
  min: 'Minimum number of entries (repeatable components and dynamic zones).',
  max: 'Maximum number of entries (repeatable components and dynamic zones).',
};

function shapeSchema(shape: OptionShape): JsonSchema {
  switch (shape) {
    case 'boolean':
      return { type: 'boolean' };
    case 'string':
      return { type: 'string' };
    case 'integer':
      return { type: 'integer' };
    case 'number':
      return { type: 'number' };
    case 'count':
      return { type: 'integer', minimum: 0, errorMessage: 'must be a non-negative integer' };
    case 'bigint':
      return { type: ['integer', 'string'], pattern: '^-?[0-9]+$', errorMessage: 'must be an integer, or a string of digits' };
    case 'regex':
      return { type: 'string', examples: ['^[a-z]+$'] };
    case 'graphqlName':
      return { type: 'string', pattern: '^([A-Za-z][_0-9A-Za-z]*)?$', errorMessage: 'must be a GraphQL type name: a letter, then letters, digits or "_"' };
    case 'enumValues':
      return { type: 'array', minItems: 1, items: { type: 'string' }, examples: [['draft', 'published']] };
    case 'mediaKinds':
      return { type: 'array', minItems: 1, uniqueItems: true, items: { enum: [...MEDIA_KINDS] } };
    case 'componentList':
      return { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string' }, examples: [['shared.quote', 'shared.media']] };
    case 'relationKind':
      return { enum: [...RELATION_KINDS, ...POLYMORPHIC_RELATION_KINDS] };
    case 'uidOptions':
      return { $ref: '#/definitions/uidOptions' };
    case 'pluginOptions':
      return { $ref: '#/definitions/attributePluginOptions' };
    case 'any':
      return {};
  }
}

function optionSchema(type: AttributeTypeName, key: string, shape: OptionShape): JsonSchema {
  const description = key === 'type' ? TYPE_DESCRIPTIONS[type] : shape === 'count' ? (COUNT_DESCRIPTIONS[key] ?? OPTION_DESCRIPTIONS[key]) : OPTION_DESCRIPTIONS[key];
  return { description, ...shapeSchema(shape) };
}

function attributeTypeSchema(type: AttributeTypeName): JsonSchema {
  const properties: Record<string, JsonSchema> = { type: { const: type, description: TYPE_DESCRIPTIONS[type] } };
  for (const [key, shape] of Object.entries(ATTRIBUTE_OPTIONS[type])) properties[key] = optionSchema(type, key, shape);
  Object.assign(properties, ignoredKeys());
  const required = ['type', ...(REQUIRED_OPTIONS[type] ?? [])];
  const schema = { type: 'object', description: TYPE_DESCRIPTIONS[type], additionalProperties: false, required, properties };
  if (type !== 'relation') return schema;
  // Every relation names its target but a morphTo* one, whose other side names it (morphBy).
  const targetless = { type: 'object', required: ['relation'], properties: { relation: { enum: [...TARGETLESS_RELATION_KINDS] } } };
  return { ...schema, if: targetless, else: { required: ['target'], properties: { target: properties['target'] } } };
}

/** Keys Strapi writes that do not change the content API: any value, ignored. */
function ignoredKeys(): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(IGNORED_ATTRIBUTE_KEYS).map(([key, description]) => [key, { description }]));
}

const CUSTOM_FIELD_DESCRIPTION =
  "A plugin's custom field: served as the built-in type the plugin stores (string for a color picker, json for a multi-select, richtext for CKEditor; json when capi does not know the plugin).";

/** `"type": "customField"`: the plugin's field UID, its options, and the options every scalar takes. */
function customFieldSchema(): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    ...ignoredKeys(),
    type: { const: CUSTOM_FIELD_TYPE, description: CUSTOM_FIELD_DESCRIPTION },
    customField: { type: 'string', description: 'UID of the custom field, "plugin::<plugin>.<field>".', examples: ['plugin::color-picker.color'] },
    // An object for most plugins, a list of choices for multi-select: any value.
    options: { description: "The custom field's own options (accepted, not used by capi)." },
  };
  for (const [key, shape] of Object.entries(ATTRIBUTE_OPTIONS.json)) properties[key] ??= optionSchema('json', key, shape);
  for (const key of ['unique', 'minLength', 'maxLength', 'min', 'max', 'regex', 'enum'] as const) {
    properties[key] = { description: `${OPTION_DESCRIPTIONS[key] ?? key} Checked when the stored type takes it.` };
  }
  return { type: 'object', description: CUSTOM_FIELD_DESCRIPTION, additionalProperties: false, required: ['type', 'customField'], properties };
}

/** The union: `type` picks the schema the rest of the attribute is checked against. */
function attributeSchema(types: readonly AttributeTypeName[]): JsonSchema {
  const names = [...types, CUSTOM_FIELD_TYPE];
  return {
    type: 'object',
    description: 'An attribute: "type" and the options of that type.',
    errorMessage: 'must be an object with a "type", e.g. {"type": "string"}',
    required: ['type'],
    properties: { type: { type: 'string', enum: names, description: OPTION_DESCRIPTIONS['type'] } },
    allOf: names.map((type) => ({
      if: { type: 'object', required: ['type'], properties: { type: { const: type } } },
      then: { $ref: `#/definitions/${type}` },
    })),
  };
}

function attributeDefinitions(types: readonly AttributeTypeName[]): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const type of types) out[type] = attributeTypeSchema(type);
  out[CUSTOM_FIELD_TYPE] = customFieldSchema();
  return out;
}

/** `options` of a content type or a component: what capi reads, then what it accepts and ignores. */
function typeOptionsSchema(description: string, read: Record<string, JsonSchema>): JsonSchema {
  const ignored = Object.fromEntries(Object.entries(IGNORED_TYPE_OPTIONS).map(([key, text]) => [key, { description: text }]));
  return { type: 'object', description, additionalProperties: false, properties: { ...ignored, ...read } };
}

const CONFIG_KEY: JsonSchema = { type: 'object', description: 'Strapi admin settings of the Content-Type Builder (accepted, not used by capi).' };

/** `pluginOptions` of a type or an attribute: i18n is checked, other plugins pass through. */
function pluginOptionsSchema(description: string): JsonSchema {
  return {
    type: 'object',
    description,
    properties: {
      i18n: {
        type: 'object',
        description: 'Internationalization plugin options.',
        additionalProperties: false,
        properties: { localized: { type: 'boolean', description: 'Whether the value differs per locale.' } },
      },
    },
    additionalProperties: { description: 'Options of another Strapi plugin (accepted, not used by capi).' },
  };
}

const UID_OPTIONS: JsonSchema = {
  type: 'object',
  description: 'How the uid is generated from targetField.',
  additionalProperties: false,
  properties: {
    separator: { type: 'string', description: 'Separator between words (default "-").' },
    lowercase: { type: 'boolean', description: 'Lower-case the generated uid (default true).' },
    decamelize: { type: 'boolean', description: 'Split camelCase words (default true).' },
    customReplacements: {
      type: 'array',
      description: 'Pairs [from, to] applied before slugifying.',
      items: { type: 'array', minItems: 2, maxItems: 2, items: { type: 'string' } },
    },
    preserveLeadingUnderscore: { type: 'boolean', description: 'Keep a leading underscore.' },
  },
};

const INDEXES: JsonSchema = {
  type: 'array',
  description: "More database indexes (Strapi's experimental `indexes` key), for the columns this type's entries are filtered or sorted by; unique fields and uids are indexed already.",
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['columns'],
    properties: {
      name: {
        type: 'string',
        pattern: TABLE_NAME,
        maxLength: 63,
        errorMessage: 'must be an index name: a letter, then letters, digits, "_" or "-", at most 63 characters',
        description: 'Index name in the database (default <table>_<columns>_idx).',
      },
      columns: {
        type: 'array',
        minItems: 1,
        items: { type: 'string' },
        description: 'Indexed columns, in order: attribute names or their column names, or document_id, locale, published_at, created_at, updated_at.',
        examples: [['published_at'], ['reading_time', 'created_at']],
      },
    },
  },
};

const SCHEMA_KEY: JsonSchema = { type: 'string', description: 'Path or URL of this JSON Schema, for editors.' };

function attributesSchema(): JsonSchema {
  return {
    type: 'object',
    description: 'The attributes, by name. Names are GraphQL/TypeScript identifiers, camelCase by convention.',
    additionalProperties: { $ref: '#/definitions/attribute' },
  };
}

function infoSchema(required: readonly string[], extra: Record<string, JsonSchema>): JsonSchema {
  return {
    type: 'object',
    description: 'Names and labels.',
    additionalProperties: false,
    required: [...required],
    properties: {
      ...extra,
      displayName: { type: 'string', minLength: 1, description: 'Human-readable name.' },
      description: { type: 'string', description: 'Free text.' },
      icon: { type: 'string', description: 'Strapi admin icon (accepted, not used by capi).' },
      name: { type: 'string', description: 'Legacy Strapi v3 name (accepted, not used by capi).' },
    },
  };
}

export function contentTypeSchema(): JsonSchema {
  return {
    $schema: DRAFT,
    $id: CONTENT_TYPE_SCHEMA_ID,
    title: 'capi content type',
    description: 'A Strapi 5 content-type schema (schema.json) as capi accepts it.',
    type: 'object',
    additionalProperties: false,
    required: ['kind', 'collectionName', 'info', 'attributes'],
    properties: {
      $schema: SCHEMA_KEY,
      kind: { enum: [...CONTENT_TYPE_KINDS], description: 'collectionType (many entries) or singleType (one entry).' },
      collectionName: {
        type: 'string',
        pattern: TABLE_NAME,
        maxLength: 63,
        errorMessage: 'must be a table name: a letter, then letters, digits, "_" or "-", at most 63 characters',
        examples: ['blog_posts'],
        description: 'SQL table of the content type.',
      },
      info: infoSchema(['singularName', 'pluralName', 'displayName'], {
        singularName: kebabName('API ID of one entry: GraphQL type and single-entry routes.', 'blog-post'),
        pluralName: kebabName('API ID of the collection: REST route /api/<pluralName> and GraphQL list query.', 'blog-posts'),
      }),
      options: typeOptionsSchema('Content-type options.', {
        draftAndPublish: { type: 'boolean', description: 'Entries have a draft and a published version.' },
        privateAttributes: {
          type: 'array',
          items: { type: 'string' },
          description: 'Attributes that never leave the server, as if each had "private": true.',
        },
      }),
      pluginOptions: { $ref: '#/definitions/typePluginOptions' },
      config: CONFIG_KEY,
      indexes: INDEXES,
      attributes: attributesSchema(),
    },
    definitions: {
      typePluginOptions: pluginOptionsSchema('Per-plugin options; capi reads i18n.localized (the type has one version per locale).'),
      attributePluginOptions: pluginOptionsSchema('Per-plugin options; capi reads i18n.localized (the value differs per locale).'),
      uidOptions: UID_OPTIONS,
      attribute: attributeSchema(ATTRIBUTE_TYPES),
      ...attributeDefinitions(ATTRIBUTE_TYPES),
    },
  };
}

export function componentSchema(): JsonSchema {
  return {
    $schema: DRAFT,
    $id: COMPONENT_SCHEMA_ID,
    title: 'capi component',
    description: 'A Strapi 5 component schema (components/<category>/<name>.json) as capi accepts it.',
    type: 'object',
    additionalProperties: false,
    required: ['info', 'attributes'],
    properties: {
      $schema: SCHEMA_KEY,
      collectionName: {
        type: 'string',
        pattern: TABLE_NAME,
        maxLength: 63,
        errorMessage: 'must be a table name: a letter, then letters, digits, "_" or "-", at most 63 characters',
        examples: ['components_shared_seos'],
        description: 'SQL table of the component; components_<category>_<name>s when absent.',
      },
      info: infoSchema(['displayName'], {}),
      options: typeOptionsSchema('Component options.', {}),
      pluginOptions: { $ref: '#/definitions/typePluginOptions' },
      config: CONFIG_KEY,
      attributes: attributesSchema(),
    },
    definitions: {
      typePluginOptions: pluginOptionsSchema('Per-plugin options of the component (accepted, not used by capi).'),
      attributePluginOptions: pluginOptionsSchema('Per-plugin options; i18n.localized must not be true (a component follows the field that holds it).'),
      uidOptions: UID_OPTIONS,
      attribute: attributeSchema(COMPONENT_ATTRIBUTE_TYPES),
      ...attributeDefinitions(COMPONENT_ATTRIBUTE_TYPES),
    },
  };
}

function kebabName(description: string, example: string): JsonSchema {
  return {
    type: 'string',
    pattern: KEBAB_CASE,
    errorMessage: `must be a kebab-case name like "${example}"`,
    examples: [example],
    description,
  };
}
