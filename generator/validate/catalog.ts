/**
 * What capi accepts in a schema file, in one place: the attribute types, the options each type
 * takes and the enumerations of the format. The published JSON Schemas (json-schema.ts), the error
 * messages and the semantic checks all read these lists, so that they cannot disagree. The scalar
 * types and their options are the contract's table (templates/contract/scalar-types.ts).
 */
import type { GeneratedValue } from '../../templates/contract/generated-values.ts';
import type { JsonValue } from '../model/types.ts';
import { SCALAR_TYPE_NAMES, SCALAR_TYPE_SPECS, type AttributeOptions, type ScalarType as ScalarTypeName } from '../../templates/contract/scalar-types.ts';

export type { OptionShape } from '../../templates/contract/scalar-types.ts';
export type { ScalarTypeName };

/** The structured attribute types; the scalar ones are the contract's (templates/contract/scalar-types.ts). */
const STRUCTURED_TYPES = ['media', 'relation', 'component', 'dynamiczone'] as const;

export const ATTRIBUTE_TYPES = [...SCALAR_TYPE_NAMES, ...STRUCTURED_TYPES] as const;

export type AttributeTypeName = ScalarTypeName | (typeof STRUCTURED_TYPES)[number];

/** Types a component may hold: Strapi forbids dynamic zones inside components. */
export const COMPONENT_ATTRIBUTE_TYPES: readonly AttributeTypeName[] = ATTRIBUTE_TYPES.filter((t) => t !== 'dynamiczone');

export const RELATION_KINDS = ['oneToOne', 'oneToMany', 'manyToOne', 'manyToMany', 'oneWay', 'manyWay'] as const;

/**
 * Strapi's polymorphic relation kinds: accepted, and left out of the API with a note
 * (normalize.ts), since capi has no typed shape for a link to entries of any type.
 */
export const POLYMORPHIC_RELATION_KINDS = ['morphToOne', 'morphToMany', 'morphOne', 'morphMany'] as const;

/** The `morphTo*` kinds name no target: the other side names them with `morphBy`. */
export const TARGETLESS_RELATION_KINDS: readonly string[] = ['morphToOne', 'morphToMany'];

/**
 * `"type": "customField"`: a field a plugin registers on top of a built-in type. Strapi's schema
 * file names only the plugin's field (`customField`), and Strapi finds the stored type in the
 * plugin's registry at start-up; capi has no plugins, so it keeps the registry of the popular
 * ones here (a project adds its own in capi.config.json, project-config.ts) and serves every
 * other custom field as `json` (any value, stored as given), with a warning naming it.
 */
export const CUSTOM_FIELD_TYPE = 'customField';

/** What a custom field is served as: the stored type, and what the plugin fills on create. */
export interface CustomFieldMapping {
  readonly type: ScalarTypeName;
  /** Used on create when the body leaves the field out. */
  readonly default?: JsonValue;
  /** Generated on create when the body gives no value (what the plugin's lifecycle hook does). */
  readonly generate?: GeneratedValue;
}

export const CUSTOM_FIELDS: Readonly<Record<string, CustomFieldMapping>> = {
  'plugin::color-picker.color': { type: 'string' },
  'plugin::multi-select.multi-select': { type: 'json' },
  'plugin::ckeditor5.CKEditor': { type: 'richtext' },
  'plugin::ckeditor.CKEditor': { type: 'richtext' },
  'plugin::tinymce.tinymce': { type: 'richtext' },
  'plugin::country-select.country': { type: 'string' },
  // Registered as a uid; its lifecycle hook fills a version 4 UUID on create when none is given.
  'plugin::strapi-advanced-uuid.uuid': { type: 'uid', generate: 'uuid' },
  'plugin::google-maps.location-picker': { type: 'json' },
  'plugin::oembed.oembed': { type: 'text' },
  'plugin::strapi-plugin-sortable-list.sortable-list': { type: 'json' },
  'plugin::tagsinput.tags': { type: 'json' },
};

/** What an unknown custom field is served as: json takes whatever value the plugin stored. */
export const UNKNOWN_CUSTOM_FIELD_STORAGE: ScalarTypeName = 'json';

/**
 * Keys Strapi, its core plugins and common community plugins write into an attribute that do not
 * change the content API: accepted on every attribute type and ignored. Each says why, for the
 * published JSON Schema (editors show it).
 */
