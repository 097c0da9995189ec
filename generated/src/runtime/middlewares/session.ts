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

/** Accessors that run cookie-session on the request at the first touch, then step aside for its own. */
function deferSession(req: Request, res: Response, handler: RequestHandler, firstUse: () => void): void {
  const target = req as unknown as Record<string, unknown>;
  const start = (): void => {
    for (const key of SESSION_KEYS) delete target[key];
    // cookie-session is synchronous: it has defined its accessors when this returns.
    void handler(req, res, () => undefined);
    firstUse();
  };
  for (const key of SESSION_KEYS) {
    Object.defineProperty(req, key, {
      configurable: true,
      enumerable: true,
      get() {
        start();
        return target[key];
      },
      set(value: unknown) {
        start();
        target[key] = value;
      },
    });
  }
}
