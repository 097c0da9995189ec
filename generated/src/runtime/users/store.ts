/**
 * The accounts users-permissions keeps, read where the document service cannot help: sign-in
 * needs the private columns (password hash, tokens) the content API never returns. Table and
 * column names come from the model's static tables, so a project's user extension is honoured.
 * Writes go through the document service (validation, password hashing, relations).
 */
import type { Queryable, Row, SqlValue } from '../database.ts';
import type { ContentTypeSchema, ModelSchema, RelationField } from '../schema.ts';

export const USER_UID = 'plugin::users-permissions.user';
export const ROLE_UID = 'plugin::users-permissions.role';

/** A user row with what sign-in decides on; never sent to a client. */
export interface Account {
  readonly id: number;
  readonly documentId: string;
  readonly username: string | null;
  readonly email: string | null;
  readonly provider: string | null;
  readonly passwordHash: string | null;
  readonly resetPasswordToken: string | null;
  readonly confirmationToken: string | null;
  readonly confirmed: boolean;
  readonly blocked: boolean;
  /** The role's `type` (its key in config/permissions.json); null when the user has no role. */
  readonly role: string | null;
}

export interface RoleRow {
  readonly id: number;
  readonly documentId: string;
  readonly name: string;
  readonly description: string | null;
  readonly type: string;
  readonly createdAt: unknown;
  readonly updatedAt: unknown;
  readonly publishedAt: unknown;
}

export interface AccountStore {
  all(): Promise<Account[]>;
  byId(id: number): Promise<Account | undefined>;
  byDocumentId(documentId: string): Promise<Account | undefined>;
  /** Users whose email (lower-cased) or username equals `identifier`, of `provider` when given. */
  byIdentifier(identifier: string, provider?: string): Promise<Account[]>;
  byEmail(email: string): Promise<Account | undefined>;
  byUsername(username: string): Promise<Account | undefined>;
  byResetToken(token: string): Promise<Account | undefined>;
  byConfirmationToken(token: string): Promise<Account | undefined>;
  /** Sets private columns directly (tokens, the already-hashed password): the content API would refuse or re-hash them. */
  setColumns(id: number, values: Partial<Record<'resetPasswordToken' | 'confirmationToken' | 'confirmed', string | boolean | null>>): Promise<void>;
  /**
   * Clears the account's reset code if it is still `token`: true for exactly one of several
   * concurrent callers with the same code, so that a code works once.
   */
  spendResetToken(id: number, token: string): Promise<boolean>;
  /** Confirms the account and clears its confirmation token if it is still `token`: true for exactly one caller. */
  spendConfirmationToken(id: number, token: string): Promise<boolean>;
  roles(): Promise<RoleRow[]>;
  roleByType(type: string): Promise<RoleRow | undefined>;
  roleById(id: number): Promise<RoleRow | undefined>;
  usersPerRole(): Promise<Map<string, number>>;
  /** Gives the users of one role another (the role's documentId in the user's role link). */
  moveUsers(fromRole: string, toRole: string): Promise<void>;
}

