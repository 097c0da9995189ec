/**
 * The names Strapi 5's GraphQL plugin gives to what it generates for a content type or component
 * (see docs/graphql-schema.md). Exported so that the GraphQL runtime resolves the very names the
 * SDL declares.
 */
import { pascalCase } from '../../model/names.ts';

export function lowerFirst(name: string): string {
  return name.length === 0 ? name : name[0]!.toLowerCase() + name.slice(1);
}

/** `ENUM_<TYPE>_<ATTRIBUTE>`, both upper-cased as they are (`ENUM_COMPONENTSHAREDMETASOCIAL_SOCIALNETWORK`). */
export function enumTypeName(ownerTypeName: string, attribute: string): string {
  return `ENUM_${ownerTypeName.toUpperCase()}_${attribute.toUpperCase()}`;
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

export function scalarFilterInputName(scalar: string): string {
  return `${scalar}FilterInput`;
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
const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/**
 * GraphQL names of an enumeration's values. Strapi names each value by slugifying it with `_`
 * as separator (so `_draft_` is served as `draft`, `a__b` as `a_b`) and prefixes GraphQL's
 * literals with `_`. capi's validator only accepts values that are GraphQL names already, so
 * Strapi's names are used whenever they stay valid and distinct; otherwise (an enumeration
 * Strapi's content-type builder would have refused, e.g. `_1st` or both `a_b` and `a__b`) the
 * values are served as written, which is always a valid schema.
 */
export function graphqlEnumValues(values: readonly string[]): GraphqlEnumValue[] {
  const strapiNames = values.map(strapiEnumValueName);
  const usable = new Set(strapiNames).size === values.length && strapiNames.every((n) => GRAPHQL_NAME.test(n));
  return values.map((value, i) => ({ name: usable ? (strapiNames[i] as string) : value, value }));
}

/** Strapi's `toRegressedEnumValue` (slugify, keeping case) followed by its literal escape. */
function strapiEnumValueName(value: string): string {
  const slug = value
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part.length > 0)
    .join('_');
  return GRAPHQL_LITERALS.has(slug) ? `_${slug}` : slug;
}
