/**
 * The direct path: the content API's hot routes (REST reads, GraphQL POSTs) answered by a bare
 * node:http request listener instead of Express. Profiles of the benchmark shapes show Express'
 * router (a regular expression per layer, `parseurl` on every `req.path`), its request/response
 * prototypes and the async-context hops between layers costing a noticeable share of a small
 * request (docs/benchmarks.md); none of it is needed to run a route known at start-up.
 *
 * A route is looked up in one Map by method and path (`GET /api/articles`, or `GET
 * /api/articles/:` for a trailing parameter), then the same connect-style handlers as on the
 * Express path run in the same order: the request id, the middlewares of config/middlewares.json,
 * the URL and body checks, the route's own chain. What the table does not hold exactly (another
 * method, a trailing slash, other letter case, HEAD, OPTIONS, every other path) goes to Express,
 * whose answer for it is unchanged; so the direct path only ever answers requests Express would
 * have routed to the same handlers, and its answers are the same bytes (test/http/direct.test.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { NotFoundError } from './errors.ts';

/** A route the server answers without Express; `path` may end in one `:name` parameter. */
export interface DirectRoute {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** Run in order, connect-style; the last one answers. */
  readonly handlers: readonly RequestHandler[];
  /**
   * No code of the project runs on the request (a core action alone): the app-wide handlers only
   * project code needs (`DirectOptions.forProjectCode`) are skipped.
   */
  readonly bare?: boolean;
}

interface Entry {
  readonly handlers: readonly RequestHandler[];
  /** The app-wide handlers this route runs first. */
  readonly before: readonly RequestHandler[];
  /** The trailing parameter's name, for `req.params`. */
  readonly param: string | undefined;
  /** Express' `req.route` of the route: its path as declared (`/api/articles/:id`), what metrics and traces name it by. */
  readonly route: { readonly path: string };
}

export interface DirectOptions {
  /** Everything else. */
  readonly fallback: (req: IncomingMessage, res: ServerResponse) => void;
  /** The app-wide handlers before any route (request id, middlewares, checks), in Express' order. */
  readonly before: readonly RequestHandler[];
  /** Those of `before` whose work only the project's code sees (a session): bare routes skip them. */
  readonly forProjectCode?: ReadonlySet<RequestHandler>;
  /** Express' last handler: Strapi's error envelope. */
  readonly onError: ErrorRequestHandler;
  /** `req.ip` as Express computes it (config/server.json `proxy`: the client's address from X-Forwarded-For). */
  readonly trustProxy: boolean;
}

/** A request listener answering `routes` directly and everything else through `fallback`. */
export function directListener(routes: readonly DirectRoute[], options: DirectOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const table = new Map<string, Entry>();
  const bareBefore = options.before.filter((handler) => options.forProjectCode?.has(handler) !== true);
  for (const route of routes) {
    const last = route.path.lastIndexOf('/');
    const tail = route.path.slice(last + 1);
    const parameter = tail.startsWith(':');
    const key = `${route.method} ${parameter ? `${route.path.slice(0, last)}/:` : route.path}`;
    // The first route for a key wins, as the first matching Express route would.
    if (!table.has(key))
      table.set(key, { handlers: route.handlers, before: route.bare === true ? bareBefore : options.before, param: parameter ? tail.slice(1) : undefined, route: { path: route.path } });
  }
  if (table.size === 0) return options.fallback;
  const { fallback, onError, trustProxy } = options;
  return (req, res) => {
    const url = req.url ?? '/';
    const question = url.indexOf('?');
    const path = question === -1 ? url : url.slice(0, question);
    const method = req.method ?? 'GET';
    let entry = table.get(`${method} ${path}`);
    let param: string | undefined;
    if (entry === undefined) {
      const slash = path.lastIndexOf('/');
      if (slash <= 0 || slash === path.length - 1) return fallback(req, res);
      entry = table.get(`${method} ${path.slice(0, slash)}/:`);
      if (entry === undefined) return fallback(req, res);
      param = path.slice(slash + 1);
    }
    const request = decorate(req, res, url, path, entry.route, trustProxy);
    const response = res as Response;
    const fail = (error: unknown): void => {
      void onError(error, request, response, () => undefined);
    };
    const answer = (): void => {
      if (entry.param !== undefined && param !== undefined) {
        // Decoded as Express decodes a parameter; wellEncodedPath refused a malformed one before.
        request.params = { [entry.param]: decodeURIComponent(param) };
      }
      // A chain that calls next() past its end would reach Express' 404 handler: the same answer.
      run(entry.handlers, request, response, () => fail(new NotFoundError()), fail);
    };
    run(entry.before, request, response, answer, fail);
  };
}

/**
 * What the handlers read of Express' request besides Node's own: the URL as received, the path,
 * the route parameters and the client's address; and the matched route, as Express' `req.route`
 * (its full path here, where Express splits it into `req.baseUrl` and `req.route.path`). Plain
 * own properties, set once; no prototype swap, no getters re-parsing the URL on every read.
 */
function decorate(req: IncomingMessage, res: ServerResponse, url: string, path: string, route: { readonly path: string }, trustProxy: boolean): Request {
  const request = req as IncomingMessage & { originalUrl: string; path: string; params: Record<string, string>; route: { readonly path: string }; ip: string | undefined; res: ServerResponse };
  request.originalUrl = url;
  request.path = path;
  request.params = {};
  request.route = route;
  request.ip = clientAddress(req, trustProxy);
  request.res = res;
  return request as unknown as Request;
}

/**
 * Express' `req.ip`: the socket's peer, or with `trust proxy` on (every hop trusted) the leftmost
 * address of X-Forwarded-For, the one the first proxy saw.
 */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string | undefined {
  const peer = req.socket.remoteAddress;
  if (!trustProxy) return peer;
  const forwarded = req.headers['x-forwarded-for'];
  if (typeof forwarded !== 'string') return peer;
  const first = forwarded.split(',')[0]?.trim();
  return first === undefined || first === '' ? peer : first;
}

/**
 * Runs connect-style handlers in order, as an Express router runs layers: `next()` goes on,
 * `next(error)` (or a throw, or a rejected promise) goes to `fail`, after the last one `done`.
 */
export function run(handlers: readonly RequestHandler[], req: Request, res: Response, done: () => void, fail: (error: unknown) => void): void {
  let index = 0;
  const next = (error?: unknown): void => {
    if (error !== undefined && error !== null && error !== false) return fail(error);
    const handler = handlers[index++];
    if (handler === undefined) return done();
    try {
      const returned: unknown = handler(req, res, next);
      if (returned instanceof Promise) returned.catch((rejected: unknown) => fail(rejected ?? new Error('Rejected promise')));
    } catch (thrown) {
      fail(thrown);
    }
  };
  next();
}
