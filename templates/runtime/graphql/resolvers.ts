/**
 * The resolver map of a project's GraphQL schema, built from its bindings (schema-binding.ts):
 *
 *   Query       per content type its queries (resolvers-query.ts), UploadFile's, the locales'
 *   Mutation    per content type its mutations (mutations.ts), the two upload mutations,
 *               users-permissions' sign-in and password mutations (resolvers-users.ts)
 *   <Type>      per document and component type, its relation/media/component/zone fields
 *   <Zone>      per dynamic zone, the union's type resolver
 *   ENUM_*      per enumeration, GraphQL value name → stored value
 *   scalars     JSON, DateTime, Date, Time, Long, I18NLocaleCode, each zone's input scalar
 *
 * Entries for types or fields the schema does not declare (pruned by the generator: a component
 * only used in zones has no input, an enum of a private attribute may be unused) are dropped
 * against the SDL, so the map always fits the schema it is given.
 */
import { Kind, type DocumentNode } from './graphql-js.ts';
import { mutationResolvers } from './mutations.ts';
import type { GraphqlRuntime, ObjectResolvers } from './resolvers-context.ts';
import { attributeResolvers, zoneTypeResolver } from './resolvers-fields.ts';
import { localeQueryResolvers } from './resolvers-locales.ts';
import { queryResolvers } from './resolvers-query.ts';
import { uploadFileResolvers, uploadMutationResolvers } from './resolvers-upload.ts';
import { usersMutationResolvers, usersQueryResolvers } from './resolvers-users.ts';
import { uploadFileBinding } from './schema-index.ts';
import { standardScalars, zoneInputScalar, type ScalarResolver } from './schema-scalars.ts';

export interface UnionResolvers {
  readonly __resolveType: (value: unknown) => string;
}

/** GraphQL value name → internal (stored) value. */
export type EnumResolvers = Readonly<Record<string, string>>;

export type TypeResolvers = ObjectResolvers | UnionResolvers | EnumResolvers | ScalarResolver;

export type ResolverMap = Record<string, TypeResolvers>;

export function buildResolvers(runtime: GraphqlRuntime, sdl: DocumentNode): ResolverMap {
  const map: ResolverMap = { ...standardScalars() };
  const query: ObjectResolvers = { ...localeQueryResolvers(runtime), ...queryResolvers(runtime, uploadFileBinding) };
  const mutation: ObjectResolvers = { ...uploadMutationResolvers(runtime) };
  const resolveZone = zoneTypeResolver(runtime);

  map[uploadFileBinding.typeName] = { ...attributeResolvers(runtime, uploadFileBinding.schema.attributes, false), ...uploadFileResolvers() };
  for (const binding of runtime.bindings.contentTypes) {
    Object.assign(query, queryResolvers(runtime, binding));
    Object.assign(mutation, mutationResolvers(runtime, binding));
    map[binding.typeName] = attributeResolvers(runtime, binding.schema.attributes, binding.schema.localized);
    for (const zone of Object.values(binding.dynamicZones)) {
      map[zone] = { __resolveType: resolveZone };
      map[`${zone}Input`] = zoneInputScalar(`${zone}Input`);
    }
    for (const enumeration of Object.values(binding.enums)) map[enumeration.typeName] = enumeration.values;
  }
  for (const binding of runtime.bindings.components) {
    map[binding.typeName] = attributeResolvers(runtime, binding.schema.attributes, false);
    for (const enumeration of Object.values(binding.enums)) map[enumeration.typeName] = enumeration.values;
  }
  // Last: the plugin's own mutations replace the generic ones of its user and role types.
  if (runtime.users !== undefined) {
    Object.assign(query, usersQueryResolvers(runtime.users));
    Object.assign(mutation, usersMutationResolvers(runtime, runtime.users));
  }
  map['Query'] = query;
  map['Mutation'] = mutation;
  return fitToSchema(map, sdl);
}

/** Drops entries for types, fields and enum values `sdl` does not declare. */
function fitToSchema(map: ResolverMap, sdl: DocumentNode): ResolverMap {
  const declared = new Map<string, ReadonlySet<string> | undefined>();
  for (const definition of sdl.definitions) {
    switch (definition.kind) {
      case Kind.OBJECT_TYPE_DEFINITION:
        declared.set(definition.name.value, new Set((definition.fields ?? []).map((field) => field.name.value)));
        break;
      case Kind.ENUM_TYPE_DEFINITION:
        declared.set(definition.name.value, new Set((definition.values ?? []).map((value) => value.name.value)));
        break;
      case Kind.UNION_TYPE_DEFINITION:
      case Kind.SCALAR_TYPE_DEFINITION:
        declared.set(definition.name.value, undefined);
        break;
      default:
        break;
    }
  }
  const fitted: ResolverMap = {};
  for (const [name, resolvers] of Object.entries(map)) {
    if (!declared.has(name)) continue;
    const members = declared.get(name);
    fitted[name] = members === undefined ? resolvers : (Object.fromEntries(Object.entries(resolvers).filter(([key]) => members.has(key))) as TypeResolvers);
  }
  return fitted;
}
