/**
 * What differs between the databases capi runs on, in one object per database. The query
 * engine, the write side, the migrator and the plumbing modules (webhooks, uploads, transfer,
 * rate limits) never test which database they run on: they ask the `Dialect` of their handle
 * (`Queryable.dialect`) for SQL text, a capability, or a value conversion.
 *
 * Statements are built as `Fragment`s (engine/sql.ts): text with `?` marking each parameter, and
 * the parameters in text order. A `?` in fragment text is ALWAYS a parameter (literal question
 * marks, like any other data, are bound as parameters), so a statement is rendered for its
 * database by numbering marks in one pass, without lexing SQL (`Dialect.placeholder`).
 *
 * Adding a database: add its name to `DatabaseKind`; the compiler then lists every table keyed
 * by it (the dialect registry in dialect/index.ts, the drivers in database.ts, the config
 * parsers in config.ts, the per-database operator SQL) until each has an entry. Write a
 * `Dialect` object (dialect/<name>.ts, following sqlite.ts and postgres.ts) and a driver adapter
 * (database-<name>.ts) implementing `Database`, which renders every statement with
 * `renderStatement(dialect, ...)` and binds values with `dialect.bindValue`.
 */
import type { SqlParam } from '../../contract/operators.ts';
import type { Serialization } from '../../contract/scalar-types.ts';
import type { SqlValue } from '../database.ts';
import type { Fragment } from '../engine/sql.ts';

/** The databases the runtime supports (the contract's list): the key of every per-database table. */
import type { DatabaseKind } from '../../contract/database.ts';
export type { DatabaseKind };

/** How an id list's elements are typed when bound as one parameter. */
export type IdKind = 'integer' | 'text';

/** Row locks a SELECT can take inside a write transaction. */
export type RowLock =
  /**
   * Rows a write is about to link to (relation targets, files, owner rows): they must not be
   * deleted until the transaction ends, while ordinary updates of them go on (PostgreSQL
   * `FOR KEY SHARE`; MySQL `FOR SHARE`; SQLite serialises writers and needs nothing).
   */
  | 'keyShare'
  /**
   * Queue rows claimed by one worker: locked for update, rows another transaction holds are
   * skipped rather than waited for (`FOR UPDATE SKIP LOCKED`).
   */
  | 'updateSkipLocked';

/** What the migrator does differently per database (migrate.ts). */
export interface MigrationSupport {
  /**
   * Script run on the migrator's connection before any migration (outside a transaction), and
   * the script that undoes it afterwards, even when a migration failed. SQLite turns foreign keys
   * off there (Prisma's table rebuilds need it; they can only change outside a transaction).
   */
  readonly setup?: { readonly before: string; readonly after: string };
  /**
   * A lock taken on the migrator's connection for the whole run, released at its end, for
   * databases whose DDL commits implicitly so a transaction cannot hold a lock across a
   * migration (MySQL: `SELECT GET_LOCK(?, timeout)` / `SELECT RELEASE_LOCK(?)`).
   */
  readonly sessionLock?: { readonly acquire: Fragment; readonly release: Fragment };
  /**
   * A statement run first in every migration transaction that blocks until no other migrator
   * holds the migrations lock and holds it until the transaction ends (PostgreSQL: a
   * transaction-scoped advisory lock). Undefined when transactions already exclude each other
   * (SQLite's BEGIN IMMEDIATE) or when `sessionLock` is used.
   */
  readonly transactionLock?: Fragment;
  /**
   * A statement run first in every migration transaction that lifts the server's statement
   * timeout for it (PostgreSQL: `SET LOCAL statement_timeout = 0`): a migration may rewrite a big
   * table for longer than any request may run. Undefined where the timeout binds only the
   * request's reads (MySQL, MariaDB) or does not exist (SQLite).
   */
  readonly unbounded?: string;
  /** Column type of `_capi_migrations.applied_at`. */
  readonly timestampType: string;
  /**
   * True when foreign keys are off while migrating (see `setup`): each migration is then
   * followed by a check (`PRAGMA foreign_key_check`) so a bad migration fails, not later writes.
   */
  readonly checksForeignKeys: boolean;
}

