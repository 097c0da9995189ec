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
  return (req, res, next) => {
    deferSession(req, res, handler, firstUse);
    next();
  };
}

/** What cookie-session puts on a request; reading or setting either runs it first. */
const SESSION_KEYS = ['session', 'sessionOptions'] as const;

/** The request's pending start of cookie-session, until the first touch. */
const PENDING = Symbol('capi.session.pending');

type Deferred = Record<string | symbol, unknown> & { [PENDING]?: () => void };

/** Runs the pending cookie-session once; it defines its own `session` and `sessionOptions`, which replace these accessors. */
function started(target: Deferred): Deferred {
  const start = target[PENDING];
  if (start !== undefined) {
    target[PENDING] = undefined;
    for (const key of SESSION_KEYS) delete target[key];
    start();
  }
  return target;
}

/**
 * One pair of accessors for every request: shared functions, so that a request holds a single
 * closure of its own (its pending start) besides the two property definitions.
 */
const DEFERRED: PropertyDescriptorMap = Object.fromEntries(
  SESSION_KEYS.map((key) => [
    key,
    {
      configurable: true,
      enumerable: true,
      get(this: Deferred): unknown {
        return started(this)[key];
      },
      set(this: Deferred, value: unknown): void {
        started(this)[key] = value;
      },
    },
  ]),
);

/** Accessors that run cookie-session on the request at the first touch, then step aside for its own. */
function deferSession(req: Request, res: Response, handler: RequestHandler, firstUse: () => void): void {
  const target = req as unknown as Deferred;
  target[PENDING] = () => {
    // cookie-session is synchronous: it has defined its accessors when this returns.
    void handler(req, res, () => undefined);
    firstUse();
  };
  Object.defineProperties(req, DEFERRED);
}
