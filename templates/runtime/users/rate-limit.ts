/**
 * Strapi's rate limit on the sign-in routes: attempts are counted per identifier (the body's
 * `email` or `identifier`), path and address, and past `max` in `interval` the route answers 429.
 */
import type { RequestHandler } from 'express';
import { rateLimit, ipKeyGenerator } from 'express-rate-limit';
import { HttpError } from '../errors.ts';
import type { UsersPermissionsConfig } from '../config.ts';

export class RateLimitError extends HttpError {
  override readonly name = 'RateLimitError';
  readonly status = 429;
  constructor() {
    super('Too many requests, please try again later.');
  }
}

export function signInRateLimit(config: UsersPermissionsConfig['ratelimit']): RequestHandler {
  if (!config.enabled) return (_req, _res, next) => next();
  return rateLimit({
    windowMs: config.intervalMs,
    limit: config.max,
    standardHeaders: false,
    legacyHeaders: false,
    keyGenerator: (req) => `${identifierOf(req.body)}:${req.baseUrl}${req.path}:${ipKeyGenerator(req.ip ?? '')}`,
    handler: (_req, _res, next) => next(new RateLimitError()),
  });
}

function identifierOf(body: unknown): string {
  if (body === null || typeof body !== 'object') return '';
  const { email, identifier } = body as { email?: unknown; identifier?: unknown };
  const value = typeof email === 'string' && email !== '' ? email : identifier;
  return typeof value === 'string' ? value.toLowerCase() : '';
}
