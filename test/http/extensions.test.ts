/**
 * A project's own code (src/extensions/) through a generated server, on SQLite and PostgreSQL:
 * it survives `capi generate` (and `--check` ignores it), as do the user's package.json edits;
 * each kind of extension takes effect through REST and GraphQL; a failing hook rolls its write back.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareProject, startReferenceServer, type HarnessOptions } from '../conformance/harness.ts';
import { capi, type RunningServer } from '../support/cli.ts';
import { repoRoot } from '../support/model.ts';
import { clients, createServerDatabase } from '../support/databases.ts';
import type { TestDatabase } from '../support/postgres.ts';
import { signUserJwt } from '../../templates/runtime/user-jwt.ts';
import { request } from './support.ts';

const JWT_SECRET = 'extensions-test-jwt-secret-of-enough-length';
/** A second file of the user's own, beside index.ts. */
const HELPER = "export const ownerOf = (principal: string): string | undefined => (principal.startsWith('user:') ? principal.slice(5) : undefined);\n";

const conformanceTypes = join(repoRoot, 'test', 'fixtures', 'conformance', 'content-types');
const extensionSource = readFileSync(join(repoRoot, 'test', 'fixtures', 'extensions', 'index.ts.txt'), 'utf8');

describe.each(clients)('extensions on %s', (database) => {
  let pg: TestDatabase | undefined;
  let options: HarnessOptions;
  let project: string;
  let server: RunningServer;
  const gql = (query: string) => request(server.url, 'POST', '/graphql', { query });
  const state = async () => (await request(server.url, 'GET', '/_ext/state')).body as { registered: boolean; bootstrapped: boolean; documentCalls: string[]; committed: string[] };
  const tagsNamed = async (name: string) =>
    (await request(server.url, 'GET', `/api/tags?filters[name][$eq]=${encodeURIComponent(name)}&fields[0]=name&fields[1]=weight`)).body.data as { name: string; weight: number }[];

  beforeAll(async () => {
    pg = database === 'sqlite' ? undefined : await createServerDatabase(database, 'capi_extensions');
    options = { database, workDir: join(repoRoot, 'tmp', `extensions-${database}-${process.pid}`), ...(pg === undefined ? {} : { databaseUrl: pg.url }) };
    project = await prepareProject(options);
    writeFileSync(join(project, 'src', 'extensions', 'index.ts'), extensionSource);
    mkdirSync(join(project, 'src', 'extensions', 'policies'), { recursive: true });
    writeFileSync(join(project, 'src', 'extensions', 'policies', 'helpers.ts'), HELPER);
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { scripts: Record<string, string>; dependencies: Record<string, string> };
    pkg.scripts.lint = 'eslint src/extensions';
    // A dependency of the user's own: one capi's node_modules already holds, so no install runs.
    pkg.dependencies['commander'] = '^14.0.3';
    writeFileSync(join(project, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
    const again = await capi(['generate', '--content-types', conformanceTypes, '--out', project, '--database', database, '--quiet']);
    if (again.code !== 0) throw new Error(`capi generate failed:\n${again.stderr}${again.stdout}`);
    server = await startReferenceServer(project, options, { JWT_SECRET });
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
    await pg?.drop();
  });

  it('survives capi generate, which keeps package.json edits, and --check ignores it', async () => {
    expect(readFileSync(join(project, 'src', 'extensions', 'index.ts'), 'utf8')).toBe(extensionSource);
    expect(readFileSync(join(project, 'src', 'extensions', 'policies', 'helpers.ts'), 'utf8')).toBe(HELPER);
    expect(JSON.parse(readFileSync(join(project, 'capi-manifest.json'), 'utf8')).files.filter((f: string) => f.startsWith('src/extensions/'))).toEqual([]);
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { scripts: Record<string, string>; dependencies: Record<string, string> };
    expect(pkg.scripts.lint).toBe('eslint src/extensions');
    expect(pkg.scripts.start).toBe('tsc -p tsconfig.json && node dist/main.js');
    expect(pkg.dependencies['commander']).toBe('^14.0.3');
    expect(pkg.dependencies.express).toBeDefined();
    const check = await capi(['generate', '--check', '--content-types', conformanceTypes, '--out', project, '--database', database]);
    expect(check.code, check.stdout + check.stderr).toBe(0);
  });

  it('runs register and bootstrap, and Express middlewares before and after the content API', async () => {
    expect(await state()).toMatchObject({ registered: true, bootstrapped: true });
    const tags = await fetch(`${server.url}/api/tags`);
    expect(tags.headers.get('x-ext-before')).toBe('1');
    // GraphQL too: a project middleware sees every request, the direct path included.
    const graphql = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ tags { name } }' }) });
    expect(graphql.status).toBe(200);
    expect(graphql.headers.get('x-ext-before')).toBe('1');
    // And the access check after them: a bad token is refused on GraphQL as on REST.
    const badToken = { 'content-type': 'application/json', authorization: 'Bearer not-a-token' };
    const refusedRest = await fetch(`${server.url}/api/tags`, { headers: badToken });
    const refusedGraphql = await fetch(`${server.url}/graphql`, { method: 'POST', headers: badToken, body: JSON.stringify({ query: '{ tags { name } }' }) });
    expect(refusedRest.status).toBe(401);
    expect(refusedGraphql.status).toBe(401);
    expect((await request(server.url, 'GET', '/_ext/after')).body).toEqual({ after: true });
    expect((await request(server.url, 'GET', '/nowhere')).status).toBe(404);
  });

  it('a wrapping controller, the default query (the request overrides it key by key) and a custom route with auth off', async () => {
    for (const name of ['alpha', 'beta']) expect((await request(server.url, 'POST', '/api/tags', { data: { name } })).status).toBe(201);
    const list = await request(server.url, 'GET', '/api/tags');
    expect(list.body.meta.wrapped).toBe(true);
    const names = (list.body.data as { name: string }[]).map((t) => t.name);
    expect(names).toEqual([...names].sort().reverse());
    expect(Object.keys(list.body.data[0]).sort()).toEqual(['documentId', 'id', 'name']);
    const ascending = (await request(server.url, 'GET', '/api/tags?sort=name:asc')).body.data.map((t: { name: string }) => t.name);
    expect(ascending).toEqual([...names].reverse());
    const byName = await request(server.url, 'GET', '/api/tags/by-name/beta');
    expect(byName.status).toBe(200);
    expect(byName.body.data.map((t: { name: string }) => t.name)).toEqual(['beta']);
    expect(byName.body.meta.shouted).toBe('BETA');
  });

  it('a custom route with auth on needs its own permission', async () => {
    const guarded = await request(server.url, 'GET', '/api/tags/guarded/beta');
    expect(guarded.status).toBe(403);
    expect(guarded.body.error.name).toBe('ForbiddenError');
  });

  it('a policy refuses with 403 PolicyError; a route middleware runs around the action', async () => {
    const denied = await fetch(`${server.url}/api/tags`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-deny': '1' }, body: JSON.stringify({ data: { name: 'denied' } }) });
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({ data: null, error: { status: 403, name: 'PolicyError', message: 'Policy Failed', details: {} } });
    expect(await tagsNamed('denied')).toEqual([]);
    const allowed = await fetch(`${server.url}/api/tags`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { name: 'allowed' } }) });
    expect(allowed.status).toBe(201);
    expect(allowed.headers.get('x-tag-middleware')).toBe('201');
  });

  it('lifecycle hooks change the data inside the write, through REST and GraphQL', async () => {
    const created = await request(server.url, 'POST', '/api/tags', { data: { name: '  spaced  ' } });
    expect(created.status).toBe(201);
    expect(await tagsNamed('spaced')).toEqual([{ id: expect.any(Number), documentId: created.body.data.documentId, name: 'spaced', weight: 42 }]);
    const viaGraphql = await gql('mutation { createTag(data: { name: "  gql  " }) { documentId name weight } }');
    expect(viaGraphql.body.errors).toBeUndefined();
    expect(viaGraphql.body.data.createTag).toMatchObject({ name: 'gql', weight: 42 });
    // afterCommit runs after the answer is sent (it reads the committed entry first), so it is awaited here.
    await expect.poll(async () => (await state()).committed).toContain(`create api::tag.tag ${created.body.data.documentId}`);
    await expect.poll(async () => (await state()).committed).toContain(`create api::tag.tag ${viaGraphql.body.data.createTag.documentId}`);
    const { documentCalls } = await state();
    expect(documentCalls).toContain('create api::tag.tag');
    expect(documentCalls).toContain('findMany api::tag.tag');
  });

  it('a failing hook rolls its write back, through REST and GraphQL', async () => {
    const refused = await request(server.url, 'POST', '/api/tags', { data: { name: 'refused' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ name: 'ApplicationError', message: 'refused by a hook' });
    const refusedGql = await gql('mutation { createTag(data: { name: "refused" }) { documentId } }');
    expect(refusedGql.body.errors?.[0]?.message).toBe('refused by a hook');
    expect(await tagsNamed('refused')).toEqual([]);

    const [kept] = await tagsNamed('alpha');
    const failed = await request(server.url, 'PUT', `/api/tags/${(kept as unknown as { documentId: string }).documentId}`, { data: { name: 'fail-after', weight: 7 } });
    expect(failed.status).toBe(400);
    expect(failed.body.error.message).toBe('failed after the write');
    const failedGql = await gql(`mutation { updateTag(documentId: "${(kept as unknown as { documentId: string }).documentId}", data: { name: "fail-after" }) { name } }`);
    expect(failedGql.body.errors?.[0]?.message).toBe('failed after the write');
    expect(await tagsNamed('fail-after')).toEqual([]);
    expect(await tagsNamed('alpha')).toEqual([kept]);
    expect((await state()).committed.some((line) => line.startsWith('update '))).toBe(false);
  });

  it('GraphQL: added types and resolvers, a permission scope and a policy per field, a disabled mutation', async () => {
    expect((await gql('{ hello(name: "Ada") }')).body.data).toEqual({ hello: 'Hello Ada' });
    const secret = await gql('{ secretHello }');
    expect(secret.body.errors?.[0]).toMatchObject({ message: 'Forbidden access', extensions: { code: 'FORBIDDEN' } });
    const refused = await gql('{ tag(documentId: "forbiddenforbiddenforbid") { name } }');
    expect(refused.body.errors?.[0]?.message).toBe('Policy Failed');
    const [beta] = (await request(server.url, 'GET', '/api/tags?filters[name][$eq]=beta')).body.data as { documentId: string }[];
    expect((await gql(`{ tag(documentId: "${beta!.documentId}") { name } }`)).body.data).toEqual({ tag: { name: 'beta' } });
    const deleted = await gql(`mutation { deleteTag(documentId: "${beta!.documentId}") { documentId } }`);
    expect(deleted.body.errors?.[0]?.message).toMatch(/Cannot query field "deleteTag" on type "Mutation"/);
    expect(await tagsNamed('beta')).toHaveLength(1);
  });

  it('the is-owner policy of docs/extending.md: only the author, signed in, may change an article', async () => {
    const author = await request(server.url, 'POST', '/api/authors', { data: { name: 'Ada', email: 'ada@example.com' } });
    expect(author.status).toBe(201);
    const article = await request(server.url, 'POST', '/api/articles', { data: { title: 'Mine', author: author.body.data.documentId } });
    expect(article.status).toBe(201);
    const path = `/api/articles/${article.body.data.documentId}`;
    const put = async (subject: string | undefined) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (subject !== undefined) headers.authorization = `Bearer ${await signUserJwt({ subject, expiresInHours: 1 }, new TextEncoder().encode(JWT_SECRET))}`;
      const res = await fetch(`${server.url}${path}`, { method: 'PUT', headers, body: JSON.stringify({ data: { title: `by ${subject}` } }) });
      return { status: res.status, body: (await res.json()) as any };
    };
    expect((await put(undefined)).body.error).toMatchObject({ status: 403, name: 'PolicyError' });
    expect((await put('bob@example.com')).body.error).toMatchObject({ status: 403, name: 'PolicyError' });
    const owner = await put('ada@example.com');
    expect(owner.status).toBe(200);
    expect(owner.body.data.title).toBe('by ada@example.com');
  });
});
