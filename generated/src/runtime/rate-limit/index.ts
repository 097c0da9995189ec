/**
 * Rate limits: the 429 in Strapi's envelope, the store counters live in, and the limits per route
 * group of config/rate-limit.json.
 *
 * Where the counters live decides what "the limit" means with several processes: on PostgreSQL
 * they are rows of one table (postgres-store.ts), shared by every process serving the database;
 * on SQLite, which is served by one process, they stay in memory.
 */
import type { RequestHandler } from 'express';
import { ipKeyGenerator, MemoryStore, rateLimit, type Options, type Store } from 'express-rate-limit';
import type { DatabaseKind, Queryable } from '../database.ts';
import { HttpError } from '../errors.ts';
import { strapiError } from '../graphql/errors.ts';
import { sendJson } from '../send.ts';
import type { RateLimitGroup, RateLimitRule, RateLimitsConfig } from './config.ts';
import { PostgresRateLimitStore } from './postgres-store.ts';

export class RateLimitError extends HttpError {
  override readonly name = 'RateLimitError';
  readonly status = 429;
  constructor() {
    super('Too many requests, please try again later.');
  }
}

/**
 * A counter store for one limiter. `prefix` keeps limiters apart in the shared table, and the
 * window length is part of it: rows outlive restarts, and a window changed in the config must not
 * inherit counts (and reset times) of the old one.
 */
export function rateLimitStore(db: Queryable, prefix: string, windowMs: number): Store {
  return counterStores[db.dialect.kind](db, { prefix: `${prefix}:${windowMs}:`, windowMs });
}

/**
 * A counter for callers that are not Express middlewares (sign-in counts once it knows the
 * account): `count(key)` adds one hit and answers the hits of the key's current window.
 */
export function attemptCounter(db: Queryable, prefix: string, windowMs: number): (key: string) => Promise<number> {
  const store = rateLimitStore(db, prefix, windowMs);
  // rateLimit() would initialise the store; the stores here read only the window from the options.
  void store.init?.({ windowMs } as Options);
  return async (key) => (await store.increment(key)).totalHits;
}

/**
 * Where each database keeps the counters: in memory where one process serves the database, in a
 * table shared by every process where several may (`Dialect.capabilities.sharedByProcesses`).
 */
const counterStores: Readonly<Record<DatabaseKind, (db: Queryable, options: { readonly prefix: string; readonly windowMs: number }) => Store>> = {
  sqlite: () => new MemoryStore(),
  postgres: (db, options) => new PostgresRateLimitStore(db, options),
  // Several processes may serve MySQL, but no MySQL store exists yet: counters are per process (docs/deployment.md).
  mysql: () => new MemoryStore(),
};

/**
 * Which requests each group counts, by their path as routing sees it (`routedPath`). Sign-in
 * routes are users-permissions' own limiter.
 */
const groupOf: Readonly<Record<RateLimitGroup, (method: string, path: string) => boolean>> = {
  upload: (method, path) => method === 'POST' && /^\/(api\/)?upload$/.test(path),
  graphql: (_method, path) => path === '/graphql' || path.startsWith('/graphql/'),
  rest: (method, path) => path.startsWith('/api/') && !groupOf.upload(method, path),
};

/**
 * A path as Express' router matches it: case-insensitively and with or without trailing
 * slashes. Every spelling that reaches a route must count where the route's own spelling does.
 */
function routedPath(path: string): string {
  const lower = path.toLowerCase();
  const trimmed = lower.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

function groupMatches(group: RateLimitGroup, method: string, path: string): boolean {
  return groupOf[group](method, routedPath(path));
}

/** Whether a request to `path` counts against an enabled limit (direct.ts leaves those routes to Express' limiter). */
export function isRateLimited(config: RateLimitsConfig, method: string, path: string): boolean {
  return (Object.keys(config) as RateLimitGroup[]).some((group) => config[group].enabled && groupMatches(group, method, path));
}

/** The limits of config/rate-limit.json, one limiter per enabled group, each answering 429 past its `max`. */
export function routeGroupLimits(config: RateLimitsConfig, db: Queryable): RequestHandler {
  const limiters = (Object.keys(config) as RateLimitGroup[]).filter((group) => config[group].enabled).map((group) => ({ group, handler: groupLimiter(group, config[group], db) }));
  if (limiters.length === 0) return (_req, _res, next) => next();
  return (req, res, next) => {
    const found = limiters.find(({ group }) => groupMatches(group, req.method, req.path));
    if (found === undefined) return next();
    found.handler(req, res, next);
  };
}

function groupLimiter(group: RateLimitGroup, rule: RateLimitRule, db: Queryable): RequestHandler {
  return rateLimit({
    windowMs: rule.intervalMs,
    limit: rule.max,
    standardHeaders: 'draft-6',
    legacyHeaders: false,
    store: rateLimitStore(db, group, rule.intervalMs),
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? ''),
    // The GraphQL group answers in GraphQL's shape (Strapi's error in `extensions`), the others in Strapi's envelope.
    handler: (_req, res, next) => {
      if (group !== 'graphql') return next(new RateLimitError());
      const { message, extensions } = strapiError(new RateLimitError());
      sendJson(res, 429, { errors: [{ message, extensions }] });
    },
  });
}
