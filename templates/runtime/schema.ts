/**
 * The static description of content types and components that generated code hands to the
 * runtime. Generation writes one constant per type (src/api/<name>/schema.ts,
 * src/components/<category>/<name>.ts); the runtime validates queries against these tables and
 * plans SQL from them, with no schema reflection at request time.
 */

import type { GeneratedValue } from '../contract/generated-values.ts';
import type { ScalarType } from '../contract/scalar-types.ts';

/** The scalar attribute types are the contract's (SCALAR_TYPES). */
export type { ScalarType };

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

interface FieldBase {
  readonly required: boolean;
  readonly private: boolean;
  readonly localized: boolean;
}

export interface ScalarField extends FieldBase {
  readonly kind: 'scalar';
  readonly type: ScalarType;
  readonly column: string;
  readonly unique: boolean;
  readonly default?: JsonValue;
  /** Generated on create when the body gives no value (a custom field's behaviour, e.g. a UUID). */
  readonly generated?: GeneratedValue;
  readonly min?: number;
  readonly max?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly regex?: string;
  readonly enum?: readonly string[];
  readonly targetField?: string;
}

export interface RelationField extends FieldBase {
  readonly kind: 'relation';
  readonly target: string;
  readonly cardinality: 'one' | 'many';
  /** True on the side whose link table rows reference this type's rows. */
  readonly owner: boolean;
  readonly linkTable: string;
  readonly inverse?: string;
}

export interface MediaField extends FieldBase {
  readonly kind: 'media';
  readonly multiple: boolean;
  readonly allowedTypes: readonly string[];
}

export interface ComponentField extends FieldBase {
  readonly kind: 'component';
  readonly component: string;
  readonly repeatable: boolean;
  readonly min?: number;
  readonly max?: number;
}

export interface DynamicZoneField extends FieldBase {
  readonly kind: 'dynamiczone';
  readonly components: readonly string[];
  readonly min?: number;
  readonly max?: number;
}

export type Field = ScalarField | RelationField | MediaField | ComponentField | DynamicZoneField;

export interface ContentTypeSchema {
  readonly uid: string;
  readonly kind: 'collectionType' | 'singleType';
  readonly singularName: string;
  readonly pluralName: string;
  readonly table: string;
  readonly draftAndPublish: boolean;
  readonly localized: boolean;
  readonly attributes: Readonly<Record<string, Field>>;
}

export interface ComponentSchema {
  readonly uid: string;
  readonly table: string;
  readonly attributes: Readonly<Record<string, Field>>;
}

/** Everything the runtime knows about the model of the project it serves. */
export interface ModelSchema {
  readonly contentTypes: Readonly<Record<string, ContentTypeSchema>>;
  readonly components: Readonly<Record<string, ComponentSchema>>;
}
