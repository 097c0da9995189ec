/**
 * SQLite through better-sqlite3. The driver is synchronous and has one connection, so a
 * transaction that awaits between statements must keep every other caller out until it ends:
 * a promise-chain lock serialises top-level statements and transactions.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteConfig } from './config.ts';
import {
  DatabaseOpenError,
  DatabaseUsageError,
  describeDriverError,
  QueryEvents,
  type Database,
  type ExecuteResult,
  type PoolStats,
  type QueryEvent,
  type QueryListener,
  type Queryable,
  type SqlValue,
} from './database.ts';
import { busyTimeoutMs, sqliteDialect } from './dialect/sqlite.ts';
import { renderStatement } from './engine/sql.ts';

type Connection = BetterSqlite3.Database;
type Statement = BetterSqlite3.Statement<unknown[], unknown>;

const statementCacheSize = 500;

export async function openSqlite(config: SqliteConfig): Promise<Database> {
  let connection: Connection;
  try {
    const { default: Driver } = await import('better-sqlite3');
    if (config.filename !== ':memory:') mkdirSync(dirname(config.filename), { recursive: true });
    connection = new Driver(config.filename);
  } catch (error) {
    throw new DatabaseOpenError(`cannot open sqlite database ${config.label}: ${describeDriverError(error)}`);
  }
  try {
    // WAL lets readers of other processes proceed while one writes; NORMAL sync is durable in WAL
    // mode except for the last transactions on power loss, which is SQLite's recommended setting.
    connection.pragma('journal_mode = WAL');
    connection.pragma('synchronous = NORMAL');
    connection.pragma('foreign_keys = ON');
    connection.pragma(`busy_timeout = ${busyTimeoutMs}`);
    // Reading the schema fails on a file that is not a database, so bad paths fail here, not later.
    connection.prepare('SELECT count(*) FROM sqlite_master').get();
  } catch (error) {
    connection.close();
    throw new DatabaseOpenError(`cannot open sqlite database ${config.label}: ${describeDriverError(error)}`);
  }
  return new SqliteDatabase(new SqliteCore(connection), `sqlite ${config.label}`);
}

/** The state every handle of one database shares. */
class SqliteCore {
  readonly events = new QueryEvents();
  /** Set (to the core) inside reserved work, to catch use of an outer handle there. */
  readonly reserved = new AsyncLocalStorage<SqliteCore>();
  #tail: Promise<unknown> = Promise.resolve();
  /** Reserved pieces of work queued or running; while 0, a statement can run at once. */
  #active = 0;
  #statements = new Map<string, Statement>();
  #savepoints = 0;
  closed = false;

  constructor(readonly connection: Connection) {}

