/**
 * PostgreSQL (pg): `$n` placeholders, id lists as one array parameter, json_build_array /
 * json_agg with JSON returned parsed, row locks, advisory locks for documents and migrations.
 */
import type { SqlValue } from '../database.ts';
import { aggregateOrderBy, fragment, joinFragments, quote } from '../engine/sql.ts';
import { codeOf } from './sqlite.ts';
import { postgresJsonText } from './json-text.ts';
import type { Dialect, IdKind } from './types.ts';

/** The key of the migrations' advisory lock: "capi" and 1. */
const migrationLockKey = [0x63617069, 1] as const;

/** A log sequence number as PostgreSQL writes it, `16/B374D848`: the two 32-bit halves of a 64-bit position. */
const lsnPattern = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i;

function parseLsn(text: string): bigint | undefined {
  const match = lsnPattern.exec(text);
  return match === null ? undefined : (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

function bindValue(value: SqlValue): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array && !Buffer.isBuffer(value)) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  return value;
}

function arrayLiteral(ids: readonly (number | string)[], kind: IdKind): string {
  return kind === 'integer' ? `{${ids.join(',')}}` : `{${ids.map(arrayElement).join(',')}}`;
}

/** An element of a PostgreSQL array literal: always quoted, so commas, braces and NULL are data. */
function arrayElement(value: number | string): string {
  return `"${String(value).replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/**
 * Deadlock and serialisation failure: two writers locked the same rows in opposite orders. Also
 * a prepared statement that already exists or does not (42P05, 26000): named statements behind a
 * pooler in transaction mode, which the driver answers by naming no more statements
 * (database-postgres.ts), so the transaction succeeds when run again.
 */
const retryableCodes: ReadonlySet<unknown> = new Set(['40P01', '40001', '42P05', '26000']);

/** query_canceled: the statement timeout (or a cancel request, which capi never sends). */
const statementTimeoutCode = '57014';

export const postgresDialect: Dialect = {
  kind: 'postgres',
  quote,
  placeholder: (index) => `$${index}`,
  numberedPlaceholders: true,
  bindValue,

  inIds: (expr, ids, kind) => fragment(`${expr} = ANY(CAST(? AS ${kind}[]))`, [arrayLiteral(ids, kind)]),
  idTable: (ids, kind, alias) => fragment(`unnest(CAST(? AS ${kind}[])) AS ${alias}(value)`, [arrayLiteral(ids, kind)]),
  memberOf: (key, subquery) => joinFragments([fragment(`${key} = ANY(ARRAY(`), subquery, fragment('))')], ''),

  dateValue: (expr) => expr,
  // Comparing JSONB would parse every compared value as JSON and fail on plain strings.
  jsonValue: (expr) => `CAST(${expr} AS TEXT)`,
  binaryOrder: (expr) => `${expr} COLLATE "C"`,
  // The database's collation may not be C (the column's index then serves no byte-wise order).
  sortOrder: (expr) => `${expr} COLLATE "C"`,
  textCast: (expr) => `CAST(${expr} AS TEXT)`,
  integerCast: (expr) => `CAST(${expr} AS INTEGER)`,
  orderNullsLast: (expr, direction) => `${expr} ${direction} NULLS LAST`,
  selectBigInteger: (expr) => expr,
  bigIntegerParameter: 'CAST(? AS BIGINT)',
  encodeTimestamp: (value) => value,
  caseInsensitiveLike: 'ILIKE',
  nullsOrder: (direction) => (direction === 'desc' ? ' NULLS LAST' : ' NULLS FIRST'),
  offsetOnly: (offset) => fragment(' OFFSET ?', [offset]),

  insertedId: 'returning',
  rowLock: (lock, of) => {
    const clause = lock === 'keyShare' ? ' FOR KEY SHARE' : ' FOR UPDATE';
    const target = of === undefined ? '' : ` OF ${of}`;
    return lock === 'updateSkipLocked' ? `${clause}${target} SKIP LOCKED` : `${clause}${target}`;
  },
  transactionLock: (key) => fragment('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [key]),
  upsert: (conflict, update) => ` ON CONFLICT (${conflict.map(quote).join(', ')}) DO UPDATE SET ${update.map((c) => `${quote(c)} = excluded.${quote(c)}`).join(', ')}`,
  copyColumns: (table, columns) => `UPDATE ${table} SET (${columns.join(', ')}) = (SELECT ${columns.join(', ')} FROM ${table} WHERE id = ?) WHERE id = ?`,
  insertIgnore: (conflict) => ` ON CONFLICT (${conflict.map(quote).join(', ')}) DO NOTHING`,
  isRetryable: (error) => retryableCodes.has(codeOf(error)),
  isStatementTimeout: (error) => codeOf(error) === statementTimeoutCode,
  refusedValue: () => undefined,

  snapshot: { begin: 'BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY', end: 'COMMIT' },
  resetIdSequence: (table) => fragment(`SELECT setval(pg_get_serial_sequence(?, 'id'), COALESCE((SELECT MAX(id) FROM ${quote(table)}), 0) + 1, false)`, [quote(table)]),
  analyzeTable: (table) => `ANALYZE ${quote(table)};`,
  migrations: {
    transactionLock: fragment('SELECT pg_advisory_xact_lock(?, ?)', [...migrationLockKey]),
    unbounded: 'SET LOCAL statement_timeout = 0',
    timestampType: 'TIMESTAMPTZ',
    checksForeignKeys: false,
  },
  replication: {
    primaryPosition: 'SELECT pg_current_wal_lsn()::text AS position',
    replayedPosition: 'SELECT pg_last_wal_replay_lsn()::text AS position',
    parsePosition: parseLsn,
  },
  json: {
    arrayOpen: 'json_build_array(',
    emptyArray: `'[]'::json`,
    maxArrayArguments: 100,
    reparse: (value) => value,
    aggregate: (value, order) => joinFragments([fragment('COALESCE(json_agg('), value, aggregateOrderBy(order), fragment(`), '[]'::json)`)], ''),
    readsAsText: false,
    text: postgresJsonText,
  },
  capabilities: {
    caseSensitiveLike: true,
    freeTopOne: true,
    correlatedDerivedTables: true,
    aggregateOrdersNulls: true,
    aggregatesKeepSubqueryOrder: false,
    sharedByProcesses: true,
  },
};
