/**
 * `capi token create|list|revoke`: manages the API tokens of a generated project, against the
 * database its config (and DATABASE_URL) points at, after applying pending migrations, exactly
 * as the server would find it.
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../templates/runtime/config.ts';
import { loadDotEnv } from '../templates/runtime/env.ts';
import { openDatabase, type Database } from '../templates/runtime/database.ts';
import { applyMigrations } from '../templates/runtime/migrate.ts';
import { knownActions, type PermissionModel } from '../templates/runtime/permissions.ts';
import { createApiToken, listApiTokens, revokeApiToken, tokenSalt, TokenError, type ApiTokenInfo, type NewToken } from '../templates/runtime/tokens.ts';

export interface ProjectFlags {
  readonly project: string;
}

async function withProject<T>(flags: ProjectFlags, run: (db: Database, model: PermissionModel) => Promise<T>): Promise<T> {
  const projectRoot = resolve(flags.project);
  loadDotEnv(projectRoot, process.env);
  const { model } = (await import(pathToFileURL(join(projectRoot, 'src', 'model.ts')).href)) as { model: PermissionModel };
  const config = loadConfig({ projectRoot, model });
  const db = await openDatabase(config.database);
  try {
    await applyMigrations(db, join(projectRoot, 'prisma', 'migrations'), { info: () => undefined, warn: (m) => process.stderr.write(`${m}\n`) });
    return await run(db, model);
  } finally {
    await db.close();
  }
}

function requireSalt(): string {
  const salt = tokenSalt(process.env);
  if (salt === undefined) throw new TokenError('set API_TOKEN_SALT to a long random secret (the server must run with the same value)');
  return salt;
}

export async function createToken(flags: ProjectFlags & NewToken): Promise<void> {
  // The project's .env, as the server reads it: the salt must be the one the server will use.
  loadDotEnv(resolve(flags.project), process.env);
  const salt = requireSalt();
  const { token, accessKey } = await withProject(flags, (db, model) => createApiToken(db, salt, flags, knownActions(model)));
  process.stderr.write(`created ${token.type} token "${token.name}"${token.expiresAt ? `, expires ${token.expiresAt}` : ''}. It is shown once; store it now:\n`);
  process.stdout.write(`${accessKey}\n`);
}

export async function listTokens(flags: ProjectFlags): Promise<void> {
  const tokens = await withProject(flags, (db) => listApiTokens(db));
  if (tokens.length === 0) {
    process.stderr.write('no API tokens\n');
    return;
  }
  process.stdout.write(`${tokens.map(describe).join('\n')}\n`);
}

function describe(token: ApiTokenInfo): string {
  const permissions = token.type === 'custom' ? ` [${token.permissions.join(', ')}]` : '';
  return `${token.name}\t${token.type}${permissions}\tcreated ${token.createdAt}\texpires ${token.expiresAt ?? 'never'}\tlast used ${token.lastUsedAt ?? 'never'}`;
}

export async function revokeToken(flags: ProjectFlags & { name: string }): Promise<void> {
  const revoked = await withProject(flags, (db) => revokeApiToken(db, flags.name));
  if (!revoked) throw new TokenError(`no token named "${flags.name}"`);
  process.stderr.write(`revoked token "${flags.name}"\n`);
}
