/**
 * API tokens, as Strapi's: `full-access`, `read-only` or `custom` (a list of actions), optionally
 * expiring. The token itself is shown once, when it is created; the database keeps only its
 * HMAC-SHA512 keyed with the API_TOKEN_SALT secret, so reading the database does not give access.
 * Each token also records a short fingerprint of the salt it was hashed with, so that a server
 * started with another salt can say why every token is refused instead of a silent 401.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Access } from './access.ts';
import type { Queryable } from './database.ts';

export const TOKEN_TABLE = 'capi_api_tokens';
export const tokenTypes = ['full-access', 'read-only', 'custom'] as const;
export type TokenType = (typeof tokenTypes)[number];

export interface ApiTokenInfo {
  readonly id: number;
  readonly name: string;
  readonly description: string;
  readonly type: TokenType;
  /** The actions of a `custom` token; empty for the other types. */
  readonly permissions: readonly string[];
  readonly expiresAt: string | null;
  readonly lastUsedAt: string | null;
  readonly createdAt: string;
}

export interface CreatedToken {
  readonly token: ApiTokenInfo;
  /** The secret to send as `Authorization: Bearer <accessKey>`; it cannot be read again. */
  readonly accessKey: string;
}

export interface NewToken {
  readonly name: string;
  readonly type: TokenType;
  readonly description?: string;
  readonly permissions?: readonly string[];
  readonly expiresInDays?: number;
}

/** A token request that cannot be honoured: bad name, type, permissions or expiry. */
export class TokenError extends Error {
  override readonly name = 'TokenError';
}

/** The salt tokens are hashed with; without it no token can be created or accepted. */
export function tokenSalt(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const salt = env.API_TOKEN_SALT;
  return salt === undefined || salt.trim() === '' ? undefined : salt;
}

/** 16 hex characters identifying a salt without revealing it (an HMAC of a constant, keyed with the salt). */
export function saltFingerprint(salt: string): string {
  return createHmac('sha256', salt).update('capi API_TOKEN_SALT fingerprint').digest('hex').slice(0, 16);
}

