/**
 * The one SQL kit of reads and writes: statement text with its parameters (`Fragment`), the
 * building blocks every module shares (identifiers, boolean combinators, id-list membership,
 * inserts, locks), and the rendering of a whole statement for its database.
 *
 * Fragment text marks each parameter with `?` and carries the parameters in text order; a `?` in
 * fragment text is always a parameter (data, including any literal question mark, is bound, never
 * written into the text). Only when a whole statement runs does the driver render it for its
 * database (`renderStatement`): `?` stays `?` on SQLite, becomes `$1, $2, ...` on PostgreSQL, in
 * one pass and without lexing SQL. Whatever differs per database comes from the handle's
 * `Dialect` (dialect/types.ts).
 */
import type { Queryable, SqlValue } from '../database.ts';
import type { Dialect, IdKind } from '../dialect/types.ts';

export interface Fragment {
  readonly sql: string;
  readonly params: readonly SqlValue[];
}

export const TRUE: Fragment = { sql: '1=1', params: [] };
export const FALSE: Fragment = { sql: '1=0', params: [] };

export function fragment(sql: string, params: readonly SqlValue[] = []): Fragment {
  return { sql, params };
}

/**
 * A double-quoted identifier (case is kept). Every supported database reads double quotes as
 * identifier quotes in the sessions capi opens; `Dialect.quote` is the same function.
 */
export function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

/** `alias."column"` */
export function column(alias: string, name: string): string {
  return `${alias}.${quote(name)}`;
}

