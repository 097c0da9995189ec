/**
 * The names Strapi 5's GraphQL plugin gives to what it generates for a content type or component
 * (see docs/graphql-schema.md). Exported so that the GraphQL runtime resolves the very names the
 * SDL declares.
 */
import { GRAPHQL_SCALARS, type GraphqlScalar } from '../../templates/contract/scalar-types.ts';
import { pascalCase } from './names.ts';

export function lowerFirst(name: string): string {
  return name.length === 0 ? name : name[0]!.toLowerCase() + name.slice(1);
}

/**
 * The attribute's `enumName` when the schema gives one (Strapi's GraphQL plugin names the enum
 * after it), else `ENUM_<TYPE>_<ATTRIBUTE>`, both upper-cased as they are
 * (`ENUM_COMPONENTSHAREDMETASOCIAL_SOCIALNETWORK`).
 */
export function enumTypeName(ownerTypeName: string, attribute: { readonly name: string; readonly enumName?: string | undefined }): string {
  return attribute.enumName !== undefined && attribute.enumName !== '' ? attribute.enumName : `ENUM_${ownerTypeName.toUpperCase()}_${attribute.name.toUpperCase()}`;
}

/** The union of a dynamic zone's components: `ArticleBlocksDynamicZone`. */
export function dynamicZoneTypeName(ownerTypeName: string, attribute: string): string {
  return `${ownerTypeName}${pascalCase(attribute)}DynamicZone`;
}

/** The scalar a dynamic zone entry is written with (a JSON object carrying `__typename`). */
export function dynamicZoneInputName(ownerTypeName: string, attribute: string): string {
  return `${dynamicZoneTypeName(ownerTypeName, attribute)}Input`;
}

export function filtersInputName(typeName: string): string {
  return `${typeName}FiltersInput`;
}

export function inputName(typeName: string): string {
  return `${typeName}Input`;
}

/** What `<plural>_connection` returns: `{ nodes, pageInfo }`. */
export function entityResponseCollectionName(typeName: string): string {
  return `${typeName}EntityResponseCollection`;
}

/** What a to-many `<relation>_connection` returns: `{ nodes }` only. */
export function relationResponseCollectionName(typeName: string): string {
  return `${typeName}RelationResponseCollection`;
}

/** `StringFilterInput`: the contract's filter input of a GraphQL scalar. */
export function scalarFilterInputName(scalar: GraphqlScalar): string {
  return GRAPHQL_SCALARS[scalar].filterInput;
}

export function connectionFieldName(field: string): string {
  return `${field}_connection`;
}

/** One enumeration value: the GraphQL name clients write, and the value stored. */
export interface GraphqlEnumValue {
  readonly name: string;
  readonly value: string;
}

const GRAPHQL_LITERALS: ReadonlySet<string> = new Set(['true', 'false', 'null']);

/**
 * GraphQL names of an enumeration's values, as Strapi's GraphQL plugin names them: the value
 * slugified with `_` as separator, case kept (`datetime-local` is `datetime_local`, `a b` is
 * `a_b`, `_draft_` is `draft`), and GraphQL's literals prefixed with `_` (`true` is `_true`).
 * A name that would start with a digit (`3d`), which Strapi refuses at start-up, gets the same
 * `_` prefix (`_3d`), so that every enumeration Strapi's schema files can hold is served. REST and
 * storage keep the value as written; the resolvers map each name to its value and back. The
 * validator rejects values whose names would be empty or collide.
 */
export function graphqlEnumValues(values: readonly string[]): GraphqlEnumValue[] {
  return values.map((value) => ({ name: graphqlEnumValueName(value), value }));
}

/** Strapi's `toRegressedEnumValue` (slugify, keeping case) followed by its literal escape. */
export function graphqlEnumValueName(value: string): string {
  const slug = value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/&/g, ' and ')
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part.length > 0)
    .join('_');
  return GRAPHQL_LITERALS.has(slug) || /^[0-9]/.test(slug) ? `_${slug}` : slug;
}
