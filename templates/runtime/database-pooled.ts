/**
 * What the server databases (database-postgres.ts, database-mysql.ts) share around their
 * driver's pool: a handle runs statements on the pool or on one checked-out connection and
 * reports each to the query listeners; a transaction takes a connection from the pool, and one
 * inside a transaction is a savepoint; a handle is refused once its transaction or reserved
 * connection is over; a connection whose rollback failed is destroyed instead of going back to
 * the pool. A driver supplies only what its client library does (`PoolDriver`).
 */
import type { Dialect } from './dialect/types.ts';
import { QueryTimeoutError } from './errors.ts';
import { DatabaseUsageError, QueryEvents, type Database, type ExecuteResult, type PoolStats, type QueryEvent, type QueryListener, type Queryable, type SqlValue } from './database.ts';

/** Where a statement runs: on any connection of the pool, or on `connection` (a transaction, a reserved connection). */
export interface Target<Pool, Connection> {
  readonly pool: Pool;
  readonly connection: Connection | undefined;
}

/** A driver's pool, connections and results, as the shared handle uses them. */
export interface PoolDriver<Pool, Connection extends object, Result> {
  readonly dialect: Dialect;
  /** The statement that opens a transaction (`BEGIN`, `START TRANSACTION`). */
  readonly begin: string;
  /** A connection checked out of the pool, ready for statements. */
  acquire(pool: Pool): Promise<Connection>;
  /** Gives a connection back to the pool, or destroys it when its state is unknown (`discard`). */
  release(connection: Connection, discard: boolean): void;
  end(pool: Pool): Promise<void>;
  /** The pool's connections now, as the client library counts them. */
  stats(pool: Pool): PoolStats;
  /**
   * Runs one statement, or a script of several (`exec`, no parameters), whose result is then
   * the last statement's. Parameters are rendered and bound by `renderStatement(dialect, ...)`.
   */
  run(target: Target<Pool, Connection>, kind: QueryEvent['kind'], sql: string, params: readonly SqlValue[]): Promise<Result>;
  /** Runs a transaction control statement (BEGIN, COMMIT, SAVEPOINT ...) on a connection. */
  control(connection: Connection, sql: string): Promise<void>;
  /** The rows of a result; `[]` when the statement returns none. */
  rows(result: Result): object[];
  executed(result: Result): ExecuteResult;
}

/** Connections left in an unknown state (a failed rollback): destroyed instead of reused. */
const broken = new WeakSet<object>();

async function borrow<Pool, Connection extends object, Result, T>(driver: PoolDriver<Pool, Connection, Result>, pool: Pool, fn: (connection: Connection) => Promise<T>): Promise<T> {
  const connection = await driver.acquire(pool);
  try {
    return await fn(connection);
  } finally {
    driver.release(connection, broken.has(connection));
  }
}

/** Runs statements on the pool, or on one checked-out connection at a transaction depth. */
class PooledHandle<Pool, Connection extends object, Result> implements Queryable {
  readonly dialect: Dialect;
  #finished = false;

  constructor(
    protected readonly driver: PoolDriver<Pool, Connection, Result>,
    protected readonly target: Target<Pool, Connection>,
    protected readonly events: QueryEvents,
    private readonly depth: number,
  ) {
    this.dialect = driver.dialect;
  }

  async query<T extends object>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return this.driver.rows(await this.run('query', sql, params)) as T[];
  }

  async execute(sql: string, params: readonly SqlValue[] = []): Promise<ExecuteResult> {
    return this.driver.executed(await this.run('execute', sql, params));
  }

  async exec(script: string): Promise<void> {
    await this.run('exec', script, []);
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const { pool, connection } = this.target;
    if (connection === undefined) return borrow(this.driver, pool, (taken) => this.on(taken, 0).transaction(fn));
    if (this.depth === 0) return this.inScope(fn, connection, this.driver.begin, 'COMMIT', 'ROLLBACK');
    const savepoint = `capi_sp_${this.depth}`;
    return this.inScope(fn, connection, `SAVEPOINT ${savepoint}`, `RELEASE SAVEPOINT ${savepoint}`, `ROLLBACK TO SAVEPOINT ${savepoint}`);
  }

  /** A handle on `connection` of this pool. */
  protected on(connection: Connection, depth: number): PooledHandle<Pool, Connection, Result> {
    return new PooledHandle(this.driver, { pool: this.target.pool, connection }, this.events, depth);
  }

  private async inScope<T>(fn: (tx: Queryable) => Promise<T>, connection: Connection, begin: string, commit: string, rollback: string): Promise<T> {
    this.assertUsable();
    await this.driver.control(connection, begin);
    const tx = this.on(connection, this.depth + 1);
    try {
      const result = await fn(tx);
      tx.finish();
      await this.driver.control(connection, commit);
      return result;
    } catch (error) {
      tx.finish();
      // Report the error that made us roll back, not a failure of the rollback itself; a
      // connection that cannot roll back is thrown away instead of going back to the pool.
      await this.driver.control(connection, rollback).catch(() => broken.add(connection));
      throw error;
    }
  }

  private async run(kind: QueryEvent['kind'], sql: string, params: readonly SqlValue[]): Promise<Result> {
    this.assertUsable();
    const start = performance.now();
    try {
      const result = await this.driver.run(this.target, kind, sql, params);
      this.events.emit({ kind, sql, params, durationMs: performance.now() - start });
      return result;
    } catch (error) {
      this.events.emit({ kind, sql, params, durationMs: performance.now() - start, error });
      throw this.dialect.isStatementTimeout(error) ? new QueryTimeoutError() : error;
    }
  }

  /** Marks a transaction or connection handle as over. */
  finish(): void {
    this.#finished = true;
  }

  private assertUsable(): void {
    if (this.#finished) throw new DatabaseUsageError('a transaction handle was used after its transaction ended');
  }
}

class PooledDatabase<Pool, Connection extends object, Result> extends PooledHandle<Pool, Connection, Result> implements Database {
  #closed = false;

  constructor(
    driver: PoolDriver<Pool, Connection, Result>,
    pool: Pool,
    readonly description: string,
  ) {
    super(driver, { pool, connection: undefined }, new QueryEvents(), 0);
  }

  get queryCount(): number {
    return this.events.count;
  }

  withConnection<T>(fn: (connection: Queryable) => Promise<T>): Promise<T> {
    return borrow(this.driver, this.target.pool, async (taken) => {
      const connection = this.on(taken, 0);
      try {
        return await fn(connection);
      } finally {
        connection.finish();
      }
    });
  }

  onQuery(listener: QueryListener): () => void {
    return this.events.on(listener);
  }

  poolStats(): PoolStats {
    return this.driver.stats(this.target.pool);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.driver.end(this.target.pool);
  }
}

/** The Database of an open, reachable pool. */
export function pooledDatabase<Pool, Connection extends object, Result>(driver: PoolDriver<Pool, Connection, Result>, pool: Pool, description: string): Database {
  return new PooledDatabase(driver, pool, description);
}
