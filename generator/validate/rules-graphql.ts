/**
 * Every GraphQL name the SDL emitter derives from the model must be free: the object type of
 * each content type and component, its companions (`<Type>Input`, `<Type>FiltersInput`,
 * `<Type>EntityResponseCollection`, `<Type>RelationResponseCollection`), the enum of each
 * enumeration (`ENUM_<TYPE>_<ATTRIBUTE>`) and the union and input scalar of each dynamic zone
 * (`<Type><Field>DynamicZone`, `...DynamicZoneInput`). Two of them with one name would make the
 * emitter fail (or one type shadow another), and so would a name the schema already defines
 * (`Pagination`, `StringFilterInput`, `UploadFileInput`, `FileInfoInput`, ...).
 *
 * The names come from the naming helpers the emitter uses (model/graphql-names.ts) and the list of
 * its fixed definitions (model/graphql-fixed-names.ts, checked against the emitter by a test), so
 * that the validator and the emitter cannot disagree about what is generated.
 */
import { specifiedScalarTypes } from 'graphql';
import { dynamicZoneInputName, dynamicZoneTypeName, entityResponseCollectionName, enumTypeName, filtersInputName, inputName, relationResponseCollectionName } from '../model/graphql-names.ts';
import { FIXED_GRAPHQL_TYPE_NAMES, PLUGIN_DOCUMENT_TYPE_NAMES } from '../model/graphql-fixed-names.ts';
import { pointer } from '../diagnostics.ts';
import { componentTypeName, pascalCase, pluginPrefix, snakeCase } from '../model/names.ts';
import { finding, type Finding } from './finding.ts';
import { BUILTIN_TYPE_NAMES, RESERVED_TYPE_NAMES } from './reserved.ts';
import { text, type AttributeView, type ModelView, type TypeView } from './view.ts';

const SINGULAR = pointer('info', 'singularName');

/** One derived name, and what derives it. */
export interface GraphqlNameClaim {
  readonly name: string;
  /** What the name is, e.g. `the input type`. */
  readonly role: string;
  readonly type: TypeView;
  /** Where the name comes from: the type's singularName or component uid, or one attribute. */
  readonly at: string;
  /** How the source is named in messages: `singularName "article"`, `dynamic zone "blocks"`. */
  readonly source: string;
  /** The attribute that derives the name (enums, dynamic zones), if any. */
  readonly attribute?: AttributeView;
  /** The type's own object type, as opposed to the names derived from it. */
  readonly primary: boolean;
}

interface NamedRole {
  readonly name: string;
  readonly role: string;
}

/**
 * The object type of a document or component type and its companions, exactly as the emitter
 * builds them: components have no response collections, single types no entity collection.
 */
function ownerNames(typeName: string, owner: 'collectionType' | 'singleType' | 'component'): NamedRole[] {
  const names: NamedRole[] = [
    { name: typeName, role: 'the GraphQL type' },
    { name: filtersInputName(typeName), role: 'the filters input' },
    { name: inputName(typeName), role: 'the input type' },
  ];
  if (owner === 'collectionType') names.push({ name: entityResponseCollectionName(typeName), role: 'the response collection type' });
  if (owner !== 'component') names.push({ name: relationResponseCollectionName(typeName), role: 'the relation response collection type' });
  return names;
}

/**
 * Names the schema defines whatever the model: GraphQL's own scalars, the emitter's fixed
 * definitions (scalars, publication and pagination types, scalar filter inputs, the media
 * library's types, the roots) and the plugin document types capi serves (UploadFile and
 * I18NLocale, with the companions any document type gets), plus the Prisma and TypeScript
 * names capi reserves.
 */
function builtinNames(): ReadonlySet<string> {
  return new Set([
    ...specifiedScalarTypes.map((scalar) => scalar.name),
    ...FIXED_GRAPHQL_TYPE_NAMES,
    ...PLUGIN_DOCUMENT_TYPE_NAMES.flatMap((typeName) => ownerNames(typeName, 'collectionType').map((n) => n.name)),
    ...BUILTIN_TYPE_NAMES,
  ]);
}

let builtins: ReadonlySet<string> | undefined;

/** See {@link builtinNames}; computed once. */
export function builtinGraphqlNames(): ReadonlySet<string> {
  builtins ??= builtinNames();
  return builtins;
}

/** The GraphQL type name of a type, or undefined when it has none worth checking. */
export function graphqlTypeName(type: TypeView): string | undefined {
  if (type.isComponent) return componentTypeName(type.uid);
  // A reserved name is reported as such; saying it also clashes with a capi type adds nothing.
  if (type.singularName === undefined || type.singularName === '' || RESERVED_TYPE_NAMES.has(type.singularName)) return undefined;
  return `${pluginPrefix(type.uid)}${pascalCase(type.singularName)}`;
}

