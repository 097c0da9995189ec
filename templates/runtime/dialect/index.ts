/** The Dialect of each supported database: the compiler requires one per `DatabaseKind`. */
import { mysqlDialect } from './mysql.ts';
import { postgresDialect } from './postgres.ts';
import { sqliteDialect } from './sqlite.ts';
import type { DatabaseKind, Dialect } from './types.ts';

export const dialects: Readonly<Record<DatabaseKind, Dialect>> = {
  sqlite: sqliteDialect,
  postgres: postgresDialect,
  mysql: mysqlDialect,
};

export type { DatabaseKind, Dialect, IdKind, RowLock } from './types.ts';
