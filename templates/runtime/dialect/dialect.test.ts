/**
 * Each Dialect's SQL runs on its own database and means the same there: what a Dialect member
 * promises in dialect/types.ts, checked against SQLite and PostgreSQL alike.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerDatabase } from '../../../test/support/databases.ts';
import type { TestDatabase } from '../../../test/support/postgres.ts';
import type { DatabaseConfig } from '../config.ts';
import { openDatabase, type Database } from '../database.ts';
import { fragment, idTable, inIds, joinFragments, lockKey } from '../engine/sql.ts';
import { formatTimestamp } from '../engine/values.ts';
import { rateLimitStore } from '../rate-limit/index.ts';
import { dialects, type DatabaseKind } from './index.ts';

const dir = mkdtempSync(join(tmpdir(), 'capi-dialect-'));
let pgDatabase: TestDatabase;
let myDatabase: TestDatabase;

beforeAll(async () => {
  [pgDatabase, myDatabase] = await Promise.all([createServerDatabase('postgres', 'capi_dialect'), createServerDatabase('mysql', 'capi_dialect')]);
});

afterAll(async () => {
  await Promise.all([pgDatabase?.drop(), myDatabase?.drop()]);
  rmSync(dir, { recursive: true, force: true });
});

const configs: Record<DatabaseKind, () => DatabaseConfig> = {
  sqlite: () => ({ client: 'sqlite', filename: join(dir, 'dialect.db'), label: 'dialect.db' }),
  postgres: () => ({ client: 'postgres', url: pgDatabase.url, label: pgDatabase.name, pool: { max: 4 } }),
  mysql: () => ({ client: 'mysql', url: myDatabase.url, label: myDatabase.name, pool: { max: 4 } }),
};

const idColumn: Record<DatabaseKind, string> = { sqlite: 'INTEGER PRIMARY KEY AUTOINCREMENT', postgres: 'SERIAL PRIMARY KEY', mysql: 'INTEGER PRIMARY KEY AUTO_INCREMENT' };
/** Tables a dialect's SQL relies on that projects get from their migrations (MySQL's transaction locks). */
const supportTables: Record<DatabaseKind, string> = { sqlite: '', postgres: '', mysql: ';\nCREATE TABLE capi_locks (name VARCHAR(255) PRIMARY KEY)' };
/** The column type of timestamps (generator/databases.ts). */
const timestampColumn: Record<DatabaseKind, string> = { sqlite: 'TEXT', postgres: 'TIMESTAMPTZ(3)', mysql: 'DATETIME(3)' };
/** MySQL cannot index TEXT. */
const textColumn: Record<DatabaseKind, string> = { sqlite: 'TEXT', postgres: 'TEXT', mysql: 'VARCHAR(255)' };

