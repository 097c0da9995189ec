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
import { quote, renderStatement } from './engine/sql.ts';

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
  const session = sessions[config.pgbouncer === true ? 'pgbouncer' : 'direct'];
  const warn = options.onWarning ?? (() => undefined);
  let pool: pg.Pool;
  try {
    pool = new pg.Pool({ connectionString: session.connectionString(config.url, options.statementTimeoutMs), max: config.pool.max, connectionTimeoutMillis: connectTimeoutMs, types });
  } catch (error) {
    throw new DatabaseOpenError(`cannot connect to postgres ${config.label}: ${describeDriverError(error)}`);
  }
  // An idle client whose server goes away emits 'error' on the pool; unhandled, that would end
  // the process. The next query fails on its own and reports it.
  pool.on('error', (error) => options.onBackgroundError?.(error));
  try {
    await pool.query('SELECT 1');
    await session.check(pool, config, sessionSettings(options.statementTimeoutMs), warn);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseOpenError(`cannot connect to postgres ${config.label}: ${describeDriverError(error)}${refusedOptionsHint(error)}`);
  }
  const naming = new StatementNaming(session.namedStatements, (error) => warn(namingMismatchMessage(config, error)));
  return pooledDatabase(postgresDriver(naming), pool, `postgres ${config.label}`);
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
export function sessionSettings(statementTimeoutMs = 0): Readonly<Record<string, string>> {
  return statementTimeoutMs > 0 ? { jit: 'off', statement_timeout: String(Math.trunc(statementTimeoutMs)) } : { jit: 'off' };
}

export function sessionOptions(statementTimeoutMs = 0): string {
  return Object.entries(sessionSettings(statementTimeoutMs))
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
}

export function withSessionOptions(connectionString: string, statementTimeoutMs?: number): string {
  const url = new URL(connectionString);
  const given = url.searchParams.get('options');
  const ours = sessionOptions(statementTimeoutMs);
  url.searchParams.set('options', given === null || given === '' ? ours : `${given} ${ours}`);
  return url.toString();
}

/** How connections are set up, by what stands between capi and PostgreSQL (config `pgbouncer`). */
interface SessionSetup {
  /** Statements run as named prepared statements (below); false: unnamed, parsed and planned each time. */
  readonly namedStatements: boolean;
  /** The connection string pg gets. */
  connectionString(url: string, statementTimeoutMs: number | undefined): string;
  /** Run once the pool answers; warns about the session settings (`sessionSettings`) this setup cannot give. */
  check(pool: pg.Pool, config: PostgresConfig, settings: Readonly<Record<string, string>>, warn: (message: string) => void): Promise<void>;
}

const sessions: Readonly<Record<'direct' | 'pgbouncer', SessionSetup>> = {
  // A pooler that drops the `options` parameter (PgBouncer's ignore_startup_parameters) leaves
  // the sessions without their settings: the check finds that too.
  direct: {
    namedStatements: true,
    connectionString: withSessionOptions,
    check: (pool, config, settings, warn) => checkSettings(pool, config, settings, warn, 'the settings given at connection start did not take (a pooler that drops the options startup parameter?)'),
  },
  /**
   * A pooler in transaction mode hands each transaction (each statement outside one) to any of
   * its server sessions: a statement named on one session is unknown on the next, and another
   * client's statement of the same name already exists there. PgBouncer also refuses the
   * `options` startup parameter unless `ignore_startup_parameters` lists it, and then drops it; a
   * `SET` would stay on a server session other clients then get. So the session settings cannot
   * be given per session: the database or role must carry them, and the start says so when not.
   */
  pgbouncer: {
    namedStatements: false,
    connectionString: (url) => url,
    check: (pool, config, settings, warn) => checkSettings(pool, config, settings, warn, 'behind a pooler (pgbouncer=true) capi cannot give its sessions their settings'),
  },
};

