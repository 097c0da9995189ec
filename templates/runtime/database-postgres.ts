/**
 * PostgreSQL through a pg Pool. Dates, times and timestamps come back as the strings PostgreSQL
 * sends, and BIGINT / NUMERIC as strings: the query engine formats them for the API, and
 * converting through JavaScript Dates or numbers would shift time zones or lose digits.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { PostgresConfig } from './config.ts';
import {
  DatabaseOpenError,
  DatabaseUsageError,
  describeDriverError,
  QueryEvents,
  type Database,
  type ExecuteResult,
  type OpenOptions,
  type QueryEvent,
  type QueryListener,
  type Queryable,
  type SqlValue,
} from './database.ts';
import { postgresDialect } from './dialect/postgres.ts';
import { renderStatement } from './engine/sql.ts';

const oids = { int8: 20, date: 1082, time: 1083, timestamp: 1114, timestamptz: 1184, timetz: 1266, numeric: 1700 } as const;
const keptAsText: ReadonlySet<number> = new Set(Object.values(oids));
const asText = (value: string): string => value;

/**
 * Per-pool type parsers, so that nothing global in the pg module changes. Array types keep
 * pg's parsers: the runtime stores no arrays.
 */
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => (keptAsText.has(oid) ? asText : pg.types.getTypeParser(oid, format as 'text'))) as pg.CustomTypesConfig['getTypeParser'],
};

export const connectTimeoutMs = 10_000;

export async function openPostgres(config: PostgresConfig, options: OpenOptions = {}): Promise<Database> {
  let pool: pg.Pool;
  try {
    pool = new pg.Pool({ connectionString: config.url, max: config.pool.max, connectionTimeoutMillis: connectTimeoutMs, types });
  } catch (error) {
    throw new DatabaseOpenError(`cannot connect to postgres ${config.label}: ${describeDriverError(error)}`);
  }
  // An idle client whose server goes away emits 'error' on the pool; unhandled, that would end
  // the process. The next query fails on its own and reports it.
  pool.on('error', (error) => options.onBackgroundError?.(error));
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseOpenError(`cannot connect to postgres ${config.label}: ${describeDriverError(error)}`);
  }
  return new PostgresDatabase(pool, new QueryEvents(), `postgres ${config.label}`);
}

type Client = pg.Pool | pg.PoolClient;

/**
 * Statements with parameters run as named prepared statements: each connection parses and plans
 * a statement once and then only binds values, which is most of the cost of the small statements
 * the engine sends. Names are derived from the text; past `maxPreparedNames` distinct texts
 * (unusual query shapes), statements run unnamed rather than fill every connection's memory.
 * Migrations run before the server serves, so no prepared plan outlives a schema change.
 */
const maxPreparedNames = 2000;
const preparedNames = new Map<string, string>();

function preparedName(text: string): { name?: string } {
  let name = preparedNames.get(text);
  if (name === undefined) {
    if (preparedNames.size >= maxPreparedNames) return {};
    name = `capi_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    preparedNames.set(text, name);
  }
  return { name };
}

/** Runs statements on one client (the pool itself, or a checked-out connection). */
class PostgresHandle implements Queryable {
  readonly dialect = postgresDialect;
  #finished = false;

  constructor(
    protected readonly client: Client,
    protected readonly events: QueryEvents,
    private readonly depth: number,
  ) {}

  async query<T extends object>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    const result = await this.run('query', sql, params);
    return result.rows as T[];
  }

  async execute(sql: string, params: readonly SqlValue[] = []): Promise<ExecuteResult> {
    const result = await this.run('execute', sql, params);
    const id: unknown = result.rows[0]?.id;
    return { changes: result.rowCount ?? 0, lastId: typeof id === 'number' || typeof id === 'string' ? id : null };
  }

  async exec(script: string): Promise<void> {
    // Without parameters pg uses the simple query protocol, which accepts several statements.
    await this.run('exec', script, []);
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    if (this.client instanceof pg.Pool) {
      const pool = this.client;
      return withClient(pool, (client) => new PostgresHandle(client, this.events, 0).transaction(fn));
    }
    const client = this.client;
    if (this.depth === 0) {
      return this.inScope(fn, client, 'BEGIN', 'COMMIT', 'ROLLBACK');
    }
    const savepoint = `capi_sp_${this.depth}`;
    return this.inScope(fn, client, `SAVEPOINT ${savepoint}`, `RELEASE SAVEPOINT ${savepoint}`, `ROLLBACK TO SAVEPOINT ${savepoint}`);
  }

  private async inScope<T>(fn: (tx: Queryable) => Promise<T>, client: pg.PoolClient, begin: string, commit: string, rollback: string): Promise<T> {
    this.assertUsable();
    await client.query(begin);
    const tx = new PostgresHandle(client, this.events, this.depth + 1);
    try {
      const result = await fn(tx);
      tx.finish();
      await client.query(commit);
      return result;
    } catch (error) {
      tx.finish();
      // Report the error that made us roll back, not a failure of the rollback itself; a
      // connection that cannot roll back is thrown away instead of going back to the pool.
      await client.query(rollback).catch(() => broken.add(client));
      throw error;
    }
  }

  private async run(kind: QueryEvent['kind'], sql: string, params: readonly SqlValue[]): Promise<pg.QueryResult<Record<string, unknown>>> {
    this.assertUsable();
    const start = performance.now();
    try {
      const result = params.length === 0 ? await this.client.query<Record<string, unknown>>(sql) : await this.runRendered(sql, params);
      this.events.emit({ kind, sql, params, durationMs: performance.now() - start });
      // A multi-statement script yields one result per statement; the last one is what callers want.
      return Array.isArray(result) ? (result.at(-1) as pg.QueryResult<Record<string, unknown>>) : result;
    } catch (error) {
      this.events.emit({ kind, sql, params, durationMs: performance.now() - start, error });
      throw error;
    }
  }

  private runRendered(sql: string, params: readonly SqlValue[]): Promise<pg.QueryResult<Record<string, unknown>>> {
    const { text, values } = renderStatement(postgresDialect, sql, params);
    return this.client.query<Record<string, unknown>>({ text, values, ...preparedName(text) });
  }

  /** Marks a transaction or connection handle as over; only this module calls it. */
  finish(): void {
    this.#finished = true;
  }

  private assertUsable(): void {
    if (this.#finished) throw new DatabaseUsageError('a transaction handle was used after its transaction ended');
  }
}

class PostgresDatabase extends PostgresHandle implements Database {
  #closed = false;

  constructor(
    private readonly pool: pg.Pool,
    events: QueryEvents,
    readonly description: string,
  ) {
    super(pool, events, 0);
  }

  get queryCount(): number {
    return this.events.count;
  }

  withConnection<T>(fn: (connection: Queryable) => Promise<T>): Promise<T> {
    return withClient(this.pool, async (client) => {
      const connection = new PostgresHandle(client, this.events, 0);
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

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.pool.end();
  }
}

/** Connections left in an unknown state (a failed rollback): destroyed instead of reused. */
const broken = new WeakSet<pg.PoolClient>();

async function withClient<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    return await fn(client);
  } finally {
    client.release(broken.has(client));
  }
}