describe.each(Object.keys(dialects) as DatabaseKind[])('the %s dialect', (kind) => {
  const dialect = dialects[kind];
  let db: Database;

  beforeAll(async () => {
    db = await openDatabase(configs[kind]());
    await db.exec(`CREATE TABLE items (id ${idColumn[kind]}, name ${textColumn[kind]}, rank INTEGER);
                   CREATE TABLE kv (k ${textColumn[kind]} PRIMARY KEY, v ${textColumn[kind]} NOT NULL);
                   CREATE TABLE stamps (t ${timestampColumn[kind]}, s ${textColumn[kind]})${supportTables[kind]}`);
    for (const [name, rank] of [
      ['b', 2],
      ['A', null],
      ['c', 1],
    ] as const) {
      await db.execute('INSERT INTO items (name, rank) VALUES (?, ?)', [name, rank]);
    }
  });
  afterAll(async () => {
    await db?.close();
  });

  it('is the dialect of handles of its database', () => {
    expect(db.dialect).toBe(dialect);
    expect(dialect.kind).toBe(kind);
  });

  it('passes id lists as one parameter: inIds, idTable and memberOf pick the same rows', async () => {
    const byIds = joinFragments([fragment('SELECT name FROM items WHERE '), inIds(dialect, 'id', [1, 3, 99], 'integer'), fragment(' ORDER BY id')], '');
    expect(byIds.params).toHaveLength(1);
    expect((await db.query<{ name: string }>(byIds.sql, byIds.params)).map((r) => r.name)).toEqual(['b', 'c']);
    const fromTable = joinFragments([fragment('SELECT i.name FROM '), idTable(dialect, ['c', 'A'], 'text', 't'), fragment(' CROSS JOIN items i WHERE i.name = t.value ORDER BY i.name')], '');
    expect((await db.query<{ name: string }>(fromTable.sql, fromTable.params)).map((r) => r.name)).toEqual(['A', 'c']);
    const member = joinFragments([fragment('SELECT name FROM items WHERE '), dialect.memberOf('id', fragment('SELECT id FROM items WHERE rank >= ?', [2])), fragment(' ORDER BY id')], '');
    expect((await db.query<{ name: string }>(member.sql, member.params)).map((r) => r.name)).toEqual(['b']);
  });

  it('sorts NULL first ascending and last descending, and pages without a limit', async () => {
    const order = (direction: 'asc' | 'desc') => `SELECT name FROM items ORDER BY rank ${direction.toUpperCase()}${dialect.nullsOrder(direction)}`;
    expect((await db.query<{ name: string }>(order('asc'))).map((r) => r.name)).toEqual(['A', 'c', 'b']);
    expect((await db.query<{ name: string }>(order('desc'))).map((r) => r.name)).toEqual(['b', 'c', 'A']);
    const page = joinFragments([fragment('SELECT name FROM items ORDER BY id'), dialect.offsetOnly(1)], '');
    expect((await db.query<{ name: string }>(page.sql, page.params)).map((r) => r.name)).toEqual(['A', 'c']);
  });

  it('orders text byte-wise and matches case-insensitively with caseInsensitiveLike', async () => {
    expect((await db.query<{ name: string }>(`SELECT name FROM items ORDER BY ${dialect.binaryOrder('name')}`)).map((r) => r.name)).toEqual(['A', 'b', 'c']);
    expect(await db.query(`SELECT name FROM items WHERE name ${dialect.caseInsensitiveLike} ?`, ['a'])).toEqual([{ name: 'A' }]);
  });

  it('upserts and skips conflicting inserts', async () => {
    const upsert = `INSERT INTO kv (k, v) VALUES (?, ?)${dialect.upsert(['k'], ['v'])}`;
    await db.execute(upsert, ['x', 'one']);
    await db.execute(upsert, ['x', 'two']);
    const ignore = `INSERT INTO kv (k, v) VALUES (?, ?)${dialect.insertIgnore(['k'])}`;
    await db.execute(ignore, ['y', 'first']);
    await db.execute(ignore, ['y', 'second']);
    expect(await db.query('SELECT k, v FROM kv ORDER BY k')).toEqual([
      { k: 'x', v: 'two' },
      { k: 'y', v: 'first' },
    ]);
  });

  it('moves the id generator past rows inserted with explicit ids', async () => {
    await db.execute('INSERT INTO items (id, name) VALUES (?, ?)', [50, 'explicit']);
    const reset = dialect.resetIdSequence('items');
    if (reset !== undefined) await db.query(reset.sql, reset.params);
    const next = await db.transaction((tx) => tx.query<{ id: number }>('INSERT INTO items (name) VALUES (?) RETURNING id', ['next']));
    expect(Number(next[0]!.id)).toBe(51);
  });

  it('aggregates JSON arrays, empty ones included, in the form json.readsAsText says', async () => {
    const aggregate = (where: string) =>
      joinFragments([fragment('SELECT '), dialect.json.aggregate(fragment(`${dialect.json.arrayOpen}name, rank)`), fragment('id')), fragment(` AS j FROM items WHERE ${where}`)], '');
    const read = async (where: string): Promise<unknown> => {
      const statement = aggregate(where);
      const [row] = await db.query<{ j: unknown }>(statement.sql, statement.params);
      expect(typeof row!.j === 'string').toBe(dialect.json.readsAsText);
      return typeof row!.j === 'string' ? JSON.parse(row!.j) : row!.j;
    };
    expect(await read('id <= 2')).toEqual([
      ['b', 2],
      ['A', null],
    ]);
    expect(await read('1 = 0')).toEqual([]);
    const [empty] = await db.query<{ j: unknown }>(`SELECT ${dialect.json.emptyArray} AS j`);
    expect(typeof empty!.j === 'string' ? JSON.parse(empty!.j) : empty!.j).toEqual([]);
  });

  it('binds a Date as a timestamp and a string that looks like one as text, unchanged', async () => {
    const iso = '2024-01-02T03:04:05.678Z';
    await db.execute('INSERT INTO stamps (t, s) VALUES (?, ?)', [new Date(iso), iso]);
    const [row] = await db.query<{ t: unknown; s: unknown }>('SELECT t, s FROM stamps');
    expect({ t: formatTimestamp(row!.t), s: row!.s }).toEqual({ t: iso, s: iso });
    expect(await db.query('SELECT s FROM stamps WHERE t = ?', [dialect.encodeTimestamp('2024-01-02T04:04:05.678+01:00')])).toEqual([{ s: iso }]);
    expect(await db.query('SELECT s FROM stamps WHERE s = ?', [iso])).toEqual([{ s: iso }]);
  });

  it('runs the row-lock clauses it writes', async () => {
    await db.transaction(async (tx) => {
      expect(await tx.query(`SELECT id FROM items WHERE id = ?${dialect.rowLock('keyShare')}`, [1])).toHaveLength(1);
      expect(await tx.query(`SELECT i.id FROM items i WHERE i.id = ?${dialect.rowLock('keyShare', 'i')}`, [1])).toHaveLength(1);
      expect(await tx.query(`SELECT id FROM items WHERE id = ?${dialect.rowLock('updateSkipLocked')}`, [1])).toHaveLength(1);
    });
  });

  it('queues transactions that take the same key lock', async () => {
    const seen: string[] = [];
    let locked!: () => void;
    const firstHasLock = new Promise<void>((resolve) => (locked = resolve));
    const first = db.transaction(async (tx) => {
      await lockKey(tx, 'capi:test:key');
      locked();
      await new Promise((resolve) => setTimeout(resolve, 150));
      seen.push('first done');
    });
    await firstHasLock;
    const second = db.transaction(async (tx) => {
      await lockKey(tx, 'capi:test:key');
      seen.push('second locked');
    });
    await Promise.all([first, second]);
    expect(seen).toEqual(['first done', 'second locked']);
  });

  it('keeps rate-limit counters where every process serving the database sees them', () => {
    expect(rateLimitStore(db, 'test', 1000).localKeys).toBe(!dialect.capabilities.sharedByProcesses);
  });

  it('knows which errors mean "run the transaction again"', () => {
    expect(dialect.isRetryable(new Error('x'))).toBe(false);
    expect(dialect.isRetryable(null)).toBe(false);
  });
});
