/**
 * Names capi or Strapi already use. Each entry says why, because "reserved" alone does not tell
 * the author what would break.
 */

/** singularName / pluralName values that clash with routes, GraphQL types or runtime behaviour. */
export const RESERVED_TYPE_NAMES: ReadonlyMap<string, string> = new Map([
  ...named(['upload', 'uploads', 'upload-file', 'upload-files', 'upload-folder', 'upload-folders', 'file', 'files'], 'the media library (POST /upload, /api/upload/files, UploadFile) uses it'),
  ...named(['i18n', 'i18n-locale', 'i18n-locales', 'locale', 'locales'], 'internationalization (/api/i18n/locales, I18NLocale, the locale parameter) uses it'),
  ['graphql', 'the GraphQL endpoint /graphql uses it'],
  ['health', 'the health-check route /health uses it'],
  ...named(['boolean', 'date', 'date-time', 'time'], 'it would clash with a GraphQL scalar type'),
  ...named(['query', 'mutation', 'subscription'], 'it would clash with a GraphQL root type'),
  ['then', 'an entry object with a "then" key would be mistaken for a promise'],
  ['document', 'Strapi reserves it for the document service'],
]);

function named(names: readonly string[], reason: string): Array<[string, string]> {
  return names.map((n) => [n, reason]);
}

/**
 * Attribute names capi adds to every entry itself, compared in snake_case (as Strapi does) so
 * that `documentID`, `document_id` and `documentId` are all caught.
 */
export const RESERVED_ATTRIBUTE_SNAKE_NAMES: ReadonlyMap<string, string> = new Map([
  ...named(['id', 'document_id'], 'every entry already has it as its identifier'),
  ...named(['created_at', 'updated_at', 'published_at'], 'every entry already has it as a timestamp'),
  ...named(['created_by', 'updated_by', 'created_by_id', 'updated_by_id'], 'Strapi reserves it for the admin creator fields'),
  ...named(['locale', 'localizations'], 'internationalization adds it to entries'),
  ['status', 'Strapi reserves it for the publication state of types with draft & publish'],
  ...named(['entry_id', 'meta'], 'Strapi reserves it for the document service'),
  // snake_case of Strapi's forbidden `__component` and `__contentType`
  ...named(['component', 'content_type'], 'Strapi reserves it (its snake_case form clashes with __component or __contentType)'),
  ['strapi', 'names starting with "strapi" are reserved by Strapi'],
]);

/** Columns every component row has: its parent (see docs/architecture.md, components). */
export const RESERVED_COMPONENT_ATTRIBUTE_SNAKE_NAMES: ReadonlyMap<string, string> = new Map(
  named(['entity_type', 'entity_id', 'entity_field', 'entity_ord'], 'every component row already has it as a column linking it to its parent'),
);

/** Prefixes of attribute names (raw, then snake_case) that belong to Strapi and GraphQL internals. */
export const RESERVED_ATTRIBUTE_PREFIXES: ReadonlyArray<readonly [string, string]> = [
  ['__', 'names starting with "__" are reserved by GraphQL and Strapi (__typename, __component)'],
  ['strapi_', 'names starting with "strapi" are reserved by Strapi'],
];

/** Suffixes of snake_case attribute names that capi derives names with. */
export const RESERVED_ATTRIBUTE_SUFFIXES: ReadonlyArray<readonly [string, string]> = [['_lnk', 'capi names the link field of a relation "<relation>_lnk"']];

/** Tables capi's runtime owns. */
export const RESERVED_TABLES: ReadonlyMap<string, string> = new Map([
  ...named(['files', 'upload_files', 'upload_folders', 'files_related_mph', 'files_folder_lnk'], 'the media library stores its files there'),
  ['i18n_locale', 'internationalization stores its locales there'],
]);

export const RESERVED_TABLE_PREFIXES: ReadonlyArray<readonly [string, string]> = [
  ['capi_', 'tables starting with "capi_" belong to the capi runtime'],
  ['strapi_', 'tables starting with "strapi_" belong to Strapi internals'],
  // The databases' own names, refused whatever the project's database is, since a project may
  // move to another one (`capi generate --database`).
  ['sqlite_', 'SQLite reserves names starting with "sqlite_" for its own tables (sqlite_master, sqlite_sequence), and refuses to create them'],
  ['pg_', 'PostgreSQL finds its system catalogs (pg_class, pg_user...) before a table of the same name, and may add more "pg_" names in any release'],
];

/**
 * Type names a content type or component may not take although capi's GraphQL schema does not
 * define them: Prisma's and the runtime's own names, and GraphQL names capi keeps free. The
 * names the GraphQL schema does define (`Query`, `Pagination`, `UploadFile`, `JSON`, ...) are
 * taken from the emitter itself (rules-graphql.ts) and need no list.
 */
export const BUILTIN_TYPE_NAMES: ReadonlySet<string> = new Set(['Subscription', 'Upload', 'UploadFolder', 'UploadFileLink', 'ResponseCollectionMeta', 'Prisma', 'PrismaClient']);
