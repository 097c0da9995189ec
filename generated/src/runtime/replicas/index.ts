/**
 * Read replicas (config/database.json `replicas`, DATABASE_REPLICA_URLS): the server's database
 * becomes a ReplicatedDatabase over the primary and its replicas (routing.ts), every request
 * runs in a read scope opened by the read-your-writes middleware (http.ts), and the replicas are
 * watched by a ReplicaSet (set.ts). Without replicas none of it exists: the server gets the
 * primary itself and no middleware.
 */
import type { RequestHandler } from 'express';
import type { ReplicasConfig } from '../config.ts';
import { DatabaseOpenError, openDatabase, type Database } from '../database.ts';
import type { Logger } from '../logger.ts';
import { readYourWrites } from './http.ts';
import { ReplicatedDatabase } from './routing.ts';
import { ReplicaSet } from './set.ts';

export { READ_AFTER_COOKIE, READ_AFTER_HEADER } from './http.ts';

/**
 * The database the server runs on: `primary` itself without replicas, else one that routes reads
 * to them. Migrations have run on the primary before. Throws DatabaseOpenError where the
 * database has no replica support (MySQL/MariaDB, SQLite): replicas named there are refused
 * rather than ignored. The replicas' pools get the server's statement timeout, as the primary's.
 */
export async function withReplicas(primary: Database, config: ReplicasConfig | undefined, logger: Logger, statementTimeoutMs = 0): Promise<Database> {
  if (config === undefined) return primary;
  const replication = primary.dialect.replication;
  if (replication === undefined) {
    throw new DatabaseOpenError(
      `read replicas (DATABASE_REPLICA_URLS, config/database.json "replicas") are supported on PostgreSQL only, not on ${primary.dialect.kind}: remove them: every statement then goes to the one database`,
    );
  }
  let routed: ReplicatedDatabase | undefined;
  const set = new ReplicaSet({
    primary,
    replication,
    servers: config.servers,
    maxLagMs: config.maxLagMs,
    checkIntervalMs: config.checkIntervalMs,
    logger,
    open: async (server) => {
      const db = await openDatabase(server, {
        onBackgroundError: (error) => logger.warn({ err: error }, `read replica ${server.label}: idle connection failed`),
        onWarning: (message) => logger.warn(`read replica: ${message}`),
        statementTimeoutMs,
      });
      routed?.forward(db);
      return db;
    },
  });
  routed = new ReplicatedDatabase(primary, set, replication);
  await set.start();
  return routed;
}

/** The middlewares a request passes for `db`: the read scope with replicas, none without. */
export function replicaMiddlewares(db: Database, config: ReplicasConfig | undefined): RequestHandler[] {
  if (!(db instanceof ReplicatedDatabase) || config === undefined) return [];
  return [readYourWrites({ replication: db.replication, keepMs: config.maxLagMs + 2 * config.checkIntervalMs })];
}

/** The primary under `db` (itself without replicas): for state every request both reads and writes, like rate-limit counters. */
export function primaryOf(db: Database): Database {
  return db instanceof ReplicatedDatabase ? db.primary : db;
}