  /** Runs `fn` once every earlier reserved piece of work has finished. */
  exclusive<T>(fn: () => Promise<T> | T): Promise<T> {
    if (this.reserved.getStore() === this) {
      return Promise.reject(new DatabaseUsageError('the database handle was used inside its own transaction: use the transaction handle passed to the callback'));
    }
    this.#active++;
    const run = this.#tail.then(() => this.reserved.run(this, fn)).finally(() => this.#idle());
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /**
   * The storage is switched off while no reserved work is queued or running: on Node 20 an enabled
   * AsyncLocalStorage turns on promise hooks for the whole process, which every promise of every
   * later request would pay for (the migrations at start are reserved work). The next reserved
   * piece of work switches it on again; with none active there is nothing for it to catch.
   */
  #idle(): void {
    if (--this.#active === 0) this.reserved.disable();
  }

  /**
   * Runs one synchronous statement: at once when no transaction holds or waits for the
   * connection (the common case of reads), else in turn. Skipping the queue when it is empty
   * saves a promise chain and an async context per statement.
   */
  statementInTurn<T>(fn: () => T): Promise<T> {
    if (this.#active > 0) return this.exclusive(fn);
    try {
      return Promise.resolve(fn());
    } catch (error) {
      return Promise.reject(error);
    }
  }

  statement(sql: string): Statement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.connection.prepare(sql);
      if (this.#statements.size >= statementCacheSize) {
        const oldest = this.#statements.keys().next().value;
        if (oldest !== undefined) this.#statements.delete(oldest);
      }
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /** The one connection: in use while reserved work runs, the rest of that work waiting for it. */
  stats(): PoolStats {
    const busy = this.#active > 0 ? 1 : 0;
    return { open: 1, idle: 1 - busy, waiting: Math.max(0, this.#active - 1), max: 1 };
  }

  nextSavepoint(): string {
    return `capi_sp_${++this.#savepoints}`;
  }

  timed<T>(kind: QueryEvent['kind'], sql: string, params: readonly SqlValue[], fn: () => T): T {
    if (this.closed) throw new DatabaseUsageError('the database is closed');
    const start = performance.now();
    try {
      const result = fn();
      this.events.emit({ kind, sql, params, durationMs: performance.now() - start });
      return result;
    } catch (error) {
      this.events.emit({ kind, sql, params, durationMs: performance.now() - start, error });
      throw error;
    }
  }
}

/**
 * A handle over the shared core. `reserved` handles run directly (their owner holds the lock);
 * the others take the lock per statement. `depth` is 0 outside a transaction.
 */
class SqliteHandle implements Queryable {
  readonly dialect = sqliteDialect;
  #finished = false;

  constructor(
    protected readonly core: SqliteCore,
    private readonly reserved: boolean,
    private readonly depth: number,
  ) {}

  query<T extends object>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return this.run(() =>
      this.core.timed('query', sql, params, () => {
        const { text, values } = renderStatement(sqliteDialect, sql, params);
        const statement = this.core.statement(text);
        if (statement.reader) return statement.all(...values) as T[];
        statement.run(...values);
        return [];
      }),
    );
  }

  execute(sql: string, params: readonly SqlValue[] = []): Promise<ExecuteResult> {
    return this.run(() =>
      this.core.timed('execute', sql, params, (): ExecuteResult => {
        const { text, values } = renderStatement(sqliteDialect, sql, params);
        const result = this.core.statement(text).run(...values);
        return { changes: result.changes, lastId: typeof result.lastInsertRowid === 'bigint' ? result.lastInsertRowid.toString() : result.lastInsertRowid };
      }),
    );
  }

  exec(script: string): Promise<void> {
    return this.run(() => this.core.timed('exec', script, [], () => void this.core.connection.exec(script)));
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    if (!this.reserved) return this.reserve(() => new SqliteHandle(this.core, true, 0).transaction(fn));
    this.assertUsable();
    const connection = this.core.connection;
    if (this.depth === 0) {
      return this.inScope(
        fn,
        () => connection.exec('BEGIN IMMEDIATE'),
        () => connection.exec('COMMIT'),
        () => {
          if (connection.inTransaction) connection.exec('ROLLBACK');
        },
      );
    }
    const savepoint = this.core.nextSavepoint();
    return this.inScope(
      fn,
      () => connection.exec(`SAVEPOINT ${savepoint}`),
      () => connection.exec(`RELEASE ${savepoint}`),
      () => {
        if (connection.inTransaction) connection.exec(`ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
      },
    );
  }

  private async inScope<T>(fn: (tx: Queryable) => Promise<T>, begin: () => void, commit: () => void, rollback: () => void): Promise<T> {
    begin();
    const tx = new SqliteHandle(this.core, true, this.depth + 1);
    try {
      const result = await fn(tx);
      tx.finish();
      commit();
      return result;
    } catch (error) {
      tx.finish();
      rollback();
      throw error;
    }
  }

  protected reserve<T>(fn: () => Promise<T>): Promise<T> {
    return this.core.exclusive(fn);
  }

  private run<T>(fn: () => T): Promise<T> {
    if (!this.reserved) return this.core.statementInTurn(fn);
    try {
      this.assertUsable();
      return Promise.resolve(fn());
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Marks a transaction or connection handle as over; only this module calls it. */
  finish(): void {
    this.#finished = true;
  }

  private assertUsable(): void {
    if (this.#finished) throw new DatabaseUsageError('a transaction handle was used after its transaction ended');
  }
}

class SqliteDatabase extends SqliteHandle implements Database {
  constructor(
    core: SqliteCore,
    readonly description: string,
  ) {
    super(core, false, 0);
  }

  get queryCount(): number {
    return this.core.events.count;
  }

  withConnection<T>(fn: (connection: Queryable) => Promise<T>): Promise<T> {
    return this.reserve(async () => {
      const connection = new SqliteHandle(this.core, true, 0);
      try {
        return await fn(connection);
      } finally {
        connection.finish();
      }
    });
  }

  onQuery(listener: QueryListener): () => void {
    return this.core.events.on(listener);
  }

  poolStats(): PoolStats {
    return this.core.stats();
  }

  async close(): Promise<void> {
    if (this.core.closed) return;
    await this.reserve(async () => {
      this.core.closed = true;
      this.core.connection.close();
    });
  }
}
