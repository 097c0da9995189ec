/**
 * The replicated database against a real streaming replica of the local PostgreSQL
 * (test/support/replica.ts): which server each statement runs on, counted by each server's own
 * statement listener; read-your-writes by log position, with the replica's replay paused; a
 * replica that falls behind or goes down left out, and taken back once well. MySQL refuses
 * replicas at start-up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerDatabase } from '../../../test/support/databases.ts';
import type { TestDatabase } from '../../../test/support/postgres.ts';
import { startStreamingReplica, type StreamingReplica } from '../../../test/support/replica.ts';
import type { DatabaseConfig, ReplicasConfig } from '../config.ts';
import { DatabaseOpenError, openDatabase, type Database } from '../database.ts';
import { createLogger } from '../logger.ts';
import { primaryOf, withReplicas } from './index.ts';
import { ReplicatedDatabase } from './routing.ts';
import { readScopes, type ReadScope } from './scope.ts';

const logger = createLogger({ level: 'silent' });
let replica: StreamingReplica | undefined;
let database: TestDatabase | undefined;
let primary: Database;
let routed: ReplicatedDatabase;
let replicaDb: Database;
const counts = { primary: 0, replica: 0 };

function replicasConfig(maxLagMs: number): ReplicasConfig {
  const server: DatabaseConfig = { client: 'postgres', url: replica!.url(database!.name), label: `replica/${database!.name}`, pool: { max: 2 } };
  return { servers: [server], maxLagMs, checkIntervalMs: 50 };
}

beforeAll(async () => {
  try {
    replica = await startStreamingReplica();
    database = await createServerDatabase('postgres', 'capi_replicas');
    primary = await openDatabase({ client: 'postgres', url: database.url, label: database.name, pool: { max: 4 } });
    await primary.exec('CREATE TABLE notes (id SERIAL PRIMARY KEY, body TEXT NOT NULL)');
    await replica.catchUp();
    const db = await withReplicas(primary, replicasConfig(600_000), logger);
    if (!(db instanceof ReplicatedDatabase)) throw new Error('withReplicas did not route');
    routed = db;
    replicaDb = routed.replicas.replicas[0]!.db!;
    // The position checks (every 50 ms in the background, and after each write) are left out of the counts.
    const positions = new Set([primary.dialect.replication!.primaryPosition, primary.dialect.replication!.replayedPosition]);
    primary.onQuery((event) => void (positions.has(event.sql) || counts.primary++));
    replicaDb.onQuery((event) => void (positions.has(event.sql) || counts.replica++));
  } catch (error) {
    await cleanUp();
    throw error;
  }
}, 240_000);

async function cleanUp(): Promise<void> {
  await routed?.close().catch(() => undefined);
  try {
    await replica?.destroy();
  } finally {
    await database?.drop();
  }
}

afterAll(cleanUp);

/** A request's read scope, as the read-your-writes middleware opens it; `wrote` collects the positions handed out. */
function scope(floor?: bigint): ReadScope & { positions: string[] } {
  const positions: string[] = [];
  return { floor, target: undefined, wrote: (position) => positions.push(position), positions };
}

/** Statements `fn` ran on each server. */
async function where(fn: () => Promise<unknown>): Promise<{ primary: number; replica: number }> {
  const before = { ...counts };
  await fn();
  return { primary: counts.primary - before.primary, replica: counts.replica - before.replica };
}

/** One more check of the replicas, after a short pause. */
async function settle(set: ReplicatedDatabase['replicas']): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 20));
  await set.check();
}

const lsnOf = (text: string): bigint => primary.dialect.replication!.parsePosition(text)!;