/** `?, ?, ?` for n values. */
export function marks(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

/** Concatenates fragments with a separator, keeping params in text order. */
export function joinFragments(parts: readonly Fragment[], separator: string): Fragment {
  if (parts.length === 1) return parts[0]!;
  const params: SqlValue[] = [];
  for (const part of parts) params.push(...part.params);
  return { sql: parts.map((part) => part.sql).join(separator), params };
}

/**
 * An aggregate's own ` ORDER BY <order>`, or nothing where `order` is undefined: its rows come from
 * a derived table already in that order (`Capabilities.aggregatesKeepSubqueryOrder`).
 */
export function aggregateOrderBy(order: Fragment | undefined): Fragment {
  return order === undefined ? fragment('') : joinFragments([fragment(' ORDER BY '), order], '');
}

/** Conjunction; TRUE parts are dropped, a FALSE part makes the whole FALSE. */
export function and(parts: readonly Fragment[]): Fragment {
  const kept = parts.filter((part) => part !== TRUE);
  if (kept.includes(FALSE)) return FALSE;
  if (kept.length === 0) return TRUE;
  if (kept.length === 1) return kept[0]!;
  return wrap(joinFragments(kept, ' AND '));
}

/** Disjunction; FALSE parts are dropped, a TRUE part makes the whole TRUE. */
export function or(parts: readonly Fragment[]): Fragment {
  const kept = parts.filter((part) => part !== FALSE);
  if (kept.includes(TRUE)) return TRUE;
  if (kept.length === 0) return FALSE;
  if (kept.length === 1) return kept[0]!;
  return wrap(joinFragments(kept, ' OR '));
}

export function not(part: Fragment): Fragment {
  if (part === TRUE) return FALSE;
  if (part === FALSE) return TRUE;
  return { sql: `NOT (${part.sql})`, params: part.params };
}

function wrap(part: Fragment): Fragment {
  return { sql: `(${part.sql})`, params: part.params };
}

/**
 * `expr` is one of `ids`, the one way reads and writes pass id lists: bound as ONE parameter
 * whatever the number of ids where the database allows (`Dialect.inIds`), so the statement text
 * is the same for 3 ids and for 30,000 (prepared statements are reused), no placeholder limit is
 * ever reached, and no list needs splitting into several statements.
 */
export function inIds(dialect: Dialect, expr: string, ids: readonly (number | string)[], kind: IdKind): Fragment {
  if (ids.length === 0) return FALSE;
  return dialect.inIds(expr, ids, kind);
}

/**
 * `ids` as a table of one column, `<alias>.value`, bound as ONE parameter (see inIds): the rows a
 * populate statement starts from. Loaders write `FROM <ids> CROSS JOIN <table> WHERE
 * <table>.<column> = <alias>.value`, which makes SQLite walk the id list and probe the index of
 * each id (CROSS JOIN fixes the join order there) instead of materializing an IN-subquery, and
 * which PostgreSQL plans as an ordinary join. Callers pass distinct ids: a repeated id would
 * repeat rows.
 */
export function idTable(dialect: Dialect, ids: readonly (number | string)[], kind: IdKind, alias: string): Fragment {
  return dialect.idTable(ids, kind, alias);
}

/** Escapes LIKE wildcards for a pattern used with `ESCAPE '\'`. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A statement as the driver takes it: text with the database's placeholders, and driver values. */
export interface RenderedStatement {
  readonly text: string;
  readonly values: unknown[];
}

/** A `?` in the text that has no parameter, or a parameter without its `?`. */
export class StatementShapeError extends Error {
  override readonly name = 'StatementShapeError';
}

/**
 * Renders a whole statement for `dialect`: numbers its placeholders when the database numbers
 * them and converts its parameters to the driver's forms. A statement without parameters is
 * left alone (a script of several statements, DDL), so nothing there is read as a placeholder.
 */
export function renderStatement(dialect: Dialect, sql: string, params: readonly SqlValue[]): RenderedStatement {
  const values = params.map((value) => dialect.bindValue(value));
  if (params.length === 0 || !dialect.numberedPlaceholders) return { text: sql, values };
  const pieces = sql.split('?');
  if (pieces.length - 1 !== params.length) {
    throw new StatementShapeError(`a statement has ${pieces.length - 1} placeholders and ${params.length} parameters: ${sql.slice(0, 200)}`);
  }
  let text = pieces[0]!;
  for (let i = 1; i < pieces.length; i += 1) text += dialect.placeholder(i) + pieces[i]!;
  return { text, values };
}

/** Inserts one row and returns its id (`Dialect.insertedId` says how the database tells it). */
export async function insertRow(db: Queryable, table: string, columns: readonly string[], values: readonly SqlValue[]): Promise<number> {
  return insertReturningId(db, fragment(`INSERT INTO ${quote(table)} (${columns.map(quote).join(', ')}) VALUES (${marks(values.length)})`, values));
}

/** Runs an INSERT of one row (`INSERT ... VALUES` or `INSERT ... SELECT`) and returns the new row's id. */
export async function insertReturningId(db: Queryable, insert: Fragment): Promise<number> {
  if (db.dialect.insertedId === 'returning') {
    const rows = await db.query<{ id: number | string }>(`${insert.sql} RETURNING id`, insert.params);
    return Number(rows[0]!.id);
  }
  return Number((await db.execute(insert.sql, insert.params)).lastId);
}

/**
 * Serialises writers of one key until the transaction ends (`Dialect.transactionLock`):
 * concurrent server processes queue on the same document. Databases whose write transactions
 * already run one at a time (SQLite's BEGIN IMMEDIATE) need nothing.
 */
export async function lockKey(db: Queryable, key: string): Promise<void> {
  const lock = db.dialect.transactionLock(key);
  if (lock !== undefined) await db.query(lock.sql, lock.params);
}

/**
 * The locking clause of a SELECT that reads rows a write is about to link to (relation targets,
 * files, owner rows): they cannot be deleted until this transaction ends, and a row deleted by a
 * transaction still running is waited for, then skipped; a delete therefore either sees the
 * links this write adds or makes it fail with "not found". It does not conflict with ordinary
 * updates of those rows. `of` names the table alias to lock when the SELECT joins several tables.
 */
export function keyShare(db: Queryable, of?: string): string {
  return db.dialect.rowLock('keyShare', of);
}

/** Deletes the rows of `table` (an already quoted name) with these ids, in one statement. */
export async function deleteRows(db: Queryable, quotedTable: string, ids: readonly (number | string)[]): Promise<void> {
  if (ids.length === 0) return;
  const remove = joinFragments([fragment(`DELETE FROM ${quotedTable} WHERE `), inIds(db.dialect, 'id', ids, 'integer')], '');
  await db.execute(remove.sql, remove.params);
}

/** The lock every writer of a document takes first. */
export function documentLockKey(uid: string, documentId: string): string {
  return `capi:document:${uid}:${documentId}`;
}

/**
 * A negative limit means no limit (the parser caps limits; this only keeps SQL valid). The limit
 * is written into the text, not bound: with `LIMIT ?` SQLite runs a populated page's statement
 * at about twice the CPU (measured on rest-list and populate=*, docs/benchmarks.md). Page sizes
 * are few, so the statement cache holds one text per size; offsets vary and stay parameters,
 * except 0, which is left out: PostgreSQL plans a bound OFFSET as if it skipped a tenth of the
 * rows, so the generic plan of a prepared first page never looked cheaper than a custom one and
 * every execution was planned again (gql-nested's statement 0.86 -> 0.33 ms, docs/benchmarks.md).
 */
export function limitClause(dialect: Dialect, limit: number, offset: number): Fragment {
  if (limit < 0) return offset === 0 ? fragment('') : dialect.offsetOnly(offset);
  if (!Number.isSafeInteger(limit)) throw new RangeError(`a page limit must be an integer, not ${limit}`);
  return offset === 0 ? fragment(` LIMIT ${limit}`) : fragment(` LIMIT ${limit} OFFSET ?`, [offset]);
}
