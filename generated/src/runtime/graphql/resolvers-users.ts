/**
 * users-permissions' GraphQL operations (Strapi 5's names): `me`, `login`, `register`,
 * `forgotPassword`, `resetPassword`, `changePassword`, `emailConfirmation`. Each checks the action
 * its REST route checks and answers through the same service, so messages are the same.
 * `UsersPermissionsMe` carries the user's role, as in Strapi. The rate-limited mutations count in
 * the same counters as their REST routes (users/rate-limit.ts). The user CRUD mutations read
 * the user back the way their selection asks, relations included, as the queries do.
 */
import { authorize, type Access } from '../access.ts';
import type { ReadQuery } from '../query/types.ts';
import type { SignInLimiter, SignInOperation } from '../users/rate-limit.ts';
import type { UsersService } from '../users/service.ts';
import { USER_UID, type Account, type AccountStore } from '../users/store.ts';
import type { GraphQLResolveInfo } from './graphql-js.ts';
import type { Args, GraphqlContext, GraphqlRuntime, ObjectResolvers } from './resolvers-context.ts';
import { dataSelection, finishRead, readParts } from './resolvers-read.ts';

const UP = 'plugin::users-permissions';

export interface UsersGraphql {
  readonly service: UsersService;
  readonly accounts: AccountStore;
  readonly limiter: SignInLimiter;
}

export function usersQueryResolvers(users: UsersGraphql): ObjectResolvers {
  return {
    me: async (_source, _args, context) => {
      authorize(context.access, `${UP}.user.me`);
      return meOf(users, await users.service.me(context.access));
    },
  };
}

export function usersMutationResolvers(runtime: GraphqlRuntime, users: UsersGraphql): ObjectResolvers {
  const { service } = users;
  const allowed = (access: Access, action: string): Access => {
    authorize(access, `${UP}.${action}`);
    return access;
  };
  const gate = (operation: SignInOperation, context: GraphqlContext) => users.limiter.attempt(operation, context.address ?? '');
  /** The user as the mutation's `data { ... }` selection asks, in one engine call. */
  const presented = async (account: Account, context: GraphqlContext, info: GraphQLResolveInfo) => {
    const plan = dataSelection(runtime, context, info, runtime.targets.relation(USER_UID));
    const query: ReadQuery = { ...readParts(plan), status: 'published' };
    const user = await service.present(account, query);
    finishRead(runtime, context, plan, [user]);
    return { data: user };
  };
  const payload = async (signedIn: { jwt?: string; user: { id?: unknown } }) => {
    const account = await users.accounts.byId(Number(signedIn.user.id));
    return { jwt: signedIn.jwt ?? null, user: account === undefined ? signedIn.user : await meOf(users, account) };
  };
  return {
    login: async (_s, args, context) => {
      allowed(context.access, 'auth.callback');
      return payload(await service.login(input(args), gate('login', context)));
    },
    register: async (_s, args, context) => {
      allowed(context.access, 'auth.register');
      return payload(await service.register(input(args), gate('register', context)));
    },
    forgotPassword: async (_s, args, context) => {
      allowed(context.access, 'auth.forgotPassword');
      return service.forgotPassword(args, gate('forgotPassword', context));
    },
    resetPassword: async (_s, args, context) => {
      allowed(context.access, 'auth.resetPassword');
      return payload(await service.resetPassword(args, gate('resetPassword', context)));
    },
    changePassword: async (_s, args, context) => {
      return payload(await service.changePassword(allowed(context.access, 'auth.changePassword'), args, gate('changePassword', context)));
    },
    createUsersPermissionsUser: async (_s, args, context, info) => {
      allowed(context.access, 'user.create');
      return presented(await service.createUser(args['data']), context, info);
    },
    updateUsersPermissionsUser: async (_s, args, context, info) => {
      allowed(context.access, 'user.update');
      return presented(await service.updateUser(numericId(args), args['data']), context, info);
    },
    deleteUsersPermissionsUser: async (_s, args, context) => {
      allowed(context.access, 'user.destroy');
      return { data: await service.deleteUser(numericId(args)) };
    },
    createUsersPermissionsRole: async (_s, args, context) => {
      allowed(context.access, 'role.createRole');
      await service.createRole(args['data']);
      return { ok: true };
    },
    updateUsersPermissionsRole: async (_s, args, context) => {
      allowed(context.access, 'role.updateRole');
      await service.updateRole(numericId(args), args['data']);
      return { ok: true };
    },
    deleteUsersPermissionsRole: async (_s, args, context) => {
      allowed(context.access, 'role.deleteRole');
      await service.deleteRole(numericId(args));
      return { ok: true };
    },
    emailConfirmation: async (_s, args, context) => {
      allowed(context.access, 'auth.emailConfirmation');
      const account = await service.confirmEmail(args['confirmation']);
      return { jwt: await service.issue(account), user: await meOf(users, account) };
    },
  };
}

/** The plugin's mutations address users and roles by numeric id, as in Strapi. */
function numericId(args: Args): number {
  const id = Number(args['id']);
  return Number.isSafeInteger(id) && id > 0 ? id : Number.NaN;
}

/** The `input` argument without GraphQL's `provider` (always "local" here). */
function input(args: Args): Record<string, unknown> {
  const { provider: _provider, ...rest } = (args['input'] ?? {}) as Record<string, unknown>;
  return rest;
}

async function meOf(users: UsersGraphql, account: Account) {
  const fresh = (await users.accounts.byId(account.id)) ?? account;
  const role = fresh.role === null ? undefined : await users.accounts.roleByType(fresh.role);
  return {
    id: fresh.id,
    documentId: fresh.documentId,
    username: fresh.username,
    email: fresh.email,
    confirmed: fresh.confirmed,
    blocked: fresh.blocked,
    role: role === undefined ? null : { id: role.id, name: role.name, description: role.description, type: role.type },
  };
}
