/**
 * Fields of documents and components. Everything a field answers was read by its root field's
 * single engine call (resolvers-read.ts), so these resolvers only pick it off their parent row:
 *
 *   to-one relation, single media, component      the populated row, or null
 *   to-many relation, multiple media, localizations   `<f>(filters, sort, pagination)` and
 *                                                 `<f>_connection(...) { nodes }`: the list the
 *                                                 engine (or selection-lists.ts) filtered and
 *                                                 sorted, paginated per parent
 *   repeatable component                          `<f>(filters, sort, pagination)`, the same way
 *   dynamic zone                                  its entries, typed by `__component`
 *
 * A relation whose target the caller may not read was not populated: it answers null or [].
 * Scalars use the default resolver; enum values are mapped by the schema's enum resolvers.
 */
import type { Entity } from '../engine/types.ts';
import type { Field } from '../schema.ts';
import { listArgsKey, type ListArgs } from './args.ts';
import { paginationWindow, windowOf } from './args-pagination.ts';
import type { Args, FieldResolver, GraphqlContext, GraphqlRuntime, ObjectResolvers } from './resolvers-context.ts';

const CONNECTION_SUFFIX = '_connection';

/** Field resolvers of the object type of a content type or component with these attributes. */
export function attributeResolvers(runtime: GraphqlRuntime, attributes: Readonly<Record<string, Field>>, localized: boolean): ObjectResolvers {
  const resolvers: ObjectResolvers = {};
  const addList = (name: string, withConnection: boolean): void => {
    const list = listResolver(runtime, name);
    resolvers[name] = list;
    if (withConnection) resolvers[`${name}${CONNECTION_SUFFIX}`] = (source, args, context, info) => ({ nodes: list(source, args, context, info) });
  };
  for (const [name, field] of Object.entries(attributes)) {
    if (field.private) continue;
    switch (field.kind) {
      case 'relation':
        if (field.cardinality === 'many') addList(name, true);
        else resolvers[name] = single(name);
        break;
      case 'media':
        if (field.multiple) addList(name, true);
        else resolvers[name] = single(name);
        break;
      case 'component':
        if (field.repeatable) addList(name, false);
        else resolvers[name] = single(name);
        break;
      case 'dynamiczone':
        resolvers[name] = (source) => rows(source, name);
        break;
      case 'scalar':
        // In the type so that Strapi-era queries validate; the hash itself never leaves the server.
        if (field.type === 'password') resolvers[name] = () => null;
        break;
    }
  }
  if (localized) addList('localizations', true);
  return resolvers;
}

function single(name: string): FieldResolver {
  return (source) => {
    const value = isEntity(source) ? source[name] : undefined;
    return value === undefined ? null : value;
  };
}

function rows(source: unknown, name: string): Entity[] {
  const value = isEntity(source) ? source[name] : undefined;
  return Array.isArray(value) ? (value as Entity[]) : [];
}

/** The parent's list for these arguments (derived in memory when the engine could not), paginated. */
function listResolver(runtime: GraphqlRuntime, name: string): (source: unknown, args: Args, context: GraphqlContext, info: unknown) => Entity[] {
  return (source, args, context) => {
    if (!isEntity(source)) return [];
    const listArgs: ListArgs = args;
    const derived = context.lists.get(source, name, () => listArgsKey(listArgs));
    return windowOf(derived ?? rows(source, name), paginationWindow(listArgs.pagination, runtime.graphql));
  };
}

function isEntity(value: unknown): value is Entity {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `__resolveType` of a dynamic zone's union: the entry's component, or `Error` for one the schema does not know. */
export function zoneTypeResolver(runtime: GraphqlRuntime): (value: unknown) => string {
  return (value) => {
    const uid = isEntity(value) ? value['__component'] : undefined;
    return (typeof uid === 'string' ? runtime.bindings.componentTypeName(uid) : undefined) ?? 'Error';
  };
}
