/**
 * MySQL 8 and MariaDB 10.11+ (mysql2). The driver sets every session up (database-mysql.ts) so
 * the runtime's SQL reads the same as on the other databases: ANSI_QUOTES ("name" is an
 * identifier), PIPES_AS_CONCAT, NO_BACKSLASH_ESCAPES (`ESCAPE '\'` is one backslash), UTC.
 * Tables are created with the utf8mb4_bin collation (generator/mysql-ddl.ts), so text compares
 * and sorts byte-wise as on SQLite and with PostgreSQL's `COLLATE "C"`.
 *
 * What has no MySQL equivalent, and what stands in for it:
 * - no RETURNING (MySQL 8): the id of an INSERT is the driver's insertId;
 * - no array parameters: id lists are one JSON parameter read through JSON_TABLE;
 * - no transaction-scoped advisory lock: a row of `capi_locks`, upserted (and so locked
 *   exclusively) in the transaction, serialises writers of one key until it ends;
 * - DDL commits at once: migrations run under a session lock (GET_LOCK), not a transaction lock;
 * - JSON_ARRAYAGG has no ORDER BY on MySQL 8: arrays of rows are GROUP_CONCAT'ed JSON texts in
 *   order, read back as JSON with JSON_EXTRACT (group_concat_max_len is raised per session).
 */
import type { SqlValue } from '../database.ts';
import { aggregateOrderBy, fragment, joinFragments, quote, type Fragment } from '../engine/sql.ts';
import type { Dialect, IdKind } from './types.ts';

/** The table of transaction locks (emitted into the Prisma schema of MySQL projects). */
export const LOCK_TABLE = 'capi_locks';
const migrationLockName = 'capi_migrations';
/** Seconds a migrator waits for another one before giving up. */
export const migrationLockTimeoutSeconds = 600;

/** `2024-01-02T03:04:05.678Z` → `2024-01-02 03:04:05.678` (UTC, the session's time zone). */
function toDatetime(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

/**
 * A parameter as mysql2 binds it. MySQL and MariaDB refuse ISO 8601 timestamps with a zone
 * suffix in DATETIME columns, so timestamps, which the runtime always binds as Dates, are sent in
 * the DATETIME form (UTC). Strings are sent as they are: a text value that looks like a
 * timestamp is text.
 */
function bindValue(value: SqlValue): unknown {
  if (value instanceof Date) return toDatetime(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array && !Buffer.isBuffer(value)) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  return value;
}

/** The column type of an id list's JSON_TABLE: text ids compare byte-wise like the columns. */
function idColumn(kind: IdKind): string {
  return kind === 'integer' ? 'BIGINT' : 'VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin';
}

function jsonTable(ids: readonly (number | string)[], kind: IdKind, alias: string): Fragment {
  return fragment(`JSON_TABLE(?, '$[*]' COLUMNS (value ${idColumn(kind)} PATH '$')) AS ${alias}`, [JSON.stringify(ids)]);
}

/** Deadlock, and a lock wait that timed out: the transaction would succeed if run again. */
const retryableCodes: ReadonlySet<unknown> = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT']);

/**
 * A JSON value too deep to store: MySQL's ER_JSON_DOCUMENT_TOO_DEEP (3157), and on MariaDB the
 * JSON_VALID check of a JSON column failing (ER_CONSTRAINT_FAILED, 4025; capi's tables have no
 * other CHECK, and the runtime only writes JSON it serialized itself, so depth is the reason).
 */
const jsonDepthErrors: ReadonlySet<unknown> = new Set([3157, 4025]);

/** MariaDB's ER_STATEMENT_TIMEOUT (max_statement_time) and MySQL's ER_QUERY_TIMEOUT (max_execution_time). */
const statementTimeoutErrors: ReadonlySet<unknown> = new Set([1969, 3024]);

function errnoOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { errno?: unknown }).errno : undefined;
}

function codeOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

