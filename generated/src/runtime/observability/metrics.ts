/**
 * Prometheus metrics of one server process (prom-client), loaded only when config/server.json
 * enables them (observability/index.ts):
 * - capi_http_requests_total and capi_http_request_duration_seconds by method, route (the route
 *   as declared, route.ts: a bounded label) and status, on the Express and the direct path alike;
 * - capi_db_statements_total by kind and outcome, capi_db_statement_duration_seconds;
 * - capi_db_pool_connections by state (in_use, idle), capi_db_pool_waiting, capi_db_pool_max,
 *   read from the driver at each scrape;
 * - capi_webhook_deliveries by webhook and state (pending, failed): the outbox's backlog, counted
 *   at each scrape;
 * - prom-client's process and Node.js metrics (CPU, memory, event loop delay, GC).
 * Under `--workers` each worker keeps its own and the primary sums them at a scrape
 * (cluster-metrics.ts); the backlog, one table seen by every worker, is reported once (`max`).
 */
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { AggregatorRegistry, Counter, Gauge, Histogram, collectDefaultMetrics, type Registry } from 'prom-client';
import type { Database, QueryEvent } from '../database.ts';
import { webhookBacklog, type BacklogState } from '../webhooks/backlog.ts';
import { routeOf } from './route.ts';

export interface Metrics {
  /** Counts and times every request; the first of the app-wide handlers. */
  readonly observe: RequestHandler;
  /** This process' metrics in Prometheus' text format. */
  scrape(): Promise<string>;
  readonly contentType: string;
}

export interface MetricsOptions {
  readonly db: Database;
  /** The configured webhooks' names: each reported, at 0 when it has no backlog. */
  readonly webhooks: readonly string[];
}

/** Methods by name; anything else one label, so a client cannot make up label values. */
const knownMethods: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Seconds: the small reads of a content API take around a millisecond. */
const requestBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const statementBuckets = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

const backlogStates: readonly BacklogState[] = ['pending', 'failed'];

export function createMetrics(options: MetricsOptions): Metrics {
  const { db } = options;
  // An AggregatorRegistry answers the primary's requests for this worker's metrics (a plain
  // Registry otherwise: the constructor adds the IPC listener only inside a cluster worker).
  const registry: Registry = new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
  collectDefaultMetrics({ register: registry });

  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'capi_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status', labelNames, registers: [registry] });
  const durations = new Histogram({
    name: 'capi_http_request_duration_seconds',
    help: 'Time from a request arriving to its response ending',
    labelNames,
    buckets: requestBuckets,
    registers: [registry],
  });
  const observe: RequestHandler = (req, res, next) => {
    const start = performance.now();
    res.once('close', () => {
      const labels = { method: methodLabel(req), route: routeOf(req), status: res.writableFinished ? String(res.statusCode) : 'aborted' };
      requests.inc(labels);
      durations.observe(labels, (performance.now() - start) / 1000);
    });
    next();
  };

  const statements = new Counter({ name: 'capi_db_statements_total', help: 'SQL statements run, by kind (query, execute, exec) and outcome', labelNames: ['kind', 'outcome'], registers: [registry] });
  const statementDurations = new Histogram({ name: 'capi_db_statement_duration_seconds', help: 'Time one SQL statement took', buckets: statementBuckets, registers: [registry] });
  db.onQuery((event: QueryEvent) => {
    statements.inc({ kind: event.kind, outcome: event.error === undefined ? 'ok' : 'error' });
    statementDurations.observe(event.durationMs / 1000);
  });

  new Gauge({
    name: 'capi_db_pool_connections',
    help: 'Database connections open, by state (in_use, idle)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const stats = db.poolStats();
      this.set({ state: 'in_use' }, stats.open - stats.idle);
      this.set({ state: 'idle' }, stats.idle);
    },
  });
  new Gauge({
    name: 'capi_db_pool_waiting',
    help: 'Callers waiting for a database connection',
    registers: [registry],
    collect() {
      this.set(db.poolStats().waiting);
    },
  });
  new Gauge({
    name: 'capi_db_pool_max',
    help: 'Most database connections the pool opens',
    registers: [registry],
    collect() {
      this.set(db.poolStats().max);
    },
  });
  new Gauge({
    name: 'capi_webhook_deliveries',
    help: 'Webhook deliveries not yet made, by webhook and state (pending: due or awaiting a retry; failed: given up)',
    labelNames: ['webhook', 'state'],
    // Every worker counts the same table.
    aggregator: 'max',
    registers: [registry],
    async collect() {
      const counts = await webhookBacklog(db);
      this.reset();
      for (const webhook of options.webhooks) for (const state of backlogStates) this.set({ webhook, state }, 0);
      for (const count of counts) this.set({ webhook: count.webhook, state: count.state }, count.count);
    },
  });

  return { observe, scrape: () => registry.metrics(), contentType: registry.contentType };
}

function methodLabel(req: IncomingMessage): string {
  const method = req.method ?? 'GET';
  return knownMethods.has(method) ? method : 'OTHER';
}
