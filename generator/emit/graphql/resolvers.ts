/**
 * The typed GraphQL modules of a generated project, next to the SDL (sdl.ts):
 *
 * - src/api/<type>/graphql.ts   the names the SDL gives one content type (its object type,
 *                               queries, mutations, enums, dynamic-zone unions), bound to its
 *                               static table with the runtime's factory, which checks them
 *                               against the table's attributes at compile time;
 * - src/graphql/bindings.ts     every type's binding and the components', handed to the content
 *                               API, which builds the resolvers from them.
 *
 * Names come from the emitter's own rules (entities.ts, names.ts), so the runtime resolves
 * exactly the names the SDL declares.
 */
import { posix } from 'node:path';
import { VariableDeclarationKind, type SourceFile } from 'ts-morph';
import type { Attribute, Component, ContentType, Model } from '../../model/types.ts';
import { graphqlModel, type GraphqlEntity } from './entities.ts';
import { connectionFieldName, dynamicZoneTypeName, enumTypeName, graphqlEnumValues } from '../../model/graphql-names.ts';

export const GRAPHQL_BINDINGS_PATH = 'src/graphql/bindings.ts';
export const GRAPHQL_SCHEMA_PATH = 'src/graphql/schema.graphql';
export const GRAPHQL_BINDINGS_NAME = 'graphqlBindings';

/** Where a module emitted for a type is, and the names of its constants. */
export interface TypeModuleNames {
  /** The static table's constant, e.g. `articleSchema`, exported by `./schema.ts`. */
  readonly schemaConst: string;
  /** The binding's constant, e.g. `articleGraphql`. */
  readonly bindingConst: string;
}

export interface ComponentModuleNames {
  readonly schemaConst: string;
  /** The component's module, from src/ (`components/shared/seo.ts`). */
  readonly path: string;
}

/** src/api/<type>/graphql.ts: `export const articleGraphql = collectionTypeGraphql(articleSchema, { ... })`. */
export function addTypeBinding(file: SourceFile, model: Model, type: ContentType, names: TypeModuleNames): void {
  const entity = graphqlModel(model).entity(type.uid);
  const collection = type.kind === 'collectionType';
  const factory = collection ? 'collectionTypeGraphql' : 'singleTypeGraphql';
  file.addImportDeclaration({ namedImports: [factory], moduleSpecifier: '../../runtime/graphql/schema-binding.ts' });
  file.addImportDeclaration({ namedImports: [names.schemaConst], moduleSpecifier: './schema.ts' });
  file.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: [`GraphQL names of ${type.uid}, as src/graphql/schema.graphql declares them.`],
    declarations: [{ name: names.bindingConst, initializer: `${factory}(${names.schemaConst}, ${literal(typeNames(entity, type))})` }],
  });
}

function typeNames(entity: GraphqlEntity, type: ContentType): object {
  const { typeName } = entity;
  const queries = type.kind === 'collectionType' ? { one: entity.singularField, many: entity.pluralField, connection: connectionFieldName(entity.pluralField) } : { one: entity.singularField };
  const mutations =
    type.kind === 'collectionType' ? { create: `create${typeName}`, update: `update${typeName}`, delete: `delete${typeName}` } : { update: `update${typeName}`, delete: `delete${typeName}` };
  return { typeName, queries, mutations, enums: enums(typeName, type.attributes), dynamicZones: zones(typeName, type.attributes) };
}

/** Per enumeration attribute: its enum type and, per GraphQL value name, the stored value. */
function enums(typeName: string, attributes: readonly Attribute[]): object {
  const out: Record<string, object> = {};
  for (const attribute of attributes) {
    if (attribute.kind !== 'scalar' || attribute.type !== 'enumeration') continue;
    const values = Object.fromEntries(graphqlEnumValues(attribute.enum ?? []).map((v) => [v.name, v.value]));
    out[attribute.name] = { typeName: enumTypeName(typeName, attribute), values };
  }
  return out;
}

function zones(typeName: string, attributes: readonly Attribute[]): object {
  return Object.fromEntries(attributes.filter((a) => a.kind === 'dynamiczone').map((a) => [a.name, dynamicZoneTypeName(typeName, a.name)]));
}

/** src/graphql/bindings.ts: every content type's binding, and each component's declared here. */
export function addBindingsModule(file: SourceFile, model: Model, types: ReadonlyMap<ContentType, TypeModuleNames>, components: ReadonlyMap<Component, ComponentModuleNames>): void {
  const here = posix.dirname(GRAPHQL_BINDINGS_PATH);
  const fromHere = (path: string): string => {
    const relative = posix.relative(here, `src/${path}`);
    return relative.startsWith('.') ? relative : `./${relative}`;
  };
  file.addImportDeclaration({
    namedImports: ['componentGraphql', { name: 'GraphqlBindings', isTypeOnly: true }],
    moduleSpecifier: '../runtime/graphql/schema-binding.ts',
  });
  for (const [type, names] of types) {
    file.addImportDeclaration({ namedImports: [names.bindingConst], moduleSpecifier: fromHere(`api/${type.singularName}/graphql.ts`) });
  }
  for (const [, names] of components) file.addImportDeclaration({ namedImports: [names.schemaConst], moduleSpecifier: fromHere(names.path) });
  const gql = graphqlModel(model);
  const componentEntries = [...components].map(([component, names]) => {
    const { typeName } = gql.component(component.uid);
    return `componentGraphql(${names.schemaConst}, ${literal({ typeName, enums: enums(typeName, component.attributes) })})`;
  });
  const list = (items: readonly string[]): string => (items.length === 0 ? '[]' : `[\n${items.map((i) => `  ${i},`).join('\n')}\n]`);
  file.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: ['The names src/graphql/schema.graphql gives every content type and component, from which the GraphQL resolvers are built.'],
    declarations: [
      {
        name: GRAPHQL_BINDINGS_NAME,
        type: 'GraphqlBindings',
        initializer: `{\n  contentTypes: ${list([...types.values()].map((n) => n.bindingConst))},\n  components: ${list(componentEntries)},\n}`,
      },
    ],
  });
}

/** Plain data as a TypeScript literal (prettier then quotes and wraps it). */
function literal(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/"([A-Za-z_$][\w$]*)":/g, '$1:');
}
