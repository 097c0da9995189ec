/**
 * Metrics under `--workers`: every worker keeps its own (metrics.ts), and a scrape must see them
 * all, whichever process it reaches. The primary sums them with prom-client's AggregatorRegistry,
 * which asks each worker over the cluster's IPC channel; a scrape reaching a worker on the API
 * port is relayed to the primary the same way, and the primary serves `metrics.port` itself.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Server } from 'node:http';
import type { Logger } from '../logger.ts';
import type { MetricsConfig } from './config.ts';
import { closeServer, listenForScrapes, scrapeHandler, type ScrapeSource } from './endpoint.ts';

const REQUEST = 'capi:metrics-request';
const RESPONSE = 'capi:metrics-response';
/** Longer than prom-client's own wait for the workers (5 s), so its error arrives first. */
const relayTimeoutMs = 10_000;

interface RelayRequest {
  readonly type: typeof REQUEST;
  readonly id: number;
}

interface RelayResponse {
  readonly type: typeof RESPONSE;
  readonly id: number;
  readonly text?: string;
  readonly error?: string;
}

function isMessage<T extends { type: string }>(message: unknown, type: T['type']): message is T {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;
}

/** In the primary: answers workers' relayed scrapes and listens on `metrics.port`. Returns its stop. */
export async function startClusterMetrics(config: MetricsConfig, host: string, logger: Logger): Promise<() => Promise<void>> {
  const { AggregatorRegistry } = await import('prom-client');
  const aggregator = new AggregatorRegistry();
  const source: ScrapeSource = { scrape: () => aggregator.clusterMetrics(), contentType: aggregator.contentType };
  const onMessage = (worker: Worker, message: unknown): void => {
    if (!isMessage<RelayRequest>(message, REQUEST)) return;
    const reply = (answer: Omit<RelayResponse, 'type' | 'id'>): void => {
      if (worker.isConnected()) worker.send({ type: RESPONSE, id: message.id, ...answer });
    };
    source.scrape().then(
      (text) => reply({ text }),
      (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }),
    );
  };
  cluster.on('message', onMessage);
  let server: Server | undefined;
  if (config.port !== undefined) {
    server = await listenForScrapes({ ...config, port: config.port }, host, scrapeHandler(source, config.token, logger));
    logger.info(`metrics of all workers on http://${config.host ?? host}:${config.port}${config.path}`);
  }
  return async () => {
    cluster.off('message', onMessage);
    if (server !== undefined) await closeServer(server);
  };
}

/** In a worker: the scrape of every worker, asked of the primary. */
export function relayedScrape(contentType: string): ScrapeSource {
  let next = 0;
  const scrape = (): Promise<string> =>
    new Promise((resolve, reject) => {
      const id = next++;
      const onMessage = (message: unknown): void => {
        if (!isMessage<RelayResponse>(message, RESPONSE) || message.id !== id) return;
        done();
        if (message.text !== undefined) resolve(message.text);
        else reject(new Error(`the primary could not collect the workers' metrics: ${message.error ?? 'no answer'}`));
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error('the primary did not answer a metrics scrape'));
      }, relayTimeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        process.off('message', onMessage);
      };
      process.on('message', onMessage);
      process.send?.({ type: REQUEST, id } satisfies RelayRequest);
    });
  return { scrape, contentType };
}
