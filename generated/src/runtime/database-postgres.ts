/**
 * PostgreSQL through a pg Pool. Dates, times and timestamps come back as the strings PostgreSQL
 * sends, and BIGINT / NUMERIC as strings: the query engine formats them for the API, and
 * converting through JavaScript Dates or numbers would shift time zones or lose digits.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { PostgresConfig } from './config.ts';
import { DatabaseOpenError, describeDriverError, type Database, type OpenOptions, type SqlValue } from './database.ts';
import { pooledDatabase, type PoolDriver } from './database-pooled.ts';
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
    pool = new pg.Pool({ connectionString: withSessionOptions(config.url, options.statementTimeoutMs), max: config.pool.max, connectionTimeoutMillis: connectTimeoutMs, types });
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
  return pooledDatabase(postgresDriver, pool, `postgres ${config.label}`);
}

/**
 * Settings of every connection, given at connection start (the `options` startup parameter, after
 * any the URL gives), so no statement ever runs before them:
 * - `jit=off`: JIT compilation pays off for long analytic scans; for the engine's one-statement
 *   reads it is all cost: a populate 5 levels deep over 72 tables took 31 s with it and 0.06 s
 *   without (docs/reliability.md, "Query limits"), since the planner's estimates of nested
 *   subqueries pass jit_above_cost long before they take time. PostgreSQL before 11 has no JIT
 *   and is not supported.
 * - `statement_timeout`, when the server sets one (OpenOptions.statementTimeoutMs): the database
 *   cancels a statement that runs longer, planning included.
 */
export function sessionOptions(statementTimeoutMs = 0): string {
  return statementTimeoutMs > 0 ? `-c jit=off -c statement_timeout=${Math.trunc(statementTimeoutMs)}` : '-c jit=off';
}

export function withSessionOptions(connectionString: string, statementTimeoutMs?: number): string {
  const url = new URL(connectionString);
  const given = url.searchParams.get('options');
  const ours = sessionOptions(statementTimeoutMs);
  url.searchParams.set('options', given === null || given === '' ? ours : `${given} ${ours}`);
  return url.toString();
}

/**
 * Statements (not scripts) run as named prepared statements, with parameters or without: each
 * connection parses and plans a statement once and then only binds values, which is most of the
 * cost of the small statements the engine sends. Names are derived from the text; past
 * `maxPreparedNames` distinct texts (unusual query shapes), statements run unnamed rather than
 * fill every connection's memory.
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

type Result = pg.QueryResult<Record<string, unknown>>;

/** pg's pool as database-pooled.ts drives it. */
const postgresDriver: PoolDriver<pg.Pool, pg.PoolClient, Result> = {
  dialect: postgresDialect,
  begin: 'BEGIN',
  acquire: (pool) => pool.connect(),
  release: (client, discard) => client.release(discard),
  end: (pool) => pool.end(),
  stats: (pool) => ({ open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 }),
  async run({ pool, connection }, kind, sql, params) {
    const client = connection ?? pool;
    // A script runs on the simple query protocol, which accepts several statements; every other
    // statement is prepared, parameters or not (a first page has none: its plan is kept too).
    const script = kind === 'exec' || (params.length === 0 && sql.includes(';'));
    const result = script ? await client.query<Record<string, unknown>>(sql) : await runRendered(client, sql, params);
    // A multi-statement script yields one result per statement; the last one is what callers want.
    return Array.isArray(result) ? (result.at(-1) as Result) : result;
  },
  control: async (client, sql) => {
    await client.query(sql);
  },
  rows: (result) => result.rows,
  executed(result) {
    const id: unknown = result.rows[0]?.id;
    return { changes: result.rowCount ?? 0, lastId: typeof id === 'number' || typeof id === 'string' ? id : null };
  },
};

function runRendered(client: pg.Pool | pg.PoolClient, sql: string, params: readonly SqlValue[]): Promise<Result> {
  const { text, values } = renderStatement(postgresDialect, sql, params);
  return client.query<Record<string, unknown>>({ text, values, ...preparedName(text) });
}
