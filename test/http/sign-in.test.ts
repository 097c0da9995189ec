/**
 * users-permissions served by capi, on SQLite and PostgreSQL, over HTTP against a generated
 * Strapi project (test/fixtures/users-blog) whose posts relate to users and
 * whose user type is extended: sign-in, registration, /users/me, the users CRUD routes, roles,
 * the password and confirmation flows, rate limiting, users imported with Strapi's bcrypt
 * hashes, and relations to users through populate, filters and GraphQL.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../templates/runtime/database.ts';
import { capi, startServer, type RunningServer } from '../support/cli.ts';
import { repoRoot } from '../support/model.ts';
import { clients, createServerDatabase } from '../support/databases.ts';
import type { TestDatabase } from '../support/postgres.ts';

const SECRET = 'sign-in-test-jwt-secret';
const fixture = join(repoRoot, 'test', 'fixtures', 'users-blog');
const strapiUsers = (
  JSON.parse(readFileSync(join(repoRoot, 'test', 'fixtures', 'strapi-users', 'users.json'), 'utf8')) as {
    users: { username: string; email: string; password: string; hash: string }[];
  }
).users;

const UP = 'plugin::users-permissions';
const PERMISSIONS = {
  public: [
    `${UP}.auth.callback`,
    `${UP}.auth.register`,
    `${UP}.auth.forgotPassword`,
    `${UP}.auth.resetPassword`,
    `${UP}.auth.emailConfirmation`,
    `${UP}.auth.sendEmailConfirmation`,
    'api::post.post.find',
  ],
  authenticated: [`${UP}.user.me`, `${UP}.auth.changePassword`, 'api::post.post.find', 'api::post.post.findOne', 'api::post.post.create', `${UP}.user.find`, `${UP}.user.findOne`],
  manager: [
    `${UP}.user.me`,
    ...['find', 'findOne', 'count', 'create', 'update', 'destroy'].map((a) => `${UP}.user.${a}`),
    ...['find', 'findOne', 'createRole', 'updateRole', 'deleteRole'].map((a) => `${UP}.role.${a}`),
    'api::post.post.find',
  ],
};

interface Answer {
  readonly status: number;
  readonly body: any;
}

describe.each(clients)('users-permissions on %s', (database) => {
  let pg: TestDatabase | undefined;
  let server: RunningServer;
  let project: string;
  let db: Database;
  let databaseUrl: string;
  const workDir = join(repoRoot, 'tmp', `sign-in-${database}-${process.pid}`);

  const start = async (plugins: Record<string, unknown> = {}): Promise<void> => {
    writeFileSync(join(project, 'config', 'plugins.json'), JSON.stringify(plugins));
    server = await startServer(project, { DATABASE_URL: databaseUrl, JWT_SECRET: SECRET, NODE_ENV: 'production', LOG_LEVEL: 'warn', CAPI_QUERY_COUNT: '1' });
  };
  const restart = async (plugins: Record<string, unknown> = {}): Promise<void> => {
    await server.stop();
    // On PostgreSQL the rate-limit counters are rows that outlive a restart (so that restarting
    // does not reset an attacker's count); each test here wants fresh ones.
    if (database === 'postgres') await db.execute('DELETE FROM capi_rate_limits');
    await start(plugins);
  };

  beforeAll(async () => {
    pg = database === 'sqlite' ? undefined : await createServerDatabase(database, 'capi_signin');
    project = join(workDir, 'project');
    const generated = await capi(['generate', '--content-types', fixture, '--out', project, '--database', database, '--quiet']);
    if (generated.code !== 0) throw new Error(generated.stderr);
    writeFileSync(join(project, 'config', 'permissions.json'), JSON.stringify(PERMISSIONS));
    const file = join(workDir, 'users.db');
    databaseUrl = pg?.url ?? `file:${file}`;
    await start();
    db = await openDatabase(
      pg === undefined ? { client: 'sqlite', filename: file, label: file } : { client: database === 'mysql' ? 'mysql' : 'postgres', url: pg.url, label: 'test', pool: { max: 2 } },
    );
  }, 120_000);

  afterAll(async () => {
    await db?.close();
    await server?.stop();
    await pg?.drop();
  });

  const call = async (method: string, path: string, body?: unknown, jwt?: string): Promise<Answer> => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      redirect: 'manual',
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(jwt === undefined ? {} : { authorization: `Bearer ${jwt}` }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
  };
  const error = (status: number, name: string, message: string) => expect.objectContaining({ data: null, error: expect.objectContaining({ status, name, message }) });
  const register = (username: string, extra: Record<string, unknown> = {}) =>
    call('POST', '/api/auth/local/register', { username, email: `${username}@example.com`, password: 'Secret-123', ...extra });
  const managerJwt = async (): Promise<string> => {
    const made = await register(`mgr${Math.random().toString(36).slice(2, 8)}`);
    const role = (await db.query<{ document_id: string }>(`SELECT document_id FROM up_roles WHERE type = 'manager'`))[0]!.document_id;
    await db.execute('UPDATE up_users_role_lnk SET target_document_id = ? WHERE entity_id = ?', [role, made.body.user.id]);
    return made.body.jwt as string;
  };

  it('registers a user with the default role and signs them in by email or username', async () => {
    const made = await register('ada');
    expect(made.status).toBe(200);
    expect(Object.keys(made.body).sort()).toEqual(['jwt', 'user']);
    expect(made.body.user).toEqual(
      expect.objectContaining({ id: expect.any(Number), documentId: expect.any(String), username: 'ada', email: 'ada@example.com', provider: 'local', confirmed: true, blocked: false }),
    );
    for (const hidden of ['password', 'resetPasswordToken', 'confirmationToken']) expect(made.body.user).not.toHaveProperty(hidden);
    const [row] = await db.query<{ password: string; type: string }>(
      'SELECT u.password, r.type FROM up_users u JOIN up_users_role_lnk l ON l.entity_id = u.id JOIN up_roles r ON r.document_id = l.target_document_id WHERE u.username = ?',
      ['ada'],
    );
    expect(row?.password).toMatch(/^\$2[ab]\$10\$/);
    expect(row?.type).toBe('authenticated');

    const byEmail = await call('POST', '/api/auth/local', { identifier: 'ADA@example.com', password: 'Secret-123' });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.user.username).toBe('ada');
    const byName = await call('POST', '/api/auth/local', { identifier: 'ada', password: 'Secret-123' });
    expect(byName.status).toBe(200);
    const payload = JSON.parse(Buffer.from((byName.body.jwt as string).split('.')[1]!, 'base64url').toString()) as Record<string, number>;
    expect(payload.id).toBe(made.body.user.id);
    expect(payload.exp! - payload.iat!).toBe(30 * 86_400);

    const me = await call('GET', '/api/users/me', undefined, byName.body.jwt);
    expect(me.status).toBe(200);
    expect(me.body).toEqual(made.body.user);
    const populated = await call('GET', '/api/users/me?populate=role', undefined, byName.body.jwt);
    expect(populated.body.role).toEqual(expect.objectContaining({ name: 'Authenticated', type: 'authenticated' }));
  });

  it("refuses wrong passwords, unknown users, bad bodies and duplicates with Strapi's errors", async () => {
    await register('grace');
    expect(await call('POST', '/api/auth/local', { identifier: 'grace', password: 'nope-nope' })).toEqual({ status: 400, body: error(400, 'ValidationError', 'Invalid identifier or password') });
    expect(await call('POST', '/api/auth/local', { identifier: 'nobody', password: 'Secret-123' })).toEqual({ status: 400, body: error(400, 'ValidationError', 'Invalid identifier or password') });
    const missing = await call('POST', '/api/auth/local', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('2 errors occurred');
    expect(missing.body.error.details.errors.map((e: { path: string[] }) => e.path)).toEqual([['identifier'], ['password']]);
    expect(await register('grace')).toEqual({ status: 400, body: error(400, 'ApplicationError', 'Email or Username are already taken') });
    expect(await call('POST', '/api/auth/local/register', { username: 'grace2', email: 'grace@example.com', password: 'Secret-123' })).toEqual({
      status: 400,
      body: error(400, 'ApplicationError', 'Email or Username are already taken'),
    });
    const weak = await register('weakling', { password: 'abc' });
    expect(weak).toEqual({ status: 400, body: error(400, 'ValidationError', 'password must be at least 6 characters') });
    expect((await register('bademail', { email: 'not-an-email' })).body.error.message).toBe('email must be a valid email');
    expect(await register('sneaky', { confirmed: true, role: 1 })).toEqual({ status: 400, body: error(400, 'ValidationError', 'Invalid parameters: confirmed, role') });
    expect((await register('toolong', { password: 'x'.repeat(73) })).body.error.message).toBe('Password must be less than 73 bytes');
  });

  it('signs in and answers /users/me in a fixed number of SQL statements', async () => {
    await register('counted');
    const count = async (method: string, path: string, body?: unknown, jwt?: string): Promise<number> => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(jwt === undefined ? {} : { authorization: `Bearer ${jwt}` }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      await res.text();
      return Number(res.headers.get('x-query-count'));
    };
    const login = await call('POST', '/api/auth/local', { identifier: 'counted', password: 'Secret-123' });
    // The account with its role (1), the user as the client sees it (1); on PostgreSQL also the
    // sign-in rate-limit counter, which lives in the database there (shared by every process).
    expect(await count('POST', '/api/auth/local', { identifier: 'counted', password: 'Secret-123' })).toBe(database === 'postgres' ? 3 : 2);
    // The token's account (1), the account again for `me` (1), the user (1).
    expect(await count('GET', '/api/users/me', undefined, login.body.jwt)).toBe(3);
  });

  it('refuses blocked users, and their tokens stop working', async () => {
    const made = await register('blocky');
    await db.execute(`UPDATE up_users SET blocked = ? WHERE id = ?`, [database === 'sqlite' ? 1 : true, made.body.user.id]);
    // The password is checked first, as in Strapi 5: only someone who knows it learns the account is blocked.
    expect(await call('POST', '/api/auth/local', { identifier: 'blocky', password: 'wrong-pass' })).toEqual({
      status: 400,
      body: error(400, 'ValidationError', 'Invalid identifier or password'),
    });
    expect(await call('POST', '/api/auth/local', { identifier: 'blocky', password: 'Secret-123' })).toEqual({
      status: 400,
      body: error(400, 'ApplicationError', 'Your account has been blocked by an administrator'),
    });
    expect((await call('GET', '/api/users/me', undefined, made.body.jwt)).status).toBe(401);
  });

  it('signs in users imported from a Strapi database with their bcrypt hashes', async () => {
    const jwt = await managerJwt();
    for (const user of strapiUsers) {
      const created = await call('POST', '/api/users', { username: `strapi-${user.username}`, email: `strapi-${user.email}`, password: 'placeholder-1' }, jwt);
      expect(created.status).toBe(201);
      await db.execute('UPDATE up_users SET password = ? WHERE id = ?', [user.hash, created.body.id]);
      const signedIn = await call('POST', '/api/auth/local', { identifier: `strapi-${user.email}`, password: user.password });
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.user.username).toBe(`strapi-${user.username}`);
      expect((await call('POST', '/api/auth/local', { identifier: `strapi-${user.email}`, password: `${user.password}x` })).status).toBe(400);
    }
  });

  it("serves the users CRUD routes bare, by id, behind the plugin's actions", async () => {
    const jwt = await managerJwt();
    const plain = (await register('plainuser')).body.jwt as string;
    expect((await call('POST', '/api/users', { username: 'x1', email: 'x1@example.com', password: 'Secret-123' }, plain)).status).toBe(403);
    expect((await call('GET', '/api/users/count', undefined, plain)).status).toBe(403);
    expect((await call('GET', '/api/users/me')).status).toBe(403);

    const created = await call('POST', '/api/users', { username: 'crud', email: 'CRUD@example.com', password: 'Secret-123', fullName: 'Crud User' }, jwt);
    expect(created.status).toBe(201);
    expect(created.body).toEqual(expect.objectContaining({ username: 'crud', email: 'crud@example.com', fullName: 'Crud User', provider: 'local' }));
    expect(created.body).not.toHaveProperty('password');
    const id = created.body.id as number;
    expect(await call('POST', '/api/users', { username: 'crud', email: 'other@example.com', password: 'Secret-123' }, jwt)).toEqual({
      status: 400,
      body: error(400, 'ApplicationError', 'Username already taken'),
    });
    expect(await call('POST', '/api/users', { username: 'crud2', email: 'crud@example.com', password: 'Secret-123' }, jwt)).toEqual({
      status: 400,
      body: error(400, 'ApplicationError', 'Email already taken'),
    });

    const list = await call('GET', '/api/users?filters[username][$eq]=crud', undefined, jwt);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([expect.objectContaining({ id, username: 'crud' })]);
    const count = await call('GET', '/api/users/count', undefined, jwt);
    expect(typeof count.body).toBe('number');
    expect(count.body).toBeGreaterThan(1);
    expect((await call('GET', `/api/users/${id}?populate=role`, undefined, jwt)).body.role.type).toBe('authenticated');
    expect((await call('GET', '/api/users/999999', undefined, jwt)).status).toBe(204);
    // Filtering on a private attribute is refused, as everywhere in the content API.
    expect((await call('GET', '/api/users?filters[password][$null]=false', undefined, jwt)).status).toBe(400);

    const updated = await call('PUT', `/api/users/${id}`, { fullName: 'Renamed', password: 'Another-456' }, jwt);
    expect(updated.status).toBe(200);
    expect(updated.body.fullName).toBe('Renamed');
    expect((await call('POST', '/api/auth/local', { identifier: 'crud', password: 'Another-456' })).status).toBe(200);
    expect(await call('PUT', `/api/users/${id}`, { username: 'plainuser' }, jwt)).toEqual({ status: 400, body: error(400, 'ApplicationError', 'Username already taken') });
    expect((await call('PUT', '/api/users/999999', { fullName: 'x' }, jwt)).status).toBe(404);

    const removed = await call('DELETE', `/api/users/${id}`, undefined, jwt);
    expect(removed.status).toBe(200);
    expect(removed.body.username).toBe('crud');
    expect((await call('GET', `/api/users/${id}`, undefined, jwt)).status).toBe(204);
  });

  it('lists roles with their user counts and shows one with its permissions', async () => {
    const jwt = await managerJwt();
    const roles = await call('GET', '/api/users-permissions/roles', undefined, jwt);
    expect(roles.status).toBe(200);
    expect(roles.body.roles.map((r: { type: string }) => r.type).sort()).toEqual(['authenticated', 'manager', 'public']);
    const manager = roles.body.roles.find((r: { type: string }) => r.type === 'manager');
    expect(manager.nb_users).toBeGreaterThan(0);
    const one = await call('GET', `/api/users-permissions/roles/${manager.id}`, undefined, jwt);
    expect(one.body.role.permissions[UP].controllers.user.destroy).toEqual({ enabled: true, policy: '' });
    expect((await call('GET', '/api/users-permissions/roles')).status).toBe(403);
  });

  it('changes a password', async () => {
    const { jwt } = (await register('changer')).body as { jwt: string };
    const change = (body: Record<string, unknown>) => call('POST', '/api/auth/change-password', body, jwt);
    expect(await change({ currentPassword: 'wrong-one', password: 'Fresh-789', passwordConfirmation: 'Fresh-789' })).toEqual({
      status: 400,
      body: error(400, 'ValidationError', 'The provided current password is invalid'),
    });
    expect(await change({ currentPassword: 'Secret-123', password: 'Fresh-789', passwordConfirmation: 'Fresh-780' })).toEqual({
      status: 400,
      body: error(400, 'ValidationError', 'Passwords do not match'),
    });
    expect(await change({ currentPassword: 'Secret-123', password: 'Secret-123', passwordConfirmation: 'Secret-123' })).toEqual({
      status: 400,
      body: error(400, 'ValidationError', 'Your new password must be different than your current password'),
    });
    const done = await change({ currentPassword: 'Secret-123', password: 'Fresh-789', passwordConfirmation: 'Fresh-789' });
    expect(done.status).toBe(200);
    expect(done.body.user.username).toBe('changer');
    expect((await call('POST', '/api/auth/local', { identifier: 'changer', password: 'Fresh-789' })).status).toBe(200);
    expect((await call('POST', '/api/auth/change-password', { currentPassword: 'a', password: 'Fresh-789', passwordConfirmation: 'Fresh-789' })).status).toBe(403);
  });

  it('resets a forgotten password with the emailed code, once, and not with an expired code', async () => {
    await register('forgetful');
    expect(await call('POST', '/api/auth/forgot-password', { email: 'forgetful@example.com' })).toEqual({ status: 200, body: { ok: true } });
    expect(await call('POST', '/api/auth/forgot-password', { email: 'nobody@example.com' })).toEqual({ status: 200, body: { ok: true } });
    expect((await call('POST', '/api/auth/forgot-password', { email: 'nope' })).body.error.message).toBe('email must be a valid email');
    const [row] = await db.query<{ reset_password_token: string }>('SELECT reset_password_token FROM up_users WHERE username = ?', ['forgetful']);
    const code = row!.reset_password_token;
    expect(code).toMatch(/^[0-9a-f]{128}$/);
    expect(await call('POST', '/api/auth/reset-password', { code: 'f'.repeat(128), password: 'Reset-123', passwordConfirmation: 'Reset-123' })).toEqual({
      status: 400,
      body: error(400, 'ValidationError', 'Incorrect code provided'),
    });
    expect(await call('POST', '/api/auth/reset-password', { code, password: 'Reset-123', passwordConfirmation: 'Reset-124' })).toEqual({
      status: 400,
      body: error(400, 'ValidationError', 'Passwords do not match'),
    });
    const reset = await call('POST', '/api/auth/reset-password', { code, password: 'Reset-123', passwordConfirmation: 'Reset-123' });
    expect(reset.status).toBe(200);
    expect(Object.keys(reset.body).sort()).toEqual(['jwt', 'user']);
    expect((await call('POST', '/api/auth/local', { identifier: 'forgetful', password: 'Reset-123' })).status).toBe(200);
    expect((await call('POST', '/api/auth/reset-password', { code, password: 'Reset-456', passwordConfirmation: 'Reset-456' })).status).toBe(400);

    // A code issued more than an hour ago no longer works.
    const old = `${(Date.now() - 2 * 3_600_000).toString(16).padStart(12, '0')}${'a'.repeat(116)}`;
    await db.execute('UPDATE up_users SET reset_password_token = ? WHERE username = ?', [old, 'forgetful']);
    expect(await call('POST', '/api/auth/reset-password', { code: old, password: 'Reset-789', passwordConfirmation: 'Reset-789' })).toEqual({
      status: 400,
      body: error(400, 'ValidationError', 'Incorrect code provided'),
    });
  });

  it('relates posts to users: populate, filters, and the inverse side on the extended user', async () => {
    const ada = (await call('POST', '/api/auth/local', { identifier: 'ada', password: 'Secret-123' })).body as { jwt: string; user: { id: number; documentId: string } };
    const post = await call('POST', '/api/posts', { data: { title: 'Hello', author: ada.user.documentId, readers: [ada.user.documentId], secret: 'hidden-1' } }, ada.jwt);
    expect(post.status).toBe(201);
    const [stored] = await db.query<{ secret: string }>('SELECT secret FROM posts WHERE document_id = ?', [post.body.data.documentId]);
    expect(stored!.secret).toMatch(/^\$2[ab]\$10\$/);
    const fields = await call('GET', '/api/posts?populate[author][fields][0]=username', undefined, ada.jwt);
    expect(fields.body.data[0].author).toEqual({ id: ada.user.id, documentId: ada.user.documentId, username: 'ada' });
    const withAuthor = await call('GET', '/api/posts?populate[author]=true&populate[readers]=true', undefined, ada.jwt);
    expect(withAuthor.body.data[0].author).toEqual(expect.objectContaining({ username: 'ada' }));
    expect(withAuthor.body.data[0].author).not.toHaveProperty('password');
    expect(withAuthor.body.data[0].readers).toEqual([expect.objectContaining({ username: 'ada' })]);
    const filtered = await call('GET', '/api/posts?filters[author][username][$eq]=ada', undefined, ada.jwt);
    expect(filtered.body.data).toHaveLength(1);
    expect((await call('GET', '/api/posts?filters[author][username][$eq]=grace', undefined, ada.jwt)).body.data).toHaveLength(0);
    expect((await call('GET', '/api/posts?filters[author][password][$null]=false', undefined, ada.jwt)).status).toBe(400);
    const me = await call('GET', '/api/users/me?populate=posts', undefined, ada.jwt);
    expect(me.body.posts).toEqual([expect.objectContaining({ title: 'Hello' })]);
  });

  it('serves login, register and me over GraphQL', async () => {
    const gql = async (query: string, variables: Record<string, unknown> = {}, jwt?: string) => (await call('POST', '/graphql', { query, variables }, jwt)).body;
    const login = await gql('mutation($input: UsersPermissionsLoginInput!) { login(input: $input) { jwt user { id username email confirmed blocked role { name type } } } }', {
      input: { identifier: 'ada', password: 'Secret-123' },
    });
    expect(login.errors).toBeUndefined();
    expect(login.data.login.user).toEqual(expect.objectContaining({ username: 'ada', email: 'ada@example.com', confirmed: true, blocked: false }));
    const jwt = login.data.login.jwt as string;
    const me = await gql('{ me { id documentId username email role { type } } }', {}, jwt);
    expect(me.data.me).toEqual(expect.objectContaining({ username: 'ada', role: { type: 'authenticated' } }));
    const wrong = await gql('mutation { login(input: { identifier: "ada", password: "bad-pass" }) { jwt } }');
    expect(wrong.errors[0].message).toBe('Invalid identifier or password');
    const registered = await gql('mutation($input: UsersPermissionsRegisterInput!) { register(input: $input) { jwt user { username } } }', {
      input: { username: 'gqluser', email: 'gqluser@example.com', password: 'Secret-123' },
    });
    expect(registered.data.register.user.username).toBe('gqluser');
    const posts = await gql('{ posts { title author { username } } }', {}, jwt);
    expect(posts.data.posts).toEqual([{ title: 'Hello', author: { username: 'ada' } }]);
  });

  it("creates, updates and deletes users and roles through the plugin's GraphQL mutations", async () => {
    const jwt = await managerJwt();
    const gql = async (query: string, token = jwt) => (await call('POST', '/graphql', { query }, token)).body;
    const created = await gql(
      'mutation { createUsersPermissionsUser(data: { username: "gqlmade", email: "GQLMADE@example.com", password: "Secret-123" }) { data { documentId username email role { name type } } } }',
    );
    expect(created.errors, JSON.stringify(created)).toBeUndefined();
    expect(created.data.createUsersPermissionsUser.data, JSON.stringify(created)).toEqual(
      expect.objectContaining({ username: 'gqlmade', email: 'gqlmade@example.com', role: { name: 'Authenticated', type: 'authenticated' } }),
    );
    const [row] = await db.query<{ id: number }>('SELECT id FROM up_users WHERE username = ?', ['gqlmade']);
    const [managerRole] = await db.query<{ id: number }>("SELECT id FROM up_roles WHERE type = 'manager'");
    const updated = await gql(`mutation { updateUsersPermissionsUser(id: ${row!.id}, data: { username: "gqlmade2", role: ${managerRole!.id} }) { data { username role { type } } } }`);
    expect(updated.errors, JSON.stringify(updated)).toBeUndefined();
    expect(updated.data.updateUsersPermissionsUser.data).toEqual({ username: 'gqlmade2', role: { type: 'manager' } });
    // The answer is read in one engine call planned from the selection: its relations are read inside the same statement (engine/nested.ts).
    const statements = async (selection: string): Promise<number> => {
      const res = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${jwt}` },
        body: JSON.stringify({ query: `mutation { updateUsersPermissionsUser(id: ${row!.id}, data: { username: "gqlmade2" }) { data { ${selection} } } }` }),
      });
      expect((await res.json()).errors).toBeUndefined();
      return Number(res.headers.get('x-query-count'));
    };
    const bare = await statements('username');
    expect(await statements('username role { type }')).toBe(bare);
    expect(await statements('username role { type } posts { title }')).toBe(bare);
    const plain = (await register('gqlplain')).body.jwt as string;
    const taken = await gql(`mutation { updateUsersPermissionsUser(id: ${row!.id}, data: { username: "gqlplain" }) { data { username } } }`);
    expect(taken.errors[0].message).toBe('Username already taken');
    const deleted = await gql(`mutation { deleteUsersPermissionsUser(id: ${row!.id}) { data { username } } }`);
    expect(deleted.data.deleteUsersPermissionsUser.data.username).toBe('gqlmade2');
    expect(
      (await gql('mutation { createUsersPermissionsUser(data: { username: "nope", email: "nope@example.com", password: "Secret-123" }) { data { username } } }', plain)).errors[0].extensions.code,
    ).toBe('FORBIDDEN');
    const listed = await gql('{ usersPermissionsUsers(filters: { username: { eq: "gqlplain" } }) { username role { type } } }');
    expect(listed.data.usersPermissionsUsers).toEqual([{ username: 'gqlplain', role: { type: 'authenticated' } }]);
    const role = await gql('mutation { createUsersPermissionsRole(data: { name: "Editors", description: "edit things" }) { ok } }');
    expect(role.data.createUsersPermissionsRole).toEqual({ ok: true });
    const [editors] = await db.query<{ id: number; type: string }>("SELECT id, type FROM up_roles WHERE name = 'Editors'");
    expect(editors!.type).toBe('editors');
    expect((await gql(`mutation { updateUsersPermissionsRole(id: ${editors!.id}, data: { description: "edits" }) { ok } }`)).data.updateUsersPermissionsRole).toEqual({ ok: true });
    expect((await gql(`mutation { deleteUsersPermissionsRole(id: ${editors!.id}) { ok } }`)).data.deleteUsersPermissionsRole).toEqual({ ok: true });
    const [publicRole] = await db.query<{ id: number }>("SELECT id FROM up_roles WHERE type = 'public'");
    expect((await gql(`mutation { deleteUsersPermissionsRole(id: ${publicRole!.id}) { ok } }`)).errors[0].message).toBe('Cannot delete public or authenticated roles');
  });

  it('rate-limits sign-in attempts per account and address', async () => {
    await restart({ 'users-permissions': { config: { ratelimit: { max: 3, interval: 60_000 } } } });
    const tooMany = { status: 429, body: error(429, 'RateLimitError', 'Too many requests, please try again later.') };
    const login = (identifier: string, password: string, extra: Record<string, unknown> = {}, path = '/api/auth/local') => call('POST', path, { identifier, password, ...extra });
    try {
      for (let i = 0; i < 3; i += 1) expect((await login('ada', 'wrong-pass')).status).toBe(400);
      expect(await login('ada', 'Secret-123')).toEqual(tooMany);
      // Another account from the same address still gets through.
      expect((await login('grace', 'Secret-123')).status).toBe(200);

      // A field the route does not read (GHSA-7mqx-wwh4-f9fw) does not make another counter.
      await register('emailfield');
      for (let i = 0; i < 3; i += 1) expect((await login('emailfield', 'wrong-pass', { email: `decoy${i}@example.com` })).status).toBe(400);
      expect(await login('emailfield', 'Secret-123', { email: 'decoy9@example.com' })).toEqual(tooMany);

      // Neither do spellings of the path that reach the route.
      await register('spelled');
      const spellings = ['/api/auth/LOCAL', '/api/Auth/Local', '/api/auth/local/', '/API/auth/local'];
      for (const path of spellings.slice(0, 3)) expect((await login('spelled', 'wrong-pass', {}, path)).status).toBe(400);
      expect(await login('spelled', 'Secret-123', {}, spellings[3])).toEqual(tooMany);

      // An account's username and email count together; unknown identifiers are counted too.
      await register('twonames');
      for (const identifier of ['twonames', 'TWONAMES@example.com', 'twonames']) expect((await login(identifier, 'wrong-pass')).status).toBe(400);
      expect(await login('twonames@example.com', 'Secret-123')).toEqual(tooMany);
      for (const identifier of ['ghost', 'Ghost', ' ghost ']) expect((await login(identifier, 'wrong-pass')).status).toBe(400);
      expect(await login('GHOST', 'wrong-pass')).toEqual(tooMany);

      // The password routes key on what they decide on too, not on an `email` the caller adds.
      const { jwt } = (await register('changing')).body as { jwt: string };
      const change = (currentPassword: string, email: string) => call('POST', '/api/auth/change-password', { currentPassword, password: 'Fresh-789', passwordConfirmation: 'Fresh-789', email }, jwt);
      for (let i = 0; i < 3; i += 1) expect((await change('wrong-pass', `decoy${i}@example.com`)).status).toBe(400);
      expect(await change('Secret-123', 'decoy9@example.com')).toEqual(tooMany);
      const reset = (code: string, email: string, path = '/api/auth/reset-password') => call('POST', path, { code, password: 'Fresh-789', passwordConfirmation: 'Fresh-789', email });
      for (let i = 0; i < 3; i += 1) expect((await reset(`guess${i}`, `decoy${i}@example.com`)).status).toBe(400);
      expect(await reset('guess9', 'decoy9@example.com', '/api/auth/Reset-Password/')).toEqual(tooMany);
    } finally {
      await restart();
    }
  });

  it('rate-limits GraphQL sign-in mutations in the same counters as their REST routes', async () => {
    await restart({ 'users-permissions': { config: { ratelimit: { max: 3, interval: 60_000 } } } });
    const login = async (identifier: string, password: string) =>
      (await call('POST', '/graphql', { query: 'mutation($input: UsersPermissionsLoginInput!) { login(input: $input) { jwt } }', variables: { input: { identifier, password } } })).body;
    const refused = {
      message: 'Too many requests, please try again later.',
      path: ['login'],
      extensions: { code: 'STRAPI_RATE_LIMIT_ERROR', error: expect.objectContaining({ name: 'RateLimitError', message: 'Too many requests, please try again later.' }) },
    };
    try {
      // GraphQL alone: the fourth attempt is refused, even with the right password.
      for (let i = 0; i < 3; i += 1) expect((await login('grace', 'wrong-pass')).errors[0].message).toBe('Invalid identifier or password');
      expect(await login('grace', 'Secret-123')).toEqual({ data: null, errors: [refused] });
      // Mixed: two REST attempts and one GraphQL attempt use up the allowance of both.
      for (let i = 0; i < 2; i += 1) expect((await call('POST', '/api/auth/local', { identifier: 'ada', password: 'wrong-pass' })).status).toBe(400);
      expect((await login('ADA@example.com', 'wrong-pass')).errors[0].message).toBe('Invalid identifier or password');
      expect(await login('ada', 'Secret-123')).toEqual({ data: null, errors: [refused] });
      expect((await call('POST', '/api/auth/local', { identifier: 'ada', password: 'Secret-123' })).status).toBe(429);
      // Another mutation's route keeps its own counter, as REST's forgot-password route does.
      const forgot = await call('POST', '/graphql', { query: 'mutation { forgotPassword(email: "ada@example.com") { ok } }' });
      expect(forgot.body).toEqual({ data: { forgotPassword: { ok: true } } });
      // Another identifier from the same address still gets through.
      expect((await login('bob-unknown', 'Secret-123')).errors[0].message).toBe('Invalid identifier or password');
    } finally {
      await restart();
    }
  });

  it('confirms email addresses when confirmation is on', async () => {
    await restart({ 'users-permissions': { config: { advanced: { emailConfirmation: true, emailConfirmationRedirection: 'https://front.example/confirmed' } } } });
    try {
      const made = await register('confirmme');
      expect(made.status).toBe(200);
      expect(Object.keys(made.body)).toEqual(['user']);
      expect(made.body.user.confirmed).toBe(false);
      expect(await call('POST', '/api/auth/local', { identifier: 'confirmme', password: 'Secret-123' })).toEqual({
        status: 400,
        body: error(400, 'ApplicationError', 'Your account email is not confirmed'),
      });
      expect(await call('POST', '/api/auth/local', { identifier: 'confirmme', password: 'wrong-pass' })).toEqual({
        status: 400,
        body: error(400, 'ValidationError', 'Invalid identifier or password'),
      });
      expect(await call('POST', '/api/auth/send-email-confirmation', { email: 'confirmme@example.com' })).toEqual({ status: 200, body: { email: 'confirmme@example.com', sent: true } });
      const [row] = await db.query<{ confirmation_token: string }>('SELECT confirmation_token FROM up_users WHERE username = ?', ['confirmme']);
      expect((await call('GET', '/api/auth/email-confirmation?confirmation=wrong')).body).toEqual(error(400, 'ValidationError', 'Invalid token'));
      const confirmed = await fetch(`${server.url}/api/auth/email-confirmation?confirmation=${row!.confirmation_token}`, { redirect: 'manual' });
      expect(confirmed.status).toBe(302);
      expect(confirmed.headers.get('location')).toBe('https://front.example/confirmed');
      expect((await call('POST', '/api/auth/local', { identifier: 'confirmme', password: 'Secret-123' })).status).toBe(200);
      expect(await call('POST', '/api/auth/send-email-confirmation', { email: 'confirmme@example.com' })).toEqual({ status: 400, body: error(400, 'ApplicationError', 'Already confirmed') });
    } finally {
      await restart();
    }
  });

  it('spends a reset code and a confirmation token once, however many requests race for them', async () => {
    // No rate limit here: it would refuse some of the racing requests for its own reason.
    await restart({ 'users-permissions': { config: { ratelimit: { enabled: false }, advanced: { emailConfirmation: true } } } });
    const tokenOf = async (column: string, username: string): Promise<string> =>
      (await db.query<Record<string, string>>(`SELECT ${column} AS token FROM up_users WHERE username = ?`, [username]))[0]!['token']!;
    try {
      await register('racer');
      const token = await tokenOf('confirmation_token', 'racer');
      const confirmations = await Promise.all(Array.from({ length: 6 }, async () => (await fetch(`${server.url}/api/auth/email-confirmation?confirmation=${token}`, { redirect: 'manual' })).status));
      expect(confirmations.sort()).toEqual([302, 400, 400, 400, 400, 400]);

      expect((await call('POST', '/api/auth/forgot-password', { email: 'racer@example.com' })).status).toBe(200);
      const code = await tokenOf('reset_password_token', 'racer');
      const passwords = Array.from({ length: 6 }, (_, i) => `Reset-${i}00`);
      const resets = await Promise.all(passwords.map((password) => call('POST', '/api/auth/reset-password', { code, password, passwordConfirmation: password })));
      expect(resets.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
      for (const refused of resets.filter((r) => r.status === 400)) expect(refused.body).toEqual(error(400, 'ValidationError', 'Incorrect code provided'));
      // The password set is the winner's: the losers changed nothing.
      const winner = passwords[resets.findIndex((r) => r.status === 200)]!;
      const signIns = await Promise.all(passwords.map(async (password) => (await call('POST', '/api/auth/local', { identifier: 'racer', password })).status));
      expect(signIns).toEqual(passwords.map((password) => (password === winner ? 200 : 400)));
    } finally {
      await restart();
    }
  });

  it('seeds, lists, blocks and unblocks users with `capi user`', async () => {
    const cli = (args: string[]) => capi(['user', ...args, '--project', project], repoRoot, { DATABASE_URL: databaseUrl });
    const made = await cli(['create', '--email', 'Seed@example.com', '--username', 'seeded', '--password', 'Seed-Pass-1', '--role', 'manager']);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toMatch(/created user "seeded" \(id \d+\)/);
    const signedIn = await call('POST', '/api/auth/local', { identifier: 'seed@example.com', password: 'Seed-Pass-1' });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.confirmed).toBe(true);
    expect((await call('GET', '/api/users/count', undefined, signedIn.body.jwt)).status).toBe(200);
    const listed = await cli(['list']);
    expect(listed.stdout).toMatch(/\tseeded\tseed@example.com\tmanager\tactive, confirmed/);
    expect(listed.stdout).not.toMatch(/\$2[ab]\$/);
    const again = await cli(['create', '--email', 'other@example.com', '--username', 'seeded', '--password', 'Seed-Pass-1']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('capi: Username already taken');
    expect((await cli(['create', '--email', 'x@example.com', '--username', 'xrole', '--password', 'Seed-Pass-1', '--role', 'nope'])).stderr).toContain('no role "nope"');
    expect((await cli(['create', '--email', 'y@example.com', '--username', 'yshort', '--password', 'abc'])).stderr).toContain('password must be at least 6 characters');
    expect((await cli(['block', 'seeded'])).code).toBe(0);
    expect((await call('POST', '/api/auth/local', { identifier: 'seeded', password: 'Seed-Pass-1' })).body.error.message).toBe('Your account has been blocked by an administrator');
    expect((await call('GET', '/api/users/me', undefined, signedIn.body.jwt)).status).toBe(401);
    expect((await cli(['unblock', 'seed@example.com'])).code).toBe(0);
    expect((await call('POST', '/api/auth/local', { identifier: 'seeded', password: 'Seed-Pass-1' })).status).toBe(200);
    expect((await cli(['block', 'nobody-here'])).stderr).toContain('no user "nobody-here"');
  }, 180_000); // eight CLI processes, each loading the project: slow on a loaded machine

  it('sends the reset link through SMTP when the smtp provider is configured', async () => {
    const received: string[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, done) {
        let text = '';
        stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
        stream.on('end', () => {
          received.push(text);
          done();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    await restart({
      email: { config: { provider: 'smtp', providerOptions: { host: '127.0.0.1', port }, settings: { defaultFrom: 'no-reply@example.com' } } },
      'users-permissions': {
        config: {
          advanced: { emailResetPasswordUrl: 'https://front.example/reset' },
          emailTemplates: { resetPassword: { subject: 'New password for <%= USER.username %>', message: '<p>Open <%= URL %>?code=<%= TOKEN %></p>' } },
        },
      },
    });
    try {
      await register('mailed');
      expect(await call('POST', '/api/auth/forgot-password', { email: 'mailed@example.com' })).toEqual({ status: 200, body: { ok: true } });
      const [row] = await db.query<{ reset_password_token: string }>('SELECT reset_password_token FROM up_users WHERE username = ?', ['mailed']);
      expect(received).toHaveLength(1);
      // The body is quoted-printable: soft line breaks and =XX escapes.
      const message = received[0]!.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
      expect(message).toContain('To: mailed@example.com');
      expect(message).toContain('From: no-reply@example.com');
      expect(message).toContain('Subject: New password for mailed');
      expect(message).toContain(`https://front.example/reset?code=${row!.reset_password_token}`);
    } finally {
      await restart();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });

  it('refuses registration when it is turned off', async () => {
    await restart({ 'users-permissions': { config: { advanced: { allowRegister: false } } } });
    try {
      expect(await register('latecomer')).toEqual({ status: 400, body: error(400, 'ApplicationError', 'Register action is currently disabled') });
    } finally {
      await restart();
    }
  });
});
