/**
 * The users-permissions plugin in a generated project: the role rows config/permissions.json
 * names, the account store and service, and the REST routes, built once at start-up.
 */
import type { AccessResolver } from '../access.ts';
import type { DocumentService } from '../engine/types.ts';
import type { ScalarField } from '../schema.ts';
import type { AppContext } from '../server.ts';
import { parseReadQuery } from '../query/params.ts';
import { jwtSecret } from '../user-jwt.ts';
import { emailProvider } from './email.ts';
import { roleActions, type RoleActions } from './role-permissions.ts';
import { signInLimiter, type SignInLimiter } from './rate-limit.ts';
import { usersRoutes } from './routes.ts';
import { usersService, type UsersService } from './service.ts';
import { accountStore, ROLE_UID, typeOf, USER_UID, type AccountStore } from './store.ts';
import type { Router } from 'express';

export interface UsersPlugin {
  readonly accounts: AccountStore;
  readonly documents: DocumentService;
  readonly service: UsersService;
  readonly routes: Router;
  /** Shared by the REST routes and the GraphQL mutations. */
  readonly limiter: SignInLimiter;
}

/** Strapi's names and descriptions of the two roles every project has. */
const KNOWN_ROLES: Readonly<Record<string, { name: string; description: string }>> = {
  public: { name: 'Public', description: 'Default role given to unauthenticated user.' },
  authenticated: { name: 'Authenticated', description: 'Default role given to authenticated user.' },
};

export async function usersPlugin(
  app: AppContext,
  documents: DocumentService,
  resolveAccess: AccessResolver,
  roles: RoleActions = roleActions(app.db, app.config.permissions, app.model),
  accounts: AccountStore = accountStore(app.db, app.model),
): Promise<UsersPlugin> {
  await ensureRoles(app, documents, accounts);
  const userSchema = typeOf(app.model, USER_UID);
  const password = userSchema.attributes['password'] as ScalarField | undefined;
  const context = { schema: userSchema, model: app.model, rest: app.config.api.rest, i18n: app.config.plugins.i18n, canRead: () => false };
  const service = usersService({
    accounts,
    documents,
    roles,
    userAttributes: new Set(Object.keys(userSchema.attributes)),
    config: app.config.plugins.usersPermissions,
    jwtSecret: jwtSecret(app.env ?? process.env),
    email: emailProvider(app.config.plugins.email, app.logger),
    serverUrl: `http://${app.config.server.host}:${app.config.server.port}`,
    plainQuery: parseReadQuery({}, context),
    logger: app.logger,
    passwordMinLength: password?.minLength ?? 6,
  });
  const limiter = signInLimiter(app.config.plugins.usersPermissions.ratelimit, app.db);
  const routes = usersRoutes({
    service,
    accounts,
    documents,
    model: app.model,
    rest: app.config.api.rest,
    i18n: app.config.plugins.i18n,
    config: app.config.plugins.usersPermissions,
    roles,
    resolveAccess,
    limiter,
  });
  return { accounts, documents, service, routes, limiter };
}

/**
 * One role row per role of config/permissions.json, so that users can be given any of them.
 * Replicas of a deployment start together on one database and all find a role missing: the
 * creates queue on the role type's unique lock (write-documents.ts `lockForWrite`), the first
 * one writes the row and the others fail its unique check. Such a failure is another process's
 * success: the role is read again and only a role still missing is an error.
 */
async function ensureRoles(app: AppContext, documents: DocumentService, accounts: AccountStore): Promise<void> {
  const existing = new Set((await accounts.roles()).map((role) => role.type));
  for (const type of Object.keys(app.config.permissions)) {
    if (existing.has(type)) continue;
    const known = KNOWN_ROLES[type] ?? { name: type.charAt(0).toUpperCase() + type.slice(1), description: `The ${type} role of config/permissions.json.` };
    try {
      await documents.create(ROLE_UID, { ...known, type }, { status: 'published' });
    } catch (error) {
      if (!(await accounts.roles()).some((role) => role.type === type)) throw error;
    }
  }
}