export const mysqlDialect: Dialect = {
  kind: 'mysql',
  quote,
  placeholder: () => '?',
  numberedPlaceholders: false,
  bindValue,

  inIds: (expr, ids, kind) => {
    const table = jsonTable(ids, kind, 'capi_ids');
    return fragment(`${expr} IN (SELECT capi_ids.value FROM ${table.sql})`, table.params);
  },
  idTable: jsonTable,
  memberOf: (key, subquery) => joinFragments([fragment(`${key} IN (`), subquery, fragment(')')], ''),

  dateValue: (expr) => expr,
  // MySQL 8 compares a JSON column with a string as JSON; its text is what the others compare.
  jsonValue: (expr) => `CAST(${expr} AS CHAR)`,
  // utf8mb4_bin is a PAD SPACE collation ('a ' = 'a'): the binary cast compares exact bytes, as
  // the other databases do (at the price of the column's index for text equality and ranges).
  binaryOrder: (expr) => `CAST(${expr} AS BINARY)`,
  // utf8mb4_bin orders by code point, which is UTF-8's byte order, except that PAD SPACE ignores
  // trailing spaces: values equal up to trailing characters at or below U+0020 ('a', 'a ',
  // 'a\t') sort as if padded with spaces (so 'a' and 'a ' tie and fall back to the id order).
  // The cast would hide the column from its index and sort every row (docs/deployment.md).
  sortOrder: (expr) => expr,
  textCast: (expr) => `CAST(${expr} AS CHAR)`,
  integerCast: (expr) => `CAST(${expr} AS SIGNED)`,
  // No NULLS LAST: false (not NULL) sorts before true.
  orderNullsLast: (expr, direction) => `${expr} IS NULL, ${expr} ${direction}`,
  selectBigInteger: (expr) => expr,
  bigIntegerParameter: 'CAST(? AS SIGNED)',
  // A Date, bound in the DATETIME form; a string that is no instant stays text and matches nothing.
  encodeTimestamp(value) {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? value : date;
  },
  // The columns compare byte-wise (utf8mb4_bin); this collation makes LIKE ignore case (and,
  // unlike PostgreSQL's ILIKE, accents: documented in docs/deployment.md).
  caseInsensitiveLike: 'COLLATE utf8mb4_unicode_ci LIKE',
  nullsOrder: () => '',
  offsetOnly: (offset) => fragment(' LIMIT 18446744073709551615 OFFSET ?', [offset]),

  insertedId: 'lastInsertId',
  // MariaDB has neither FOR SHARE nor `OF <table>`: LOCK IN SHARE MODE (both databases) locks
  // the rows of every table the SELECT reads, which is more than needed and still correct.
  rowLock: (lock) => (lock === 'keyShare' ? ' LOCK IN SHARE MODE' : ' FOR UPDATE SKIP LOCKED'),
  // Keys hold request input (a documentId of any length): the row is named by their SHA-256.
  transactionLock: (key) => fragment(`INSERT INTO ${quote(LOCK_TABLE)} (name) VALUES (SHA2(?, 256)) ON DUPLICATE KEY UPDATE name = name`, [key]),
  // MySQL takes the conflict from whichever unique key the row collides with.
  upsert: (_conflict, update) => ` ON DUPLICATE KEY UPDATE ${update.map((c) => `${quote(c)} = VALUES(${quote(c)})`).join(', ')}`,
  copyColumns: (table, columns) =>
    `UPDATE ${table} AS capi_to JOIN ${table} AS capi_from ON capi_from.id = ? SET ${columns.map((c) => `capi_to.${c} = capi_from.${c}`).join(', ')} WHERE capi_to.id = ?`,
  insertIgnore: (conflict) => ` ON DUPLICATE KEY UPDATE ${quote(conflict[0]!)} = ${quote(conflict[0]!)}`,
  isRetryable: (error) => retryableCodes.has(codeOf(error)),
  isStatementTimeout: (error) => statementTimeoutErrors.has(errnoOf(error)),
  refusedValue: (error) => (jsonDepthErrors.has(errnoOf(error)) ? 'Invalid request body: a JSON value is nested deeper than the database stores (MariaDB: 32 levels, MySQL: 100)' : undefined),

  snapshot: { begin: 'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ; START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY', end: 'COMMIT' },
  // AUTO_INCREMENT moves past explicitly inserted ids by itself.
  resetIdSequence: () => undefined,
  analyzeTable: (table) => `ANALYZE TABLE ${quote(table)};`,
  migrations: {
    sessionLock: {
      acquire: fragment('SELECT GET_LOCK(?, ?)', [migrationLockName, migrationLockTimeoutSeconds]),
      release: fragment('SELECT RELEASE_LOCK(?)', [migrationLockName]),
    },
    timestampType: 'DATETIME(3)',
    checksForeignKeys: false,
  },
  // Replicas' positions (GTID sets) are not compared: start-up refuses DATABASE_REPLICA_URLS here.
  replication: undefined,
  json: {
    arrayOpen: 'JSON_ARRAY(',
    emptyArray: 'JSON_ARRAY()',
    maxArrayArguments: 1000,
    // A JSON value read from a derived table is text on MariaDB; JSON_EXTRACT makes it JSON
    // again, so an enclosing JSON_OBJECT / JSON_ARRAY embeds it instead of quoting it.
    reparse: (value: Fragment) => joinFragments([fragment('JSON_EXTRACT('), value, fragment(", '$')")], ''),
    aggregate: (value, order) => joinFragments([fragment("JSON_EXTRACT(COALESCE(CONCAT('[', GROUP_CONCAT("), value, aggregateOrderBy(order), fragment(" SEPARATOR ','), ']'), '[]'), '$')")], ''),
    readsAsText: true,
  },
  capabilities: {
    caseSensitiveLike: true,
    freeTopOne: true,
    // MariaDB 10.11 (the oldest supported server) cannot; MySQL 8.0.14+ could.
    correlatedDerivedTables: false,
    // Several processes may serve MySQL, but the shared rate-limit store is PostgreSQL SQL
    // (rate-limit/postgres-store.ts): until a MySQL store exists, counters stay per process.
    aggregateOrdersNulls: false,
    aggregatesKeepSubqueryOrder: false,
    sharedByProcesses: false,
  },
};
