/**
 * Signed-in users: a JWT signed with JWT_SECRET acts as the `authenticated` role (or the role its
 * `role` claim names), on SQLite and PostgreSQL; forged, expired or role-less tokens get a 401.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareProject, startReferenceServer, type HarnessOptions } from '../conformance/harness.ts';
import { capi, type RunningServer } from '../support/cli.ts';
import { repoRoot } from '../support/model.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';

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

describe.each(['sqlite', 'postgres'] as const)('signed-in users on %s', (database) => {
  let pg: TestDatabase | undefined;
  let server: RunningServer;

  beforeAll(async () => {
    pg = database === 'postgres' ? await createTestDatabase('capi_users') : undefined;
    const options: HarnessOptions = { database, workDir: join(repoRoot, 'tmp', `users-${database}-${process.pid}`), ...(pg ? { databaseUrl: pg.url } : {}) };
    const project = await prepareProject(options);
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

  it("accepts Strapi's own user tokens, whose subject is the `id` claim", async () => {
    const strapiStyle = await sign({ id: 7 });
    expect((await call('POST', '/api/tags', strapiStyle, { data: { name: 'by-user-7' } })).status).toBe(201);
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
