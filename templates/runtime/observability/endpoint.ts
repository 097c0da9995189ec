/**
 * The scrape endpoint: GET `path` answers the metrics in Prometheus' text format, behind a bearer
 * token when METRICS_TOKEN is set. The same handler serves on the API port (an Express route)
 * and on a listener of its own (config/server.json `metrics.port`).
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Response } from 'express';
import { envelope, NotFoundError, UnauthorizedError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { sendJson } from '../send.ts';
import type { MetricsConfig } from './config.ts';

/** Where a scrape's text comes from: this process, or the primary that sums its workers. */
export interface ScrapeSource {
  scrape(): Promise<string>;
  readonly contentType: string;
}

export type ScrapeHandler = (req: IncomingMessage, res: ServerResponse) => void;

export function scrapeHandler(source: ScrapeSource, token: string | undefined, logger: Logger): ScrapeHandler {
  const expected = token === undefined ? undefined : Buffer.from(`Bearer ${token}`);
  return (req, res) => {
    if (expected !== undefined && !sameSecret(req.headers.authorization, expected)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      sendJson(res as Response, 401, envelope(new UnauthorizedError()));
      return;
    }
    source.scrape().then(
      (text) => {
        res.statusCode = 200;
        res.setHeader('Content-Type', source.contentType);
        res.setHeader('Cache-Control', 'no-store');
        res.end(text);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'metrics scrape failed');
        res.statusCode = 503;
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
        res.end('metrics unavailable\n');
      },
    );
  };
}

function sameSecret(given: string | undefined, expected: Buffer): boolean {
  if (given === undefined) return false;
  const bytes = Buffer.from(given);
  return bytes.length === expected.length && timingSafeEqual(bytes, expected);
}

/** A listener answering only GET `config.path` (config/server.json `metrics.port`). */
export function listenForScrapes(config: MetricsConfig & { readonly port: number }, host: string, handler: ScrapeHandler): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if ((req.method === 'GET' || req.method === 'HEAD') && path === config.path) return handler(req, res);
    sendJson(res as Response, 404, envelope(new NotFoundError()));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host ?? host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
