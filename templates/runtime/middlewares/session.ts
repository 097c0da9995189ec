/**
 * `strapi::session`: Strapi's koa-session, served by cookie-session (the same model: the session
 * is a JSON object kept in a signed cookie, nothing on the server). Nothing capi serves reads a
 * session (Strapi's readers are its admin panel and the OAuth sign-in of users-permissions
 * providers); it is there for extensions, which find it as `ctx.req.session` in their routes and
 * `req.session` in their middlewares, as Strapi code finds `ctx.session`. A request that does not
 * touch its session costs no cookie.
 *
 * The cookie is signed with APP_KEYS (Strapi's `app.keys`, comma-separated). Without it a key is
 * made at start: sessions then end with the process and are not shared between workers, which a
 * warning says the first time a session is used.
 *
 * cookie-session's per-request work (a Cookies object, a hook on writeHead, the accessors) is put
 * off until the request first touches `req.session` or `req.sessionOptions`: for a session never
 * read it writes nothing at header time anyway, so deferring it changes no answer, and the content
 * API's reads, which never touch it, no longer pay for it (docs/benchmarks.md).
 */
import { randomBytes } from 'node:crypto';
import { IncomingMessage } from 'node:http';
import cookieSession from 'cookie-session';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from '../logger.ts';
import type { SessionConfig } from './config.ts';

export function session(config: SessionConfig, logger: Logger): RequestHandler {
  const handler = cookieSession({
    name: config.key,
    keys: [...(config.keys ?? [randomBytes(32).toString('base64url')])],
    ...(config.maxAge === 'session' ? {} : { maxAge: config.maxAge }),
    httpOnly: config.httpOnly,
    secure: config.secure,
    sameSite: config.sameSite,
    signed: config.signed,
    overwrite: config.overwrite,
  });
  // Without APP_KEYS, said once, when something first uses a session: Strapi's default list has
  // this entry, and a server whose extensions use no session has nothing to be told.
  let warned = config.keys !== null;
  const firstUse = (): void => {
    if (warned) return;
    warned = true;
    logger.warn(
      'strapi::session: APP_KEYS is not set, so session cookies are signed with a key made at start: sessions end when the server restarts and are not shared between workers. Set APP_KEYS (comma-separated, as in Strapi)',
    );
  };
  const start = (req: Request, res: Response): void => {
    // cookie-session is synchronous: it has defined its own `session` and `sessionOptions` when this returns.
    void handler(req, res, () => undefined);
    firstUse();
  };
  return (req, res, next) => {
    deferSession(req, res, start);
    next();
  };
}

/** What cookie-session puts on a request; reading or setting either runs it first. */
const SESSION_KEYS = ['session', 'sessionOptions'] as const;

/** The response of a request whose cookie-session has not run yet. */
const PENDING = Symbol('capi.session.pending');
/** That request's cookie-session (the app's strapi::session). */
const START = Symbol('capi.session.start');

type Start = (req: Request, res: Response) => void;
type Deferred = Record<string, unknown> & { [PENDING]?: Response | undefined; [START]?: Start };

/** Runs the pending cookie-session of a request once; false where there is none to run. */
function started(target: Deferred): boolean {
  const res = target[PENDING];
  const start = target[START];
  if (res === undefined || start === undefined) return false;
  target[PENDING] = undefined;
  start(target as unknown as Request, res);
  return true;
}

/**
 * The accessors that an own property of the request shadows once cookie-session has defined it.
 * Where nothing is pending (a request no strapi::session has reached, or cookie-session's own
 * `req.sessionOptions = ...` while it starts) they act as a plain property would: read
 * undefined, write an own data property.
 */
const DEFERRED: PropertyDescriptorMap = Object.fromEntries(
  SESSION_KEYS.map((key) => [
    key,
    {
      configurable: true,
      get(this: Deferred): unknown {
        return started(this) ? this[key] : undefined;
      },
      set(this: Deferred, value: unknown): void {
        if (started(this)) this[key] = value;
        else Object.defineProperty(this, key, { value, writable: true, enumerable: true, configurable: true });
      },
    },
  ]),
);

/** Prototypes of requests (one per Express app) whose chain carries the accessors. */
const prepared = new WeakSet<object>();

/**
 * Express' own request prototype, which every app's `app.request` (and so a mounted app's, even
 * one mounted on a Router, which gets no link to its parent app) inherits from: the object just
 * above Node's IncomingMessage in the request's chain. Undefined for a request not built that way.
 */
function expressRequestPrototype(req: object): object | undefined {
  for (let prototype = Object.getPrototypeOf(req) as object | null; prototype !== null;) {
    const above = Object.getPrototypeOf(prototype) as object | null;
    if (above === IncomingMessage.prototype) return prototype;
    prototype = above;
  }
  return undefined;
}

/**
 * Defers cookie-session to the first touch. The accessors are defined once, on Express' request
 * prototype: a request then gets two symbol-keyed values, where defining accessors on each
 * request cost 0.01-0.02 ms of CPU of a request Express answers (docs/benchmarks.md).
 */
function deferSession(req: Request, res: Response, start: Start): void {
  const target = req as unknown as Deferred;
  const prototype = Object.getPrototypeOf(req) as object;
  if (!prepared.has(prototype)) {
    const shared = expressRequestPrototype(req);
    if (shared === undefined) Object.defineProperties(req, DEFERRED);
    else {
      if (!Object.hasOwn(shared, SESSION_KEYS[0])) Object.defineProperties(shared, DEFERRED);
      prepared.add(prototype);
    }
  }
  target[START] = start;
  target[PENDING] = res;
}
