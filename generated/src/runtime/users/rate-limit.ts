/**
 * Strapi's rate limit on the sign-in routes: attempts are counted per identifier (the body's
 * `email` or `identifier`), route and address, and past `max` in `interval` the route answers 429.
 * REST routes and their GraphQL mutations count in one store under the REST route's path, so
 * alternating between the two does not double the allowance.
 */
import type { RequestHandler } from 'express';
import { rateLimit, ipKeyGenerator } from 'express-rate-limit';
import type { UsersPermissionsConfig } from '../config.ts';
import type { Queryable } from '../database.ts';
import { RateLimitError, rateLimitStore } from '../rate-limit/index.ts';

export { RateLimitError } from '../rate-limit/index.ts';

/** One sign-in attempt: its body (or GraphQL input), the REST route it counts as, and the caller's address. */
export interface SignInAttempt {
  readonly body: unknown;
  readonly route: string;
  readonly address: string;
}

export interface SignInLimiter {
  /** For a REST route: counts the request under its own path. */
  readonly middleware: RequestHandler;
  /** For a GraphQL mutation: counts the attempt, and throws RateLimitError past the limit. */
  readonly count: (attempt: SignInAttempt) => Promise<void>;
}

/** Counters in the database on PostgreSQL (shared by every process), in memory on SQLite (rate-limit/index.ts). */
export function signInLimiter(config: UsersPermissionsConfig['ratelimit'], db: Queryable): SignInLimiter {
  if (!config.enabled) return { middleware: (_req, _res, next) => next(), count: async () => undefined };
  const store = rateLimitStore(db, 'sign-in', config.intervalMs);
  const middleware = rateLimit({
    windowMs: config.intervalMs,
    limit: config.max,
    standardHeaders: false,
    legacyHeaders: false,
    store,
    keyGenerator: (req) => attemptKey({ body: req.body, route: `${req.baseUrl}${req.path}`, address: req.ip ?? '' }),
    // attemptKey passes the address through ipKeyGenerator (IPv6 /56 blocks); the library's
    // check only sees `req.ip` in this function's source and would warn at every start.
    validate: { keyGeneratorIpFallback: false },
    handler: (_req, _res, next) => next(new RateLimitError()),
  });
  const count = async (attempt: SignInAttempt): Promise<void> => {
    // express-rate-limit refuses a request whose count, this one included, exceeds the limit.
    // The store is the one the middleware initialised, so its window is already set.
    const { totalHits } = await store.increment(attemptKey(attempt));
    if (totalHits > config.max) throw new RateLimitError();
  };
  return { middleware, count };
}

function attemptKey({ body, route, address }: SignInAttempt): string {
  return `${identifierOf(body)}:${route}:${ipKeyGenerator(address)}`;
}

function identifierOf(body: unknown): string {
  if (body === null || typeof body !== 'object') return '';
  const { email, identifier } = body as { email?: unknown; identifier?: unknown };
  const value = typeof email === 'string' && email !== '' ? email : identifier;
  return typeof value === 'string' ? value.toLowerCase() : '';
}