/**
 * How a primary and its streaming replicas say how far along the log they are, for read
 * replicas (replicas/): a read that must see a write goes to a replica only once the replica has
 * replayed past the position the primary reported after the write committed.
 */
export interface ReplicationSupport {
  /** One row, column `position`: where the primary's log ends, after every commit made before it ran. */
  readonly primaryPosition: string;
  /** One row, column `position`: how far a replica has replayed; NULL on a server that replicates nothing. */
  readonly replayedPosition: string;
  /** A position as a comparable number; undefined when `text` is none (a forged or damaged value is ignored, never an error). */
  parsePosition(text: string): bigint | undefined;
}

/** The JSON functions of the one-statement reads (engine/nested.ts). */
export interface JsonSupport {
  /** Opening of the function that builds a JSON array of its arguments: `json_array(`. */
  readonly arrayOpen: string;
  /** An empty JSON array literal of the JSON type the aggregates return. */
  readonly emptyArray: string;
  /** The most arguments `arrayOpen` takes (PostgreSQL: 100); rows with more read per edge. */
  readonly maxArrayArguments: number;
  /**
   * A JSON value read back from a subquery or derived-table column, made JSON again where the
   * database loses its JSON type on the way (SQLite: `json(x)`; PostgreSQL: as is).
   */
  reparse(value: Fragment): Fragment;
  /**
   * The JSON array aggregate of `value` over the rows, ordered by `order` (undefined: in the order a
   * derived table feeds them, see `Capabilities.aggregatesKeepSubqueryOrder`), and an empty array
   * (not NULL) when there are no rows.
   */
  aggregate(value: Fragment, order: Fragment | undefined): Fragment;
  /**
   * True when the driver returns JSON columns (and the JSON of nested reads) as text the
   * runtime must parse; false when it returns them parsed.
   */
  readonly readsAsText: boolean;
  /**
   * JSON text built in SQL (engine/rendered.ts): reads whose response body the database writes
   * whole, with no per-row JavaScript. Undefined where the database does not (MySQL).
   */
  readonly text?: JsonTextSupport;
}

/**
 * JSON written by SQL, byte for byte as JSON.stringify writes what the per-row path
 * (engine/values.ts decoders, then JSON.stringify) answers. SQLite builds it with its JSON
 * functions (json_object, json_group_array: C code, faster than text concatenation there);
 * PostgreSQL concatenates text (its json_build_object writes spaces JavaScript does not).
 */
export interface JsonTextSupport {
  /**
   * Whether a rendered read may hold populated attributes. SQLite: yes (populate=* measured
   * 0.39 -> 0.16 ms of CPU per request). PostgreSQL: no, only reads without populate: its per-value
   * SQL (to_char, to_json, CASE per value) cost the database more than the rows path costs Node,
   * populate=* fell from 1880 to 757 req/s with both on the same cores (docs/benchmarks.md).
   */
  readonly populated: boolean;
  /**
   * A column of each serialization as a value `object` and `aggregate` take (NULL is `null`), or
   * the fallback marker (dialect/json-text.ts) where the database cannot be sure to write what
   * JavaScript writes (a float JavaScript writes in exponent form, a timestamp not in ISO form):
   * a body holding it is thrown away and the read runs in JavaScript instead.
   */
  readonly values: Readonly<Record<Serialization, (expr: string) => string>>;
  /**
   * An object of these keys and values, in order: JSON text when `outer` (the root entity, read by
   * the driver), else in whatever form the database nests fastest (SQLite: JSONB, never rendered
   * to text and parsed again on its way up).
   */
  object(entries: readonly (readonly [key: string, value: Fragment])[], outer: boolean): Fragment;
  /** The JSON a scalar subquery returns, as a value again (SQLite loses its JSON type on the way); `null` for no row. */
  nested(subquery: Fragment): Fragment;
  /** The array of `item` over the rows in `order` (undefined: as fed, as `Dialect.json.aggregate`); `[]` when there are none. */
  aggregate(item: Fragment, order: Fragment | undefined): Fragment;
  /**
   * The JSON texts of `outer` objects over the rows as one array text, in `order`; `[]` when there
   * are none. A page read as one value: one row for the driver to decode instead of one per entity
   * (SQLite rest-list's statement measured 0.029 -> 0.017 ms of CPU).
   */
  textArray(item: Fragment, order: Fragment | undefined): Fragment;
  /** A constant string (a dynamic zone entry's `__component`) as a value. */
  string(value: string): string;
  /** An empty array as a value. */
  readonly emptyArray: string;
  /** A number (a COUNT) as a value. */
  count(subquery: Fragment): Fragment;
  /** JSON `null` as a value. */
  readonly null: string;
  /** The fallback marker (dialect/json-text.ts) as a value: the read then runs in JavaScript. */
  readonly fallback: string;
  /**
   * An integer column as a JSON number where a double holds it exactly (|x| < 2^53), else the
   * fallback: GraphQL's Long, which JavaScript writes as a number when it is safe.
   */
  safeInteger(expr: string): string;
}