export const IGNORED_ATTRIBUTE_KEYS: Readonly<Record<string, string>> = {
  displayName: 'Label the Content-Type Builder wrote on some attributes (accepted, not used by capi).',
  conditions: 'Conditional fields of the Strapi admin (accepted, not used by capi: the API serves every field).',
  searchable: 'Strapi admin search option (accepted, not used by capi).',
  column: "Strapi's experimental database column settings (accepted, not used by capi: capi owns the storage layout).",
  writable: 'Internal Strapi option (accepted, not used by capi).',
  visible: 'Strapi admin visibility (accepted, not used by capi).',
  customField: 'UID of the custom field the Content-Type Builder used for this attribute (accepted; capi serves the attribute as its "type").',
  useJoinTable: 'Internal Strapi relation option (accepted, ignored: capi always stores relations in link tables).',
};

/** Keys of a content type's or component's `options` that do not change the content API. */
export const IGNORED_TYPE_OPTIONS: Readonly<Record<string, string>> = {
  comment: 'Free text (accepted, not used by capi).',
  populateCreatorFields: 'Strapi admin creator fields (accepted, not served by capi).',
  increments: 'Legacy Strapi v3 option (accepted, ignored: entries always have an id).',
  timestamps: 'Legacy Strapi v3 option (accepted, ignored: entries always have createdAt and updatedAt).',
  reviewWorkflows: 'Review workflows of the Strapi admin (accepted, not used by capi).',
};

export const MEDIA_KINDS = ['images', 'files', 'videos', 'audios'] as const;

export const CONTENT_TYPE_KINDS = ['collectionType', 'singleType'] as const;

/** Attribute types whose values are text, and may be the source of a uid. */
export const UID_TARGET_TYPES: readonly AttributeTypeName[] = ['string', 'text'];

type Options = AttributeOptions;

/** Structured types: `required` where Strapi has it; `private` hides the whole attribute, as in Strapi. */
function structured(own: Options): Options {
  return { ...own, private: 'boolean', configurable: 'boolean', pluginOptions: 'pluginOptions' };
}

/**
 * Options per attribute type, as Strapi 5's content-type builder writes them. Options missing
 * from a type's list are errors: capi would otherwise silently ignore a constraint the author
 * believes is enforced.
 */
const STRUCTURED_OPTIONS: Readonly<Record<(typeof STRUCTURED_TYPES)[number], Options>> = {
  media: structured({ multiple: 'boolean', required: 'boolean', allowedTypes: 'mediaKinds' }),
  // `required` on a relation: in Strapi's attribute types; accepted, not checked on writes.
  relation: structured({ relation: 'relationKind', target: 'string', inversedBy: 'string', mappedBy: 'string', morphBy: 'string', required: 'boolean' }),
  component: structured({ component: 'string', repeatable: 'boolean', required: 'boolean', min: 'count', max: 'count' }),
  dynamiczone: structured({ components: 'componentList', required: 'boolean', min: 'count', max: 'count' }),
};

/** Every scalar type's options, from its entry (built over every name, so complete). */
const SCALAR_OPTIONS = Object.fromEntries(SCALAR_TYPE_NAMES.map((type) => [type, SCALAR_TYPE_SPECS[type].options])) as Readonly<Record<ScalarTypeName, Options>>;

export const ATTRIBUTE_OPTIONS: Readonly<Record<AttributeTypeName, Options>> = { ...SCALAR_OPTIONS, ...STRUCTURED_OPTIONS };

/** Options an attribute of the type cannot do without. */
export const REQUIRED_OPTIONS: Readonly<Partial<Record<AttributeTypeName, readonly string[]>>> = {
  enumeration: ['enum'],
  relation: ['relation'], // and `target`, except for the morphTo* kinds (json-schema.ts)
  component: ['component'],
  dynamiczone: ['components'],
};

/**
 * Keys Strapi writes that capi recognises but does not implement, with the reason given to the
 * author instead of a bare "unknown key".
 */
export const UNSUPPORTED_KEYS: Readonly<Record<string, string>> = {
  targetAttribute: 'write the inverse side with "inversedBy"/"mappedBy" instead of "targetAttribute"',
};

/** The same, for the keys of an `indexes` entry: Strapi reads its `type`, capi builds plain indexes only. */
export const UNSUPPORTED_INDEX_KEYS: Readonly<Record<string, string>> = {
  type: 'remove "type": capi creates plain indexes; a "unique" attribute is kept unique among documents by the server',
};
