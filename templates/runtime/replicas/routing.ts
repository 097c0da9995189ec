/**
 * A `Database` over a primary and its replicas that picks the server per statement, so that
 * nothing above it knows replicas exist. Inside an HTTP request (scope.ts), a SELECT run on the
 * database itself goes to a replica that has replayed the client's last write, chosen at the
 * request's first read and kept for the rest of it; everything else goes to the primary: other
 * statements, transactions and everything in them, reserved connections, and every statement
 * outside a request. After a write the request reads from the primary, and the primary's log
 * position is handed to the scope, which carries it to the client (http.ts).
 */
import { QueryTimeoutError } from '../errors.ts';
import { QueryEvents, type Database, type ExecuteResult, type PoolStats, type QueryListener, type Queryable, type Row, type SqlValue } from '../database.ts';
import type { Dialect, ReplicationSupport } from '../dialect/types.ts';
import { readScopes, type ReadScope } from './scope.ts';
import type { ReplicaSet } from './set.ts';

/** A statement that only reads: a SELECT (one with a row lock would fail on a replica, and is retried on the primary). */
const readStatement = /^\s*\(*\s*SELECT\b/i;

export class ReplicatedDatabase implements Database {
  readonly dialect: Dialect;
  readonly description: string;
  readonly #events = new QueryEvents();

  constructor(
    /** Where writes, transactions and everything outside a request go. */
    readonly primary: Database,
    readonly replicas: ReplicaSet,
    readonly replication: ReplicationSupport,
  ) {
    this.dialect = primary.dialect;
    this.description = `${primary.description} with ${replicas.replicas.length} read replica(s)`;
    primary.onQuery((event) => this.#events.emit(event));
  }

  /** Reports a replica's statements to this database's listeners (called once its pool is open). */
  forward(replica: Database): void {
    replica.onQuery((event) => this.#events.emit(event));
  }

  get queryCount(): number {
    return this.#events.count;
  }

  onQuery(listener: QueryListener): () => void {
    return this.#events.on(listener);
  }

  query<T extends object = Row>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    const scope = readScopes.getStore();
    if (scope === undefined) return this.primary.query<T>(sql, params);
    if (!readStatement.test(sql)) return this.#write(scope, () => this.primary.query<T>(sql, params));
    return this.#read(scope, (db) => db.query<T>(sql, params));
  }

  execute(sql: string, params?: readonly SqlValue[]): Promise<ExecuteResult> {
    return this.#write(readScopes.getStore(), () => this.primary.execute(sql, params));
  }

  exec(script: string): Promise<void> {
    return this.#write(readScopes.getStore(), () => this.primary.exec(script));
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.#write(readScopes.getStore(), () => this.primary.transaction(fn));
  }

  withConnection<T>(fn: (connection: Queryable) => Promise<T>): Promise<T> {
    return this.#write(readScopes.getStore(), () => this.primary.withConnection(fn));
  }

  /** The primary's pool: writes, transactions and every read outside requests wait on it. */
  poolStats(): PoolStats {
    return this.primary.poolStats();
  }

  async close(): Promise<void> {
    await this.replicas.close();
    await this.primary.close();
  }

  async #read<T>(scope: ReadScope, run: (db: Database) => Promise<T>): Promise<T> {
    scope.target ??= this.replicas.choose(scope.floor);
    const replica = await scope.target;
    const db = replica?.db;
    if (replica === undefined || db === undefined) return run(this.primary);
    try {
      return await run(db);
    } catch (error) {
      // A read cancelled at the request's statement timeout would take as long on the primary:
      // it is the request's answer (503), and says nothing about the replica.
      if (error instanceof QueryTimeoutError) throw error;
      // Whatever else went wrong on the replica (it died, or cancelled the read to replay the log),
      // the primary answers this request, and the replica serves nothing until it is checked.
      this.replicas.failed(replica, error);
      scope.target = Promise.resolve(undefined);
      return run(this.primary);
    }
  }

  /**
   * Runs a write on the primary; inside a request, the request's later reads go to the primary
   * too, and once the write is done the primary's position goes to the scope. A position that
   * cannot be had (the primary went away right after) leaves the client without one: its next
   * read may then be served stale, which is better than failing a write that happened.
   */
  async #write<T>(scope: ReadScope | undefined, run: () => Promise<T>): Promise<T> {
    if (scope === undefined) return run();
    scope.target = Promise.resolve(undefined);
    const result = await run();
    const [row] = await this.primary.query<{ position: string | null }>(this.replication.primaryPosition).catch(() => []);
    if (typeof row?.position === 'string') scope.wrote(row.position);
    return result;
  }
}
