/**
 * `Database.poolStats()`, which capi_db_pool_* report, on the three real databases: a reserved
 * connection is in use, a caller past the pool's size waits, and both are idle again after.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, createServerDatabase } from '../../../test/support/databases.ts';
import type { TestDatabase } from '../../../test/support/postgres.ts';
import type { DatabaseConfig } from '../config.ts';
import { openDatabase, type Database } from '../database.ts';

const dir = mkdtempSync(join(tmpdir(), 'capi-pool-'));
let pgDatabase: TestDatabase;
let myDatabase: TestDatabase;

beforeAll(async () => {
  [pgDatabase, myDatabase] = await Promise.all([createServerDatabase('postgres', 'capi_pooltest'), createServerDatabase('mysql', 'capi_pooltest')]);
});

afterAll(async () => {
  await Promise.all([pgDatabase?.drop(), myDatabase?.drop()]);
  rmSync(dir, { recursive: true, force: true });
});

/** Pools of two: the third caller waits. */
const configs: Record<(typeof clients)[number], () => DatabaseConfig> = {
  sqlite: () => ({ client: 'sqlite', filename: join(dir, 'pool.db'), label: 'pool.db' }),
  postgres: () => ({ client: 'postgres', url: pgDatabase.url, label: pgDatabase.name, pool: { max: 2 } }),
  mysql: () => ({ client: 'mysql', url: myDatabase.url, label: myDatabase.name, pool: { max: 2 } }),
};

/** A connection held until `release` is called. */
function hold(db: Database): { taken: Promise<void>; release: () => void; done: Promise<void> } {
  let release = (): void => undefined;
  let taken = (): void => undefined;
  const takenPromise = new Promise<void>((resolve) => (taken = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const done = db.withConnection(async (connection) => {
    await connection.query('SELECT 1');
    taken();
    await released;
  });
  return { taken: takenPromise, release, done };
}

async function until(probe: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !probe(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe.each(clients)('pool stats on %s', (client) => {
  it('counts connections in use, idle and the callers waiting', async () => {
    const db = await openDatabase(configs[client]());
    try {
      const size = client === 'sqlite' ? 1 : 2;
      const quiet = db.poolStats();
      expect(quiet).toMatchObject({ max: size, waiting: 0 });
      expect(quiet.open - quiet.idle).toBe(0);

      const holders = Array.from({ length: size }, () => hold(db));
      await Promise.all(holders.map((h) => h.taken));
      const busy = db.poolStats();
      expect(busy.open - busy.idle).toBe(size);
      expect(busy.idle).toBe(0);

      // One more caller than connections: it waits for one.
      const waiter = db.query('SELECT 1');
      await until(() => db.poolStats().waiting === 1);
      expect(db.poolStats().waiting).toBe(1);

      for (const h of holders) h.release();
      await Promise.all([waiter, ...holders.map((h) => h.done)]);
      const after = db.poolStats();
      expect(after).toMatchObject({ waiting: 0, idle: after.open });
      expect(after.open).toBeGreaterThanOrEqual(1);
    } finally {
      await db.close();
    }
  });
});
