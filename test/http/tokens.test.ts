/**
 * API tokens end to end, on SQLite and PostgreSQL: created with the CLI, sent as
 * `Authorization: Bearer`, checked per action; bad, expired and revoked tokens get a 401.
 */
import { createHmac } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { prepareProject, restrictPermissions, startReferenceServer, type HarnessOptions } from '../conformance/harness.ts';
import { capi, startServer, type RunningServer } from '../support/cli.ts';
import { repoRoot } from '../support/model.ts';
import { clients, createServerDatabase } from '../support/databases.ts';
import type { TestDatabase } from '../support/postgres.ts';
import { connect, type Sql } from '../support/sql.ts';

const SALT = 'test-salt-that-is-long-enough-to-be-a-secret';
const WRITES = ['api::tag.tag.create', 'api::tag.tag.update', 'api::tag.tag.delete', 'api::article.article.create', 'plugin::upload.content-api.upload'];

describe.each(clients)('API tokens on %s', (database) => {
  let pg: TestDatabase | undefined;
  let server: RunningServer;
  let project: string;
  let databaseUrl: string;
  let sql: Sql;
  const env = () => ({ DATABASE_URL: databaseUrl, API_TOKEN_SALT: SALT });
  const token = (...args: string[]) => capi(['token', ...args, '--project', project], repoRoot, env());
  const create = async (...args: string[]): Promise<string> => {
    const result = await token('create', ...args);
    expect(result.code, result.stderr).toBe(0);
    return result.stdout.trim();
  };
  const call = (method: string, path: string, bearer?: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  beforeAll(async () => {
    pg = database === 'sqlite' ? undefined : await createServerDatabase(database, 'capi_tokens');
    const options: HarnessOptions = { database, workDir: join(repoRoot, 'tmp', `tokens-${database}-${process.pid}`), ...(pg ? { databaseUrl: pg.url } : {}) };
    project = await prepareProject(options);
    restrictPermissions(project, WRITES);
    databaseUrl = database === 'sqlite' ? `file:${join(options.workDir, 'conformance.db')}` : (pg?.url ?? '');
    server = await startReferenceServer(project, options, { API_TOKEN_SALT: SALT });
    sql = await connect(database, databaseUrl);
  });

  afterAll(async () => {
    await sql.close();
    await server.stop();
    await pg?.drop();
  });

  it('lets the public role read but not write', async () => {
    expect((await call('GET', '/api/tags')).status).toBe(200);
    const refused = await call('POST', '/api/tags', undefined, { data: { name: 'anonymous' } });
    expect(refused.status).toBe(403);
  });

  it('grants everything to a full-access token, and stores only its HMAC', async () => {
    const secret = await create('--name', 'deploy', '--type', 'full-access');
    expect(secret).toMatch(/^[0-9a-f]{256}$/);
    const created = await call('POST', '/api/tags', secret, { data: { name: 'by-token' } });
    expect(created.status).toBe(201);
    const [row] = await sql.all(`SELECT access_key FROM capi_api_tokens WHERE name = 'deploy'`);
    expect(row?.access_key).toBe(createHmac('sha512', SALT).update(secret).digest('hex'));
    expect(JSON.stringify(await sql.all('SELECT * FROM capi_api_tokens'))).not.toContain(secret);
  });

  it('lets a read-only token read everything and write nothing', async () => {
    const secret = await create('--name', 'reader', '--type', 'read-only');
    expect((await call('GET', '/api/internal-notes', secret)).status).toBe(200);
    expect((await call('POST', '/api/tags', secret, { data: { name: 'nope' } })).status).toBe(403);
  });

  it('lets a custom token do exactly its listed actions', async () => {
    const secret = await create('--name', 'tagger', '--type', 'custom', '--permission', 'api::tag.tag.create', 'api::tag.tag.find');
    expect((await call('POST', '/api/tags', secret, { data: { name: 'custom-made' } })).status).toBe(201);
    expect((await call('GET', '/api/tags', secret)).status).toBe(200);
    expect((await call('GET', '/api/articles', secret)).status).toBe(403);
    expect((await call('POST', '/api/articles', secret, { data: { title: 'x' } })).status).toBe(403);
  });

  it("answers one query string per caller's read permissions, whoever asked first (the REST query plans)", async () => {
    const secret = await create('--name', 'articles-only', '--type', 'custom', '--permission', 'api::article.article.find');
    // Filtering or sorting through category needs its find: the public role has it, the token not.
    for (const path of ['/api/articles?filters[category][name][$notNull]=true', '/api/articles?sort=category.name:asc']) {
      for (let round = 0; round < 2; round += 1) {
        expect((await call('GET', path)).status, `public ${path}`).toBe(200);
        const refused = await call('GET', path, secret);
        expect(refused.status, `token ${path}`).toBe(400);
        expect(((await refused.json()) as { error: { name: string } }).error.name).toBe('ValidationError');
      }
    }
  });

  it('answers 401 for an unknown token, a malformed header and an expired token', async () => {
    const unknown = await call('GET', '/api/tags', 'f'.repeat(256));
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual({ data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } });
    const basic = await fetch(`${server.url}/api/tags`, { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expect(basic.status).toBe(401);
    const secret = await create('--name', 'short-lived', '--type', 'read-only', '--expires-in-days', '1');
    expect((await call('GET', '/api/tags', secret)).status).toBe(200);
    // MySQL takes a timestamp literal without the zone suffix (its sessions run in UTC).
    const past = database === 'mysql' ? '2020-01-01 00:00:00.000' : '2020-01-01T00:00:00.000Z';
    await sql.run(`UPDATE capi_api_tokens SET expires_at = '${past}' WHERE name = 'short-lived'`);
    expect((await call('GET', '/api/tags', secret)).status).toBe(401);
  });

  it('lists tokens without their secret and revokes them', async () => {
    const secret = await create('--name', 'temporary', '--type', 'full-access');
    const listed = await token('list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('temporary\tfull-access');
    expect(listed.stdout).toContain('tagger\tcustom [api::tag.tag.create, api::tag.tag.find]');
    expect(listed.stdout).not.toContain(secret);
    expect((await call('GET', '/api/tags', secret)).status).toBe(200);
    expect((await token('revoke', 'temporary')).code).toBe(0);
    expect((await call('GET', '/api/tags', secret)).status).toBe(401);
    const again = await token('revoke', 'temporary');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('capi: no token named "temporary"');
  });

  it('logs that API_TOKEN_SALT changed when the stored tokens were made with another salt; the request still gets 401', async () => {
    const secret = await create('--name', 'before-rotation', '--type', 'read-only');
    const rotated = await startServer(project, { DATABASE_URL: databaseUrl, NODE_ENV: 'production', LOG_LEVEL: 'warn', API_TOKEN_SALT: 'a-different-salt-after-a-redeploy' });
    try {
      const refused = await fetch(`${rotated.url}/api/tags`, { headers: { authorization: `Bearer ${secret}` } });
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual({ data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } });
      const saltLines = () =>
        rotated
          .output()
          .split('\n')
          .filter((line) => line.includes('API_TOKEN_SALT changed'));
      // Once at start-up, once for the refused request: the server's output reaches this process
      // through a pipe, so the second line may arrive just after the response.
      await vi.waitFor(() => expect(saltLines()).toHaveLength(2));
      const errors = saltLines();
      expect(JSON.parse(errors[1] ?? '{}')).toMatchObject({
        level: 50,
        msg: expect.stringMatching(/^API_TOKEN_SALT changed: \d+ API token\(s\) were created with another salt and are refused \(401\); restore the previous API_TOKEN_SALT or create new tokens$/),
      });
      expect(rotated.output()).not.toContain(secret);
    } finally {
      await rotated.stop();
    }
  });

  it('refuses to start in production without API_TOKEN_SALT once tokens exist, naming it in one line', async () => {
    const started = startServer(project, { DATABASE_URL: databaseUrl, NODE_ENV: 'production', LOG_LEVEL: 'warn', API_TOKEN_SALT: '' });
    await expect(started).rejects.toThrow('capi: API_TOKEN_SALT is not set: the database holds API tokens, which are checked with it (set it in the environment or in .env; see .env.example)');
  });

  it('refuses to start in production without JWT_SECRET, naming it in one line', async () => {
    const started = startServer(project, { DATABASE_URL: databaseUrl, NODE_ENV: 'production', API_TOKEN_SALT: SALT, JWT_SECRET: '' });
    await expect(started).rejects.toThrow('capi: JWT_SECRET is not set: users sign in with JWTs signed with it (set it in the environment or in .env; see .env.example)');
  });

  it("reads the project's .env, where the real environment wins", async () => {
    const secret = await create('--name', 'dotenv', '--type', 'read-only');
    const dotenv = join(project, '.env');
    // PORT and DATABASE_URL come from the environment the test gives; .env's lose.
    writeFileSync(dotenv, `# a comment\nAPI_TOKEN_SALT="${SALT}"\nPORT=1\nDATABASE_URL=file:./elsewhere.db\nLOG_LEVEL=warn\n`);
    try {
      const server = await startServer(project, { DATABASE_URL: databaseUrl, NODE_ENV: 'production', API_TOKEN_SALT: undefined });
      try {
        expect((await fetch(`${server.url}/api/tags`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(200);
        expect(server.output()).not.toContain('listening');
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(dotenv);
    }
  });

  it('refuses bad token requests with one line and exit code 1', async () => {
    const cases: [string[], string][] = [
      [['--name', 'x', '--type', 'custom'], 'a custom token needs at least one --permission'],
      [['--name', 'x', '--type', 'custom', '--permission', 'api::nope.nope.find'], 'unknown action(s): api::nope.nope.find'],
      [['--name', 'deploy', '--type', 'read-only'], 'a token named "deploy" already exists'],
      [['--name', 'x', '--type', 'read-only', '--expires-in-days', '0'], '--expires-in-days must be a whole number of days, at least 1'],
    ];
    for (const [args, message] of cases) {
      const result = await token('create', ...args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr).toContain(`capi: ${message}`);
    }
    const unsalted = await capi(['token', 'create', '--name', 'x', '--type', 'read-only', '--project', project], repoRoot, { DATABASE_URL: databaseUrl, API_TOKEN_SALT: '' });
    expect(unsalted.code).toBe(1);
    expect(unsalted.stderr).toContain('capi: set API_TOKEN_SALT');
  });
});
