/**
 * Counts the SQL statements each HTTP request causes and reports them in an `X-Query-Count`
 * response header. Off by default; `CAPI_QUERY_COUNT=1` turns it on for tests and benchmarks,
 * which assert and report queries per request. Requests run concurrently, so the count is kept
 * per request in AsyncLocalStorage rather than read off the database's global counter.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestHandler } from 'express';
import type { Database } from './database.ts';

export const QUERY_COUNT_HEADER = 'X-Query-Count';

export function queryCounter(db: Database): RequestHandler {
  const current = new AsyncLocalStorage<{ count: number }>();
  db.onQuery(() => {
    const counter = current.getStore();
    if (counter) counter.count++;
  });
  return (_req, res, next) => {
    const counter = { count: 0 };
    // Headers go out with the first byte of the body, by which time every query has run.
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => typeof res;
    res.writeHead = ((...args: unknown[]) => {
      if (!res.headersSent) res.setHeader(QUERY_COUNT_HEADER, String(counter.count));
      return writeHead(...args);
    }) as typeof res.writeHead;
    current.run(counter, () => next());
  };
}