/** Compares the session's settings with `settings` and warns once with the statements that give them to every session. */
async function checkSettings(pool: pg.Pool, config: PostgresConfig, settings: Readonly<Record<string, string>>, warn: (message: string) => void, why: string): Promise<void> {
  // pg_settings.setting is in the setting's base unit (statement_timeout: milliseconds), as given.
  const { rows } = await pool.query<{ name: string; setting: string }>('SELECT name, setting FROM pg_settings WHERE name = ANY($1::text[])', [Object.keys(settings)]);
  const actual = new Map(rows.map((row) => [row.name, row.setting]));
  const differing = Object.entries(settings).filter(([name, value]) => actual.has(name) && actual.get(name) !== value);
  if (differing.length === 0) return;
  const database = quote(config.label.slice(config.label.indexOf('/') + 1));
  warn(
    `postgres ${config.label}: ${why}, and the database has ${differing.map(([name]) => `${name} = ${actual.get(name)}`).join(', ')} ` +
      `where capi wants ${differing.map(([name, value]) => `${name} = ${value}`).join(', ')}: ` +
      `run ${differing.map(([name, value]) => `ALTER DATABASE ${database} SET ${name} = ${value};`).join(' ')} once on PostgreSQL (or ALTER ROLE <user> SET ...)`,
  );
}

/** PgBouncer's answer to the `options` startup parameter, which names the setting to use. */
function refusedOptionsHint(error: unknown): string {
  const refused = error instanceof Error && /unsupported startup parameter: options/.test(error.message);
  return refused
    ? ' (a connection pooler such as PgBouncer refuses the options startup parameter: set pgbouncer=true, as ?pgbouncer=true in the URL or "pgbouncer": true in config/database.json connection)'
    : '';
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

/**
 * What PostgreSQL answers when named statements meet a pooler in transaction mode that capi was
 * not told about: the name exists already on the server session this statement landed on (another
 * client prepared it there), or it does not exist on it (this client prepared it on another).
 */
const namingMismatchCodes: ReadonlySet<unknown> = new Set(['42P05', '26000']);

/**
 * Whether a pool names its statements. The first naming mismatch shows that server sessions are
 * shared (a pooler in transaction mode, without pgbouncer=true): from then on this pool runs every
 * statement unnamed, and says so once.
 */
class StatementNaming {
  #named: boolean;

  constructor(
    named: boolean,
    private readonly onMismatch: (error: unknown) => void,
  ) {
    this.#named = named;
  }

  nameFor(text: string): { name?: string } {
    return this.#named ? preparedName(text) : {};
  }

  /** True when `error` is a naming mismatch: naming is then off for good. */
  mismatch(error: unknown): boolean {
    if (!namingMismatchCodes.has((error as { code?: unknown } | null)?.code)) return false;
    if (this.#named) {
      this.#named = false;
      this.onMismatch(error);
    }
    return true;
  }
}

function namingMismatchMessage(config: PostgresConfig, error: unknown): string {
  return (
    `postgres ${config.label}: PostgreSQL answered "${describeDriverError(error)}": named prepared statements do not survive a connection pooler in transaction mode ` +
    `(PgBouncer's pool_mode = transaction). This process now runs every statement unnamed; set pgbouncer=true (?pgbouncer=true in DATABASE_URL, or "pgbouncer": true ` +
    `in config/database.json connection) so that it starts that way, or put the pooler in session mode`
  );
}

type Result = pg.QueryResult<Record<string, unknown>>;

/** pg's pool as database-pooled.ts drives it, naming statements as `naming` says. */
function postgresDriver(naming: StatementNaming): PoolDriver<pg.Pool, pg.PoolClient, Result> {
  return {
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
      const result = script ? await client.query<Record<string, unknown>>(sql) : await runRendered(client, naming, sql, params);
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
}

async function runRendered(client: pg.Pool | pg.PoolClient, naming: StatementNaming, sql: string, params: readonly SqlValue[]): Promise<Result> {
  const { text, values } = renderStatement(postgresDialect, sql, params);
  const name = naming.nameFor(text);
  try {
    return await client.query<Record<string, unknown>>({ text, values, ...name });
  } catch (error) {
    if (name.name === undefined || !naming.mismatch(error)) throw error;
    // The Parse or the Bind was refused, so nothing ran: the statement runs again unnamed. Inside
    // a transaction the refusal has aborted it; the rerun is refused too, and the transaction ends
    // with the mismatch, which the dialect counts as retryable (the retry runs unnamed).
    try {
      return await client.query<Record<string, unknown>>({ text, values });
    } catch (rerun) {
      throw (rerun as { code?: unknown } | null)?.code === abortedTransaction ? error : rerun;
    }
  }
}

/** in_failed_sql_transaction: a statement sent after an error inside a transaction. */
const abortedTransaction = '25P02';
