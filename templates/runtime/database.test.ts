import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/postgres.ts';
import type { DatabaseConfig } from './config.ts';
import { DatabaseOpenError, DatabaseUsageError, openDatabase, type Database, type QueryEvent } from './database.ts';
import { toNumberedPlaceholders } from './placeholders.ts';

const dir = mkdtempSync(join(tmpdir(), 'capi-db-'));
let pgDatabase: TestDatabase;

beforeAll(async () => {
  pgDatabase = await createTestDatabase('capi_dbtest');
});

afterAll(async () => {
  await pgDatabase?.drop();
  rmSync(dir, { recursive: true, force: true });
});

const configs: Record<'sqlite' | 'postgres', () => DatabaseConfig> = {
  sqlite: () => ({ client: 'sqlite', filename: join(dir, 'nested', 'test.db'), label: 'nested/test.db' }),
  postgres: () => ({ client: 'postgres', url: pgDatabase.url, label: `127.0.0.1:5432/${pgDatabase.name}`, pool: { max: 4 } }),
};

describe.each(['sqlite', 'postgres'] as const)('%s', (dialect) => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase(configs[dialect]());
    const id = dialect === 'sqlite' ? 'INTEGER PRIMARY KEY AUTOINCREMENT' : 'SERIAL PRIMARY KEY';
    await db.exec(`CREATE TABLE items (id ${id}, name TEXT NOT NULL UNIQUE, flag BOOLEAN, at TEXT);
                   CREATE TABLE counters (n INTEGER NOT NULL)`);
  });
  afterAll(async () => {
    await db?.close();
  });

  it('describes itself without credentials', () => {
    expect(db.dialect).toBe(dialect);
    expect(db.description).toBe(dialect === 'sqlite' ? 'sqlite nested/test.db' : `postgres 127.0.0.1:5432/${pgDatabase.name}`);
  });

  it('runs statements with ? placeholders', async () => {
    const returning = dialect === 'postgres' ? ' RETURNING id' : '';
    const first = await db.execute(`INSERT INTO items (name, flag, at) VALUES (?, ?, ?)${returning}`, ['a', true, new Date('2024-01-02T03:04:05.000Z')]);
    expect(first.changes).toBe(1);
    expect(Number(first.lastId)).toBeGreaterThan(0);
    await db.execute('INSERT INTO items (name, flag) VALUES (?, ?)', ['b?', false]);
    const rows = await db.query<{ name: string; at: string | null }>("SELECT name, at FROM items WHERE name IN (?, ?) AND name <> '?' ORDER BY name", ['a', 'b?']);
    expect(rows).toEqual([
      { name: 'a', at: '2024-01-02T03:04:05.000Z' },
      { name: 'b?', at: null },
    ]);
    expect(await db.query('UPDATE items SET flag = ? WHERE name = ?', [false, 'a'])).toEqual([]);
    expect((await db.execute('DELETE FROM items WHERE name = ?', ['nothing'])).changes).toBe(0);
  });

  it('commits a transaction and rolls one back', async () => {
    await db.transaction(async (tx) => {
      await tx.execute('INSERT INTO counters (n) VALUES (?)', [1]);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.execute('INSERT INTO counters (n) VALUES (?)', [2]);
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    expect(await db.query('SELECT n FROM counters ORDER BY n')).toEqual([{ n: 1 }]);
  });

  it('nests transactions as savepoints', async () => {
    await db.transaction(async (tx) => {
      await tx.execute('INSERT INTO counters (n) VALUES (?)', [10]);
      await expect(
        tx.transaction(async (inner) => {
          await inner.execute('INSERT INTO counters (n) VALUES (?)', [11]);
          throw new Error('inner');
        }),
      ).rejects.toThrow('inner');
      await tx.transaction(async (inner) => {
        await inner.execute('INSERT INTO counters (n) VALUES (?)', [12]);
      });
    });
    expect(await db.query('SELECT n FROM counters WHERE n >= 10 ORDER BY n')).toEqual([{ n: 10 }, { n: 12 }]);
  });

  it('refuses a transaction handle once its transaction ended', async () => {
    const tx = await db.transaction(async (handle) => handle);
    await expect(tx.query('SELECT 1')).rejects.toBeInstanceOf(DatabaseUsageError);
  });

  it('counts statements and tells listeners', async () => {
    const events: QueryEvent[] = [];
    const stop = db.onQuery((event) => events.push(event));
    const before = db.queryCount;
    await db.query('SELECT ? AS v', [1]);
    await db.transaction(async (tx) => {
      await tx.query('SELECT 2 AS v');
    });
    await db.query('SELECT nope FROM nowhere').catch(() => undefined);
    stop();
    await db.query('SELECT 3 AS v');
    expect(events.map((e) => [e.kind, e.sql, e.error === undefined])).toEqual([
      ['query', 'SELECT ? AS v', true],
      ['query', 'SELECT 2 AS v', true],
      ['query', 'SELECT nope FROM nowhere', false],
    ]);
    expect(db.queryCount - before).toBe(4);
  });

  it('keeps other callers out of a transaction until it ends', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const tx = db.transaction(async (handle) => {
      await handle.execute('INSERT INTO counters (n) VALUES (?)', [100]);
      await gate;
      await handle.execute('DELETE FROM counters WHERE n = ?', [100]);
    });
    // Outside the transaction the uncommitted row is never visible.
    const outside = db.query<{ c: number | string }>('SELECT count(*) AS c FROM counters WHERE n = ?', [100]);
    setTimeout(release, 50);
    await tx;
    expect(Number((await outside)[0]!.c)).toBe(0);
  });

  it('reserves a connection outside any transaction', async () => {
    const value = await db.withConnection(async (connection) => {
      await connection.transaction(async (tx) => tx.execute('INSERT INTO counters (n) VALUES (?)', [200]));
      return connection.query<{ n: number }>('SELECT n FROM counters WHERE n = ?', [200]);
    });
    expect(value).toEqual([{ n: 200 }]);
  });
});

