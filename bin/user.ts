/**
 * `capi user create|list|block|unblock`: seeds and manages the users-permissions accounts of a
 * generated project (one with no admin panel), against the database its config (and
 * DATABASE_URL) points at, after applying pending migrations. Accounts are created through the
 * same service as `POST /api/users`, so the same checks and Strapi's bcrypt hashing apply.
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../templates/runtime/config.ts';
import { openDatabase } from '../templates/runtime/database.ts';
import { createDocumentService } from '../templates/runtime/engine/service.ts';
import { HttpError } from '../templates/runtime/errors.ts';
import { createLogger } from '../templates/runtime/logger.ts';
import { applyMigrations } from '../templates/runtime/migrate.ts';
import type { ModelSchema } from '../templates/runtime/schema.ts';
import { usersPlugin, type UsersPlugin } from '../templates/runtime/users/index.ts';
import { USER_UID, type Account } from '../templates/runtime/users/store.ts';

/** A refusal of the command (taken username, unknown role, no such user), for exit code 1. */
export class UserCommandError extends Error {
  override readonly name = 'UserCommandError';
}

export interface ProjectFlags {
  readonly project: string;
}

async function withUsers<T>(flags: ProjectFlags, run: (users: UsersPlugin) => Promise<T>): Promise<T> {
  const projectRoot = resolve(flags.project);
  const { model } = (await import(pathToFileURL(join(projectRoot, 'src', 'model.ts')).href)) as { model: ModelSchema };
  const config = loadConfig({ projectRoot, model });
  const db = await openDatabase(config.database);
  const logger = createLogger({ level: 'warn' });
  try {
    await applyMigrations(db, join(projectRoot, 'prisma', 'migrations'), logger);
    const app = { config, db, model, logger };
    const documents = createDocumentService(app);
    const users = await usersPlugin(app, documents, () => ({ principal: 'cli', can: () => true }));
    return await run(users);
  } catch (error) {
    if (error instanceof HttpError) {
      const details = (error.details['errors'] as { message: string }[] | undefined)?.map((e) => e.message).join('; ');
      throw new UserCommandError(details === undefined || details === error.message ? error.message : `${error.message}: ${details}`);
    }
    throw error;
  } finally {
    await db.close();
  }
}

export interface NewUserFlags extends ProjectFlags {
  readonly email: string;
  readonly username: string;
  readonly password: string;
  /** A role's type (its key in config/permissions.json); the default role when absent. */
  readonly role?: string;
}

export async function createUser(flags: NewUserFlags): Promise<void> {
  const account = await withUsers(flags, async ({ accounts, service }) => {
    const role = flags.role === undefined ? undefined : await accounts.roleByType(flags.role);
    if (flags.role !== undefined && role === undefined) throw new UserCommandError(`no role "${flags.role}": use a role of config/permissions.json`);
    return service.createUser({ email: flags.email, username: flags.username, password: flags.password, ...(role === undefined ? {} : { role: role.id }), confirmed: true });
  });
  process.stderr.write(`created user "${account.username}" (id ${account.id})\n`);
}

export async function listUsers(flags: ProjectFlags): Promise<void> {
  const all = await withUsers(flags, ({ accounts }) => accounts.all());
  if (all.length === 0) {
    process.stderr.write('no users\n');
    return;
  }
  process.stdout.write(`${all.map(describe).join('\n')}\n`);
}

function describe(account: Account): string {
  const state = [account.blocked ? 'blocked' : 'active', account.confirmed ? 'confirmed' : 'unconfirmed'].join(', ');
  return `${account.id}\t${account.username ?? ''}\t${account.email ?? ''}\t${account.role ?? '(no role)'}\t${state}`;
}

/** Blocks (or unblocks) the user with this username or email: blocked users cannot sign in and their tokens stop working. */
export async function setBlocked(flags: ProjectFlags & { identifier: string; blocked: boolean }): Promise<void> {
  await withUsers(flags, async ({ accounts, documents }) => {
    const [account] = await accounts.byIdentifier(flags.identifier);
    if (account === undefined) throw new UserCommandError(`no user "${flags.identifier}"`);
    await documents.update(USER_UID, account.documentId, { blocked: flags.blocked }, { status: 'published' });
  });
  process.stderr.write(`${flags.blocked ? 'blocked' : 'unblocked'} user "${flags.identifier}"\n`);
}
