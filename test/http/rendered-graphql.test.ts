/**
 * GraphQL queries answered with JSON the database writes (graphql/rendered.ts) against graphql-js
 * executing the same query over rows, on every database: two servers of one generated project on
 * one database, one with `CAPI_RENDERED_READS=0`, must answer every query with the same status,
 * headers and body, byte for byte. Each query is sent twice: Apollo answers the first (and the
 * lean path learns the document), the rendered path the second. Statement counts show which path
 * answered; values only JavaScript prints right make the rendered read fall back, still equal.
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareProject, seed, startReferenceServer, type HarnessOptions } from '../conformance/harness.ts';
import type { RunningServer } from '../support/cli.ts';
import { repoRoot } from '../support/model.ts';
import { clients, createServerDatabase } from '../support/databases.ts';
import type { TestDatabase } from '../support/postgres.ts';
import { connect } from '../support/sql.ts';
import type { SeedMap } from './support.ts';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly statements: number;
}

async function ask(base: string, query: string, variables?: Record<string, unknown>): Promise<Answer> {
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-request-id': 'rendered-graphql-test' },
    body: JSON.stringify(variables === undefined ? { query } : { query, variables }),
  });
  const kept = [...res.headers.entries()].filter(([name]) => name !== 'date' && name !== 'x-query-count');
  return { status: res.status, headers: Object.fromEntries(kept), body: await res.text(), statements: Number(res.headers.get('x-query-count')) };
}

/** The answer without its statement count, which differs by design. */
function shown({ statements: _, ...answer }: Answer): Omit<Answer, 'statements'> {
  return answer;
}

interface Probe {
  readonly query: string;
  readonly variables?: Record<string, unknown>;
}

function probes(seedMap: SeedMap): Probe[] {
  const of = (uid: string) => Object.values(seedMap.documents).find((document) => document.uid === uid)?.documentId ?? 'missing';
  return [
    { query: '{ articles { title author { name avatar { url } } tags { name } category { name articles { title } } } }' },
    { query: '{ tags_connection(pagination: { pageSize: 20 }) { nodes { name articles { title } } pageInfo { total } } }' },
    {
      query:
        'query Q { __typename a: articles(sort: "title:desc", pagination: { limit: 3 }) { __typename t: title ...F category { __typename name } } } fragment F on Article { slug documentId readingTime featured createdAt }',
    },
    {
      query:
        '{ articles(pagination: { limit: 50 }) { blocks { __typename ... on ComponentSharedQuote { id title body } ... on ComponentSharedSlider { files { url mime size } } ... on ComponentSharedArticleCard { article { title } } } seo { metaTitle shareImage { url formats } metaSocial { socialNetwork title } } } }',
    },
    {
      query:
        '{ tags { name articles(pagination: { limit: 2 }) { title } a2: articles(pagination: { start: 1, limit: 1 }) { title } articles_connection(pagination: { pageSize: 1, page: 2 }) { __typename nodes { title } } } }',
    },
    { query: '{ tags { name articles(sort: "title:desc", filters: { title: { contains: "a" } }) { title } } }' },
    { query: '{ tags { name x: articles(sort: "title:desc") { title } y: articles(sort: "title:asc") { title } } }' },
    {
      query:
        '{ products { name slug summary notes contactEmail stock serialNumber price weight inStock releaseDate availableAt openingTime size specs gallery { url } manual { name } variants(pagination: { limit: 1 }) { id sku price dimensions { id width unit } image { url } } category { slug } relatedProducts { name } reviewArticle { title } } }',
    },
    { query: '{ global { siteName siteDescription favicon { url } defaultSeo { metaTitle } } about { blocks { __typename ... on ComponentSharedRichText { body } } } }' },
    { query: 'query One($id: ID!) { article(documentId: $id) { documentId title tags { name } } }', variables: { id: of('api::article.article') } },
    { query: 'query One($id: ID!) { article(documentId: $id) { title } }', variables: { id: 'no-such-document' } },
    { query: '{ pages(locale: "fr") { title locale theme localizations { title locale } localizations_connection { nodes { locale } } } }' },
    { query: '{ pages(locale: "en", sort: "sortOrder") { title sortOrder category { name articles(pagination: { limit: 1 }) { title } } } }' },
    { query: '{ articles(status: DRAFT) { title publishedAt } }' },
    {
      query:
        '{ articles_connection(pagination: { page: 2, pageSize: 2 }) { __typename pageInfo { __typename total page pageSize pageCount } nodes { title } } tags_connection(pagination: { start: 1, limit: -1 }) { pageInfo { pageSize pageCount } } }',
    },
    {
      query: 'query Some($skip: Boolean!, $size: Int) { articles(pagination: { pageSize: $size }) { title slug @skip(if: $skip) tags @include(if: $skip) { name } } }',
      variables: { skip: true, size: 2 },
    },
    {
      query: 'query Some($skip: Boolean!, $size: Int) { articles(pagination: { pageSize: $size }) { title slug @skip(if: $skip) tags @include(if: $skip) { name } } }',
      variables: { skip: false, size: 3 },
    },
    { query: '{ articles(filters: { category: { slug: { eq: "tech" } } }) { title } categories { name articles_connection { nodes { title } } } }' },
    { query: '{ uploadFiles(pagination: { limit: 3 }) { name url width formats provider_metadata } }' },
    // graphql-js answers these (a field with a resolver of its own, a forbidden read, a bad argument): the same either way.
    { query: '{ uploadFiles { name related { __typename } } }' },
    { query: '{ internalNotes { title } }' },
    { query: '{ articles(pagination: { page: 1, limit: 2 }) { title } }' },
    { query: '{ articles(filters: { nope: { eq: 1 } }) { title } }' },
  ];
}