describe('sqlite specifics', () => {
  it('opens with WAL and foreign keys on, and refuses the outer handle inside a transaction', async () => {
    const db = await openDatabase({ client: 'sqlite', filename: join(dir, 'pragmas.db'), label: 'pragmas.db' });
    try {
      expect(await db.query('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
      expect(await db.query('PRAGMA foreign_keys')).toEqual([{ foreign_keys: 1 }]);
      await expect(db.transaction(() => db.query('SELECT 1'))).rejects.toBeInstanceOf(DatabaseUsageError);
      expect(await db.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
    }
  });

  it('reports an unusable path in one line', async () => {
    writeFileSync(join(dir, 'plain-file'), 'x');
    const error = await openDatabase({ client: 'sqlite', filename: join(dir, 'plain-file', 'data.db'), label: 'plain-file/data.db' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseOpenError);
    expect((error as Error).message).toMatch(/^cannot open sqlite database plain-file\/data\.db: E(EXIST|NOTDIR)/);
  });

  it('reports a file that is not a database', async () => {
    writeFileSync(join(dir, 'junk.db'), 'this is not a database file, just text that is long enough to have a header'.repeat(20));
    const error = await openDatabase({ client: 'sqlite', filename: join(dir, 'junk.db'), label: 'junk.db' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseOpenError);
    expect((error as Error).message).toBe('cannot open sqlite database junk.db: file is not a database');
  });
});

describe('postgres specifics', () => {
  it('returns dates, times, timestamps and bigints as strings', async () => {
    const db = await openDatabase(configs.postgres());
    try {
      const [row] = await db.query(
        "SELECT DATE '2024-02-29' AS d, TIME '10:11:12.5' AS t, TIMESTAMP '2024-02-29 10:11:12.345' AS ts, 9007199254740993::bigint AS big, 1.50::numeric AS dec, 3::int AS i, true AS b",
      );
      expect(row).toEqual({ d: '2024-02-29', t: '10:11:12.5', ts: '2024-02-29 10:11:12.345', big: '9007199254740993', dec: '1.50', i: 3, b: true });
      const [bound] = await db.query<{ v: string }>('SELECT ?::bigint AS v', [9007199254740993n]);
      expect(bound!.v).toBe('9007199254740993');
    } finally {
      await db.close();
    }
  });

  it('reports an unreachable server in one line', async () => {
    const error = await openDatabase({ client: 'postgres', url: 'postgresql://postgres@127.0.0.1:1/x', label: '127.0.0.1:1/x', pool: { max: 1 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseOpenError);
    expect((error as Error).message).toBe('cannot connect to postgres 127.0.0.1:1/x: connect ECONNREFUSED 127.0.0.1:1');
  });

  it('reports a missing database in one line', async () => {
    const url = new URL(pgDatabase.url);
    url.pathname = '/capi_no_such_database';
    const error = await openDatabase({ client: 'postgres', url: url.toString(), label: 'x/capi_no_such_database', pool: { max: 1 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseOpenError);
    expect((error as Error).message).toBe('cannot connect to postgres x/capi_no_such_database: database "capi_no_such_database" does not exist');
  });
});

describe('toNumberedPlaceholders', () => {
  it.each([
    ['SELECT ? , ?', 'SELECT $1 , $2'],
    ["SELECT '?', \"a?\", ? -- ?\n, ?", "SELECT '?', \"a?\", $1 -- ?\n, $2"],
    ["SELECT 'it''s ?', ?", "SELECT 'it''s ?', $1"],
    ["SELECT E'\\' ?', ?", "SELECT E'\\' ?', $1"],
    ['SELECT /* ? */ ?, $$ ? $$, $tag$ ? $tag$, ?', 'SELECT /* ? */ $1, $$ ? $$, $tag$ ? $tag$, $2'],
  ])('%s', (input, output) => {
    expect(toNumberedPlaceholders(input)).toBe(output);
  });
});