/** How many stored tokens were hashed with a salt other than `salt` (tokens created before fingerprints count as unknown, not other). */
export async function tokensOfOtherSalts(db: Queryable, salt: string): Promise<number> {
  const [row] = await db.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${TOKEN_TABLE} WHERE salt_fingerprint IS NOT NULL AND salt_fingerprint <> ?`, [saltFingerprint(salt)]);
  return Number(row?.n ?? 0);
}

/** Whether the database holds any API token. */
export async function hasApiTokens(db: Queryable): Promise<boolean> {
  return (await db.query(`SELECT 1 AS one FROM ${TOKEN_TABLE} LIMIT 1`)).length > 0;
}

/** The log line of a server whose API_TOKEN_SALT is not the one its tokens were created with. */
export function saltChangedMessage(count: number): string {
  return `API_TOKEN_SALT changed: ${count} API token(s) were created with another salt and are refused (401); restore the previous API_TOKEN_SALT or create new tokens`;
}

export function hashAccessKey(accessKey: string, salt: string): string {
  return createHmac('sha512', salt).update(accessKey).digest('hex');
}

export async function createApiToken(db: Queryable, salt: string, input: NewToken, knownActions: readonly string[], now = new Date()): Promise<CreatedToken> {
  const permissions = checkNewToken(input, knownActions);
  const accessKey = randomBytes(128).toString('hex');
  const expiresAt = input.expiresInDays === undefined ? null : new Date(now.getTime() + input.expiresInDays * 86_400_000);
  if ((await db.query(`SELECT id FROM ${TOKEN_TABLE} WHERE name = ?`, [input.name])).length > 0) {
    throw new TokenError(`a token named "${input.name}" already exists`);
  }
  await db.execute(
    `INSERT INTO ${TOKEN_TABLE} (name, description, type, access_key, salt_fingerprint, permissions, expires_at, last_used_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)`,
    [input.name, input.description ?? '', input.type, hashAccessKey(accessKey, salt), saltFingerprint(salt), JSON.stringify(permissions), expiresAt, now, now],
  );
  const [token] = await selectTokens(db, 'WHERE name = ?', [input.name]);
  if (token === undefined) throw new TokenError(`the token "${input.name}" was not stored`);
  return { token, accessKey };
}

function checkNewToken(input: NewToken, knownActions: readonly string[]): readonly string[] {
  if (!/^[\w .-]{1,100}$/.test(input.name)) throw new TokenError('a token name is 1 to 100 letters, digits, spaces, dots, dashes or underscores');
  if (!tokenTypes.includes(input.type)) throw new TokenError(`a token type is one of ${tokenTypes.join(', ')}`);
  if (input.expiresInDays !== undefined && !(Number.isInteger(input.expiresInDays) && input.expiresInDays > 0)) {
    throw new TokenError('--expires-in-days must be a whole number of days, at least 1');
  }
  const permissions = [...new Set(input.permissions ?? [])].sort();
  if (input.type !== 'custom') {
    if (permissions.length > 0) throw new TokenError(`a ${input.type} token takes no permissions; use --type custom`);
    return [];
  }
  if (permissions.length === 0) throw new TokenError('a custom token needs at least one --permission');
  const unknown = permissions.filter((action) => !knownActions.includes(action));
  if (unknown.length > 0) throw new TokenError(`unknown action(s): ${unknown.join(', ')}`);
  return permissions;
}

export function listApiTokens(db: Queryable): Promise<ApiTokenInfo[]> {
  return selectTokens(db, 'ORDER BY id', []);
}

/** Deletes a token by name; false when there was none. */
export async function revokeApiToken(db: Queryable, name: string): Promise<boolean> {
  return (await db.execute(`DELETE FROM ${TOKEN_TABLE} WHERE name = ?`, [name])).changes > 0;
}

/** The token an access key stands for, if it exists and has not expired. */
export async function findApiToken(db: Queryable, salt: string, accessKey: string, now = new Date()): Promise<ApiTokenInfo | undefined> {
  const [token] = await selectTokens(db, 'WHERE access_key = ?', [hashAccessKey(accessKey, salt)]);
  if (token === undefined) return undefined;
  if (token.expiresAt !== null && Date.parse(token.expiresAt) <= now.getTime()) return undefined;
  return token;
}

/** Records use at most once a minute per token, so that authenticated reads do not all write. */
export async function touchApiToken(db: Queryable, token: ApiTokenInfo, now = new Date()): Promise<void> {
  if (token.lastUsedAt !== null && now.getTime() - Date.parse(token.lastUsedAt) < 60_000) return;
  await db.execute(`UPDATE ${TOKEN_TABLE} SET last_used_at = ? WHERE id = ?`, [now, token.id]);
}

/** What a token may do: everything, every read, or its listed actions. */
export function tokenAccess(token: ApiTokenInfo): Access {
  const principal = `token:${token.name}`;
  switch (token.type) {
    case 'full-access':
      return { principal, can: () => true };
    case 'read-only':
      return {
        principal,
        can: (action) => /\.(find|findOne|listLocales)$/.test(action),
      };
    case 'custom': {
      const granted = new Set(token.permissions);
      return { principal, can: (action) => granted.has(action) };
    }
  }
}

interface TokenRow {
  id: number | string;
  name: string;
  description: string;
  type: string;
  permissions: unknown;
  expires_at: unknown;
  last_used_at: unknown;
  created_at: unknown;
}

async function selectTokens(db: Queryable, clause: string, params: readonly string[]): Promise<ApiTokenInfo[]> {
  const rows = await db.query<TokenRow>(`SELECT id, name, description, type, permissions, expires_at, last_used_at, created_at FROM ${TOKEN_TABLE} ${clause}`, params);
  return rows.map((row): ApiTokenInfo => ({
    id: Number(row.id),
    name: row.name,
    description: row.description,
    type: row.type as TokenType,
    permissions: typeof row.permissions === 'string' ? (JSON.parse(row.permissions) as string[]) : ((row.permissions as string[] | null) ?? []),
    expiresAt: isoOrNull(row.expires_at),
    lastUsedAt: isoOrNull(row.last_used_at),
    createdAt: isoOrNull(row.created_at) ?? '',
  }));
}

/** SQLite hands back the ISO text written; PostgreSQL a timestamptz string or Date. */
function isoOrNull(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(String(value).replace(' ', 'T').replace(/\+00$/, 'Z'));
  return Number.isNaN(date.getTime()) ? String(value) : date.toISOString();
}
