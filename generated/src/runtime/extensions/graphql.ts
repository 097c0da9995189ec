/**
 * A project's GraphQL extension applied to the emitted schema and its resolvers: generated
 * queries and mutations it disables are removed (from the SDL and the resolver map), its type
 * definitions are appended (`extend type Query { ... }` works), its resolvers are merged in, and
 * each `Type.field` of `resolversConfig` is wrapped with its permission scope and policies.
 */
import type { Access } from '../access.ts';
import { authorize } from '../access.ts';
import { concatAST, Kind, parse, visit, type ASTNode, type DocumentNode } from '../graphql/graphql-js.ts';
import type { ObjectResolvers } from '../graphql/resolvers-context.ts';
import type { ResolverMap } from '../graphql/resolvers.ts';
import { PolicyError } from './pipeline.ts';
import type { GraphqlExtension, GraphqlFieldConfig } from './types.ts';

const ROOTS = new Set(['Query', 'Mutation']);

export function extendGraphql(sdl: DocumentNode, resolvers: ResolverMap, extension: GraphqlExtension): { typeDefs: DocumentNode; resolvers: ResolverMap } {
  const disabled = new Set(extension.disabled ?? []);
  const removed = new Set<string>();
  const pruned = visit(sdl, {
    FieldDefinition(node, _key, _parent, _path, ancestors) {
      const owner = ancestors[ancestors.length - 1] as ASTNode | undefined;
      if (owner === undefined || owner.kind !== Kind.OBJECT_TYPE_DEFINITION || !ROOTS.has(owner.name.value) || !disabled.has(node.name.value)) return undefined;
      removed.add(node.name.value);
      return null;
    },
  });
  const unknown = [...disabled].filter((name) => !removed.has(name));
  if (unknown.length > 0) throw new Error(`src/extensions: graphql.disabled names ${unknown.join(', ')}, which the schema has no query or mutation of`);
  const merged: ResolverMap = { ...resolvers };
  for (const root of ROOTS) {
    const fields = { ...(merged[root] as ObjectResolvers | undefined) };
    for (const name of removed) delete fields[name];
    merged[root] = fields;
  }
  for (const [type, fields] of Object.entries(extension.resolvers ?? {})) {
    merged[type] = { ...(merged[type] as ObjectResolvers | undefined), ...(fields as ObjectResolvers) };
  }
  for (const [path, config] of Object.entries(extension.resolversConfig ?? {})) {
    const [type = '', field = ''] = path.split('.');
    const fields = merged[type] as ObjectResolvers | undefined;
    const resolver = fields?.[field];
    if (fields === undefined || resolver === undefined) throw new Error(`src/extensions: graphql.resolversConfig names ${path}, which has no resolver`);
    merged[type] = { ...fields, [field]: guarded(resolver, config) };
  }
  const typeDefs = extension.typeDefs === undefined ? pruned : concatAST([pruned, parse(extension.typeDefs)]);
  return { typeDefs, resolvers: merged };
}

function guarded(resolver: ObjectResolvers[string], config: GraphqlFieldConfig): ObjectResolvers[string] {
  return async (source, args, context, info) => {
    const access: Access = context.access;
    if (config.auth !== undefined && config.auth !== false) for (const action of config.auth.scope) authorize(access, action);
    for (const policy of config.policies ?? []) if (!(await policy({ args, access }))) throw new PolicyError();
    return resolver(source, args, context, info);
  };
}