export function accountStore(db: Queryable, model: ModelSchema): AccountStore {
  const users = typeOf(model, USER_UID);
  const roles = typeOf(model, ROLE_UID);
  const role = users.attributes['role'] as RelationField;
  const col = (name: string): string => {
    const field = users.attributes[name];
    if (field?.kind !== 'scalar') throw new Error(`${USER_UID} has no column for "${name}"`);
    return quote(field.column);
  };
  const roleCol = (name: string): string => {
    const field = roles.attributes[name];
    if (field?.kind !== 'scalar') throw new Error(`${ROLE_UID} has no column for "${name}"`);
    return quote(field.column);
  };
  const select = `SELECT u.id, u.document_id, u.${col('username')} AS username, u.${col('email')} AS email, u.${col('provider')} AS provider,
      u.${col('password')} AS password, u.${col('resetPasswordToken')} AS reset_token, u.${col('confirmationToken')} AS confirmation_token,
      u.${col('confirmed')} AS confirmed, u.${col('blocked')} AS blocked, r.${roleCol('type')} AS role
    FROM ${quote(users.table)} u
    LEFT JOIN ${quote(role.linkTable)} l ON l.entity_id = u.id
    LEFT JOIN ${quote(roles.table)} r ON r.document_id = l.target_document_id`;
  const table = quote(users.table);
  /** One conditional UPDATE: the database decides which concurrent caller still finds the token, on every database alike. */
  const spend = async (id: number, column: 'resetPasswordToken' | 'confirmationToken', token: string, also: string, params: readonly SqlValue[]): Promise<boolean> =>
    (await db.execute(`UPDATE ${table} SET ${col(column)} = NULL${also}, updated_at = ? WHERE id = ? AND ${col(column)} = ?`, [...params, new Date(), id, token])).changes === 1;
  const many = async (where: string, params: readonly SqlValue[]): Promise<Account[]> => (await db.query(`${select} WHERE ${where} ORDER BY u.id`, params)).map(toAccount);
  const one = async (where: string, params: readonly SqlValue[]): Promise<Account | undefined> => (await many(where, params))[0];
  const roleSelect = `SELECT id, document_id, ${roleCol('name')} AS name, ${roleCol('description')} AS description, ${roleCol('type')} AS type, created_at, updated_at, published_at FROM ${quote(roles.table)}`;
  const roleRows = async (where: string, params: readonly SqlValue[]): Promise<RoleRow[]> => (await db.query(`${roleSelect} ${where}`, params)).map(toRole);
  return {
    all: () => many('1 = 1', []),
    byId: (id) => one('u.id = ?', [id]),
    byDocumentId: (documentId) => one('u.document_id = ?', [documentId]),
    byIdentifier: (identifier, provider) =>
      provider === undefined
        ? many(`(u.${col('email')} = ? OR u.${col('username')} = ?)`, [identifier.toLowerCase(), identifier])
        : many(`u.${col('provider')} = ? AND (u.${col('email')} = ? OR u.${col('username')} = ?)`, [provider, identifier.toLowerCase(), identifier]),
    byEmail: (email) => one(`u.${col('email')} = ?`, [email.toLowerCase()]),
    byUsername: (username) => one(`u.${col('username')} = ?`, [username]),
    byResetToken: (token) => one(`u.${col('resetPasswordToken')} = ?`, [token]),
    byConfirmationToken: (token) => one(`u.${col('confirmationToken')} = ?`, [token]),
    async setColumns(id, values) {
      const entries = Object.entries(values);
      if (entries.length === 0) return;
      const sets = entries.map(([name]) => `${col(name)} = ?`).join(', ');
      // Booleans are bound in each database's form by its driver (Dialect.bindValue).
      const params = entries.map(([, value]) => value ?? null);
      await db.execute(`UPDATE ${table} SET ${sets}, updated_at = ? WHERE id = ?`, [...params, new Date(), id]);
    },
    spendResetToken: (id, token) => spend(id, 'resetPasswordToken', token, '', []),
    spendConfirmationToken: (id, token) => spend(id, 'confirmationToken', token, `, ${col('confirmed')} = ?`, [true]),
    roles: () => roleRows('ORDER BY id', []),
    roleByType: async (type) => (await roleRows('WHERE ' + roleCol('type') + ' = ?', [type]))[0],
    roleById: async (id) => (await roleRows('WHERE id = ?', [id]))[0],
    async usersPerRole() {
      const rows = await db.query<{ document_id: string; n: number | string }>(`SELECT target_document_id AS document_id, COUNT(*) AS n FROM ${quote(role.linkTable)} GROUP BY target_document_id`);
      return new Map(rows.map((r) => [r.document_id, Number(r.n)]));
    },
    async moveUsers(fromRole, toRole) {
      await db.execute(`UPDATE ${quote(role.linkTable)} SET target_document_id = ? WHERE target_document_id = ?`, [toRole, fromRole]);
    },
  };
}

export function typeOf(model: ModelSchema, uid: string): ContentTypeSchema {
  const type = model.contentTypes[uid];
  if (type === undefined) throw new Error(`the model has no ${uid}: regenerate the project with this capi version`);
  return type;
}

function toAccount(row: Row): Account {
  return {
    id: Number(row['id']),
    documentId: String(row['document_id']),
    username: nullableText(row['username']),
    email: nullableText(row['email']),
    provider: nullableText(row['provider']),
    passwordHash: nullableText(row['password']),
    resetPasswordToken: nullableText(row['reset_token']),
    confirmationToken: nullableText(row['confirmation_token']),
    confirmed: truthy(row['confirmed']),
    blocked: truthy(row['blocked']),
    role: nullableText(row['role']),
  };
}

function toRole(row: Row): RoleRow {
  return {
    id: Number(row['id']),
    documentId: String(row['document_id']),
    name: String(row['name'] ?? ''),
    description: nullableText(row['description']),
    type: String(row['type'] ?? ''),
    createdAt: row['created_at'],
    updatedAt: row['updated_at'],
    publishedAt: row['published_at'],
  };
}

function truthy(value: unknown): boolean {
  return value === true || value === 1 || value === 1n || value === '1' || value === 't';
}

function nullableText(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

function quote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}