/** What the planners may rely on; each flag names the measurement or limit it stands for. */
export interface Capabilities {
  /**
   * `LIKE` compares case-sensitively (PostgreSQL). When false, case-sensitive string operators
   * use other functions (SQLite: instr/substr) and `LIKE` serves case-insensitive matching.
   */
  readonly caseSensitiveLike: boolean;
  /**
   * An ORDER BY ... LIMIT 1 over at most one row costs nothing (PostgreSQL's top-1). When false
   * (SQLite builds a sorter per parent row), to-one populates without a sort skip the ORDER BY.
   */
  readonly freeTopOne: boolean;
  /**
   * A derived table (`FROM (SELECT ...) t`) inside a correlated subquery may read the outer row.
   * MariaDB cannot (MySQL can since 8.0.14): a dynamic zone is then one aggregate per component
   * kind, merged in zone order in JavaScript (nested.ts zoneEdgePerKind), and one-version-per-
   * document edges, which need one, are read per edge.
   */
  readonly correlatedDerivedTables: boolean;
  /**
   * An aggregate's own ORDER BY (GROUP_CONCAT/json_group_array/string_agg ... ORDER BY) places NULL
   * as the root ORDER BY does. MariaDB: false, its GROUP_CONCAT compares NULL equal to 0, so nested
   * reads spell the null placement out (engine/sort.ts).
   */
  readonly aggregateOrdersNulls: boolean;
  /**
   * An order-sensitive aggregate over a single derived table with an ORDER BY (`SELECT
   * json_group_array(t.j) FROM (SELECT ... ORDER BY ... LIMIT ...) t`, nothing else in the FROM,
   * no GROUP BY, no ORDER BY around it) receives the rows in that order, so it needs no ORDER BY of
   * its own: a second sort of rows already sorted. SQLite: true by its planner's design, not by
   * chance: it keeps such a subquery's ORDER BY when the query around it uses an aggregate other
   * than count/min/max, and never flattens a subquery with an ORDER BY into an aggregate query
   * (select.c, the conditions of its omit-ORDER-BY step and flattening restriction 16). Dropping
   * the second sort: gql-nested 0.155 -> 0.132 ms of CPU per request (docs/benchmarks.md).
   * PostgreSQL and MariaDB promise no such order: false.
   */
  readonly aggregatesKeepSubqueryOrder: boolean;
  /**
   * Several server processes may serve the database, so shared state (rate-limit counters)
   * lives in tables; false for SQLite, which one process serves.
   */
  readonly sharedByProcesses: boolean;
}

export interface Dialect {
  /** Which database: the key of per-database tables, and for messages. Never branch on it in SQL builders: add a member here. */
  readonly kind: DatabaseKind;

  // ---- statement text -------------------------------------------------------------------