/** Every name the emitter derives from one type, in the order it derives them. */
export function graphqlNameClaims(type: TypeView): GraphqlNameClaim[] {
  const typeName = graphqlTypeName(type);
  if (typeName === undefined) return [];
  const at = type.isComponent ? '' : SINGULAR;
  const source = type.isComponent ? `component ${type.uid}` : `singularName "${type.singularName}"`;
  const owner = type.isComponent ? 'component' : type.kind === 'singleType' ? 'singleType' : 'collectionType';
  const claims: GraphqlNameClaim[] = ownerNames(typeName, owner).map((n, i) => ({ ...n, type, at, source, primary: i === 0 }));
  for (const attribute of type.attributes) {
    const from = { type, at: attribute.pointer, attribute, primary: false };
    if (attribute.type === 'enumeration') {
      claims.push({ ...from, name: enumTypeName(typeName, { name: attribute.name, enumName: text(attribute.options['enumName']) }), role: 'the enum', source: `enumeration "${attribute.name}"` });
    }
    if (attribute.type === 'dynamiczone') {
      const source = `dynamic zone "${attribute.name}"`;
      claims.push({ ...from, name: dynamicZoneTypeName(typeName, attribute.name), role: 'the dynamic zone union', source });
      claims.push({ ...from, name: dynamicZoneInputName(typeName, attribute.name), role: 'the dynamic zone input scalar', source });
    }
  }
  return claims;
}

/**
 * Each collision is reported once, on one of the two claims: on the type with the longer GraphQL
 * name, which is the one that ran into the other's derived names (`article-input` is reported,
 * not `article`; `page-blocks-dynamic-zone`, not the dynamic zone `blocks` of `page`), and
 * between names of equal length on the later file. Two content types with one object type also
 * share a query name, which rules-names.ts reports; their companions necessarily collide as
 * well and are not reported again.
 */
export function graphqlNameFindings(model: ModelView): Finding[] {
  const perType = model.types
    .map((type) => ({ type, claims: graphqlNameClaims(type) }))
    .filter(({ claims }) => claims.length > 0)
    .sort((a, b) => a.claims[0]!.name.length - b.claims[0]!.name.length);
  const firstPrimary = new Set<string>();
  const ordered: GraphqlNameClaim[] = [];
  for (const { claims } of perType) {
    const [primary, ...derived] = claims as [GraphqlNameClaim, ...GraphqlNameClaim[]];
    ordered.push(primary);
    if (firstPrimary.has(primary.name)) continue;
    firstPrimary.add(primary.name);
    ordered.push(...derived);
  }
  const builtin = builtinGraphqlNames();
  const owners = new Map<string, GraphqlNameClaim>();
  const reported = new Set<string>();
  const out: Finding[] = [];
  for (const claim of ordered) {
    const owner = owners.get(claim.name);
    if (owner === undefined && !builtin.has(claim.name)) {
      owners.set(claim.name, claim);
      continue;
    }
    if (owner !== undefined && silent(claim, owner)) continue;
    const pair = `${claim.type.uid}\u0000${claim.source}\u0000${owner === undefined ? '' : `${owner.type.uid}\u0000${owner.source}`}`;
    if (reported.has(pair)) continue;
    reported.add(pair);
    const which = owner === undefined ? 'capi already uses' : `is already ${owner.role} of ${reference(owner, claim)}`;
    const verb = claim.primary ? 'becomes' : 'gets';
    out.push(finding(claim.type.file, claim.at, `${claim.source} ${verb} ${claim.role} "${claim.name}", which ${which}`, hint(claim)));
  }
  return out;
}

/** Clashes another rule already reports, in terms the author knows better. */
function silent(claim: GraphqlNameClaim, owner: GraphqlNameClaim): boolean {
  // Two content types with one GraphQL type share a query name: reported by rules-names.ts.
  if (claim.primary && owner.primary && !claim.type.isComponent && !owner.type.isComponent) return true;
  // Two attributes of one type with one column (`foo_bar`, `fooBar`): reported by rules-attributes.ts.
  return claim.type === owner.type && claim.attribute !== undefined && owner.attribute !== undefined && snakeCase(claim.attribute.name) === snakeCase(owner.attribute.name);
}

function reference(owner: GraphqlNameClaim, claim: GraphqlNameClaim): string {
  if (owner.type === claim.type) return owner.source;
  const where = `(${owner.type.file.path})`;
  return owner.attribute === undefined ? `${owner.source} ${where}` : `${owner.source} of ${owner.type.uid} ${where}`;
}

function hint(claim: GraphqlNameClaim): string {
  if (claim.attribute !== undefined) return text(claim.attribute.options['enumName']) ? 'choose another enumName' : 'rename the attribute';
  return claim.type.isComponent ? 'rename the component file or its category folder' : 'choose another singularName';
}
