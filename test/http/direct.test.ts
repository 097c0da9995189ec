/**
 * The direct path (templates/runtime/direct.ts) against Express, on every database (test/support/databases.ts): two
 * servers of one generated project on one database, one answering the content API's reads and
 * GraphQL POSTs directly (the default) and one with `CAPI_DIRECT_PATH=0` (everything through
 * Express), must give every request the same status, headers and body. The project runs
 * Strapi's default middleware list plus compression, so helmet's headers, CORS, the request id,
 * the request log and compressed answers are all compared. A project with a custom route that
 * takes a core path keeps that path on Express, where the custom route answers it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareProject, seed, startReferenceServer, type HarnessOptions } from '../conformance/harness.ts';
import { capi, type RunningServer } from '../support/cli.ts';
import { repoRoot } from '../support/model.ts';
import { clients, createServerDatabase } from '../support/databases.ts';
import type { TestDatabase } from '../support/postgres.ts';
import type { SeedMap } from './support.ts';

interface Probe {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Fixed, so that both servers echo the same one; a request without one gets a fresh UUID (checked apart). */
const REQUEST_ID = 'direct-test-0001';

async function ask(base: string, probe: Probe): Promise<Answer> {
  const res = await fetch(`${base}${probe.path}`, {
    method: probe.method ?? 'GET',
    headers: { 'x-request-id': REQUEST_ID, ...probe.headers },
    ...(probe.body === undefined ? {} : { body: probe.body }),
  });
  const headers = Object.fromEntries([...res.headers.entries()].filter(([name]) => name !== 'date'));
  return { status: res.status, headers, body: await res.text() };
}

const json = { 'content-type': 'application/json' };
const gql = (query: string, variables?: Record<string, unknown>): Probe => ({
  method: 'POST',
  path: '/graphql',
  headers: json,
  body: JSON.stringify({ query, ...(variables === undefined ? {} : { variables }) }),
});

function probes(seedMap: SeedMap): Probe[] {
  const article = Object.values(seedMap.documents).find((document) => document.uid === 'api::article.article')?.documentId ?? 'missing';
  return [
    { path: '/api/tags?pagination[pageSize]=2' },
    { path: '/api/articles?populate=*' },
    { path: '/api/articles?populate[author][populate][0]=avatar&populate[tags]=true&populate[seo][populate]=*&populate[blocks][on][shared.quote]=true' },
    { path: `/api/articles/${article}?populate[category]=true&fields[0]=title` },
    { path: `/api/articles/${article}?status=draft&locale=fr` },
    { path: '/api/about?populate=*' },
    { path: '/api/global' },
    // Errors: unknown document, bad query, malformed path, bad credentials.
    { path: '/api/articles/no-such-document' },
    { path: '/api/articles?filters[nope][$eq]=1' },
    { path: '/api/articles?sort=nothing:asc' },
    { path: '/api/articles?pagination[pageSize]=abc' },
    { path: '/api/articles/%E0%A4%A' },
    { path: '/api/articles/a%00b' },
    { path: '/api/articles', headers: { authorization: 'Bearer not-a-token' } },
    { path: '/api/articles', headers: { authorization: 'Basic abc' } },
    // What the table does not hold: Express answers both servers alike.
    { path: '/api/articles/' },
    { path: '/API/articles' },
    { path: '/api/nothing-here' },
    { method: 'PATCH', path: '/api/articles' },
    { method: 'HEAD', path: '/api/tags' },
    { method: 'DELETE', path: '/api/about', headers: { authorization: 'Bearer not-a-token' } },
    // CORS: a preflight, and a read from another origin.
    { method: 'OPTIONS', path: '/api/articles', headers: { origin: 'https://example.com', 'access-control-request-method': 'GET' } },
    { path: '/api/tags', headers: { origin: 'https://example.com' } },
    // Compression (strapi::compression is on in this project): above and below its threshold.
    { path: '/api/articles?populate=*', headers: { 'accept-encoding': 'gzip' } },
    { path: '/api/tags?pagination[pageSize]=1&fields[0]=name', headers: { 'accept-encoding': 'gzip' } },
    { path: '/api/articles', headers: { 'accept-encoding': 'br' } },
    // GraphQL: a query, variables, a validation error, a syntax error, bad input, no body, bad JSON, a form post.
    gql('{ articles { title author { name avatar { url } } tags { name } } }'),
    gql('query Q($size: Int) { tags_connection(pagination: { pageSize: $size }) { nodes { name } pageInfo { total } } }', { size: 2 }),
    gql('{ articles { nope } }'),
    gql('{ articles { title '),
    gql('query Q($size: Int) { tags(pagination: { pageSize: $size }) { name } }', { size: 'many' }),
    gql('mutation { deleteTag(documentId: "no-such-tag") { documentId } }'),
    { method: 'POST', path: '/graphql', headers: json, body: '{"query": ' },
    { method: 'POST', path: '/graphql', headers: json },
    { method: 'POST', path: '/graphql', headers: { 'content-type': 'text/plain' }, body: '{ articles { title } }' },
    { method: 'POST', path: '/graphql', headers: { ...json, 'accept-encoding': 'gzip' }, body: JSON.stringify({ query: '{ articles { title slug } }' }) },
    { method: 'POST', path: '/graphql', headers: { ...json, authorization: 'Bearer not-a-token' }, body: JSON.stringify({ query: '{ tags { name } }' }) },
    { method: 'GET', path: '/graphql?query=%7B%20tags%20%7B%20name%20%7D%20%7D', headers: { 'apollo-require-preflight': '1' } },
    // What the lean GraphQL path (graphql/lean.ts) must leave to Apollo, or answer as Apollo does:
    // a named operation among several, another Accept, an extensions key, an error raised while
    // executing, introspection.
    { method: 'POST', path: '/graphql', headers: json, body: JSON.stringify({ query: 'query A { tags { name } } query B { articles { title } }', operationName: 'B' }) },
    { method: 'POST', path: '/graphql', headers: { ...json, accept: 'application/graphql-response+json' }, body: JSON.stringify({ query: '{ tags { name } }' }) },
    { method: 'POST', path: '/graphql', headers: json, body: JSON.stringify({ query: '{ tags { name } }', extensions: {} }) },
    gql('query Q($size: Int) { tags(pagination: { pageSize: $size }) { name } }', { size: -1 }),
    gql('{ __typename __schema { queryType { name } } }'),
  ];
}