describe.each(clients)('rendered GraphQL against graphql-js on %s', (database) => {
  let pg: TestDatabase | undefined;
  let rendered: RunningServer;
  let rows: RunningServer;
  let seedMap: SeedMap;
  let databaseUrl: string;

  beforeAll(async () => {
    pg = database === 'sqlite' ? undefined : await createServerDatabase(database, 'capi_rendered_gql');
    const options: HarnessOptions = { database, workDir: join(repoRoot, 'tmp', `rendered-gql-${database}-${process.pid}`), ...(pg === undefined ? {} : { databaseUrl: pg.url }) };
    databaseUrl = pg?.url ?? `file:${join(options.workDir, 'conformance.db')}`;
    const project = await prepareProject(options);
    rendered = await startReferenceServer(project, options, { CAPI_QUERY_COUNT: '1' });
    seedMap = JSON.parse(readFileSync(await seed(rendered, options.workDir), 'utf8')) as SeedMap;
    rows = await startReferenceServer(project, options, { CAPI_QUERY_COUNT: '1', CAPI_RENDERED_READS: '0' });
  }, 240_000);
  afterAll(async () => {
    await rendered?.stop();
    await rows?.stop();
    await pg?.drop();
  });

  it('answers every query with the same status, headers and body, three times', async () => {
    for (const { query, variables } of probes(seedMap)) {
      const expected = shown(await ask(rows.url, query, variables));
      for (const pass of [1, 2, 3]) expect(shown(await ask(rendered.url, query, variables)), `pass ${pass}: ${query} ${JSON.stringify(variables)}`).toEqual(expected);
    }
  });

  it('answers a root field in one statement, the total included', async () => {
    if (database === 'mysql') return; // MariaDB writes no JSON text: graphql-js answers.
    const statements = async (query: string) => {
      await ask(rendered.url, query);
      return (await ask(rendered.url, query)).statements;
    };
    expect(await statements('{ articles { title author { name avatar { url } } tags { name } category { name articles { title } } } }')).toBe(1);
    expect(await statements('{ tags_connection(pagination: { pageSize: 20 }) { nodes { name articles { title } } pageInfo { total } } }')).toBe(1);
    expect(await statements('{ a: articles { title } t: tags { name } __typename }')).toBe(2);
    // A list derived in memory (two sorts of one relation) is graphql-js': rows, one statement too.
    expect(await statements('{ tags { x: articles(sort: "title:desc") { title } y: articles(sort: "title:asc") { title } } }')).toBe(1);
  });

  it('falls back to graphql-js for values only JavaScript prints right', async () => {
    const sql = await connect(database, databaseUrl);
    try {
      await sql.run('UPDATE products SET weight = 0.30000000000000004');
    } finally {
      await sql.close();
    }
    const query = '{ products { name weight } }';
    const expected = shown(await ask(rows.url, query));
    expect(expected.body).toContain('"weight":0.30000000000000004');
    for (const pass of [1, 2, 3]) expect(shown(await ask(rendered.url, query)), `pass ${pass}`).toEqual(expected);
  });
});
