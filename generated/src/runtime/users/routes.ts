/**
 * users-permissions' content API routes, as Strapi 5 serves them under /api:
 *   POST /auth/local, /auth/local/register, /auth/change-password, /auth/forgot-password,
 *        /auth/reset-password, /auth/send-email-confirmation   GET /auth/email-confirmation
 *   GET /users, /users/count, /users/me, /users/:id   POST /users   PUT|DELETE /users/:id
 *   GET|POST /users-permissions/roles   GET|PUT|DELETE /users-permissions/roles/:id
 * Users are answered bare (no `data` envelope) and addressed by their numeric `id`, as in Strapi.
 * Each route checks the plugin's action (`plugin::users-permissions.auth.callback`, ...).
 */
import { Router, type Request, type RequestHandler } from 'express';
import { authorize, canRead, type Access, type AccessResolver } from '../access.ts';
import type { UsersPermissionsConfig } from '../config.ts';
import type { DocumentService, Entity } from '../engine/types.ts';
import { NotFoundError } from '../errors.ts';
import { parseListQuery, parseQueryString, parseReadQuery } from '../query/params.ts';
import { own } from '../query/raw.ts';
import type { ListQuery, ReadQuery } from '../query/types.ts';
import type { I18nConfig, RestConfig } from '../config.ts';
import type { ModelSchema } from '../schema.ts';
import { sendJson } from '../send.ts';
import type { SignInLimiter, SignInOperation } from './rate-limit.ts';
import { permissionsTree, type RoleActions } from './role-permissions.ts';
import { ROLE_UID, typeOf, USER_UID, type AccountStore, type RoleRow } from './store.ts';
import type { UsersService } from './service.ts';

export interface UsersRoutesContext {
  readonly service: UsersService;
  readonly accounts: AccountStore;
  readonly documents: DocumentService;
  readonly model: ModelSchema;
  readonly rest: RestConfig;
  readonly i18n: I18nConfig;
  readonly config: UsersPermissionsConfig;
  readonly roles: RoleActions;
  readonly resolveAccess: AccessResolver;
  readonly limiter: SignInLimiter;
}

const UP = 'plugin::users-permissions';
/** An unpaginated user listing is bounded, so that no request asks the database for everything. */
const MAX_USERS_LISTED = 10_000;

