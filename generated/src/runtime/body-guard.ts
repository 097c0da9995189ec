/**
 * Checks on every parsed JSON body before any handler sees it: a nesting depth limit (deeper
 * values would overflow the stack of every recursive walk after this one: validation, JSON
 * serialization, GraphQL input coercion) and no NUL character in any key or string (no column
 * can store one, see column-domains.ts). Both are 400s naming what is wrong.
 */
import type { RequestHandler } from 'express';
import { jsonDepthExceeds, nulPath } from './column-domains.ts';
import { ValidationError } from './errors.ts';

export const JSON_BODY_LIMITS = {
  /** Nested objects and arrays, the body itself included: `{"data":{"specs":{...}}}` is 3 deep at `specs`' content. */
  depth: 100,
} as const;

export const jsonBodyGuard: RequestHandler = (req, _res, next) => {
  const body: unknown = (req as { body?: unknown }).body;
  if (typeof body !== 'object' || body === null) return next();
  next(bodyProblem(body));
};

/** The 400 for a parsed body, or undefined when it passes. */
export function bodyProblem(body: unknown): ValidationError | undefined {
  if (jsonDepthExceeds(body, JSON_BODY_LIMITS.depth)) {
    return new ValidationError(`Invalid request body: nested deeper than ${JSON_BODY_LIMITS.depth} levels`, { limit: JSON_BODY_LIMITS.depth });
  }
  const path = nulPath(body);
  if (path === undefined) return undefined;
  const where = path.map(String);
  const message = `${where.join('.')} must be text without NUL (\\u0000) characters`;
  return ValidationError.of(message, [{ path: where, message, name: 'ValidationError' }]);
}
