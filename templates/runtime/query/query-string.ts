/**
 * The query string in Strapi's bracket notation, parsed by `qs` with every limit explicit and
 * enforced: past a limit the request is a 400, never a silently different query (by default qs
 * turns an array of more than 20 items into an object, and cuts deeper nesting into a string key).
 */
import qs from 'qs';
import { nulPath } from '../column-domains.ts';
import { ValidationError } from '../errors.ts';

/** Strapi's `strapi::query` defaults; config/middlewares.json may change them (setQueryLimits). */
export const QUERY_LIMITS = {
  /** Nesting of brackets: `populate[a][populate][b][populate][c]...` */
  depth: 20,
  /** Highest array index, e.g. `filters[$or][99]`. */
  arrayLimit: 100,
  /** Number of `key=value` pairs. */
  parameterLimit: 1000,
} as const;

export interface QueryLimits {
  readonly depth: number;
  readonly arrayLimit: number;
  readonly parameterLimit: number;
}

/** The limits in force: one per process, as Strapi's query parser is one per app. */
let limits: QueryLimits = QUERY_LIMITS;

/** Applies `strapi::query`'s options (config/middlewares.json) at start-up. */
export function setQueryLimits(next: QueryLimits): void {
  limits = { depth: next.depth, arrayLimit: next.arrayLimit, parameterLimit: next.parameterLimit };
}

const OPTIONS = {
  strictDepth: true,
  throwOnLimitExceeded: true,
  allowDots: false,
  // Objects without a prototype: a key like `constructor` or `__proto__` is data, never a path
  // into Object.prototype.
  plainObjects: true,
  allowPrototypes: false,
  ignoreQueryPrefix: true,
} as const;

export function parseQueryString(search: string): Record<string, unknown> {
  let parsed: Record<string, unknown>;
  try {
    parsed = qs.parse(search, { ...OPTIONS, ...limits });
  } catch (error) {
    throw new ValidationError(limitMessage(error), { source: 'query' });
  }
  refuseNul(parsed);
  return parsed;
}

/** No key or value may hold a NUL: no column can store or compare one (column-domains.ts). */
function refuseNul(parsed: Record<string, unknown>): void {
  const path = nulPath(parsed);
  if (path === undefined) return;
  const [param = '', ...rest] = path.map(String);
  const name = `${param}${rest.map((key) => `[${key}]`).join('')}`;
  throw new ValidationError(`Invalid value for ${JSON.stringify(name)}: expected text without NUL (\\u0000) characters`, {
    source: 'query',
    param,
    path: name,
  });
}

function limitMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : '';
  if (/parameter limit/i.test(text)) return `Invalid query string: more than ${limits.parameterLimit} parameters`;
  if (/array limit/i.test(text)) return `Invalid query string: an array has more than ${limits.arrayLimit} items`;
  if (/depth/i.test(text)) return `Invalid query string: brackets nested deeper than ${limits.depth} levels`;
  return 'Invalid query string';
}