export function usersRoutes(ctx: UsersRoutesContext): Router {
  const { service } = ctx;
  // The operation names the counter, whatever spelling of its path reached it (Express matches paths case-insensitively).
  const gate = (req: Request, operation: SignInOperation) => ctx.limiter.attempt(operation, req.ip ?? '');
  const allowed = (req: Request, action: string): Access => {
    const access = ctx.resolveAccess(req);
    authorize(access, `${UP}.${action}`);
    return access;
  };
  const userSchema = typeOf(ctx.model, USER_UID);
  // A user's role is part of their account: `populate=role` works without the role's find action, as front ends expect.
  const readable = (access: Access) => (uid: string) => uid === ROLE_UID || canRead(access, uid);
  const queryContext = (access: Access) => ({ schema: userSchema, model: ctx.model, rest: ctx.rest, i18n: ctx.i18n, canRead: readable(access) });
  const readQuery = (req: Request, access: Access): ReadQuery => parseReadQuery(parseQueryString(search(req)), queryContext(access));
  // Strapi's user service reads a created or updated user back with its role.
  const writeQuery = (req: Request, access: Access): ReadQuery => {
    const raw = parseQueryString(search(req));
    return parseReadQuery(own(raw, 'populate') === undefined ? { ...raw, populate: 'role' } : raw, queryContext(access));
  };
  const listQuery = (req: Request, access: Access): ListQuery => {
    const raw = parseQueryString(search(req));
    const parsed = parseListQuery(raw, queryContext(access));
    // Like Strapi's user service, a listing without pagination returns every user.
    return own(raw, 'pagination') === undefined && own(raw, 'start') === undefined && own(raw, 'limit') === undefined
      ? { ...parsed, pagination: { kind: 'offset', start: 0, limit: MAX_USERS_LISTED, withCount: false } }
      : parsed;
  };
  const byId = async (req: Request): Promise<number> => {
    const id = Number(req.params.id);
    return Number.isSafeInteger(id) && id > 0 ? id : Number.NaN;
  };
  // A role id that is not a number names no role: 404 as for an unknown one, never a query with NaN.
  const roleId = async (req: Request): Promise<number> => {
    const id = await byId(req);
    if (Number.isNaN(id)) throw new NotFoundError('Role not found');
    return id;
  };
  const respond =
    (handler: (req: Request) => Promise<{ status: number; body: unknown }>): RequestHandler =>
    async (req, res) => {
      const { status, body } = await handler(req);
      if (body === undefined) res.status(status).end();
      else sendJson(res, status, body);
    };
  const ok = (body: unknown) => ({ status: 200, body });

  const router = Router();
  router.post(
    '/auth/local',
    respond(async (req) => (allowed(req, 'auth.callback'), ok(await service.login(req.body, gate(req, 'login'))))),
  );
  router.post(
    '/auth/local/register',
    respond(async (req) => (allowed(req, 'auth.register'), ok(await service.register(req.body, gate(req, 'register'))))),
  );
  router.post(
    '/auth/change-password',
    respond(async (req) => ok(await service.changePassword(allowed(req, 'auth.changePassword'), req.body, gate(req, 'changePassword')))),
  );
  router.post(
    '/auth/forgot-password',
    respond(async (req) => (allowed(req, 'auth.forgotPassword'), ok(await service.forgotPassword(req.body, gate(req, 'forgotPassword'))))),
  );
  router.post(
    '/auth/reset-password',
    respond(async (req) => (allowed(req, 'auth.resetPassword'), ok(await service.resetPassword(req.body, gate(req, 'resetPassword'))))),
  );
  router.post(
    '/auth/send-email-confirmation',
    respond(async (req) => (allowed(req, 'auth.sendEmailConfirmation'), ok(await service.sendEmailConfirmation(req.body, gate(req, 'sendEmailConfirmation'))))),
  );
  router.get('/auth/email-confirmation', async (req, res) => {
    allowed(req, 'auth.emailConfirmation');
    const token = new URLSearchParams(search(req)).get('confirmation') ?? undefined;
    await service.confirmEmail(token);
    res.redirect(302, ctx.config.advanced.emailConfirmationRedirection ?? '/');
  });

  router.get(
    '/users/me',
    respond(async (req) => {
      const access = allowed(req, 'user.me');
      const account = await service.me(access);
      return ok(await service.present(account, readQuery(req, access)));
    }),
  );
  router.get(
    '/users/count',
    respond(async (req) => {
      const access = allowed(req, 'user.count');
      const query = listQuery(req, access);
      const { total } = await ctx.documents.findMany(USER_UID, { ...query, pagination: { kind: 'offset', start: 0, limit: 1, withCount: true } });
      return ok(total ?? 0);
    }),
  );
  router.get(
    '/users',
    respond(async (req) => {
      const access = allowed(req, 'user.find');
      return ok((await ctx.documents.findMany(USER_UID, listQuery(req, access))).results);
    }),
  );
  router.get(
    '/users/:id',
    respond(async (req) => {
      const access = allowed(req, 'user.findOne');
      const query = readQuery(req, access);
      const account = await ctx.accounts.byId(await byId(req));
      // Strapi's controller sets a null body, which Koa answers with 204.
      if (account === undefined) return { status: 204, body: undefined };
      return ok(await service.present(account, query));
    }),
  );
  router.post(
    '/users',
    respond(async (req) => {
      const query = writeQuery(req, allowed(req, 'user.create'));
      const account = await service.createUser(req.body);
      return { status: 201, body: await service.present(account, query) };
    }),
  );
  router.put(
    '/users/:id',
    respond(async (req) => {
      const query = writeQuery(req, allowed(req, 'user.update'));
      const account = await service.updateUser(await byId(req), req.body);
      return ok(await service.present(account, query));
    }),
  );
  router.delete(
    '/users/:id',
    respond(async (req) => {
      const query = readQuery(req, allowed(req, 'user.destroy'));
      return ok(await service.deleteUser(await byId(req), query));
    }),
  );

  router.get(
    '/users-permissions/roles',
    respond(async (req) => {
      allowed(req, 'role.find');
      const counts = await ctx.accounts.usersPerRole();
      const roles = await ctx.accounts.roles();
      return ok({ roles: roles.map((role) => ({ ...roleJson(role), nb_users: counts.get(role.documentId) ?? 0 })) });
    }),
  );
  router.get(
    '/users-permissions/roles/:id',
    respond(async (req) => {
      allowed(req, 'role.findOne');
      const role = await ctx.accounts.roleById(await roleId(req));
      if (role === undefined) throw new NotFoundError('Role not found');
      return ok({ role: { ...roleJson(role), permissions: permissionsTree(ctx.roles.known, await ctx.roles.of(role.type)) } });
    }),
  );
  router.post(
    '/users-permissions/roles',
    respond(async (req) => (allowed(req, 'role.createRole'), await service.createRole(req.body), ok({ ok: true }))),
  );
  router.put(
    '/users-permissions/roles/:id',
    respond(async (req) => (allowed(req, 'role.updateRole'), await service.updateRole(await roleId(req), req.body), ok({ ok: true }))),
  );
  router.delete(
    '/users-permissions/roles/:id',
    respond(async (req) => (allowed(req, 'role.deleteRole'), await service.deleteRole(await roleId(req)), ok({ ok: true }))),
  );
  return router;
}

function roleJson(role: RoleRow): Entity {
  return {
    id: role.id,
    documentId: role.documentId,
    name: role.name,
    description: role.description,
    type: role.type,
    createdAt: iso(role.createdAt),
    updatedAt: iso(role.updatedAt),
    publishedAt: iso(role.publishedAt),
  };
}

function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(typeof value === 'number' ? value : String(value));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function search(req: Request): string {
  const url = req.originalUrl;
  const at = url.indexOf('?');
  return at === -1 ? '' : url.slice(at + 1);
}
