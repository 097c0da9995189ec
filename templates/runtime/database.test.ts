import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, createServerDatabase } from '../../test/support/databases.ts';
import type { TestDatabase } from '../../test/support/postgres.ts';
import type { DatabaseConfig } from './config.ts';
import { DatabaseOpenError, DatabaseUsageError, openDatabase, type Database, type Queryable, type QueryEvent } from './database.ts';
import { withSessionOptions } from './database-postgres.ts';
import { QueryTimeoutError } from './errors.ts';
import { applyMigrations } from './migrate.ts';
import { dialects } from './dialect/index.ts';
import { renderStatement, StatementShapeError } from './engine/sql.ts';

const dir = mkdtempSync(join(tmpdir(), 'capi-db-'));
let pgDatabase: TestDatabase;
let myDatabase: TestDatabase;

beforeAll(async () => {
  [pgDatabase, myDatabase] = await Promise.all([createServerDatabase('postgres', 'capi_dbtest'), createServerDatabase('mysql', 'capi_dbtest')]);
});

afterAll(async () => {
  await Promise.all([pgDatabase?.drop(), myDatabase?.drop()]);
  rmSync(dir, { recursive: true, force: true });
});

const configs: Record<(typeof clients)[number], () => DatabaseConfig> = {
  sqlite: () => ({ client: 'sqlite', filename: join(dir, 'nested', 'test.db'), label: 'nested/test.db' }),
  postgres: () => ({ client: 'postgres', url: pgDatabase.url, label: `127.0.0.1:5432/${pgDatabase.name}`, pool: { max: 4 } }),
  mysql: () => ({ client: 'mysql', url: myDatabase.url, label: `127.0.0.1:3306/${myDatabase.name}`, pool: { max: 4 } }),
};

/** DDL of the two test tables: the id column and the text type differ (MySQL cannot index TEXT). */
const tables: Record<(typeof clients)[number], { id: string; text: string }> = {
  sqlite: { id: 'INTEGER PRIMARY KEY AUTOINCREMENT', text: 'TEXT' },
  postgres: { id: 'SERIAL PRIMARY KEY', text: 'TEXT' },
  mysql: { id: 'INTEGER PRIMARY KEY AUTO_INCREMENT', text: 'VARCHAR(255)' },
};

