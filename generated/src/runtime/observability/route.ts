/**
 * The route a request was answered by, as declared (`/api/articles/:id`), never the URL itself:
 * metrics label by it and span names carry it, and a label taking every URL a client sends would
 * grow without bound. Express leaves the matched route in `req.route` (its path below the
 * router's mount point, `req.baseUrl`); the direct path (direct.ts) sets the same with the full path.
 */
import type { IncomingMessage } from 'node:http';

/** A request no route matched (a 404, a static file, a middleware's own answer). */
export const UNMATCHED_ROUTE = '(unmatched)';

export function routeOf(req: IncomingMessage): string {
  const { route, baseUrl } = req as IncomingMessage & { route?: { path?: unknown }; baseUrl?: string };
  const base = baseUrl ?? '';
  if (typeof route?.path === 'string') return `${base}${route.path}`;
  // A handler mounted on a path (app.use('/graphql', handler)) has no route of its own.
  return base === '' ? UNMATCHED_ROUTE : base;
}
