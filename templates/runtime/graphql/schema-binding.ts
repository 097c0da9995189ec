/**
 * How the GraphQL schema of a project names each content type and component: the one piece of
 * knowledge the runtime cannot derive from the static tables, because the names come from the
 * generator's naming rules (generator/model/graphql-names.ts) and the SDL it printed with them.
 * Generated code declares one binding per type (`src/api/<type>/graphql.ts`) and one per
 * component (`src/graphql/components.ts`) with the factories below; the resolvers
 * (resolvers.ts) are built from these bindings and the static tables, so a resolver never guesses
 * a name.
 *
 * The factories are typed against the static table they bind: every enumeration attribute must
 * have its enum, every dynamic zone its union, and no other attribute may appear, so a binding
 * that drifts from its schema does not compile.
 */
import type { ComponentSchema, ContentTypeSchema, Field } from '../schema.ts';

/** An enumeration attribute's GraphQL enum: its type name and, per GraphQL value name, the value stored. */
export interface GraphqlEnum {
  readonly typeName: string;
  readonly values: Readonly<Record<string, string>>;
}

interface HasAttributes {
  readonly attributes: Readonly<Record<string, Field>>;
}

/** Names of the enumeration attributes of a static table. */
export type EnumAttribute<S extends HasAttributes> = {
  [K in keyof S['attributes']]: S['attributes'][K] extends { readonly type: 'enumeration' } ? K : never;
}[keyof S['attributes']] &
  string;

/** Names of the dynamic zones of a static table. */
export type ZoneAttribute<S extends HasAttributes> = {
  [K in keyof S['attributes']]: S['attributes'][K] extends { readonly kind: 'dynamiczone' } ? K : never;
}[keyof S['attributes']] &
  string;

export type EnumBindings<S extends HasAttributes> = { readonly [K in EnumAttribute<S>]: GraphqlEnum };
export type ZoneBindings<S extends HasAttributes> = { readonly [K in ZoneAttribute<S>]: string };

export interface CollectionTypeNames<S extends ContentTypeSchema> {
  /** The object type: `Article`. */
  readonly typeName: string;
  /** `article(documentId)`, `articles`, `articles_connection`. */
  readonly queries: { readonly one: string; readonly many: string; readonly connection: string };
  /** `createArticle`, `updateArticle`, `deleteArticle`. */
  readonly mutations: { readonly create: string; readonly update: string; readonly delete: string };
  readonly enums: EnumBindings<S>;
  /** Per dynamic zone, its union (`ArticleBlocksDynamicZone`); the input scalar is the union's name + `Input`. */
  readonly dynamicZones: ZoneBindings<S>;
}

export interface SingleTypeNames<S extends ContentTypeSchema> {
  readonly typeName: string;
  /** `global`. */
  readonly queries: { readonly one: string };
  /** `updateGlobal`, `deleteGlobal`: a single type is created by its first update. */
  readonly mutations: { readonly update: string; readonly delete: string };
  readonly enums: EnumBindings<S>;
  readonly dynamicZones: ZoneBindings<S>;
}

export interface ComponentNames<S extends ComponentSchema> {
  /** `ComponentSharedSeo`. */
  readonly typeName: string;
  readonly enums: EnumBindings<S>;
}

/** What the resolvers read of a bound content type, whatever its kind. */
export interface ContentTypeBinding {
  readonly schema: ContentTypeSchema;
  readonly typeName: string;
  readonly queries: { readonly one: string; readonly many?: string; readonly connection?: string };
  readonly mutations: { readonly create?: string; readonly update: string; readonly delete: string };
  readonly enums: Readonly<Record<string, GraphqlEnum>>;
  readonly dynamicZones: Readonly<Record<string, string>>;
}

export interface ComponentBinding {
  readonly schema: ComponentSchema;
  readonly typeName: string;
  readonly enums: Readonly<Record<string, GraphqlEnum>>;
}

/** Everything the GraphQL API of a project is built from. */
export interface GraphqlBindings {
  readonly contentTypes: readonly ContentTypeBinding[];
  readonly components: readonly ComponentBinding[];
}

export function collectionTypeGraphql<const S extends ContentTypeSchema & { readonly kind: 'collectionType' }>(schema: S, names: CollectionTypeNames<S>): ContentTypeBinding {
  return { schema, ...names };
}

export function singleTypeGraphql<const S extends ContentTypeSchema & { readonly kind: 'singleType' }>(schema: S, names: SingleTypeNames<S>): ContentTypeBinding {
  return { schema, ...names };
}

export function componentGraphql<const S extends ComponentSchema>(schema: S, names: ComponentNames<S>): ComponentBinding {
  return { schema, ...names };
}