  /** A quoted identifier that keeps its case (`"name"`, or a backquoted one). */
  quote(identifier: string): string;
  /**
   * The text of the `index`-th (1-based) parameter of a rendered statement: `?` (SQLite,
   * MySQL) or `$1` (PostgreSQL).
   */
  placeholder(index: number): string;
  /** False when `placeholder` is `?` for every index: rendering then leaves the text alone. */
  readonly numberedPlaceholders: boolean;
  /**
   * A parameter as handed to the driver: booleans, Dates, bigints and bytes in the driver's forms.
   * Timestamps are always bound as Dates (each database's stored form: ISO-8601 text on SQLite and
   * PostgreSQL, DATETIME text on MySQL); strings are text and pass unchanged.
   */
  bindValue(value: SqlValue): unknown;

  // ---- id lists -------------------------------------------------------------------------

  /**
   * `expr` is one of `ids` (never empty), with a statement text that does not depend on the
   * number of ids where the database allows (SQLite `IN (SELECT value FROM json_each(?))`,
   * PostgreSQL `= ANY(CAST(? AS integer[]))`), so prepared statements are reused and no
   * parameter limit is reached.
   */
  inIds(expr: string, ids: readonly (number | string)[], kind: IdKind): Fragment;
  /**
   * `ids` as a one-column table `<alias>.value` (SQLite `json_each(?) AS t`, PostgreSQL
   * `unnest(CAST(? AS integer[])) AS t(value)`), for `FROM <ids> CROSS JOIN <table>` loaders.
   */
  idTable(ids: readonly (number | string)[], kind: IdKind, alias: string): Fragment;
  /**
   * `key` is one of the rows `subquery` (a `SELECT <one column> FROM ...` without parentheses)
   * returns: `key IN (<subquery>)`, or PostgreSQL's `key = ANY(ARRAY(<subquery>))`, which makes
   * its planner compute the set first.
   */
  memberOf(key: string, subquery: Fragment): Fragment;

  // ---- expressions ----------------------------------------------------------------------

  /** A date column as compared and sorted: SQLite compares the first ten characters (a stored time part is ignored). */
  dateValue(expr: string): string;
  /** A JSON column as compared: its text (PostgreSQL casts, as comparing JSONB would parse every value). */
  jsonValue(expr: string): string;
  /** A text expression ordered byte-wise, as SQLite's BINARY collation does (PostgreSQL `COLLATE "C"`). */
  binaryOrder(expr: string): string;
  /**
   * A text expression as an ORDER BY term, byte-wise like `binaryOrder` but, where the column's
   * own collation already sorts so, the column itself, so that the database reads its index in
   * order instead of sorting every row (MySQL's utf8mb4_bin, see dialect/mysql.ts).
   */
  sortOrder(expr: string): string;
  /** An expression converted to text (`CAST(x AS TEXT)`; MySQL has no TEXT cast: `CAST(x AS CHAR)`). */
  textCast(expr: string): string;
  /**
   * An expression converted to an integer, as a bound parameter must be where nothing else types
   * it (`INSERT ... SELECT ?`): `CAST(x AS INTEGER)`; MySQL has no INTEGER cast: `CAST(x AS SIGNED)`.
   */
  integerCast(expr: string): string;
  /** An ORDER BY term that puts NULLs last in both directions (` NULLS LAST` where the database has it). */
  orderNullsLast(expr: string, direction: 'ASC' | 'DESC'): string;
  /** A big-integer column as selected, so no digit is lost on the way to JavaScript (SQLite reads it as text). */
  selectBigInteger(expr: string): string;
  /** The placeholder of a big-integer filter value, bound as a digit string and compared as a number. */
  readonly bigIntegerParameter: string;
  /**
   * A datetime filter value as bound: in the stored form where timestamps compare as text
   * (SQLite: ISO-8601 with milliseconds), a Date where the column is typed and the driver needs one (MySQL).
   */
  encodeTimestamp(value: string): SqlParam;
  /** The keyword of a case-insensitive LIKE (`ILIKE` on PostgreSQL, `LIKE` where LIKE ignores case). */
  readonly caseInsensitiveLike: string;
  /**
   * The nulls clause after ASC/DESC that makes NULL sort first ascending and last descending,
   * as SQLite and MySQL do by default (PostgreSQL: ` NULLS FIRST` / ` NULLS LAST`; else '').
   */
  nullsOrder(direction: 'asc' | 'desc'): string;
  /** ` OFFSET ?` without a limit (SQLite and MySQL need a LIMIT before OFFSET). */
  offsetOnly(offset: number): Fragment;

