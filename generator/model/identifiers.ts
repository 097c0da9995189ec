/**
 * TypeScript identifiers of the generated project that come from names in the schema (entity
 * interfaces, the constants of each type's modules), made unique: against one another and
 * against the identifiers the generated modules import from their runtime. A content type named
 * `collection-type` would otherwise declare `collectionTypeRoutes` in a module that imports the
 * runtime's `collectionTypeRoutes`; it gets `collectionTypeRoutes2` instead. Names that clash with
 * nothing (every name of a usual model) are left as derived, so output only changes where it has to.
 */

/** Every identifier a generated module imports from `src/runtime` or declares besides the types' own. */
export const RUNTIME_IDENTIFIERS: ReadonlySet<string> = new Set([
  // src/api/<type>/*.ts, src/components/**: static tables, entities, routes, GraphQL bindings
  'ContentTypeSchema',
  'ComponentSchema',
  'DocumentFields',
  'UploadFile',
  'JsonValue',
  'collectionTypeRoutes',
  'singleTypeRoutes',
  'collectionTypeGraphql',
  'singleTypeGraphql',
  // src/model.ts, src/content-api.ts, src/graphql/bindings.ts, src/main.ts, src/migrate.ts
  'ModelSchema',
  'model',
  'contentApiMount',
  'contentApi',
  'componentGraphql',
  'GraphqlBindings',
  'graphqlBindings',
  'runServer',
  'runMigrations',
]);

/**
 * Hands out identifiers in call order: the wanted one when it is free, else the wanted one
 * followed by the first number (2, 3, ...) that is free. `reserved` holds every identifier that
 * must stay as it is: the runtime's and every name wanted by someone (so that a suffixed name
 * never takes a name another type derives).
 */
export function identifierAllocator(wanted: Iterable<string>): (name: string) => string {
  const reserved = new Set(RUNTIME_IDENTIFIERS);
  const claimed = new Set<string>();
  const derived = new Set(wanted);
  return (name) => {
    if (!RUNTIME_IDENTIFIERS.has(name) && !claimed.has(name)) {
      claimed.add(name);
      return name;
    }
    for (let n = 2; ; n += 1) {
      const candidate = `${name}${n}`;
      if (!reserved.has(candidate) && !claimed.has(candidate) && !derived.has(candidate)) {
        claimed.add(candidate);
        return candidate;
      }
    }
  };
}
