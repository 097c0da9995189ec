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
 */
import { randomBytes } from 'node:crypto';
import cookieSession from 'cookie-session';
import type { RequestHandler } from 'express';
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
  if (config.keys !== null) return handler;
  // Without APP_KEYS, said once, when something first uses a session: Strapi's default list has
  // this entry, and a server whose extensions use no session has nothing to be told.
  let warned = false;
  return (req, res, next) =>
    handler(req, res, (error?: unknown) => {
      const descriptor = warned ? undefined : Object.getOwnPropertyDescriptor(req, 'session');
      const read = descriptor?.get;
      if (descriptor !== undefined && read !== undefined) {
        Object.defineProperty(req, 'session', {
          ...descriptor,
          get() {
            if (!warned) {
              warned = true;
              logger.warn(
                'strapi::session: APP_KEYS is not set, so session cookies are signed with a key made at start: sessions end when the server restarts and are not shared between workers. Set APP_KEYS (comma-separated, as in Strapi)',
              );
            }
            return read.call(req);
          },
        });
      }
      next(error);
    });
}
