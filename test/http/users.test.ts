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
const PERMISSIONS = {
  public: ['api::tag.tag.find'],
  authenticated: ['api::tag.tag.find', 'api::tag.tag.create'],
  editor: ['api::tag.tag.find', 'api::tag.tag.create', 'api::tag.tag.delete'],
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
});
