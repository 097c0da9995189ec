import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { clients, createServerDatabase } from '../../test/support/databases.ts';
import type { TestDatabase } from '../../test/support/postgres.ts';
import type { DatabaseConfig } from './config.ts';
import { openDatabase, type Database } from './database.ts';
import { applyMigrations, MigrationError, withoutTransactionControl, type MigrationLog } from './migrate.ts';

const root = mkdtempSync(join(tmpdir(), 'capi-migrate-'));
const execFileAsync = promisify(execFile);
let counter = 0;
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

type Dialect = (typeof clients)[number];

/** A fresh, empty database of the dialect; `open` gives further independent handles to it. */
async function freshDatabase(dialect: Dialect): Promise<{ db: Database; open: () => Promise<Database> }> {
  let config: DatabaseConfig;
  if (dialect === 'sqlite') {
    const name = `db-${++counter}.db`;
    config = { client: 'sqlite', filename: join(root, name), label: name };
  } else {
    const test: TestDatabase = await createServerDatabase(dialect, 'capi_migtest');
    cleanups.push(() => test.drop());
    config = { client: dialect, url: test.url, label: test.name, pool: { max: 3 } };
  }
  const open = async (): Promise<Database> => {
    const db = await openDatabase(config);
    cleanups.push(() => db.close());
    return db;
  };
  return { db: await open(), open };
}

