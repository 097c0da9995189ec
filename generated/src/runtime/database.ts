/**
 * One small interface over every database, so that the query engine and the migrator are written
 * once. SQL is written with `?` placeholders (engine/sql.ts); each driver renders a statement for
 * its database with `renderStatement` and its `Dialect` (dialect/types.ts), and every statement
 * goes through a listener hook so tests and benchmarks can count queries.
 */
import type { DatabaseConfig } from './config.ts';
import type { DatabaseKind, Dialect } from './dialect/types.ts';

export type { DatabaseKind, Dialect } from './dialect/types.ts';

/** Values that can be bound to a placeholder, converted by `Dialect.bindValue` (booleans 1/0 on SQLite, Dates ISO strings). */
export type SqlValue = string | number | bigint | boolean | null | Uint8Array | Date;

export type Row = Record<string, unknown>;

export interface ExecuteResult {
  /** Rows inserted, updated or deleted. */
  readonly changes: number;
  /**
   * SQLite: rowid of the last inserted row. PostgreSQL: the `id` of the first returned row when
   * the statement has `RETURNING id`, else null (PostgreSQL has no "last insert id").
   */
  readonly lastId: number | string | null;
}

export interface QueryEvent {
  readonly kind: 'query' | 'execute' | 'exec';
  /** The statement as built, with `?` placeholders (the same text on every database). */
  readonly sql: string;
  readonly params: readonly SqlValue[];
  readonly durationMs: number;
  /** Set when the statement failed. */
  readonly error?: unknown;
}

export type QueryListener = (event: QueryEvent) => void;

/** What can run statements: the database itself, a transaction, or a reserved connection. */
export interface Queryable {
  /** What differs on this database: SQL text, capabilities, value conversions. */
  readonly dialect: Dialect;
  /** Rows of a statement that returns rows; `[]` for one that does not. */
  query<T extends object = Row>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  execute(sql: string, params?: readonly SqlValue[]): Promise<ExecuteResult>;
  /** Runs a script of several statements, without parameters. */
  exec(script: string): Promise<void>;
  /**
   * Runs `fn` in a transaction (a savepoint when already inside one): committed when `fn`
   * resolves, rolled back when it throws. Use the `tx` handle inside: on SQLite the database is
   * reserved for the transaction and using the outer handle there is an error, not a deadlock.
   * SQLite transactions start with BEGIN IMMEDIATE, so writers queue instead of failing later.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
}

export interface Database extends Queryable {
  /** `sqlite .data/data.db` or `postgres host/db`, for messages; never contains a password. */
  readonly description: string;
  /**
   * Reserves one connection for `fn` without opening a transaction, for work that must run
   * statements outside a transaction on the very connection that then opens one (SQLite's
   * `PRAGMA foreign_keys` can only change outside a transaction).
   */
  withConnection<T>(fn: (connection: Queryable) => Promise<T>): Promise<T>;
  /** Called after every statement run through any handle of this database. Returns an unsubscribe. */
  onQuery(listener: QueryListener): () => void;
  /** Statements run so far (transaction control statements are not counted). */
  readonly queryCount: number;
  /** The connections now: how many are open, idle, and how many callers wait for one (metrics). */
  poolStats(): PoolStats;
  close(): Promise<void>;
}

/** A database's connections at one moment, as its driver counts them. */
export interface PoolStats {
  /** Connections open (in use or idle). */
  readonly open: number;
  readonly idle: number;
  /** Callers waiting for a connection (or, on SQLite, for the one connection's lock). */
  readonly waiting: number;
  /** Most connections the pool opens. */
  readonly max: number;
}

/** The database could not be opened or reached. The message is one line and has no password. */
/** How many times a transaction that lost a lock race is tried in all. */
const MAX_TRANSACTION_ATTEMPTS = 5;

/**
 * Runs `fn` in a transaction of `db` (the database itself, not a transaction: a lost race aborts
 * the outer transaction too), and again from the start when the database says it lost a lock
 * race (Dialect.isRetryable: a deadlock, a serialization failure, SQLite's busy), so that the
 * loser answers as if it had come second. `fn` must leave nothing behind outside the transaction.
 */
export async function retryingTransaction<T>(db: Queryable, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(fn);
    } catch (error) {
      if (attempt >= MAX_TRANSACTION_ATTEMPTS || !db.dialect.isRetryable(error)) throw error;
      // A random pause, growing with each attempt, so that the writers that collided do not
      // start again in step and collide the same way.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}

export class DatabaseOpenError extends Error {
  override readonly name = 'DatabaseOpenError';
}

/** A handle was used where it must not be (after its transaction ended, or around it). */
export class DatabaseUsageError extends Error {
  override readonly name = 'DatabaseUsageError';
}

export interface OpenOptions {
  /** Told about errors of idle PostgreSQL connections, which would otherwise crash the process. */
  readonly onBackgroundError?: (error: Error) => void;
  /** Told what the database setup gets wrong but the driver works around (a pooler capi was not told about). */
  readonly onWarning?: (message: string) => void;
  /**
   * The longest a statement may run before the database cancels it (`api.query.timeoutMs`; the
   * server sets it, the CLI's long imports and exports do not). PostgreSQL bounds every statement
   * but migrations (`Dialect.migrations.unbounded`); MySQL and MariaDB bound reads; SQLite has no
   * such timeout. A cancelled statement throws QueryTimeoutError. 0 or undefined: no timeout.
   */
  readonly statementTimeoutMs?: number;
}

type ConfigOf<K extends DatabaseKind> = Extract<DatabaseConfig, { readonly client: K }>;

/** The driver of each database, loaded on first use so a project loads only its own driver. */
const drivers: { readonly [K in DatabaseKind]: (config: ConfigOf<K>, options: OpenOptions) => Promise<Database> } = {
  sqlite: async (config) => (await import('./database-sqlite.ts')).openSqlite(config),
  postgres: async (config, options) => (await import('./database-postgres.ts')).openPostgres(config, options),
  mysql: async (config, options) => (await import('./database-mysql.ts')).openMysql(config, options),
};

/** Opens the configured database and checks that it answers. Throws DatabaseOpenError. */
export function openDatabase(config: DatabaseConfig, options: OpenOptions = {}): Promise<Database> {
  const open = drivers[config.client] as (config: DatabaseConfig, options: OpenOptions) => Promise<Database>;
  return open(config, options);
}

/** Fans query events out to listeners and counts statements; shared by every handle of a database. */
export class QueryEvents {
  #listeners = new Set<QueryListener>();
  count = 0;

  on(listener: QueryListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(event: QueryEvent): void {
    this.count++;
    for (const listener of this.#listeners) listener(event);
  }
}

/** A one-line description of a driver error (Node wraps some network errors in AggregateError with no message). */
export function describeDriverError(error: unknown): string {
  if (error instanceof AggregateError && error.message === '') return describeDriverError(error.errors[0]);
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const message = error.message === '' && typeof code === 'string' ? code : error.message;
    return message.replace(/\s*\n\s*/g, ' ');
  }
  return String(error);
}