describe('routing', () => {
  it('sends a request’s reads to the replica, and everything outside a request to the primary', async () => {
    await primary.execute('INSERT INTO notes (body) VALUES (?)', ['first']);
    await replica!.catchUp();
    const request = scope();
    let rows: unknown[] = [];
    expect(await where(() => readScopes.run(request, async () => (rows = await routed.query('SELECT body FROM notes ORDER BY id'))))).toEqual({ primary: 0, replica: 1 });
    expect(rows).toEqual([{ body: 'first' }]);
    expect(await where(() => routed.query('SELECT body FROM notes'))).toEqual({ primary: 1, replica: 0 });
  });

  it('sends writes, transactions and the reads after a write to the primary, and hands out its position', async () => {
    const request = scope();
    const ran = await where(() =>
      readScopes.run(request, async () => {
        await routed.execute('INSERT INTO notes (body) VALUES (?)', ['second']);
        await routed.query('SELECT body FROM notes');
        await routed.transaction(async (tx) => tx.query('SELECT count(*) FROM notes'));
      }),
    );
    expect(ran).toEqual({ primary: 3, replica: 0 });
    expect(request.positions).toHaveLength(2);
    expect(lsnOf(request.positions[1]!)).toBeGreaterThanOrEqual(lsnOf(request.positions[0]!));
    // An INSERT ... RETURNING run as a query is a write too.
    const returning = scope();
    expect(await where(() => readScopes.run(returning, () => routed.query('INSERT INTO notes (body) VALUES (?) RETURNING id', ['third'])))).toEqual({ primary: 1, replica: 0 });
    expect(returning.positions).toHaveLength(1);
  });

  it('reads a write back from the primary while the replica has not replayed it, and from the replica once it has', async () => {
    await replica!.pauseReplay();
    try {
      const writer = scope();
      await readScopes.run(writer, () => routed.execute('INSERT INTO notes (body) VALUES (?)', ['while paused']));
      const position = lsnOf(writer.positions[0]!);
      // The next request of the same client brings the position: the replica is asked how far it is, and the primary answers.
      let seen: { body: string }[] = [];
      const reader = scope(position);
      expect(await where(() => readScopes.run(reader, async () => (seen = await routed.query<{ body: string }>('SELECT body FROM notes WHERE body = ?', ['while paused']))))).toEqual({
        primary: 1,
        replica: 0,
      });
      expect(seen).toHaveLength(1);
      // A request without a position reads the replica, which does not have the row yet.
      const anonymous = scope();
      await readScopes.run(anonymous, async () => (seen = await routed.query<{ body: string }>('SELECT body FROM notes WHERE body = ?', ['while paused'])));
      expect(seen).toHaveLength(0);
    } finally {
      await replica!.resumeReplay();
    }
    await replica!.catchUp();
    const [last] = await primary.query<{ position: string }>(primary.dialect.replication!.primaryPosition);
    const reader = scope(lsnOf(last!.position));
    expect(await where(() => readScopes.run(reader, () => routed.query('SELECT body FROM notes WHERE body = ?', ['while paused'])))).toEqual({ primary: 0, replica: 1 });
  });

  it('keeps one server for all the reads of a request', async () => {
    const request = scope();
    expect(await where(() => readScopes.run(request, () => Promise.all([routed.query('SELECT 1 AS one'), routed.query('SELECT 2 AS two'), routed.query('SELECT 3 AS three')])))).toEqual({
      primary: 0,
      replica: 3,
    });
  });

  it('gives rate-limit counters the primary itself', () => {
    expect(primaryOf(routed)).toBe(primary);
    expect(primaryOf(primary)).toBe(primary);
  });
});

describe('a replica that falls behind or goes down', () => {
  it('leaves a replica further behind than maxLagMs out, and takes it back once it has caught up', async () => {
    // Other tests write to the same PostgreSQL cluster all the time, so the replica is always a
    // few milliseconds behind some sample: the bound is well above that.
    const strict = await withReplicas(primary, replicasConfig(1000), logger);
    if (!(strict instanceof ReplicatedDatabase)) throw new Error('withReplicas did not route');
    const set = strict.replicas;
    try {
      for (let attempt = 0; attempt < 500 && set.replicas[0]!.health !== 'up'; attempt++) await settle(set);
      expect(set.replicas[0]!.health).toBe('up');
      await replica!.pauseReplay();
      try {
        await primary.execute('INSERT INTO notes (body) VALUES (?)', ['lagging']);
        for (let attempt = 0; attempt < 500 && set.replicas[0]!.health !== 'behind'; attempt++) await settle(set);
        expect(set.replicas[0]!.health).toBe('behind');
        expect(await set.choose(undefined)).toBeUndefined();
        const [row] = await readScopes.run(scope(), () => strict.query<{ n: string }>('SELECT count(*) AS n FROM notes WHERE body = ?', ['lagging']));
        expect(Number(row!.n)).toBe(1);
      } finally {
        await replica!.resumeReplay();
      }
      for (let attempt = 0; attempt < 500 && set.replicas[0]!.health !== 'up'; attempt++) await settle(set);
      expect(set.replicas[0]!.health).toBe('up');
      expect(await set.choose(undefined)).toBe(set.replicas[0]);
    } finally {
      await set.close();
    }
  });

  it('answers from the primary when the replica is stopped, and uses the replica again once it is back', async () => {
    const set = routed.replicas;
    await replica!.stop();
    try {
      // The first read finds the replica's connections cut: it is retried on the primary, never failed.
      const request = scope();
      const rows = await readScopes.run(request, () => routed.query<{ body: string }>('SELECT body FROM notes WHERE body = ?', ['first']));
      expect(rows).toEqual([{ body: 'first' }]);
      expect(set.replicas[0]!.health).toBe('down');
      expect(await where(() => readScopes.run(scope(), () => routed.query('SELECT 1 AS one')))).toEqual({ primary: 1, replica: 0 });
    } finally {
      await replica!.start();
    }
    for (let attempt = 0; attempt < 500 && set.replicas[0]!.health !== 'up'; attempt++) await settle(set);
    expect(set.replicas[0]!.health).toBe('up');
    expect(await where(() => readScopes.run(scope(), () => routed.query('SELECT 1 AS one')))).toEqual({ primary: 0, replica: 1 });
  });
});

describe('databases without replica support', () => {
  it('refuses replicas on MySQL/MariaDB at start-up instead of ignoring them', async () => {
    const mysql = await createServerDatabase('mysql', 'capi_replicas');
    const db = await openDatabase({ client: 'mysql', url: mysql.url, label: mysql.name, pool: { max: 1 } });
    try {
      const config: ReplicasConfig = { servers: [{ client: 'mysql', url: mysql.url, label: 'replica', pool: { max: 1 } }], maxLagMs: 1000, checkIntervalMs: 100 };
      await expect(withReplicas(db, config, logger)).rejects.toThrow(DatabaseOpenError);
      await expect(withReplicas(db, config, logger)).rejects.toThrow(/read replicas .* are supported on PostgreSQL only, not on mysql/);
      expect(await withReplicas(db, undefined, logger)).toBe(db);
    } finally {
      await db.close();
      await mysql.drop();
    }
  });
});
