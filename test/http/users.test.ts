/**
 * Signed-in users: a JWT signed with JWT_SECRET acts as the `authenticated` role (or the role its
 * `role` claim names), on SQLite and PostgreSQL; forged, expired or role-less tokens get a 401,
 * and a token without `exp` lives users-permissions `jwt.expiresIn` (30 days) from its `iat`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareProject, startReferenceServer, type HarnessOptions } from '../conformance/harness.ts';
import { capi, type RunningServer } from '../support/cli.ts';
import { repoRoot } from '../support/model.ts';
import { clients, createServerDatabase } from '../support/databases.ts';
import type { TestDatabase } from '../support/postgres.ts';

const SECRET = 'users-test-jwt-secret';
const UP = 'plugin::users-permissions';
/** What the `admin` role may do with users and roles (Strapi's role routes and the users CRUD). */
const USER_ADMIN = ['user.create', 'user.update', 'user.find', 'role.find', 'role.findOne', 'role.createRole', 'role.updateRole', 'role.deleteRole'].map((a) => `${UP}.${a}`);
const PERMISSIONS = {
  public: ['api::tag.tag.find', `${UP}.auth.callback`],
  authenticated: ['api::tag.tag.find', 'api::tag.tag.create'],
  editor: ['api::tag.tag.find', 'api::tag.tag.create', 'api::tag.tag.delete'],
  admin: USER_ADMIN,
};

const sign = (claims: Record<string, unknown>, options: { secret?: string; expires?: string | number } = {}) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime(options.expires ?? '1h')
    .sign(new TextEncoder().encode(options.secret ?? SECRET));

const DAY = 86_400;
const now = (): number => Math.floor(Date.now() / 1000);

/** A JWT with exactly these claims: no `iat` or `exp` unless given. */
const signClaims = (claims: Record<string, unknown>) => new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(SECRET));

