/**
 * users-permissions' account operations, shared by its REST routes and GraphQL mutations: sign
 * in, register, the password flows, email confirmation, and users as the client sees them.
 * Messages and error classes are the plugin's (Strapi 5).
 */
import { randomBytes } from 'node:crypto';
import type { Access } from '../access.ts';
import type { UsersPermissionsConfig } from '../config.ts';
import type { DocumentService, Entity } from '../engine/types.ts';
import { verifyPassword } from '../engine/password.ts';
import { ApplicationError, NotFoundError, UnauthorizedError, ValidationError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { ReadQuery } from '../query/types.ts';
import { issueUserJwt } from '../user-jwt.ts';
import { defaultTemplates, fillTemplate, type EmailProvider } from './email.ts';
import { identifierSubject, type SignInGate, type SignInSubject } from './rate-limit.ts';
import { roleReference } from './role-reference.ts';
import { actionsOfTree, fileOwned, type RoleActions } from './role-permissions.ts';
import { ROLE_UID, USER_UID, type Account, type AccountStore } from './store.ts';
import {
  isEmail,
  validateCallbackBody,
  validateChangePasswordBody,
  validateCreateUserBody,
  validateEmailBody,
  validateRegisterBody,
  validateResetPasswordBody,
  validateUpdateUserBody,
} from './validation.ts';

export interface UsersContext {
  readonly accounts: AccountStore;
  readonly documents: DocumentService;
  readonly roles: RoleActions;
  /** The user type's attributes: an update ignores other keys, as Strapi's does. */
  readonly userAttributes: ReadonlySet<string>;
  readonly config: UsersPermissionsConfig;
  readonly jwtSecret: Uint8Array | undefined;
  readonly email: EmailProvider;
  /** `http://host:port`, for the confirmation link. */
  readonly serverUrl: string;
  /** The user read back with no populate (Strapi's sanitized user). */
  readonly plainQuery: ReadQuery;
  readonly logger: Logger;
  /** Minimum password length: the user type's `password.minLength` (6 in Strapi). */
  readonly passwordMinLength: number;
}

export interface SignedIn {
  readonly jwt: string;
  readonly user: Entity;
}

/** Reset tokens are good for this long (Strapi's never expire; a stolen old mail should not open the account). */
export const RESET_TOKEN_LIFETIME_MS = 60 * 60 * 1000;

export function usersService(ctx: UsersContext) {
  const issue = async (account: Account): Promise<string> => {
    if (ctx.jwtSecret === undefined) throw new ApplicationError('JWT_SECRET is not set: this server cannot sign users in');
    return issueUserJwt(account.id, ctx.jwtSecret, ctx.config.jwt.expiresIn);
  };
  const present = async (account: Account, query: ReadQuery = ctx.plainQuery): Promise<Entity> => {
    const user = await ctx.documents.findOne(USER_UID, account.documentId, query);
    if (user === null) throw new ApplicationError('User not found');
    return user;
  };
  const signedIn = async (account: Account): Promise<SignedIn> => ({ jwt: await issue(account), user: await present(account) });
  const mustExist = async (id: number): Promise<Account> => {
    const account = await ctx.accounts.byId(id);
    if (account === undefined) throw new ApplicationError('User not found');
    return account;
  };
  const sendConfirmation = async (account: Account): Promise<void> => {
    const token = randomBytes(20).toString('hex');
    await ctx.accounts.setColumns(account.id, { confirmationToken: token });
    const template = ctx.config.emailTemplates.emailConfirmation ?? defaultTemplates.emailConfirmation;
    const user = await present(account);
    const html = fillTemplate(template.message, { URL: `${ctx.serverUrl}/api/auth/email-confirmation`, USER: user, CODE: token });
    await ctx.email.send({ to: account.email ?? '', subject: fillTemplate(template.subject, { USER: user }), text: html, html });
  };

  /** The documentId of the role a relation value names (any of Strapi's forms), or null when the value clears it. */
  const roleDocument = async (role: unknown): Promise<string | null> => {
    const ref = roleReference(role);
    if (ref === undefined) throw new ValidationError('role must be an existing role id');
    if (ref === null) return null;
    const found = 'id' in ref ? await ctx.accounts.roleById(ref.id) : (await ctx.accounts.roles()).find((r) => r.documentId === ref.documentId);
    if (found === undefined) throw new ValidationError('role must be an existing role id');
    return found.documentId;
  };
  const defaultRoleDocument = async (): Promise<string> => {
    const role = await ctx.accounts.roleByType(ctx.config.advanced.defaultRole);
    if (role === undefined) throw new ApplicationError('Impossible to find the default role');
    return role.documentId;
  };

  return {
    present,
    issue,

    /**
     * Strapi 5's order: the password is checked before the account's state, so that only someone
     * who knows it learns that the account is blocked or unconfirmed.
     */
    async login(body: unknown, gate: SignInGate): Promise<SignedIn> {
      const { identifier, password } = validateCallbackBody(body);
      const [account] = await ctx.accounts.byIdentifier(identifier, 'local');
      await gate(account === undefined ? identifierSubject(identifier) : { account: account.id });
      if (account === undefined || account.passwordHash === null || !(await verifyPassword(password, account.passwordHash))) throw new ValidationError('Invalid identifier or password');
      if (ctx.config.advanced.emailConfirmation && !account.confirmed) throw new ApplicationError('Your account email is not confirmed');
      if (account.blocked) throw new ApplicationError('Your account has been blocked by an administrator');
      return signedIn(account);
    },

    async register(body: unknown, gate: SignInGate): Promise<{ jwt?: string; user: Entity }> {
      if (!ctx.config.advanced.allowRegister) throw new ApplicationError('Register action is currently disabled');
      const input = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
      const allowed = new Set(['username', 'email', 'password', ...ctx.config.register.allowedFields]);
      const invalid = Object.keys(input).filter((key) => !allowed.has(key));
      if (invalid.length > 0) throw new ValidationError(`Invalid parameters: ${invalid.join(', ')}`);
      const { email, username } = validateRegisterBody(input, ctx.passwordMinLength);
      await gate(identifierSubject(email));
      const role = await ctx.accounts.roleByType(ctx.config.advanced.defaultRole);
      if (role === undefined) throw new ApplicationError('Impossible to find the default role');
      const conflicts = [...(await ctx.accounts.byIdentifier(email)), ...(await ctx.accounts.byIdentifier(username))].filter(
        (a) => a.email === email.toLowerCase() || a.username === username || a.username === email.toLowerCase() || a.email === username,
      );
      if (conflicts.length > 0) throw new ApplicationError('Email or Username are already taken');
      const data = { ...input, email: email.toLowerCase(), provider: 'local', role: role.documentId, confirmed: !ctx.config.advanced.emailConfirmation, blocked: false };
      const ref = await ctx.documents.create(USER_UID, data, { status: 'published' });
      const account = await accountOf(ctx.accounts, ref.documentId);
      if (ctx.config.advanced.emailConfirmation) {
        try {
          await sendConfirmation(account);
        } catch (error) {
          ctx.logger.error({ err: error }, 'could not send the confirmation email');
          throw new ApplicationError('Error sending confirmation email');
        }
        return { user: await present(account) };
      }
      return signedIn(account);
    },

    async changePassword(access: Access, body: unknown, gate: SignInGate): Promise<SignedIn> {
      if (access.userId === undefined) throw new ApplicationError('You must be authenticated to reset your password');
      const { currentPassword, password } = validateChangePasswordBody(body, ctx.passwordMinLength);
      await gate({ account: access.userId });
      const account = await mustExist(access.userId);
      if (account.passwordHash === null || !(await verifyPassword(currentPassword, account.passwordHash))) {
        throw new ValidationError('The provided current password is invalid');
      }
      if (currentPassword === password) throw new ValidationError('Your new password must be different than your current password');
      await ctx.documents.update(USER_UID, account.documentId, { password }, { status: 'published' });
      return signedIn(account);
    },

    async forgotPassword(body: unknown, gate: SignInGate): Promise<{ ok: true }> {
      const { email } = validateEmailBody(body);
      const account = await ctx.accounts.byEmail(email);
      await gate(mailSubject(account, email));
      // Strapi 5 answers the same whether or not the address has an account.
      if (account === undefined || account.blocked) return { ok: true };
      const token = `${Date.now().toString(16).padStart(12, '0')}${randomBytes(58).toString('hex')}`;
      const template = ctx.config.emailTemplates.resetPassword ?? defaultTemplates.resetPassword;
      const user = await present(account);
      const html = fillTemplate(template.message, { URL: ctx.config.advanced.emailResetPasswordUrl ?? '', SERVER_URL: ctx.serverUrl, USER: user, TOKEN: token });
      await ctx.email.send({ to: account.email ?? email, subject: fillTemplate(template.subject, { USER: user }), text: html, html });
      await ctx.accounts.setColumns(account.id, { resetPasswordToken: token });
      return { ok: true };
    },

    /**
     * The code is spent before the password changes, by one conditional UPDATE: of concurrent
     * resets with one code exactly one finds it still there. A new password the user service then
     * refused would cost the code; its rules are checked before (validateResetPasswordBody).
     */
    async resetPassword(body: unknown, gate: SignInGate): Promise<SignedIn> {
      const { code, password } = validateResetPasswordBody(body, ctx.passwordMinLength);
      await gate({ anyone: true });
      const account = await ctx.accounts.byResetToken(code);
      if (account === undefined || !resetTokenFresh(code) || !(await ctx.accounts.spendResetToken(account.id, code))) throw new ValidationError('Incorrect code provided');
      await ctx.documents.update(USER_UID, account.documentId, { password }, { status: 'published' });
      return signedIn(account);
    },

    /** Like a reset code, a confirmation token is spent by one conditional UPDATE: it confirms (and, over GraphQL, signs in) once. */
    async confirmEmail(token: unknown): Promise<Account> {
      if (typeof token !== 'string' || token === '') throw new ValidationError('confirmation is a required field');
      const account = await ctx.accounts.byConfirmationToken(token);
      if (account === undefined || !(await ctx.accounts.spendConfirmationToken(account.id, token))) throw new ValidationError('Invalid token');
      return account;
    },

    async sendEmailConfirmation(body: unknown, gate: SignInGate): Promise<{ email: string; sent: true }> {
      const { email } = validateEmailBody(body);
      const account = await ctx.accounts.byEmail(email);
      await gate(mailSubject(account, email));
      if (account === undefined) return { email, sent: true };
      if (account.confirmed) throw new ApplicationError('Already confirmed');
      if (account.blocked) throw new ApplicationError('User blocked');
      await sendConfirmation(account);
      return { email: account.email ?? email, sent: true };
    },

    /** Strapi's `POST /users`: email and username free, the default role unless one is given. */
    async createUser(body: unknown): Promise<Account> {
      const input = validateCreateUserBody(body);
      if ((await ctx.accounts.byUsername(input.username)) !== undefined) throw new ApplicationError('Username already taken');
      if ((await ctx.accounts.byEmail(input.email)) !== undefined) throw new ApplicationError('Email already taken');
      const data: Record<string, unknown> = { ...input, email: input.email.toLowerCase(), provider: 'local' };
      data.role = (input.role === undefined || input.role === null ? null : await roleDocument(input.role)) ?? (await defaultRoleDocument());
      const ref = await ctx.documents.create(USER_UID, data, { status: 'published' });
      return accountOf(ctx.accounts, ref.documentId);
    },

    async updateUser(id: number, body: unknown): Promise<Account> {
      const account = await ctx.accounts.byId(id);
      if (account === undefined) throw new NotFoundError('User not found');
      // Keys that are not attributes are dropped, as Strapi's query layer drops them.
      const input = Object.fromEntries(Object.entries(validateUpdateUserBody(body)).filter(([key]) => ctx.userAttributes.has(key)));
      if (account.provider === 'local' && Object.hasOwn(input, 'password') && (input.password === null || input.password === '')) throw new ValidationError('password.notNull');
      if (typeof input.username === 'string') {
        const same = await ctx.accounts.byUsername(input.username);
        if (same !== undefined && same.id !== account.id) throw new ApplicationError('Username already taken');
      }
      if (typeof input.email === 'string') {
        const same = await ctx.accounts.byEmail(input.email);
        if (same !== undefined && same.id !== account.id) throw new ApplicationError('Email already taken');
      }
      const data: Record<string, unknown> = { ...input, ...(typeof input.email === 'string' ? { email: input.email.toLowerCase() } : {}) };
      if (Object.hasOwn(data, 'role')) data.role = data.role === null ? null : await roleDocument(data.role);
      await ctx.documents.update(USER_UID, account.documentId, data, { status: 'published' });
      return account;
    },

    /** Deletes the user and answers it as it was. */
    async deleteUser(id: number, query: ReadQuery = ctx.plainQuery): Promise<Entity> {
      const account = await ctx.accounts.byId(id);
      if (account === undefined) throw new NotFoundError('User not found');
      const user = await present(account, query);
      await ctx.documents.delete(USER_UID, account.documentId, {});
      return user;
    },

    /** Strapi's createRole: the row, then its enabled actions (checked against the project's before anything is written). */
    async createRole(body: unknown): Promise<void> {
      const input = roleInput(body);
      const name = typeof input['name'] === 'string' ? input['name'] : '';
      const type = typeof input['type'] === 'string' && input['type'] !== '' ? input['type'] : roleType(name);
      const actions = actionsOfTree(input['permissions'], ctx.roles.known);
      if (type === '') throw new ValidationError('name is a required field');
      // The file's roles have rows from start-up on: a new role is never one of them.
      if ((await ctx.accounts.roleByType(type)) !== undefined) throw new ApplicationError('This role already exists');
      await ctx.documents.create(ROLE_UID, { name: input['name'], description: input['description'], type }, { status: 'published' });
      await ctx.roles.replace(type, actions ?? []);
    },

    /** Strapi's updateRole: name and description, and the actions when `permissions` is given. */
    async updateRole(id: number, body: unknown): Promise<void> {
      const role = await ctx.accounts.roleById(id);
      if (role === undefined) throw new NotFoundError('Role not found');
      const input = roleInput(body);
      const actions = actionsOfTree(input['permissions'], ctx.roles.known);
      // A file role's tree sent back unchanged (a GET, edited elsewhere, then PUT) is fine; a change is not.
      if (actions !== undefined && ctx.roles.inFile(role.type) && !sameActions(actions, await ctx.roles.of(role.type))) throw new ApplicationError(fileOwned(role.type));
      const fields = Object.fromEntries(['name', 'description'].filter((key) => Object.hasOwn(input, key)).map((key) => [key, input[key]]));
      if (Object.keys(fields).length > 0) await ctx.documents.update(ROLE_UID, role.documentId, fields, { status: 'published' });
      if (actions !== undefined && !ctx.roles.inFile(role.type)) await ctx.roles.replace(role.type, actions);
    },

    /**
     * The two default roles stay, and a role of config/permissions.json would come back at the
     * next start; another role's users move to the public role, as in Strapi.
     */
    async deleteRole(id: number): Promise<void> {
      const role = await ctx.accounts.roleById(id);
      if (role === undefined) throw new NotFoundError('Role not found');
      if (role.type === 'public' || role.type === 'authenticated') throw new ApplicationError('Cannot delete public or authenticated roles');
      if (ctx.roles.inFile(role.type)) throw new ApplicationError(`Role "${role.type}" is set in config/permissions.json: remove it there`);
      const publicRole = await ctx.accounts.roleByType('public');
      if (publicRole !== undefined) await ctx.accounts.moveUsers(role.documentId, publicRole.documentId);
      await ctx.documents.delete(ROLE_UID, role.documentId, {});
      await ctx.roles.remove(role.type);
    },

    /** The signed-in account, or a 401 for a request that is not signed in as a user. */
    async me(access: Access): Promise<Account> {
      if (access.userId === undefined) throw new UnauthorizedError('Missing or invalid credentials');
      return mustExist(access.userId);
    },
  };
}

export type UsersService = ReturnType<typeof usersService>;

/** A role body; Strapi refuses an empty one. */
function roleInput(body: unknown): Record<string, unknown> {
  const input = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  if (Object.keys(input).length === 0) throw new ValidationError('Request body cannot be empty');
  return input;
}

/** Strapi's type of a new role: its name in snake case, accents dropped ("Content Editor" → "content_editor"). */
function roleType(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

function sameActions(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(b);
  return a.length === set.size && a.every((action) => set.has(action));
}

async function accountOf(accounts: AccountStore, documentId: string): Promise<Account> {
  const account = await accounts.byDocumentId(documentId);
  if (account === undefined) throw new ApplicationError('An error occurred during account creation');
  return account;
}

/** The account a mail would go to, or the address when none has it. */
function mailSubject(account: Account | undefined, email: string): SignInSubject {
  return account === undefined ? identifierSubject(email) : { account: account.id };
}

/** The token starts with the time it was issued at: 12 hexadecimal digits of epoch milliseconds. */
function resetTokenFresh(token: string): boolean {
  const issued = Number.parseInt(token.slice(0, 12), 16);
  return Number.isFinite(issued) && Date.now() - issued <= RESET_TOKEN_LIFETIME_MS && Date.now() >= issued;
}

export { ROLE_UID, USER_UID, isEmail };
