/**
 * Applies the SQL migrations of `prisma/migrations/<name>/migration.sql` in name order and
 * records them in `_capi_migrations`. Prisma only writes these files; applying them is ours,
 * because Prisma's JS schema engine cannot run `migrate deploy` against PostgreSQL 15 here.
 *
 * Each pending migration runs in its own transaction, so a failure leaves the database as it
 * was before that migration. Several processes may start at once:
 * - PostgreSQL: every migration transaction first takes a transaction-scoped advisory lock and
 *   re-reads the table, so a second process waits, then finds the migration applied.
 * - SQLite: BEGIN IMMEDIATE takes the write lock up front, with the same re-read.
 *
 * SQLite needs one more thing: Prisma redefines a table by creating a copy, dropping the
 * original and renaming the copy. With foreign keys on, that DROP would cascade-delete (or
 * null out) the rows of every child table. So foreign keys are switched off for the run
 * (outside the transaction: the pragma is a no-op inside one), checked with
 * `PRAGMA foreign_key_check` before each commit, and switched back on afterwards.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describeDriverError, type Database, type Queryable } from './database.ts';

export interface MigrationLog {
  info(message: string): void;
  warn(message: string): void;
}

export interface Migration {
  /** Folder name, e.g. `0002_add_tags`. */
  readonly name: string;
  /** sha256 of the file with line endings normalised (a Windows checkout must not look "changed"). */
  readonly checksum: string;
  readonly sql: string;
}

/** A migration could not be read, verified or applied. The message is one line naming it. */
export class MigrationError extends Error {
  override readonly name = 'MigrationError';
  constructor(
    message: string,
    readonly migration?: string,
  ) {
    super(message.replace(/\s*\n\s*/g, ' '));
  }
}

export const migrationsTable = '_capi_migrations';
/** Advisory lock key: ('capi' as an int32, 1). Only capi's migrator takes it. */

/** The migrations found in `dir`, sorted by name. Throws MigrationError. */
export function readMigrations(dir: string): Migration[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new MigrationError(`migrations folder not found: ${dir}`);
  const names = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return names.map((name) => {
    const file = join(dir, name, 'migration.sql');
    if (!existsSync(file)) throw new MigrationError(`migration ${name} has no migration.sql`, name);
    const sql = readFileSync(file, 'utf8');
    return { name, sql, checksum: checksumOf(sql) };
  });
}

export function checksumOf(sql: string): string {
  return createHash('sha256').update(sql.replace(/\r\n/g, '\n')).digest('hex');
}

/** Applies every pending migration of `migrationsDir`; returns the names applied by this call. */
export async function applyMigrations(db: Database, migrationsDir: string, log: MigrationLog): Promise<string[]> {
  const migrations = readMigrations(migrationsDir);
  const { setup, sessionLock } = db.dialect.migrations;
  return db.withConnection(async (connection) => {
    if (setup !== undefined) await connection.exec(setup.before);
    try {
      if (sessionLock === undefined) return await applyAll(connection, migrations, log);
      await connection.query(sessionLock.acquire.sql, sessionLock.acquire.params);
      try {
        return await applyAll(connection, migrations, log);
      } finally {
        await connection.query(sessionLock.release.sql, sessionLock.release.params);
      }
    } finally {
      if (setup !== undefined) await connection.exec(setup.after);
    }
  });
}

async function applyAll(connection: Queryable, migrations: readonly Migration[], log: MigrationLog): Promise<string[]> {
  let applied: Map<string, string>;
  try {
    applied = await connection.transaction(async (tx) => {
      await lock(tx);
      await tx.exec(createTableSql(tx));
      return recorded(tx);
    });
  } catch (error) {
    throw new MigrationError(`cannot read the ${migrationsTable} table: ${describeDriverError(error)}`);
  }
  const local = new Set(migrations.map((m) => m.name));
  for (const name of applied.keys()) {
    if (!local.has(name)) log.warn(`migration ${name} is recorded in the database but missing from the migrations folder`);
  }
  for (const migration of migrations) verifyChecksum(migration, applied.get(migration.name));

  const done: string[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.name)) continue;
    if (await applyOne(connection, migration, log)) done.push(migration.name);
  }
  return done;
}