describe.each(clients)('signed-in users on %s', (database) => {
  let pg: TestDatabase | undefined;
  let server: RunningServer;
  let options: HarnessOptions;
  let project: string;

  beforeAll(async () => {
    pg = database === 'sqlite' ? undefined : await createServerDatabase(database, 'capi_users');
    options = { database, workDir: join(repoRoot, 'tmp', `users-${database}-${process.pid}`), ...(pg ? { databaseUrl: pg.url } : {}) };
    project = await prepareProject(options);
    writeFileSync(join(project, 'config', 'permissions.json'), JSON.stringify(PERMISSIONS));
    server = await startReferenceServer(project, options, { JWT_SECRET: SECRET });
  });

  afterAll(async () => {
    await server.stop();
    await pg?.drop();
  });

  const call = (method: string, path: string, bearer?: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it('acts as the authenticated role for a valid JWT, and as public without one', async () => {
    expect((await call('POST', '/api/tags', undefined, { data: { name: 'anon' } })).status).toBe(403);
    const user = await sign({ sub: 'alice' });
    const created = await call('POST', '/api/tags', user, { data: { name: 'by-alice' } });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { data: { documentId: string } }).data.documentId;
    expect((await call('DELETE', `/api/tags/${id}`, user)).status).toBe(403);
    const editor = await sign({ sub: 'bob', role: 'editor' });
    expect((await call('DELETE', `/api/tags/${id}`, editor)).status).toBe(204);
  });

  it('looks up the account of a users-permissions token (an `id` claim): none, and it is refused', async () => {
    // Accounts and their tokens are tested in sign-in.test.ts; a token for no account is a 401.
    const strapiStyle = await sign({ id: 7 });
    expect((await call('POST', '/api/tags', strapiStyle, { data: { name: 'by-user-7' } })).status).toBe(401);
  });

  it('answers 401 for a forged, expired, subject-less or role-less JWT', async () => {
    const refused = [
      await sign({ sub: 'mallory' }, { secret: 'another-secret' }),
      await sign({ sub: 'alice' }, { expires: Math.floor(Date.now() / 1000) - 60 }),
      await sign({}),
      await sign({ sub: 'alice', role: 'public' }),
      await sign({ sub: 'alice', role: 'superuser' }),
    ];
    for (const jwt of refused) {
      const res = await call('GET', '/api/tags', jwt);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { name: string } }).error.name).toBe('UnauthorizedError');
    }
  });

  it('accepts a JWT without exp for 30 days after its iat, and refuses one without iat or from the future', async () => {
    const status = async (jwt: string): Promise<number> => (await call('GET', '/api/tags', jwt)).status;
    expect(await status(await signClaims({ sub: 'alice', iat: now() }))).toBe(200);
    expect(await status(await signClaims({ sub: 'alice', iat: now() - 29 * DAY }))).toBe(200);
    expect(await status(await signClaims({ sub: 'alice', iat: now() - 31 * DAY }))).toBe(401);
    expect(await status(await signClaims({ sub: 'alice' }))).toBe(401);
    expect(await status(await signClaims({ sub: 'alice', iat: now() + DAY }))).toBe(401);
    // A token that says when it expires is judged by that alone, however old.
    expect(await status(await signClaims({ sub: 'alice', iat: now() - 365 * DAY, exp: now() + 3600 }))).toBe(200);
    expect(await status(await signClaims({ sub: 'alice', exp: now() + 3600 }))).toBe(200);
    const refused = await call('GET', '/api/tags', await signClaims({ sub: 'alice', iat: now() - 31 * DAY }));
    expect(await refused.json()).toEqual({ data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } });
  });

  it('takes that lifetime from users-permissions jwt.expiresIn in config/plugins.json', async () => {
    const plugins = join(project, 'config', 'plugins.json');
    const reference = readFileSync(plugins, 'utf8');
    writeFileSync(plugins, JSON.stringify({ ...JSON.parse(reference), 'users-permissions': { config: { jwt: { expiresIn: '2h' } } } }));
    await server.stop();
    server = await startReferenceServer(project, options, { JWT_SECRET: SECRET });
    try {
      expect((await call('GET', '/api/tags', await signClaims({ sub: 'alice', iat: now() - 3600 }))).status).toBe(200);
      expect((await call('GET', '/api/tags', await signClaims({ sub: 'alice', iat: now() - 3 * 3600 }))).status).toBe(401);
    } finally {
      writeFileSync(plugins, reference);
      await server.stop();
      server = await startReferenceServer(project, options, { JWT_SECRET: SECRET });
    }
  });

  it('signs tokens the server accepts with `capi jwt`', async () => {
    const signed = await capi(['jwt', '--subject', 'carol', '--role', 'editor', '--expires-in-hours', '2'], repoRoot, { JWT_SECRET: SECRET });
    expect(signed.code).toBe(0);
    const jwt = signed.stdout.trim();
    const created = await call('POST', '/api/tags', jwt, { data: { name: 'by-carol' } });
    expect(created.status).toBe(201);
    const unsigned = await capi(['jwt', '--subject', 'carol'], repoRoot, { JWT_SECRET: '' });
    expect(unsigned.code).toBe(1);
    expect(unsigned.stderr).toContain('capi: set JWT_SECRET');
  });

  const json = async (method: string, path: string, bearer?: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const res = await call(method, path, bearer, body);
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
  };
  const envelope = (status: number, name: string, message: string) => expect.objectContaining({ data: null, error: expect.objectContaining({ status, name, message }) });
  const roleOf = async (admin: string, type: string): Promise<{ id: number; documentId: string; nb_users: number }> =>
    (await json('GET', '/api/users-permissions/roles', admin)).body.roles.find((r: { type: string }) => r.type === type);
  const signIn = async (identifier: string): Promise<string> => {
    const res = await json('POST', '/api/auth/local', undefined, { identifier, password: 'Secret-123' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.jwt as string;
  };
  const tagTree = (actions: Record<string, boolean>) => ({ 'api::tag': { controllers: { tag: Object.fromEntries(Object.entries(actions).map(([a, enabled]) => [a, { enabled, policy: '' }])) } } });

  it("creates, shows, updates and deletes roles with Strapi's role routes; a new role's permissions apply at once and after a restart", async () => {
    const admin = await sign({ sub: 'root', role: 'admin' });
    const body = { name: 'Content Reviewer', description: 'reviews tags', permissions: tagTree({ find: true, delete: true, create: false }) };
    expect((await json('POST', '/api/users-permissions/roles', await sign({ sub: 'alice' }), body)).status).toBe(403);
    expect(await json('POST', '/api/users-permissions/roles', admin, body)).toEqual({ status: 200, body: { ok: true } });
    const reviewer = await roleOf(admin, 'content_reviewer');
    expect(reviewer).toEqual(expect.objectContaining({ name: 'Content Reviewer', description: 'reviews tags', nb_users: 0 }));
    const shown = await json('GET', `/api/users-permissions/roles/${reviewer.id}`, admin);
    expect(shown.body.role.permissions['api::tag'].controllers.tag).toEqual(
      expect.objectContaining({ find: { enabled: true, policy: '' }, delete: { enabled: true, policy: '' }, create: { enabled: false, policy: '' } }),
    );

    // A user of the new role acts with its actions, without a restart.
    const made = await json('POST', '/api/users', admin, { username: 'reviewer1', email: 'reviewer1@example.com', password: 'Secret-123', role: reviewer.id });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.role).toEqual(expect.objectContaining({ id: reviewer.id, type: 'content_reviewer' }));
    let jwt = await signIn('reviewer1');
    const tag = (await json('POST', '/api/tags', await sign({ sub: 'alice' }), { data: { name: 'to-review' } })).body.data.documentId as string;
    expect((await call('POST', '/api/tags', jwt, { data: { name: 'by-reviewer' } })).status).toBe(403);
    expect((await call('DELETE', `/api/tags/${tag}`, jwt)).status).toBe(204);

    expect(await json('PUT', `/api/users-permissions/roles/${reviewer.id}`, admin, { name: 'Reviewer', permissions: tagTree({ find: true, create: true }) })).toEqual({
      status: 200,
      body: { ok: true },
    });
    expect((await call('POST', '/api/tags', jwt, { data: { name: 'by-reviewer' } })).status).toBe(201);
    const second = (await json('POST', '/api/tags', jwt, { data: { name: 'by-reviewer-2' } })).body.data.documentId as string;
    expect((await call('DELETE', `/api/tags/${second}`, jwt)).status).toBe(403);

    await server.stop();
    server = await startReferenceServer(project, options, { JWT_SECRET: SECRET });
    jwt = await signIn('reviewer1');
    expect((await call('POST', '/api/tags', jwt, { data: { name: 'after-restart' } })).status).toBe(201);
    expect((await roleOf(admin, 'content_reviewer')).nb_users).toBe(1);

    // The roles config/permissions.json names keep its actions; their name and description may change.
    const authenticated = await roleOf(admin, 'authenticated');
    expect(await json('PUT', `/api/users-permissions/roles/${authenticated.id}`, admin, { permissions: tagTree({ delete: true }) })).toEqual({
      status: 400,
      body: envelope(400, 'ApplicationError', 'The permissions of role "authenticated" are set in config/permissions.json: change them there (npx capi permissions grant|revoke)'),
    });
    expect((await json('PUT', `/api/users-permissions/roles/${authenticated.id}`, admin, { description: 'Signed-in people' })).body).toEqual({ ok: true });

    // Refusals, in Strapi's envelope.
    expect(await json('POST', '/api/users-permissions/roles', admin, {})).toEqual({ status: 400, body: envelope(400, 'ValidationError', 'Request body cannot be empty') });
    expect(await json('POST', '/api/users-permissions/roles', admin, { name: 'Bad', permissions: tagTree({ publish: true }) })).toEqual({
      status: 400,
      body: envelope(400, 'ValidationError', 'Unknown action: api::tag.tag.publish'),
    });
    expect(await json('POST', '/api/users-permissions/roles', admin, { name: 'Reviewer', type: 'content_reviewer' })).toEqual({
      status: 400,
      body: envelope(400, 'ApplicationError', 'This role already exists'),
    });
    expect((await json('PUT', '/api/users-permissions/roles/999999', admin, { name: 'x' })).status).toBe(404);
    expect((await json('DELETE', '/api/users-permissions/roles/abc', admin)).status).toBe(404);
    expect((await json('DELETE', `/api/users-permissions/roles/${(await roleOf(admin, 'public')).id}`, admin)).status).toBe(400);
    expect((await json('DELETE', `/api/users-permissions/roles/${(await roleOf(admin, 'editor')).id}`, admin)).body).toEqual(
      envelope(400, 'ApplicationError', 'Role "editor" is set in config/permissions.json: remove it there'),
    );

    // Deleting a role moves its users to the public role, as Strapi does; its actions go with it.
    expect(await json('DELETE', `/api/users-permissions/roles/${reviewer.id}`, admin)).toEqual({ status: 200, body: { ok: true } });
    expect(await roleOf(admin, 'content_reviewer')).toBeUndefined();
    expect((await json('GET', '/api/users?filters[username][$eq]=reviewer1&populate=role', admin)).body[0].role.type).toBe('public');
    expect((await call('POST', '/api/tags', jwt, { data: { name: 'after-delete' } })).status).toBe(403);
    expect(await json('POST', '/api/users-permissions/roles', admin, { name: 'Content Reviewer' })).toEqual({ status: 200, body: { ok: true } });
    const again = await json('GET', `/api/users-permissions/roles/${(await roleOf(admin, 'content_reviewer')).id}`, admin);
    expect(again.body.role.permissions['api::tag'].controllers.tag.create).toEqual({ enabled: false, policy: '' });
  });

  it("takes a user's role in every relation form on create and update, answers with it, and ignores keys that are not attributes", async () => {
    const admin = await sign({ sub: 'root', role: 'admin' });
    const editor = await roleOf(admin, 'editor');
    const forms: Array<[string, unknown]> = [
      ['id', editor.id],
      ['documentId', editor.documentId],
      ['connect-id', { connect: [{ id: editor.id }] }],
      ['connect-documentId', { connect: [{ documentId: editor.documentId }] }],
      ['set', { set: [{ id: editor.id }] }],
    ];
    for (const [form, role] of forms) {
      const made = await json('POST', '/api/users', admin, { username: `form-${form}`, email: `form-${form}@example.com`, password: 'Secret-123', role });
      expect(made.status, `${form}: ${JSON.stringify(made.body)}`).toBe(201);
      expect(made.body.role, form).toEqual(expect.objectContaining({ id: editor.id, documentId: editor.documentId, type: 'editor', name: 'Editor' }));
    }
    const plain = await json('POST', '/api/users', admin, { username: 'form-default', email: 'form-default@example.com', password: 'Secret-123' });
    expect(plain.body.role).toEqual(expect.objectContaining({ type: 'authenticated' }));

    const authenticated = await roleOf(admin, 'authenticated');
    const moved = await json('PUT', `/api/users/${plain.body.id}`, admin, { role: { connect: [{ documentId: editor.documentId }] } });
    expect(moved.body.role).toEqual(expect.objectContaining({ type: 'editor' }));
    const back = await json('PUT', `/api/users/${plain.body.id}`, admin, { role: { set: [{ id: authenticated.id }] } });
    expect(back.body.role).toEqual(expect.objectContaining({ type: 'authenticated' }));
    // Strapi's update drops keys that are not attributes of the user.
    const renamed = await json('PUT', `/api/users/${plain.body.id}`, admin, { username: 'form-renamed', notAnAttribute: 1, id: 12345, documentId: 'x' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body).toEqual(expect.objectContaining({ id: plain.body.id, documentId: plain.body.documentId, username: 'form-renamed' }));
    expect(renamed.body).not.toHaveProperty('notAnAttribute');
    expect((await json('POST', '/api/users', admin, { username: 'form-bad', email: 'form-bad@example.com', password: 'Secret-123', role: { connect: [{ id: 999999 }] } })).body).toEqual(
      envelope(400, 'ValidationError', 'role must be an existing role id'),
    );
  });
});
