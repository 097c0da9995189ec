/**
 * Liveness and readiness, apart, for orchestrators and load balancers:
 *
 * - `GET /_health`, liveness: the process serves. It asks nothing of the database, so that a
 *   database outage does not make an orchestrator restart every process (a restart fixes none).
 * - `GET /_ready`, readiness: the process should get traffic. It runs a statement with a
 *   parameter the way requests run theirs (a prepared statement on PostgreSQL and MySQL), so it
 *   fails when the requests' statements would, and answers 503 from the moment shutdown begins,
 *   while requests in flight still finish (server.ts' drain).
 */
import type { Express } from 'express';
import { clusterWorker } from './cluster.ts';
import type { Database } from './database.ts';
import type { Logger } from './logger.ts';

/** Whether the process still takes traffic; shutdown turns it off once, for good. */
export class Readiness {
  #draining = false;

  get draining(): boolean {
    return this.#draining;
  }

  drain(): void {
    this.#draining = true;
  }
}

/** The statement readiness runs: one bound value, prepared as request statements are. */
const readinessStatement = 'SELECT ? AS ready';

export function mountProbes(app: Express, db: Database, logger: Logger, readiness: Readiness): void {
  app.get('/_health', (_req, res) => {
    // Under `--workers`, which process answered (cluster.ts): how a deployment sees them all.
    res.json({ status: 'ok', database: db.dialect.kind, ...clusterWorker() });
  });

  app.get('/_ready', async (_req, res) => {
    if (readiness.draining) {
      res.status(503).json({ status: 'draining', database: db.dialect.kind, ...clusterWorker() });
      return;
    }
    try {
      await db.query(readinessStatement, [1]);
      res.json({ status: 'ready', database: db.dialect.kind, ...clusterWorker() });
    } catch (error) {
      logger.error({ err: error }, 'readiness check: the database does not answer');
      res.status(503).json({ status: 'unavailable', database: db.dialect.kind, ...clusterWorker() });
    }
  });
}
