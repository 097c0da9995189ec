/**
 * MySQL 8 and MariaDB 10.11+ through a mysql2 pool. Every connection is set up so that the SQL
 * the runtime writes for the other databases means the same here:
 * - `ANSI_QUOTES`: "name" is an identifier (as in standard SQL), not a string;
 * - `PIPES_AS_CONCAT`: `||` concatenates; `NO_BACKSLASH_ESCAPES`: a backslash in a string
 *   literal is itself (`ESCAPE '\'`), as in standard SQL;
 * - time zone +00:00, and DATETIME values read back as ISO 8601 UTC strings (`...Z`), the form
 *   SQLite stores; timestamps are bound as Dates, sent in MySQL's DATETIME form (dialect/mysql.ts),
 *   as MySQL and MariaDB refuse an ISO 8601 zone suffix; strings are sent as they are;
 * - BIGINT and DECIMAL come back as strings, so no digit is lost; JSON comes back as its text
 *   (MariaDB stores JSON as text anyway; MySQL 8 would hand it back parsed);
 * - READ COMMITTED, PostgreSQL's default isolation, which the write engine's locking assumes;
 * - utf8mb4 throughout.
 * Statements with parameters run as server-side prepared statements (mysql2 `execute`, cached per
 * connection); values are bound by the dialect (dialect/mysql.ts `bindValue`).
 */
import type { FieldPacket, Pool, PoolConnection, PoolOptions, ResultSetHeader, RowDataPacket, TypeCastField } from 'mysql2/promise';
import type { MysqlConfig } from './config.ts';
import {
  DatabaseOpenError,
  DatabaseUsageError,
  describeDriverError,
  QueryEvents,
  type Database,
  type ExecuteResult,
  type QueryEvent,
  type QueryListener,
  type Queryable,
  type SqlValue,
} from './database.ts';
import { mysqlDialect } from './dialect/mysql.ts';
import { renderStatement } from './engine/sql.ts';

export const connectTimeoutMs = 10_000;

/** Session settings of every connection (see the module comment). */
export const sessionSetup = [
  "SET SESSION sql_mode = 'ANSI_QUOTES,PIPES_AS_CONCAT,NO_BACKSLASH_ESCAPES,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION'",
  "SET SESSION time_zone = '+00:00'",
  // The one-statement reads build JSON arrays with GROUP_CONCAT (dialect/mysql.ts); its default
  // limit of 1 MB (MariaDB) or 1 KB (MySQL) would cut them.
  'SET SESSION group_concat_max_len = 4294967295',
  'SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED',
  // Text the session makes (CAST(x AS CHAR), literals) compares byte-wise, as the columns do.
  'SET NAMES utf8mb4 COLLATE utf8mb4_bin',
].join('; ');

export async function openMysql(config: MysqlConfig): Promise<Database> {
  let pool: Pool;
  try {
    const { createPool } = await import('mysql2/promise');
    pool = createPool(poolOptions(config));
  } catch (error) {
    throw new DatabaseOpenError(`cannot connect to mysql ${config.label}: ${describeDriverError(error)}`);
  }
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseOpenError(`cannot connect to mysql ${config.label}: ${describeDriverError(error)}`);
  }
  return new MysqlDatabase(pool, new QueryEvents(), `mysql ${config.label}`);
}