describe.each(clients)('%s', (dialect) => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase(configs[dialect]());
    const { id, text } = tables[dialect];
    await db.exec(`CREATE TABLE items (id ${id}, name ${text} NOT NULL UNIQUE, flag BOOLEAN, at ${text});
                   CREATE TABLE counters (n INTEGER NOT NULL)`);
  });
  afterAll(async () => {
    await db?.close();
  });

  it('describes itself without credentials', () => {
    expect(db.dialect).toBe(dialects[dialect]);
    expect(db.dialect.kind).toBe(dialect);
    expect(db.description).toBe(dialect === 'sqlite' ? 'sqlite nested/test.db' : `${dialect} ${configs[dialect]().label}`);
  });

  it('runs statements with ? placeholders', async () => {
    const returning = db.dialect.insertedId === 'returning' ? ' RETURNING id' : '';
    const first = await db.execute(`INSERT INTO items (name, flag, at) VALUES (?, ?, ?)${returning}`, ['a', true, new Date('2024-01-02T03:04:05.000Z')]);
    expect(first.changes).toBe(1);
    expect(Number(first.lastId)).toBeGreaterThan(0);
    await db.execute('INSERT INTO items (name, flag) VALUES (?, ?)', ['b?', false]);
    const rows = await db.query<{ name: string; at: string | null }>('SELECT name, at FROM items WHERE name IN (?, ?) AND name <> ? ORDER BY name', ['a', 'b?', '?']);
    // MySQL takes timestamps in its DATETIME form only, so the driver binds Dates (and ISO 8601
    // strings) that way; a text column then holds that form.
    expect(rows).toEqual([
      { name: 'a', at: dialect === 'mysql' ? '2024-01-02 03:04:05.000' : '2024-01-02T03:04:05.000Z' },
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

/**
 * The write engine checks relation targets with locking reads and its own rows with plain ones,
 * inside transactions that other server processes commit around: a plain read must see what
 * another connection committed after the transaction's first read (READ COMMITTED, PostgreSQL's
 * default; MySQL's REPEATABLE READ would show the snapshot of the first read instead, so
 * database-mysql.ts sets READ COMMITTED per session). SQLite needs no such test: a write
 * transaction (BEGIN IMMEDIATE) keeps every other writer out until it ends.
 */
describe.each(clients.filter((client) => client !== 'sqlite'))('%s: a transaction and what another process commits meanwhile', (dialect) => {
  it('sees a row committed by another connection after its first read, with plain and locking reads', async () => {
    const [db, other] = [await openDatabase(configs[dialect]()), await openDatabase(configs[dialect]())];
    try {
      await db.exec('CREATE TABLE late_rows (name VARCHAR(50) NOT NULL)');
      // Rows, not count(*): PostgreSQL locks no rows of an aggregate.
      const count = async (tx: Queryable, lock: string): Promise<number> => (await tx.query(`SELECT name FROM late_rows WHERE name = ?${lock}`, ['late'])).length;
      const seen = await db.transaction(async (tx) => {
        const before = await count(tx, '');
        // Another server process commits while this transaction is open.
        await other.execute('INSERT INTO late_rows (name) VALUES (?)', ['late']);
        return { before, plain: await count(tx, ''), locking: await count(tx, tx.dialect.rowLock('keyShare')) };
      });
      expect(seen).toEqual({ before: 0, plain: 1, locking: 1 });
    } finally {
      await Promise.all([db.close(), other.close()]);
    }
  });
});

describe.each(clients.filter((client) => client !== 'sqlite'))("%s: the server's statement timeout", (dialect) => {
  const sleep: Record<Exclude<(typeof clients)[number], 'sqlite'>, (seconds: number) => string> = {
    postgres: (seconds) => `SELECT pg_sleep(${seconds}) IS NULL AS slept`,
    mysql: (seconds) => `SELECT SLEEP(${seconds}) AS slept`,
  };

  it('cancels a read on the pool that runs past it with QueryTimeoutError, and the pool goes on', async () => {
    const db = await openDatabase(configs[dialect](), { statementTimeoutMs: 200 });
    try {
      const error = await db.query(sleep[dialect](3)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QueryTimeoutError);
      expect((error as QueryTimeoutError).status).toBe(503);
      expect(await db.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
      // Parameters take the prepared path on both drivers.
      expect(await db.query(sleep[dialect](3).replace('3', '?'), [3]).catch((e: unknown) => e)).toBeInstanceOf(QueryTimeoutError);
    } finally {
      await db.close();
    }
  });

  it("leaves migrations unbounded, and the CLI's databases (no timeout given)", async () => {
    const db = await openDatabase(configs[dialect](), { statementTimeoutMs: 200 });
    const unbounded = await openDatabase(configs[dialect]());
    const migrations = join(dir, `slow-migration-${dialect}`, '0001_slow');
    mkdirSync(migrations, { recursive: true });
    writeFileSync(join(migrations, 'migration.sql'), `${sleep[dialect](0.5)};\nCREATE TABLE slow_migrated (id INTEGER);\n`);
    try {
      expect(await applyMigrations(db, dirname(migrations), { info: () => undefined, warn: () => undefined })).toEqual(['0001_slow']);
      expect(await unbounded.query(sleep[dialect](0.5))).toHaveLength(1);
    } finally {
      await Promise.all([db.close(), unbounded.close()]);
    }
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

  it('turns JIT compilation off on every connection of the pool (it cost deep reads seconds)', async () => {
    const db = await openDatabase(configs.postgres());
    try {
      // As many at once as the pool holds, so that every connection answers.
      const answers = await Promise.all(Array.from({ length: 4 }, () => db.query<{ jit: string }>("SELECT current_setting('jit') AS jit, pg_sleep(0.05)")));
      expect(answers.map(([row]) => row?.jit)).toEqual(['off', 'off', 'off', 'off']);
      await db.transaction(async (tx) => expect((await tx.query<{ jit: string }>('SHOW jit'))[0]?.jit).toBe('off'));
    } finally {
      await db.close();
    }
  });

  it("adds the session options to a URL's own", () => {
    expect(withSessionOptions('postgresql://u:p@h:5432/db')).toBe('postgresql://u:p@h:5432/db?options=-c+jit%3Doff');
    expect(withSessionOptions('postgres://h/db?sslmode=require&options=-c%20search_path%3Dapp')).toBe('postgres://h/db?sslmode=require&options=-c+search_path%3Dapp+-c+jit%3Doff');
    expect(withSessionOptions('postgresql://h/db', 1500)).toBe('postgresql://h/db?options=-c+jit%3Doff+-c+statement_timeout%3D1500');
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

describe('mysql specifics', () => {
  it('plans joins greedily, never by counting out every order (which cost 10-hop filters minutes)', async () => {
    const db = await openDatabase(configs.mysql());
    try {
      const [row] = await db.query<{ depth: number }>('SELECT @@optimizer_search_depth AS depth');
      expect(Number(row?.depth)).toBe(3);
    } finally {
      await db.close();
    }
  });

  it('returns timestamps as ISO 8601 UTC, bigints and decimals as strings, JSON as text, binds Dates as timestamps and strings as text', async () => {
    const db = await openDatabase(configs.mysql());
    try {
      await db.exec('CREATE TABLE kinds (at DATETIME(3), d DATE, t TIME(3), big BIGINT, dec_value DECIMAL(65, 30), j JSON, flag BOOLEAN, s VARCHAR(40))');
      const iso = '2024-02-29T10:11:12.345Z';
      await db.execute('INSERT INTO kinds VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [new Date(iso), '2024-02-29', '10:11:12.500', 9007199254740993n, '1.50', '{"a":[1,"x"]}', true, iso]);
      const [row] = await db.query('SELECT at, d, t, big, dec_value, j, flag, s, "at" = ? AS same FROM kinds', [new Date('2024-02-29T11:11:12.345+01:00')]);
      expect(row).toEqual({
        at: iso,
        d: '2024-02-29',
        t: '10:11:12.5',
        big: '9007199254740993',
        dec_value: '1.500000000000000000000000000000',
        j: '{"a":[1,"x"]}',
        flag: 1,
        s: iso,
        same: 1,
      });
    } finally {
      await db.close();
    }
  });

  it('quotes identifiers with double quotes and concatenates with ||, as the other databases do', async () => {
    const db = await openDatabase(configs.mysql());
    try {
      expect(await db.query(`SELECT 'a' || 'b' AS "Mixed Case"`)).toEqual([{ 'Mixed Case': 'ab' }]);
    } finally {
      await db.close();
    }
  });

  it('reports an unreachable server in one line', async () => {
    const error = await openDatabase({ client: 'mysql', url: 'mysql://root@127.0.0.1:1/x', label: '127.0.0.1:1/x', pool: { max: 1 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseOpenError);
    expect((error as Error).message).toBe('cannot connect to mysql 127.0.0.1:1/x: connect ECONNREFUSED 127.0.0.1:1');
  });

  it('reports a missing database in one line', async () => {
    const error = await openDatabase({ client: 'mysql', url: 'mysql://root@127.0.0.1:3306/capi_no_such_database', label: 'x/capi_no_such_database', pool: { max: 1 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseOpenError);
    expect((error as Error).message).toBe("cannot connect to mysql x/capi_no_such_database: Unknown database 'capi_no_such_database'");
  });
});

describe('renderStatement', () => {
  it('numbers placeholders for PostgreSQL in one pass and leaves SQLite text alone', () => {
    const params = ['a', true, new Date('2024-01-02T03:04:05.000Z'), 7n];
    expect(renderStatement(dialects.postgres, 'SELECT ? , ? WHERE a = ? AND b = ?', params)).toEqual({
      text: 'SELECT $1 , $2 WHERE a = $3 AND b = $4',
      values: ['a', true, '2024-01-02T03:04:05.000Z', '7'],
    });
    expect(renderStatement(dialects.sqlite, 'SELECT ? , ? WHERE a = ? AND b = ?', params)).toEqual({
      text: 'SELECT ? , ? WHERE a = ? AND b = ?',
      values: ['a', 1, '2024-01-02T03:04:05.000Z', 7n],
    });
  });

  it('leaves a statement without parameters as written, question marks and all', () => {
    const script = "SELECT '?' AS q; -- ?";
    expect(renderStatement(dialects.postgres, script, []).text).toBe(script);
  });

  it('rejects a statement whose placeholders and parameters disagree (a literal ? must be bound)', () => {
    expect(() => renderStatement(dialects.postgres, "SELECT ? WHERE name <> '?'", ['a'])).toThrow(StatementShapeError);
    expect(() => renderStatement(dialects.postgres, 'SELECT ?, ?', ['a'])).toThrow(StatementShapeError);
  });
});
