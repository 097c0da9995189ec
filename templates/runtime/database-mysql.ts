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
import type { Pool, PoolConnection, PoolOptions, ResultSetHeader, RowDataPacket, TypeCastField } from 'mysql2/promise';
import type { MysqlConfig } from './config.ts';
import { DatabaseOpenError, describeDriverError, type Database, type OpenOptions, type PoolStats } from './database.ts';
import { pooledDatabase, type PoolDriver } from './database-pooled.ts';
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
  // A filter through relations is `key IN (SELECT ...)` per hop (engine/filters.ts), which the
  // optimizer flattens into one semi-join of two tables per hop, then searches every order of its
  // tables (optimizer_search_depth 62 by default): 1.6 s at 6 hops, minutes at 10. A greedy search
  // looking 3 tables ahead plans 10 hops in 0.06 s and keeps the growth shapes' index plans
  // (engine/mysql-plan.test.ts; docs/reliability.md, "Query limits").
  'SET SESSION optimizer_search_depth = 3',
].join('; ');

export async function openMysql(config: MysqlConfig, options: OpenOptions = {}): Promise<Database> {
  let pool: Pool;
  try {
    const { createPool } = await import('mysql2/promise');
    pool = createPool(poolOptions(config));
  } catch (error) {
    throw new DatabaseOpenError(`cannot connect to mysql ${config.label}: ${describeDriverError(error)}`);
  }
  let version: string;
  try {
    const [rows] = await pool.query<RowDataPacket[]>('SELECT VERSION() AS version');
    version = String(rows[0]?.version ?? '');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseOpenError(`cannot connect to mysql ${config.label}: ${describeDriverError(error)}`);
  }
  return pooledDatabase(mysqlDriver(readBound(version, options.statementTimeoutMs ?? 0)), pool, `mysql ${config.label}`);
}

/**
 * How a read on the pool is bounded by the server's statement timeout, per statement rather than
 * per session so that migrations, imports and writes are not: MariaDB runs `SET STATEMENT max_statement_time =
 * <seconds> FOR <statement>`; MySQL reads the `MAX_EXECUTION_TIME(<ms>)` optimizer hint, which
 * MariaDB would ignore (it is a comment there) and which binds only SELECT statements.
 */
type ReadBound = (sql: string) => string;

export function readBound(version: string, timeoutMs: number): ReadBound {
  if (timeoutMs <= 0) return (sql) => sql;
  const ms = Math.trunc(timeoutMs);
  if (/mariadb/i.test(version)) {
    const prefix = `SET STATEMENT max_statement_time = ${ms / 1000} FOR `;
    return (sql) => prefix + sql;
  }
  const hint = `SELECT /*+ MAX_EXECUTION_TIME(${ms}) */`;
  return (sql) => sql.replace(/^\s*SELECT\b/i, hint);
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

/** Connections already set up (sessionSetup), so the setup runs once per connection. */
const prepared = new WeakSet<object>();

/** A pooled connection, set up on its first checkout. */
async function acquire(pool: Pool): Promise<PoolConnection> {
  const connection = await pool.getConnection();
  const core = (connection as unknown as { connection: object }).connection;
  if (prepared.has(core)) return connection;
  try {
    await connection.query(sessionSetup);
  } catch (error) {
    connection.release();
    throw error;
  }
  prepared.add(core);
  return connection;
}

/** Rows, or the header of a statement that returns none (of a script: its last statement's). */
type Result = RowDataPacket[] | ResultSetHeader;

/** mysql2's pool as database-pooled.ts drives it; reads on the pool bounded by `bound`. */
const mysqlDriver = (bound: ReadBound): PoolDriver<Pool, PoolConnection, Result> => ({
  dialect: mysqlDialect,
  begin: 'START TRANSACTION',
  acquire,
  release: (connection, discard) => (discard ? connection.destroy() : connection.release()),
  end: (pool) => pool.end(),
  stats: poolStats,
  async run({ pool, connection }, kind, sql, params) {
    // Outside a transaction a statement borrows a connection, so that it runs on a set-up session.
    const taken = connection ?? (await acquire(pool));
    // Only reads on the pool are bounded: a transaction's reads belong to its write, and a
    // reserved connection waits on locks (the migrations' GET_LOCK) as long as it must.
    const text = kind === 'query' && connection === undefined ? bound(sql) : sql;
    try {
      const [rows] =
        params.length === 0
          ? await taken.query<RowDataPacket[]>(text)
          : await taken.execute<RowDataPacket[]>(text, renderStatement(mysqlDialect, sql, params).values as Parameters<PoolConnection['execute']>[1] & unknown[]);
      // A multi-statement script yields one result per statement; the last one is what callers want.
      return (kind === 'exec' && Array.isArray(rows) && rows.length > 0 && isResultList(rows) ? rows.at(-1) : rows) as Result;
    } finally {
      if (connection === undefined) taken.release();
    }
  },
  control: async (connection, sql) => {
    await connection.query(sql);
  },
  rows: (result) => (Array.isArray(result) ? result : []),
  executed: (result) => (Array.isArray(result) ? { changes: 0, lastId: null } : { changes: result.affectedRows, lastId: result.insertId === 0 ? null : result.insertId }),
});

/**
 * mysql2 has no public pool counters: these are the queues of its core pool (`lib/base/pool.js`,
 * the same fields since mysql2 1.x), read at a scrape, never written.
 */
interface CorePool {
  readonly _allConnections: { readonly length: number };
  readonly _freeConnections: { readonly length: number };
  readonly _connectionQueue: { readonly length: number };
  readonly config: { readonly connectionLimit: number };
}

function poolStats(pool: Pool): PoolStats {
  const core = (pool as unknown as { pool: CorePool }).pool;
  return { open: core._allConnections.length, idle: core._freeConnections.length, waiting: core._connectionQueue.length, max: core.config.connectionLimit };
}

function isResultList(rows: unknown[]): boolean {
  return rows.every((r) => Array.isArray(r) || (typeof r === 'object' && r !== null && 'affectedRows' in r));
}
