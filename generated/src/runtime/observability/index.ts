/**
 * What a server process runs for metrics and traces, as configured (config.ts): the handlers
 * every request passes first, the scrape endpoint on the API port, and what to stop at shutdown.
 * With both off this is an empty list and nothing of prom-client or OpenTelemetry is imported:
 * a request pays nothing for them.
 */
import type { Server } from 'node:http';
import type { RequestHandler } from 'express';
import { isClusterWorker } from '../cluster.ts';
import type { AppConfig, Environment } from '../config.ts';
import type { Database } from '../database.ts';
import type { Logger } from '../logger.ts';
import { tracingFromEnv } from './config.ts';
import { closeServer, listenForScrapes, scrapeHandler, type ScrapeHandler } from './endpoint.ts';

export interface Observability {
  /** Run before every other app-wide handler, on every request path. */
  readonly before: readonly RequestHandler[];
  /** The scrape route on the API port, when metrics are served there. */
  readonly endpoint?: { readonly path: string; readonly handler: ScrapeHandler };
  /** Request log lines name the request's trace (middlewares/request-log.ts). */
  readonly traced: boolean;
  close(): Promise<void>;
}

export const noObservability: Observability = { before: [], traced: false, close: async () => undefined };

export interface ObservabilityOptions {
  readonly config: AppConfig;
  readonly db: Database;
  readonly env: Environment;
  readonly logger: Logger;
}

/** Throws ConfigError for OTEL_* values it cannot honour. */
export async function startObservability(options: ObservabilityOptions): Promise<Observability> {
  const { config, db, env, logger } = options;
  const metricsConfig = config.server.metrics;
  const tracingSettings = tracingFromEnv(env);
  if (!metricsConfig.enabled && tracingSettings === undefined) return noObservability;

  const before: RequestHandler[] = [];
  const stops: (() => Promise<void>)[] = [];
  let endpoint: Observability['endpoint'];
  if (tracingSettings !== undefined) {
    const tracing = await (await import('./tracing.ts')).startTracing(tracingSettings, db);
    before.push(tracing.trace);
    stops.push(() => tracing.shutdown());
    logger.info(`traces: sent by ${tracingSettings.exporter}`);
  }
  if (metricsConfig.enabled) {
    const metrics = (await import('./metrics.ts')).createMetrics({ db, webhooks: config.webhooks.map((webhook) => webhook.name) });
    before.push(metrics.observe);
    // In a worker the scrape is everyone's, asked of the primary, which also owns `port`.
    const source = isClusterWorker() ? (await import('./cluster-metrics.ts')).relayedScrape(metrics.contentType) : metrics;
    const handler = scrapeHandler(source, metricsConfig.token, logger);
    if (metricsConfig.port === undefined) endpoint = { path: metricsConfig.path, handler };
    else if (!isClusterWorker()) {
      const server: Server = await listenForScrapes({ ...metricsConfig, port: metricsConfig.port }, config.server.host, handler);
      stops.push(() => closeServer(server));
      logger.info(`metrics on http://${metricsConfig.host ?? config.server.host}:${metricsConfig.port}${metricsConfig.path}`);
    }
  }
  return {
    before,
    ...(endpoint === undefined ? {} : { endpoint }),
    traced: tracingSettings !== undefined,
    close: async () => {
      for (const stop of stops) await stop();
    },
  };
}