describe.each(clients)('the direct path on %s', (database) => {
  let pg: TestDatabase | undefined;
  let direct: RunningServer;
  let express: RunningServer;
  let seedMap: SeedMap;

  beforeAll(async () => {
    pg = database === 'sqlite' ? undefined : await createServerDatabase(database, 'capi_direct');
    const options: HarnessOptions = { database, workDir: join(repoRoot, 'tmp', `direct-${database}-${process.pid}`), ...(pg === undefined ? {} : { databaseUrl: pg.url }) };
    const project = await prepareProject(options);
    const middlewares = JSON.parse(readFileSync(join(project, 'config', 'middlewares.json'), 'utf8')) as unknown[];
    writeFileSync(join(project, 'config', 'middlewares.json'), JSON.stringify([...middlewares, 'strapi::compression']));
    direct = await startReferenceServer(project, options, { CAPI_QUERY_COUNT: '1', LOG_LEVEL: 'debug' });
    seedMap = JSON.parse(readFileSync(await seed(direct, options.workDir), 'utf8')) as SeedMap;
    express = await startReferenceServer(project, options, { CAPI_QUERY_COUNT: '1', CAPI_DIRECT_PATH: '0' });
  }, 240_000);
  afterAll(async () => {
    await direct?.stop();
    await express?.stop();
    await pg?.drop();
  });

  it('takes the content reads and GraphQL POSTs, not the writes', () => {
    const line = /direct path: ([^"\n]*)/.exec(direct.output())?.[1] ?? '';
    expect(line).toContain('GET /api/articles, GET /api/articles/:documentId');
    expect(line).toContain('GET /api/about');
    expect(line).toContain('POST /graphql');
    expect(line).not.toMatch(/POST \/api|PUT|DELETE|upload|users/);
  });

  it('answers every request with the status, headers and body Express gives it, the second time too (from the query plans and known documents)', async () => {
    for (const pass of [1, 2]) {
      for (const probe of probes(seedMap)) {
        const [ours, theirs] = [await ask(direct.url, probe), await ask(express.url, probe)];
        expect(ours, `pass ${pass}: ${probe.method ?? 'GET'} ${probe.path} ${probe.body ?? ''}`).toEqual(theirs);
      }
    }
  });

  it('sends the security headers, a request id and the statement count', async () => {
    const answer = await fetch(`${direct.url}/api/tags`);
    expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(answer.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(answer.headers.get('x-powered-by')).toBe('capi');
    // A list with its total: one statement (rendered on SQLite and PostgreSQL, rows on MariaDB).
    expect(answer.headers.get('x-query-count')).toBe('1');
    const compressed = await ask(direct.url, { path: '/api/articles?populate=*', headers: { 'accept-encoding': 'gzip' } });
    expect(compressed.headers['content-encoding']).toBe('gzip');
    const graphql = await ask(direct.url, gql('{ tags { name } }'));
    expect(graphql.headers['x-query-count']).toBe('1');
  });
});

describe('the direct path with a custom route on a core path (sqlite)', () => {
  let server: RunningServer;
  const options: HarnessOptions = { database: 'sqlite', workDir: join(repoRoot, 'tmp', `direct-extended-${process.pid}`) };

  beforeAll(async () => {
    const project = await prepareProject(options);
    // A route of the tag type on the articles' list path: Strapi answers custom routes first.
    writeFileSync(
      join(project, 'src', 'extensions', 'index.ts'),
      [
        "import { defineExtensions } from '../runtime/extensions/types.ts';",
        'export const extensions = defineExtensions({',
        "  contentTypes: { 'api::tag.tag': { routes: [{ method: 'GET', path: '/articles', handler: 'pinned', auth: false }], controller: () => ({ pinned: async () => ({ data: 'pinned' }) }) } },",
        '});',
        '',
      ].join('\n'),
    );
    const again = await capi(['generate', '--content-types', join(repoRoot, 'test', 'fixtures', 'conformance', 'content-types'), '--out', project, '--database', 'sqlite', '--quiet']);
    if (again.code !== 0) throw new Error(`capi generate failed:\n${again.stderr}${again.stdout}`);
    server = await startReferenceServer(project, options, { LOG_LEVEL: 'debug' });
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('leaves the REST reads to Express, where the custom route answers', async () => {
    const line = /direct path: ([^"\n]*)/.exec(server.output())?.[1] ?? '';
    expect(line).not.toContain('/api/');
    expect(line).toContain('POST /graphql');
    const answer = await fetch(`${server.url}/api/articles`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ data: 'pinned' });
  });
});
