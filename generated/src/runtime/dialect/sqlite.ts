/**
 * SQLite (better-sqlite3): `?` placeholders, JSON through json_each / json_group_array with
 * JSON returned as text, no row locks (write transactions start with BEGIN IMMEDIATE and run
 * one at a time), and migrations that run with foreign keys off.
 */
import type { SqlValue } from '../database.ts';
import { aggregateOrderBy, fragment, joinFragments, quote, type Fragment } from '../engine/sql.ts';
import { sqliteJsonText } from './json-text.ts';
import type { Dialect } from './types.ts';

/** Milliseconds a statement waits for another process' write lock before failing with SQLITE_BUSY. */
export const busyTimeoutMs = 5_000;
/** A migration may wait longer: a server busy writing should not make a deploy fail. */
export const migrationBusyTimeoutMs = 120_000;

type Bindable = string | number | bigint | null | Buffer;

function bindValue(value: SqlValue): Bindable {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  return value;
}

/** Ignored by the driver, so the text of a statement never depends on the list's length. */
function idsJson(ids: readonly (number | string)[]): string {
  return JSON.stringify(ids);
}

export const sqliteDialect: Dialect = {
  kind: 'sqlite',
  quote,
  placeholder: () => '?',
  numberedPlaceholders: false,
  bindValue,

  inIds: (expr, ids) => fragment(`${expr} IN (SELECT value FROM json_each(?))`, [idsJson(ids)]),
  idTable: (ids, _kind, alias) => fragment(`json_each(?) AS ${alias}`, [idsJson(ids)]),
  memberOf: (key, subquery) => joinFragments([fragment(`${key} IN (`), subquery, fragment(')')], ''),

  dateValue: (expr) => `substr(${expr}, 1, 10)`,
  jsonValue: (expr) => expr,
  binaryOrder: (expr) => expr,
  sortOrder: (expr) => expr,
  textCast: (expr) => `CAST(${expr} AS TEXT)`,
  integerCast: (expr) => `CAST(${expr} AS INTEGER)`,
  orderNullsLast: (expr, direction) => `${expr} ${direction} NULLS LAST`,
  selectBigInteger: (expr) => `CAST(${expr} AS TEXT)`,
  bigIntegerParameter: 'CAST(? AS INTEGER)',
  encodeTimestamp(value) {
    // Timestamps are stored and compared as ISO-8601 text: bring every accepted spelling to it.
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? value : date.toISOString();
  },
  caseInsensitiveLike: 'LIKE',
  nullsOrder: () => '',
  offsetOnly: (offset) => fragment(' LIMIT -1 OFFSET ?', [offset]),

  insertedId: 'returning',
  rowLock: () => '',
  transactionLock: () => undefined,
  upsert: (conflict, update) => ` ON CONFLICT (${conflict.map(quote).join(', ')}) DO UPDATE SET ${update.map((c) => `${quote(c)} = excluded.${quote(c)}`).join(', ')}`,
  copyColumns: (table, columns) => `UPDATE ${table} SET (${columns.join(', ')}) = (SELECT ${columns.join(', ')} FROM ${table} WHERE id = ?) WHERE id = ?`,
  insertIgnore: (conflict) => ` ON CONFLICT (${conflict.map(quote).join(', ')}) DO NOTHING`,
  isRetryable: (error) => codeOf(error) === 'SQLITE_BUSY',
  isStatementTimeout: () => false,
  refusedValue: () => undefined,

  snapshot: { begin: 'BEGIN DEFERRED', end: 'COMMIT' },
  resetIdSequence: () => undefined,
  analyzeTable: () => undefined,
  migrations: {
    setup: {
      before: `PRAGMA foreign_keys = OFF; PRAGMA busy_timeout = ${migrationBusyTimeoutMs}`,
      after: `PRAGMA foreign_keys = ON; PRAGMA busy_timeout = ${busyTimeoutMs}`,
    },
    timestampType: 'TEXT',
    checksForeignKeys: true,
  },
  // One file has no replicas.
  replication: undefined,
  json: {
    arrayOpen: 'json_array(',
    emptyArray: 'json_array()',
    maxArrayArguments: Number.POSITIVE_INFINITY,
    // SQLite loses the JSON subtype across a subquery: json() restores it, else the outer
    // constructor would embed the JSON as a string.
    reparse: (value: Fragment) => joinFragments([fragment('json('), value, fragment(')')], ''),
    aggregate: (value, order) => joinFragments([fragment('json_group_array('), value, aggregateOrderBy(order), fragment(')')], ''),
    readsAsText: true,
    text: sqliteJsonText,
  },
  capabilities: {
    caseSensitiveLike: false,
    freeTopOne: false,
    correlatedDerivedTables: true,
    aggregateOrdersNulls: true,
    aggregatesKeepSubqueryOrder: true,
    sharedByProcesses: false,
  },
};

export function codeOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}
