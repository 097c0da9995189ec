/**
 * What the generator needs to know about each database a project can be generated for: one typed
 * table, so that a new database is a compile error until every entry is filled in. The runtime
 * side (SQL per database) lives in templates/runtime/dialect/.
 */
import { defaultMysqlUrl, defaultPostgresUrl, defaultSqliteFilename } from '../templates/runtime/config.ts';

import { DATABASE_KINDS, type DatabaseKind } from '../templates/contract/database.ts';

export { DATABASE_KINDS, type DatabaseKind };

export interface DatabaseTraits {
  /** `provider` of the Prisma datasource, also written to migrations/migration_lock.toml. */
  readonly prismaProvider: 'sqlite' | 'postgresql' | 'mysql';
  /** The Prisma driver adapter the project's prisma.config.ts opens (`prisma validate`, `prisma studio`). */
  readonly prismaAdapter: '@prisma/adapter-better-sqlite3' | '@prisma/adapter-pg' | '@prisma/adapter-mariadb';
  /** The adapter's class and how prisma.config.ts constructs it from `url`. */
  readonly prismaAdapterClass: string;
  readonly prismaAdapterArgument: string;
  /** DATABASE_URL of a new project (.env.example, prisma.config.ts). */
  readonly defaultUrl: string;
  /**
   * Longest index or constraint name, in bytes. Prisma cuts longer default names to it; capi
   * renames the indexes whose cut names would collide (emit/prisma.ts). SQLite has no limit but
   * keeps PostgreSQL's, so that its existing schemas do not change.
   */
  readonly maxIdentifier: number;
  /**
   * How migrations are computed: Prisma's JS schema engine (`migrate diff`, offline) where it
   * has the connector, capi's own renderer (generator/mysql-ddl.ts) where Prisma 6's JS engine
   * has none (MySQL: the WebAssembly schema engine only carries SQLite and PostgreSQL).
   */
  readonly migrations: 'prisma' | 'capi';
  /** DATABASE_URL given to the offline `prisma migrate diff` (never connected to). */
  readonly offlineUrl: string;
  /** Rate-limit counters in a table shared by every server process (else in process memory). */
  readonly sharedRateLimits: boolean;
  /**
   * A `capi_locks` table whose rows stand in for transaction-scoped advisory locks (MySQL has
   * none; templates/runtime/dialect/mysql.ts `transactionLock`).
   */
  readonly lockTable: boolean;
  /**
   * Each single-column lookup index gets a twin `(column DESC, id)`: a descending sort is
   * `ORDER BY column DESC, id ASC` (the id breaks ties), and MySQL/MariaDB read an index backward
   * only as `column DESC, id DESC`, so without the twin they sort every row. SQLite sorts the
   * ties of a backward scan by themselves, and PostgreSQL sorts under `COLLATE "C"`.
   */
  readonly descendingSortIndexes: boolean;
  /**
   * A link table's index by target also holds the owner (`target_document_id, inverse_ord,
   * entity_id`), so a relation filter's key set (the owners of the matching targets) is read from
   * the index alone. InnoDB's secondary indexes carry only the primary key: without the owner
   * column each matching link costs a lookup in the table (MySQL: 20k links of a tag took 480 ms
   * that way, 3-14 ms from the index).
   */
  readonly coveringInverseIndex: boolean;
  /** Prisma type of JSON columns: SQLite keeps JSON as text (its JSONB type would get NUMERIC affinity and turn "123" into a number). */
  readonly jsonType: 'String' | 'Json';
  /** Prisma type of `time` columns: SQLite keeps `HH:mm:ss.SSS` text. */
  readonly timeType: 'String' | 'DateTime';
  /**
   * `@db.` sizes of String columns, short (indexable) and long; undefined where Prisma's String is
   * already unbounded text. MySQL cannot index TEXT and Prisma's default there is VARCHAR(191).
   */
  readonly stringSizes: { readonly short: string; readonly long: string } | undefined;
  /** Timestamps as `@db.` attributes (undefined: Prisma's default for DateTime). */
  readonly timestampType: string | undefined;
  /** Name for messages. */
  readonly label: string;
  /** What the project's README says it stores data in. */
  readonly readmeLabel: string;
}

export const DATABASES: Readonly<Record<DatabaseKind, DatabaseTraits>> = {
  sqlite: {
    prismaProvider: 'sqlite',
    prismaAdapter: '@prisma/adapter-better-sqlite3',
    prismaAdapterClass: 'PrismaBetterSQLite3',
    prismaAdapterArgument: '{ url }',
    defaultUrl: `file:./${defaultSqliteFilename}`,
    maxIdentifier: 63,
    migrations: 'prisma',
    offlineUrl: 'file:./offline.db',
    sharedRateLimits: false,
    lockTable: false,
    descendingSortIndexes: false,
    coveringInverseIndex: false,
    jsonType: 'String',
    timeType: 'String',
    stringSizes: undefined,
    timestampType: undefined,
    label: 'SQLite',
    readmeLabel: 'an embedded SQLite database',
  },
  postgres: {
    prismaProvider: 'postgresql',
    prismaAdapter: '@prisma/adapter-pg',
    prismaAdapterClass: 'PrismaPg',
    prismaAdapterArgument: '{ connectionString: url }',
    defaultUrl: defaultPostgresUrl,
    maxIdentifier: 63,
    migrations: 'prisma',
    offlineUrl: 'postgresql://offline@127.0.0.1:1/offline',
    sharedRateLimits: true,
    lockTable: false,
    descendingSortIndexes: false,
    coveringInverseIndex: false,
    jsonType: 'Json',
    timeType: 'DateTime',
    stringSizes: undefined,
    timestampType: '@db.Timestamptz(3)',
    label: 'PostgreSQL',
    readmeLabel: 'a PostgreSQL database',
  },
  mysql: {
    prismaProvider: 'mysql',
    prismaAdapter: '@prisma/adapter-mariadb',
    prismaAdapterClass: 'PrismaMariaDb',
    prismaAdapterArgument: "url.replace(/^mysql:/, 'mariadb:')",
    defaultUrl: defaultMysqlUrl,
    maxIdentifier: 64,
    migrations: 'capi',
    offlineUrl: 'mysql://offline@127.0.0.1:1/offline',
    sharedRateLimits: false,
    lockTable: true,
    descendingSortIndexes: true,
    coveringInverseIndex: true,
    jsonType: 'Json',
    timeType: 'DateTime',
    stringSizes: { short: '@db.VarChar(255)', long: '@db.LongText' },
    timestampType: '@db.DateTime(3)',
    label: 'MySQL/MariaDB',
    readmeLabel: 'a MySQL 8 or MariaDB 10.11+ database',
  },
};

/** The database kind of a migration_lock.toml / datasource provider. */
export function databaseOfProvider(provider: string | undefined): DatabaseKind | undefined {
  return DATABASE_KINDS.find((kind) => DATABASES[kind].prismaProvider === provider);
}