function migrationsDir(migrations: Record<string, string>): string {
  const dir = join(root, `migrations-${++counter}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'migration_lock.toml'), 'provider = "sqlite"\n');
  for (const [name, sql] of Object.entries(migrations)) addMigration(dir, name, sql);
  return dir;
}

function addMigration(dir: string, name: string, sql: string): void {
  mkdirSync(join(dir, name), { recursive: true });
  writeFileSync(join(dir, name, 'migration.sql'), sql);
}

const childScript = join(root, 'migrate-child.mts');
writeFileSync(
  childScript,
  `import { openDatabase } from ${JSON.stringify(fileURLToPath(new URL('./database.ts', import.meta.url)))};
import { applyMigrations } from ${JSON.stringify(fileURLToPath(new URL('./migrate.ts', import.meta.url)))};
const [filename, dir] = process.argv.slice(2);
const db = await openDatabase({ client: 'sqlite', filename, label: 'child' });
const applied = await applyMigrations(db, dir, { info() {}, warn() {} });
await db.close();
process.stdout.write(JSON.stringify(applied));
`,
);

/** Runs applyMigrations in another Node process on the same SQLite file; resolves to what it applied. */
async function migrateInChildProcess(db: Database, dir: string): Promise<string[]> {
  const filename = db.description.replace(/^sqlite /, '');
  const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', childScript, join(root, filename), dir], { cwd: process.cwd() });
  return JSON.parse(stdout) as string[];
}

function recorder(): MigrationLog & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (m) => lines.push(m), warn: (m) => lines.push(`warn: ${m}`) };
}

const idColumns: Record<Dialect, string> = {
  sqlite: 'INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT',
  postgres: 'SERIAL PRIMARY KEY',
  mysql: 'INTEGER NOT NULL PRIMARY KEY AUTO_INCREMENT',
};
const idColumn = (dialect: Dialect): string => idColumns[dialect];

const init = (dialect: Dialect): string => `-- CreateTable
CREATE TABLE "author" ("id" ${idColumn(dialect)}, "name" TEXT NOT NULL);
-- CreateTable
CREATE TABLE "book" (
    "id" ${idColumn(dialect)},
    "title" TEXT NOT NULL,
    "author_id" INTEGER NOT NULL,
    CONSTRAINT "book_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "author" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
`;

async function seed(db: Database): Promise<void> {
  await db.execute('INSERT INTO "author" ("id", "name") VALUES (?, ?), (?, ?)', [1, 'Ann', 2, 'Bob']);
  await db.execute('INSERT INTO "book" ("title", "author_id") VALUES (?, ?), (?, ?), (?, ?)', ['A1', 1, 'A2', 1, 'B1', 2]);
}

async function migrationNames(db: Database): Promise<string[]> {
  return (await db.query<{ name: string }>('SELECT name FROM _capi_migrations ORDER BY name')).map((r) => r.name);
}

describe.each(clients)('applyMigrations on %s', (dialect) => {
  it('applies everything to an empty database, then nothing on a second run', async () => {
    const { db } = await freshDatabase(dialect);
    const dir = migrationsDir({ '0001_init': init(dialect), '0002_tags': 'CREATE TABLE "tag" ("name" TEXT NOT NULL);\n' });
    const log = recorder();
    expect(await applyMigrations(db, dir, log)).toEqual(['0001_init', '0002_tags']);
    expect(log.lines).toEqual([
      'applying migration 0001_init',
      expect.stringMatching(/^applied migration 0001_init in \d+ ms$/),
      'applying migration 0002_tags',
      expect.stringMatching(/^applied migration 0002_tags in \d+ ms$/),
    ]);
    expect(await migrationNames(db)).toEqual(['0001_init', '0002_tags']);
    expect(await applyMigrations(db, dir, recorder())).toEqual([]);
  });

  it('accepts an empty migrations folder', async () => {
    const { db } = await freshDatabase(dialect);
    expect(await applyMigrations(db, migrationsDir({}), recorder())).toEqual([]);
  });

  it('applies an additive second migration and keeps the rows', async () => {
    const { db } = await freshDatabase(dialect);
    const dir = migrationsDir({ '0001_init': init(dialect) });
    await applyMigrations(db, dir, recorder());
    await seed(db);
    addMigration(dir, '0002_add_isbn', `-- AlterTable\nALTER TABLE "book" ADD COLUMN "isbn" TEXT;\n`);
    expect(await applyMigrations(db, dir, recorder())).toEqual(['0002_add_isbn']);
    expect(await db.query('SELECT "title", "isbn" FROM "book" ORDER BY "title"')).toEqual([
      { title: 'A1', isbn: null },
      { title: 'A2', isbn: null },
      { title: 'B1', isbn: null },
    ]);
  });

  it('refuses a migration changed after it was applied', async () => {
    const { db } = await freshDatabase(dialect);
    const dir = migrationsDir({ '0001_init': init(dialect) });
    await applyMigrations(db, dir, recorder());
    addMigration(dir, '0001_init', `${init(dialect)}-- edited\n`);
    addMigration(dir, '0002_more', 'CREATE TABLE "more" ("x" TEXT);\n');
    const error = await applyMigrations(db, dir, recorder()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as MigrationError).migration).toBe('0001_init');
    expect((error as Error).message).toBe('migration 0001_init was changed after it was applied (checksum differs): restore the applied file and put new changes in a new migration');
    // Nothing after the changed migration ran either.
    expect(await migrationNames(db)).toEqual(['0001_init']);
  });

  it('does not treat a CRLF checkout of the same file as a change', async () => {
    const { db } = await freshDatabase(dialect);
    const dir = migrationsDir({ '0001_init': init(dialect) });
    await applyMigrations(db, dir, recorder());
    addMigration(dir, '0001_init', init(dialect).replace(/\n/g, '\r\n'));
    expect(await applyMigrations(db, dir, recorder())).toEqual([]);
  });

  it('rolls a failing migration back (on MySQL only as far as DDL allows) and names it', async () => {
    const { db } = await freshDatabase(dialect);
    const dir = migrationsDir({ '0001_init': init(dialect) });
    await applyMigrations(db, dir, recorder());
    await seed(db);
    addMigration(dir, '0002_broken', `CREATE TABLE "half" ("x" TEXT);\nALTER TABLE "book" ADD COLUMN "pages" INTEGER;\nDELETE FROM "book";\nINSERT INTO "no_such_table" VALUES (1);\n`);
    const error = await applyMigrations(db, dir, recorder()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as Error).message).toMatch(/^migration 0002_broken failed: .*no_such_table/);
    expect((error as Error).message).not.toContain('\n');
    expect(await migrationNames(db)).toEqual(['0001_init']);
    if (dialect === 'mysql') {
      // MySQL and MariaDB commit every DDL statement at once (docs/deployment.md): what ran before
      // the failing statement stays, and the migration is not recorded, so a fixed one reruns.
      expect(await db.query('SELECT "title", "pages" FROM "book"')).toEqual([]);
      expect(await db.query('SELECT * FROM "half"')).toEqual([]);
      addMigration(dir, '0002_broken', 'CREATE TABLE IF NOT EXISTS "half" ("x" TEXT);\n');
      expect(await applyMigrations(db, dir, recorder())).toEqual(['0002_broken']);
      return;
    }
    expect(await db.query('SELECT "title" FROM "book" ORDER BY "title"')).toEqual([{ title: 'A1' }, { title: 'A2' }, { title: 'B1' }]);
    await expect(db.query('SELECT * FROM "half"')).rejects.toThrow();
    await expect(db.query('SELECT "pages" FROM "book"')).rejects.toThrow();
    // Fixed, it applies.
    addMigration(dir, '0002_broken', 'CREATE TABLE "half" ("x" TEXT);\n');
    expect(await applyMigrations(db, dir, recorder())).toEqual(['0002_broken']);
  });

  it('two migrators starting together both succeed and apply each migration once', async () => {
    const { db, open } = await freshDatabase(dialect);
    // Slow enough that the two runs overlap; not idempotent, so a second application would fail.
    const slow =
      dialect === 'postgres'
        ? 'SELECT pg_sleep(0.3);\n'
        : dialect === 'mysql'
          ? 'SELECT SLEEP(0.3);\n'
          : 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000) SELECT count(*) FROM c;\n';
    const dir = migrationsDir({
      '0001_init': `${slow}${init(dialect)}`,
      '0002_tags': `${slow}CREATE TABLE "tag" ("name" TEXT NOT NULL);\nINSERT INTO "tag" ("name") VALUES ('once');\n`,
    });
    let runs: string[][];
    if (dialect !== 'sqlite') {
      const other = await open();
      runs = await Promise.all([applyMigrations(db, dir, recorder()), applyMigrations(other, dir, recorder())]);
    } else {
      // better-sqlite3 waits for a lock synchronously, so two migrators in one thread would block
      // each other; real concurrent starts are separate processes, so test with those.
      runs = await Promise.all([migrateInChildProcess(db, dir), migrateInChildProcess(db, dir)]);
    }
    const [a = [], b = []] = runs;
    expect([...a, ...b].sort()).toEqual(['0001_init', '0002_tags']);
    expect(await db.query('SELECT "name" FROM "tag"')).toEqual([{ name: 'once' }]);
    expect(await migrationNames(db)).toEqual(['0001_init', '0002_tags']);
  });

  it('warns about applied migrations missing from the folder', async () => {
    const { db } = await freshDatabase(dialect);
    await applyMigrations(db, migrationsDir({ '0001_init': init(dialect) }), recorder());
    const log = recorder();
    await applyMigrations(db, migrationsDir({}), log);
    expect(log.lines).toEqual(['warn: migration 0001_init is recorded in the database but missing from the migrations folder']);
  });
});

describe('sqlite table redefinition', () => {
  // What `prisma migrate diff` writes for SQLite when a column change needs a new table.
  const redefineAuthor = (filter: string): string => `-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_author" ("id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL, "bio" TEXT NOT NULL DEFAULT '');
INSERT INTO "new_author" ("id", "name") SELECT "id", "name" FROM "author"${filter};
DROP TABLE "author";
ALTER TABLE "new_author" RENAME TO "author";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
`;

  it('keeps the rows of a child table with ON DELETE CASCADE, and turns foreign keys back on', async () => {
    const { db } = await freshDatabase('sqlite');
    const dir = migrationsDir({ '0001_init': init('sqlite') });
    await applyMigrations(db, dir, recorder());
    await seed(db);
    addMigration(dir, '0002_author_bio', redefineAuthor(''));
    expect(await applyMigrations(db, dir, recorder())).toEqual(['0002_author_bio']);
    expect(await db.query('SELECT "title", "author_id" FROM "book" ORDER BY "title"')).toEqual([
      { title: 'A1', author_id: 1 },
      { title: 'A2', author_id: 1 },
      { title: 'B1', author_id: 2 },
    ]);
    expect(await db.query('SELECT "id", "name", "bio" FROM "author" ORDER BY "id"')).toEqual([
      { id: 1, name: 'Ann', bio: '' },
      { id: 2, name: 'Bob', bio: '' },
    ]);
    expect(await db.query('PRAGMA foreign_keys')).toEqual([{ foreign_keys: 1 }]);
    // The foreign key still points at the redefined table and still cascades.
    await db.execute('DELETE FROM "author" WHERE "id" = ?', [1]);
    expect(await db.query('SELECT "title" FROM "book"')).toEqual([{ title: 'B1' }]);
  });

  it('(control) the same script run with foreign keys on would have deleted the child rows', async () => {
    const { db } = await freshDatabase('sqlite');
    await db.exec(init('sqlite'));
    await seed(db);
    await db.transaction((tx) => tx.exec(redefineAuthor('')));
    expect(await db.query('SELECT count(*) AS n FROM "book"')).toEqual([{ n: 0 }]);
  });

  it('rolls back a redefinition that leaves dangling foreign keys', async () => {
    const { db } = await freshDatabase('sqlite');
    const dir = migrationsDir({ '0001_init': init('sqlite') });
    await applyMigrations(db, dir, recorder());
    await seed(db);
    addMigration(dir, '0002_lose_ann', redefineAuthor(' WHERE "id" <> 1'));
    const error = await applyMigrations(db, dir, recorder()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as Error).message).toBe('migration 0002_lose_ann failed: it leaves 2 row(s) violating foreign keys (first: table book row 1 references missing author row); nothing was applied');
    expect(await db.query('SELECT "name" FROM "author" ORDER BY "id"')).toEqual([{ name: 'Ann' }, { name: 'Bob' }]);
    expect(await db.query('SELECT count(*) AS n FROM "book"')).toEqual([{ n: 3 }]);
    expect(await db.query('PRAGMA foreign_keys')).toEqual([{ foreign_keys: 1 }]);
  });
});

describe('postgres scripts with their own BEGIN/COMMIT', () => {
  it('runs them inside the migration transaction', async () => {
    const { db } = await freshDatabase('postgres');
    const dir = migrationsDir({
      '0001_enum': `CREATE TYPE "status" AS ENUM ('draft', 'done');\nCREATE TABLE "task" ("status" "status" NOT NULL);\n`,
      '0002_enum_rewrite': `-- AlterEnum
BEGIN;
CREATE TYPE "status_new" AS ENUM ('draft', 'published');
ALTER TABLE "task" ALTER COLUMN "status" TYPE "status_new" USING ("status"::text::"status_new");
ALTER TYPE "status" RENAME TO "status_old";
ALTER TYPE "status_new" RENAME TO "status";
DROP TYPE "status_old";
COMMIT;
INSERT INTO "missing" VALUES (1);
`,
    });
    await expect(applyMigrations(db, dir, recorder())).rejects.toThrow(/^migration 0002_enum_rewrite failed: relation "missing" does not exist$/);
    // Had the script's COMMIT ended our transaction, the enum rewrite would have stuck.
    expect(await db.query('SELECT enum_range(NULL::"status")::text AS r')).toEqual([{ r: '{draft,done}' }]);
  });

  it('removes only whole-line BEGIN/COMMIT', () => {
    expect(withoutTransactionControl('BEGIN;\nSELECT 1;\n  commit ;\nDO $$ BEGIN PERFORM 1; END $$;\n')).toBe('\nSELECT 1;\n\nDO $$ BEGIN PERFORM 1; END $$;\n');
  });
});

describe('errors', () => {
  it('names a missing folder and a folder without migration.sql', async () => {
    const { db } = await freshDatabase('sqlite');
    await expect(applyMigrations(db, join(root, 'nope'), recorder())).rejects.toThrow(`migrations folder not found: ${join(root, 'nope')}`);
    const dir = migrationsDir({});
    mkdirSync(join(dir, '0001_empty'));
    await expect(applyMigrations(db, dir, recorder())).rejects.toThrow('migration 0001_empty has no migration.sql');
  });
});
