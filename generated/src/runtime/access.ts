/**
 * Who is calling and what they may do. Every request resolves to one `Access` before any handler
 * runs: no `Authorization` header acts as the `public` role of config/permissions.json;
 * `Authorization: Bearer <token>` acts as that API token, and `Bearer <JWT>` signed with
 * JWT_SECRET as a signed-in user with the `authenticated` role (or the token's `role` claim).
 * A bad, forged or expired credential is a 401.
 * Handlers then ask for Strapi-named actions (`api::article.article.find`) before touching data.
 */
import type { Request, RequestHandler } from 'express';
import type { Queryable } from './database.ts';
import { ForbiddenError, UnauthorizedError } from './errors.ts';
import type { Logger } from './logger.ts';
import type { Permissions } from './permissions.ts';
import { findApiToken, saltChangedMessage, tokenAccess, tokensOfOtherSalts, touchApiToken } from './tokens.ts';
import { looksLikeJwt, verifyUserJwt } from './user-jwt.ts';
import type { RoleActions } from './users/role-permissions.ts';
import type { AccountStore } from './users/store.ts';

export interface Access {
  /** The role or token the request acts as, for logs. */
  readonly principal: string;
  /** The signed-in users-permissions account, when the request carries one of its JWTs. */
  readonly userId?: number;
  can(action: string): boolean;
}

/** Throws the Strapi 403 envelope unless `access` may perform `action`. */
export function authorize(access: Access, action: string): void {
  if (!access.can(action)) throw new ForbiddenError();
}

/**
 * Whether documents of `uid` may be read through another type (populate, relation filters):
 * the spec ties returning a content type to its `find` permission.
 */
export function canRead(access: Access, uid: string): boolean {
  return access.can(`${uid}.find`);
}

/** An Access granting exactly the actions a role lists in config/permissions.json. */
export function roleAccess(permissions: Permissions, role: string): Access {
  return grantedAccess(role, permissions[role] ?? []);
}

function grantedAccess(role: string, actions: readonly string[]): Access {
  const granted = new Set(actions);
  return { principal: `role:${role}`, can: (action) => granted.has(action) };
}

export type AccessResolver = (req: Request) => Access;

export interface AccessControl {
  /** Authenticates the request (async: a token is looked up), before the content API's routes. */
  readonly middleware: RequestHandler;
  /** The Access the middleware settled on; the public role for a request it did not see. */
  readonly resolveAccess: AccessResolver;
}

export interface AccessOptions {
  readonly permissions: Permissions;
  readonly db: Queryable;
  /** API_TOKEN_SALT; without it every API token is refused. */
  readonly tokenSalt: string | undefined;
  /** JWT_SECRET; without it every user JWT is refused. */
  readonly jwtSecret?: Uint8Array | undefined;
  /** Seconds a user JWT without `exp` is accepted after its `iat` (users-permissions `jwt.expiresIn`). */
  readonly jwtMaxAge: number;
  /** The users-permissions accounts, to resolve the `id` of the JWTs sign-in issues. */
  readonly accounts?: AccountStore;
  /** The actions of roles created through the API (users/role-permissions.ts); without it, only the file's roles act. */
  readonly roles?: RoleActions;
  readonly logger?: Logger;
  /** Called when an API token matches no stored hash (before the 401). */
  readonly onUnknownToken?: () => Promise<void>;
}

/**
 * When a token matches nothing, finds out whether the stored tokens were hashed with another salt
 * (their fingerprints differ): the usual cause of "every token is refused" after a deployment.
 */
function saltChangeReporter(options: AccessOptions): () => Promise<void> {
  let lastLogged = Number.NEGATIVE_INFINITY;
  return async () => {
    const salt = options.tokenSalt;
    if (salt === undefined || options.logger === undefined || Date.now() - lastLogged < saltChangeLogEveryMs) return;
    const others = await tokensOfOtherSalts(options.db, salt);
    if (others === 0) return;
    lastLogged = Date.now();
    options.logger.error(saltChangedMessage(others));
  };
}

/** A changed salt is logged at most this often, not once per refused request. */
const saltChangeLogEveryMs = 60_000;

export function accessControl(options: AccessOptions): AccessControl {
  const withSaltCheck: AccessOptions = { ...options, onUnknownToken: saltChangeReporter(options) };
  const anonymous = roleAccess(options.permissions, 'public');
  const settled = new WeakMap<Request, Access>();
  const middleware: RequestHandler = (req, _res, next) => {
    const header = req.headers.authorization;
    if (header === undefined || header === '') return next();
    authenticate(header, withSaltCheck)
      .then((access) => {
        settled.set(req, access);
        next();
      })
      .catch(next);
  };
  return { middleware, resolveAccess: (req) => settled.get(req) ?? anonymous };
}

async function authenticate(header: string, options: AccessOptions): Promise<Access> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (match === null) throw new UnauthorizedError('Missing or invalid credentials');
  const credential = match[1] ?? '';
  if (looksLikeJwt(credential)) return userAccess(credential, options);
  if (options.tokenSalt === undefined) throw new UnauthorizedError('Missing or invalid credentials');
  const token = await findApiToken(options.db, options.tokenSalt, credential);
  if (token === undefined) {
    await options.onUnknownToken?.().catch((error: unknown) => options.logger?.warn({ err: error }, 'could not check the API token salt'));
    throw new UnauthorizedError('Missing or invalid credentials');
  }
  touchApiToken(options.db, token).catch((error: unknown) => options.logger?.warn({ err: error }, 'could not record API token use'));
  return tokenAccess(token);
}

async function userAccess(jwt: string, options: AccessOptions): Promise<Access> {
  const user = options.jwtSecret === undefined ? undefined : await verifyUserJwt(jwt, { secret: options.jwtSecret, maxAgeWithoutExp: options.jwtMaxAge }, options.permissions);
  if (user === undefined) throw new UnauthorizedError('Missing or invalid credentials');
  if (user.userId === undefined || options.accounts === undefined) return { ...roleAccess(options.permissions, user.role), principal: `user:${user.subject}` };
  // A deleted or blocked account's tokens stop working at once, as in Strapi.
  const account = await options.accounts.byId(user.userId);
  if (account === undefined || account.blocked) throw new UnauthorizedError('Missing or invalid credentials');
  const role = account.role ?? 'authenticated';
  const granted = options.roles === undefined || options.roles.inFile(role) ? roleAccess(options.permissions, role) : grantedAccess(role, await options.roles.of(role));
  return { ...granted, principal: `user:${account.id}`, userId: account.id };
}
