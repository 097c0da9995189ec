/**
 * The intermediate representation every emitter reads. It is built once from validated schema
 * files (see build.ts), is deeply readonly, and already carries every derived name (tables,
 * columns, Prisma models, GraphQL types) so that emitters never re-derive or re-read raw JSON.
 */

import type { ScalarType } from '../../templates/contract/scalar-types.ts';

/** The scalar attribute types are the contract's (SCALAR_TYPES). */
export type { ScalarType };

/** Strapi's relation kinds; `oneWay`/`manyWay` are the spelled-out forms of relations without an inverse. */
export type RelationKind = 'oneToOne' | 'oneToMany' | 'manyToOne' | 'manyToMany' | 'oneWay' | 'manyWay';

export type MediaKind = 'images' | 'files' | 'videos' | 'audios';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

interface AttributeBase {
  /** Attribute name as written in the schema (camelCase by convention). */
  readonly name: string;
  readonly required: boolean;
  /**
   * Declared private (`private: true` or `options.privateAttributes`): never leaves the server, not
   * in responses, filters, sort, fields, populate or GraphQL types. A password is not private in
   * this sense: it is never returned either, but Strapi keeps it in GraphQL output types.
   */
  readonly private: boolean;
  readonly configurable: boolean;
  /** Per-locale value when the owning type is localized; always false on non-localized types. */
  readonly localized: boolean;
  /** JSON pointer of the attribute in its source file, for diagnostics raised after validation. */
  readonly pointer: string;
}

export interface ScalarAttribute extends AttributeBase {
  readonly kind: 'scalar';
  readonly type: ScalarType;
  /** SQL column name (snake_case). */
  readonly column: string;
  readonly unique: boolean;
  readonly default?: JsonValue;
  readonly min?: number;
  readonly max?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly regex?: string;
  /** Allowed values of an enumeration. */
  readonly enum?: readonly string[];
  /** The GraphQL name of an enumeration's enum type, when the schema sets `enumName`. */
  readonly enumName?: string;
  /** Source attribute of a uid. */
  readonly targetField?: string;
}

export interface MediaAttribute extends AttributeBase {
  readonly kind: 'media';
  readonly multiple: boolean;
  /** Empty means every kind is allowed. */
  readonly allowedTypes: readonly MediaKind[];
}

/**
 * A relation seen from one side. The side that owns the link table (`owner: true`) is the one
 * with `inversedBy`, or a one-way relation; the `mappedBy` side reads the owner's link table.
 */
export interface RelationAttribute extends AttributeBase {
  readonly kind: 'relation';
  readonly relation: RelationKind;
  /** UID of the target content type, e.g. `api::author.author`. */
  readonly target: string;
  /** Whether this side holds one target or a list. */
  readonly cardinality: 'one' | 'many';
  readonly owner: boolean;
  /** The attribute on the target that points back, if the relation is bidirectional. */
  readonly inverse?: string;
  /** Link table storing this relation (the owner side's). */
  readonly linkTable: string;
}

export interface ComponentAttribute extends AttributeBase {
  readonly kind: 'component';
  /** Component UID, e.g. `shared.seo`. */
  readonly component: string;
  readonly repeatable: boolean;
  readonly min?: number;
  readonly max?: number;
}

export interface DynamicZoneAttribute extends AttributeBase {
  readonly kind: 'dynamiczone';
  /** Component UIDs allowed in the zone, in schema order. */
  readonly components: readonly string[];
  readonly min?: number;
  readonly max?: number;
}

export type Attribute = ScalarAttribute | MediaAttribute | RelationAttribute | ComponentAttribute | DynamicZoneAttribute;

/** Names derived once for every structured type (content type or component). */
export interface DerivedNames {
  /** SQL table. */
  readonly table: string;
  /** Prisma model name (PascalCase, unique across the model). */
  readonly prismaModel: string;
  /** GraphQL object type (`Article`, `ComponentSharedSeo`). */
  readonly graphqlType: string;
  /** TypeScript interface name of an entity of this type (unique, see identifiers.ts). */
  readonly tsType: string;
  /** Constant of the static table (`articleSchema`, `componentSharedSeoSchema`). */
  readonly schemaConst: string;
}

/** A content type also has REST routes and a GraphQL binding, each a constant of its own module. */
export interface ContentTypeNames extends DerivedNames {
  /** `articleRoutes`. */
  readonly routesConst: string;
  /** `articleGraphql`. */
  readonly graphqlConst: string;
}

export interface ContentType {
  readonly uid: string; // api::<singular>.<singular>
  readonly kind: 'collectionType' | 'singleType';
  readonly singularName: string;
  readonly pluralName: string;
  readonly displayName: string;
  readonly description: string;
  readonly draftAndPublish: boolean;
  readonly localized: boolean;
  readonly attributes: readonly Attribute[];
  /**
   * Indexes the schema asks for beyond the ones every type gets (Strapi's experimental top-level
   * `indexes` key): each lists the attributes indexed, in order, by attribute name (system
   * columns as `documentId`, `locale`, `publishedAt`, `createdAt`, `updatedAt`).
   */
  readonly indexes: readonly TypeIndex[];
  readonly names: ContentTypeNames;
  /** Source file, relative to the content-types directory. */
  readonly file: string;
}

export interface TypeIndex {
  /** The index name in the database; Prisma's `<table>_<columns>_idx` when the schema gives none. */
  readonly name?: string;
  readonly attributes: readonly string[];
}

export interface Component {
  readonly uid: string; // <category>.<name>
  readonly category: string;
  readonly name: string;
  readonly displayName: string;
  readonly attributes: readonly Attribute[];
  readonly names: DerivedNames;
  readonly file: string;
}

/** A link table owned by one relation attribute. */
export interface LinkTable {
  readonly table: string;
  readonly prismaModel: string;
  /** UID of the type or component whose rows own the links. */
  readonly ownerUid: string;
  readonly ownerPrismaModel: string;
  readonly attribute: string;
  readonly targetUid: string;
  readonly cardinality: 'one' | 'many';
}

export interface Model {
  /** Sorted by uid, so that output is deterministic. */
  readonly contentTypes: readonly ContentType[];
  readonly components: readonly Component[];
  readonly linkTables: readonly LinkTable[];
}
