/**
 * The few SQL building blocks the write side shares. Table and column names come from the
 * generated model (never from a request) and are quoted all the same.
 */
import type { Queryable, SqlValue } from '../database.ts';

export function q(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

/** `?, ?, ?` for n values. */
export function marks(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

/** Inserts one row and returns its id (RETURNING works on both SQLite and PostgreSQL). */
export async function insertRow(db: Queryable, table: string, columns: readonly string[], values: readonly SqlValue[]): Promise<number> {
  const rows = await db.query<{ id: number | string }>(
    `INSERT INTO ${q(table)} (${columns.map(q).join(', ')}) VALUES (${marks(values.length)}) RETURNING id`,
    values,
  );
  return Number(rows[0]!.id);
}

/**
 * Serialises writers of one key until the transaction ends. PostgreSQL: a transaction-scoped
 * advisory lock (hashed key), so concurrent server processes queue on the same document.
 * SQLite needs nothing: its write transactions (BEGIN IMMEDIATE) already run one at a time.
 */
export async function lockKey(db: Queryable, key: string): Promise<void> {
  if (db.dialect !== 'postgres') return;
  await db.query('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [key]);
}

/**
 * The locking clause of a SELECT that reads rows a write is about to link to (relation targets,
 * files, owner rows). PostgreSQL: `FOR KEY SHARE` keeps the rows from being deleted until this
 * transaction ends, and a row deleted by a transaction still running is waited for, then skipped;
 * a delete therefore either sees the links this write adds or makes it fail with "not found".
 * It does not conflict with ordinary updates of those rows. SQLite serialises writers already.
 * `of` names the table alias to lock when the SELECT joins several tables.
 */
export function keyShare(db: Queryable, of?: string): string {
  if (db.dialect !== 'postgres') return '';
  return of === undefined ? ' FOR KEY SHARE' : ` FOR KEY SHARE OF ${of}`;
}

/**
 * Errors that say a transaction lost a race and would succeed if run again: a PostgreSQL
 * deadlock or serialisation failure (two writers locking the same rows in opposite orders),
 * SQLite's busy timeout (another process held the write lock too long).
 */
export function isRetryable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === '40P01' || code === '40001' || code === 'SQLITE_BUSY';
}

/** Runs `fn` over `ids` in slices, keeping statements under the drivers' parameter limits. */
export async function inChunks<T>(ids: readonly T[], fn: (chunk: readonly T[]) => Promise<void>, size = 500): Promise<void> {
  for (let i = 0; i < ids.length; i += size) await fn(ids.slice(i, i + size));
}

/** The lock every writer of a document takes first. */
export function documentLockKey(uid: string, documentId: string): string {
  return `capi:document:${uid}:${documentId}`;
}