/** Applies one migration unless another process did meanwhile. True if this call applied it. */
async function applyOne(connection: Queryable, migration: Migration, log: MigrationLog): Promise<boolean> {
  const start = performance.now();
  try {
    const applied = await connection.transaction(async (tx) => {
      await lock(tx);
      const current = (await recorded(tx)).get(migration.name);
      if (current !== undefined) {
        verifyChecksum(migration, current);
        return false;
      }
      log.info(`applying migration ${migration.name}`);
      await tx.exec(withoutTransactionControl(migration.sql));
      if (tx.dialect.migrations.checksForeignKeys) await checkForeignKeys(tx, migration);
      await tx.execute(`INSERT INTO ${migrationsTable} (name, checksum, applied_at) VALUES (?, ?, ?)`, [migration.name, migration.checksum, new Date()]);
      return true;
    });
    if (applied) log.info(`applied migration ${migration.name} in ${Math.round(performance.now() - start)} ms`);
    else log.info(`migration ${migration.name} was applied by another process`);
    return applied;
  } catch (error) {
    if (error instanceof MigrationError) throw error;
    throw new MigrationError(`migration ${migration.name} failed: ${describeDriverError(error)}`, migration.name);
  }
}

/**
 * Serialises migrators across processes (`Dialect.migrations`): a transaction-scoped lock where
 * the database has one, else the session lock taken around the whole run or, on SQLite, BEGIN
 * IMMEDIATE itself. First, the server's statement timeout is lifted for the transaction.
 */
async function lock(tx: Queryable): Promise<void> {
  const { transactionLock, unbounded } = tx.dialect.migrations;
  if (unbounded !== undefined) await tx.exec(unbounded);
  if (transactionLock !== undefined) await tx.query(transactionLock.sql, transactionLock.params);
}

function createTableSql(tx: Queryable): string {
  const appliedAt = tx.dialect.migrations.timestampType;
  // VARCHAR, not TEXT: MySQL cannot make a TEXT column a primary key (names and checksums are short).
  return `CREATE TABLE IF NOT EXISTS ${migrationsTable} (name VARCHAR(255) PRIMARY KEY, checksum VARCHAR(255) NOT NULL, applied_at ${appliedAt} NOT NULL)`;
}

async function recorded(tx: Queryable): Promise<Map<string, string>> {
  const rows = await tx.query<{ name: string; checksum: string }>(`SELECT name, checksum FROM ${migrationsTable} ORDER BY name`);
  return new Map(rows.map((row) => [row.name, row.checksum]));
}

function verifyChecksum(migration: Migration, recordedChecksum: string | undefined): void {
  if (recordedChecksum !== undefined && recordedChecksum !== migration.checksum) {
    throw new MigrationError(`migration ${migration.name} was changed after it was applied (checksum differs): restore the applied file and put new changes in a new migration`, migration.name);
  }
}

/**
 * Prisma wraps some PostgreSQL scripts (enum rewrites) in their own BEGIN/COMMIT. Inside our
 * transaction a COMMIT would end it early and leave the rest unprotected, so those lines go.
 * Only whole-line `BEGIN;` / `COMMIT;` are removed: PL/pgSQL bodies never write `BEGIN;`.
 */
export function withoutTransactionControl(sql: string): string {
  return sql.replace(/^[ \t]*(BEGIN|COMMIT)([ \t]+(TRANSACTION|WORK))?[ \t]*;[ \t]*$/gim, '');
}

async function checkForeignKeys(tx: Queryable, migration: Migration): Promise<void> {
  const violations = await tx.query<{ table: string; rowid: number | null; parent: string }>('PRAGMA foreign_key_check');
  if (violations.length === 0) return;
  const first = violations[0]!;
  throw new MigrationError(
    `migration ${migration.name} failed: it leaves ${violations.length} row(s) violating foreign keys (first: table ${first.table} row ${first.rowid ?? '?'} references missing ${first.parent} row); nothing was applied`,
    migration.name,
  );
}