function poolOptions(config: MysqlConfig): PoolOptions {
  const url = new URL(config.url);
  return {
    host: url.hostname,
    port: url.port === '' ? 3306 : Number(url.port),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: decodeURIComponent(url.pathname.replace(/^\//, '')),
    connectionLimit: config.pool.max,
    connectTimeout: connectTimeoutMs,
    charset: 'utf8mb4_bin',
    timezone: 'Z',
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: true,
    decimalNumbers: false,
    jsonStrings: true,
    // Migrations are scripts of several statements (exec); parameters never reach a script.
    multipleStatements: true,
    typeCast,
  };
}

/** DATETIME/TIMESTAMP as ISO 8601 UTC; JSON as its text (see the module comment). */
function typeCast(field: TypeCastField, next: () => unknown): unknown {
  if (field.type === 'DATETIME' || field.type === 'TIMESTAMP') {
    const text = field.string();
    return text === null ? null : `${text.replace(' ', 'T')}${text.includes('.') ? '' : '.000'}Z`;
  }
  if (field.type === 'JSON') return field.string('utf8');
  return next();
}

type Client = Pool | PoolConnection;

/** Connections already set up (sessionSetup), so the setup runs once per connection. */
const prepared = new WeakSet<object>();

async function setUp(connection: PoolConnection): Promise<void> {
  const core = (connection as unknown as { connection: object }).connection;
  if (prepared.has(core)) return;
  await connection.query(sessionSetup);
  prepared.add(core);
}

/** Runs statements on one client (the pool itself, or a checked-out connection). */
class MysqlHandle implements Queryable {
  readonly dialect = mysqlDialect;
  #finished = false;

  constructor(
    protected readonly client: Client,
    protected readonly events: QueryEvents,
    private readonly depth: number,
  ) {}

  async query<T extends object>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    const result = await this.run('query', sql, params);
    return Array.isArray(result) ? (result as T[]) : [];
  }

  async execute(sql: string, params: readonly SqlValue[] = []): Promise<ExecuteResult> {
    const result = await this.run('execute', sql, params);
    if (Array.isArray(result)) return { changes: 0, lastId: null };
    const header = result as ResultSetHeader;
    return { changes: header.affectedRows, lastId: header.insertId === 0 ? null : header.insertId };
  }

  async exec(script: string): Promise<void> {
    await this.run('exec', script, []);
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    if (!isConnection(this.client)) {
      return withConnection(this.client, (connection) => new MysqlHandle(connection, this.events, 0).transaction(fn));
    }
    const connection = this.client;
    if (this.depth === 0) return this.inScope(fn, connection, 'START TRANSACTION', 'COMMIT', 'ROLLBACK');
    const savepoint = `capi_sp_${this.depth}`;
    return this.inScope(fn, connection, `SAVEPOINT ${savepoint}`, `RELEASE SAVEPOINT ${savepoint}`, `ROLLBACK TO SAVEPOINT ${savepoint}`);
  }

  private async inScope<T>(fn: (tx: Queryable) => Promise<T>, connection: PoolConnection, begin: string, commit: string, rollback: string): Promise<T> {
    this.assertUsable();
    await connection.query(begin);
    const tx = new MysqlHandle(connection, this.events, this.depth + 1);
    try {
      const result = await fn(tx);
      tx.finish();
      await connection.query(commit);
      return result;
    } catch (error) {
      tx.finish();
      // Report the error that made us roll back; a connection that cannot roll back is destroyed.
      await connection.query(rollback).catch(() => broken.add(connection));
      throw error;
    }
  }

  private async run(kind: QueryEvent['kind'], sql: string, params: readonly SqlValue[]): Promise<unknown> {
    this.assertUsable();
    const start = performance.now();
    try {
      const result = await onSetUp(this.client, (client) =>
        params.length === 0
          ? client.query<RowDataPacket[]>(sql)
          : client.execute<RowDataPacket[]>(sql, renderStatement(mysqlDialect, sql, params).values as Parameters<PoolConnection['execute']>[1] & unknown[]),
      );
      this.events.emit({ kind, sql, params, durationMs: performance.now() - start });
      const [rows] = result as [unknown, FieldPacket[]];
      // A multi-statement script yields one result per statement; the last one is what callers want.
      return kind === 'exec' && Array.isArray(rows) && rows.length > 0 && isResultList(rows) ? rows.at(-1) : rows;
    } catch (error) {
      this.events.emit({ kind, sql, params, durationMs: performance.now() - start, error });
      throw error;
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

function isResultList(rows: unknown[]): boolean {
  return rows.every((r) => Array.isArray(r) || (typeof r === 'object' && r !== null && 'affectedRows' in r));
}

function isConnection(client: Client): client is PoolConnection {
  return typeof (client as PoolConnection).release === 'function';
}

/** Runs `fn` on a set-up connection: the given one, or one borrowed from the pool for this statement. */
async function onSetUp<T>(client: Client, fn: (client: Client) => Promise<T>): Promise<T> {
  if (isConnection(client)) {
    await setUp(client);
    return fn(client);
  }
  return withConnection(client, (connection) => fn(connection));
}

class MysqlDatabase extends MysqlHandle implements Database {
  #closed = false;

  constructor(
    private readonly pool: Pool,
    events: QueryEvents,
    readonly description: string,
  ) {
    super(pool, events, 0);
  }

  get queryCount(): number {
    return this.events.count;
  }

  withConnection<T>(fn: (connection: Queryable) => Promise<T>): Promise<T> {
    return withConnection(this.pool, async (client) => {
      const connection = new MysqlHandle(client, this.events, 0);
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
const broken = new WeakSet<PoolConnection>();

async function withConnection<T>(pool: Pool, fn: (connection: PoolConnection) => Promise<T>): Promise<T> {
  const connection = await pool.getConnection();
  try {
    await setUp(connection);
    return await fn(connection);
  } finally {
    if (broken.has(connection)) connection.destroy();
    else connection.release();
  }
}