  // ---- writes ---------------------------------------------------------------------------

  /**
   * How the id of a row an INSERT creates is learned: `returning` appends ` RETURNING id` and
   * reads the returned row; `lastInsertId` runs the INSERT as is and reads `ExecuteResult.lastId`.
   */
  readonly insertedId: 'returning' | 'lastInsertId';
  /** The clause after a SELECT (` FOR KEY SHARE OF t`), or '' where the database serialises writers. */
  rowLock(lock: RowLock, of?: string): string;
  /**
   * A statement that, run inside a transaction, waits until no other transaction holds `key`
   * and holds it until this one ends (PostgreSQL: a hashed transaction-scoped advisory lock);
   * undefined where write transactions already run one at a time (SQLite).
   */
  transactionLock(key: string): Fragment | undefined;
  /**
   * The clause after `INSERT ... VALUES (...)` that updates `update` columns to the inserted
   * values when a row with the same `conflict` key exists (`ON CONFLICT (k) DO UPDATE SET
   * c = excluded.c`; MySQL `ON DUPLICATE KEY UPDATE c = VALUES(c)`).
   */
  upsert(conflict: readonly string[], update: readonly string[]): string;
  /**
   * An UPDATE that gives the row of the second parameter's id the `columns` (quoted) of the row
   * of the first parameter's id, both in `table` (quoted). PostgreSQL and SQLite assign a row
   * value; MySQL has none and cannot read the updated table in a subquery: it joins the table.
   */
  copyColumns(table: string, columns: readonly string[]): string;
  /** The clause after `INSERT ... VALUES (...)` that skips rows whose `conflict` key exists. */
  insertIgnore(conflict: readonly string[]): string;
  /** Errors that say a transaction lost a race and would succeed if run again (deadlock, serialisation failure, busy). */
  isRetryable(error: unknown): boolean;
  /**
   * Why the database refused a value the request sent (a 400, not a server fault), or undefined
   * when `error` is something else. MariaDB stores no JSON nested deeper than 32 levels.
   */
  refusedValue(error: unknown): string | undefined;
  /**
   * Errors that say the database cancelled a statement at its statement timeout (the server's
   * `api.query.timeoutMs`, database.ts `OpenOptions`); SQLite has none.
   */
  isStatementTimeout(error: unknown): boolean;

  // ---- whole-database operations ----------------------------------------------------------

  /** Scripts that open and close a consistent, read-only snapshot on one connection (export). */
  readonly snapshot: { readonly begin: string; readonly end: string };
  /**
   * After rows were inserted with explicit ids: the statement that moves `table`'s id
   * generator past them (PostgreSQL `setval`); undefined where it follows by itself.
   */
  resetIdSequence(table: string): Fragment | undefined;
  /**
   * After a bulk load: the script that refreshes `table`'s planner statistics (PostgreSQL
   * `ANALYZE "t";`); undefined where the planner does not need it (SQLite plans from indexes).
   * Run it outside a transaction: MySQL's `ANALYZE TABLE` commits the open one implicitly.
   */
  analyzeTable(table: string): string | undefined;
  readonly migrations: MigrationSupport;
  /** Read replicas (DATABASE_REPLICA_URLS); undefined where they are not supported, which start-up then refuses. */
  readonly replication: ReplicationSupport | undefined;
  readonly json: JsonSupport;
  readonly capabilities: Capabilities;
}
