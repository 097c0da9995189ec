/**
 * The budget of one request's reads through HTTP (docs/reliability.md, "Query limits"), on SQLite,
 * PostgreSQL and MariaDB: sizes refused before any SQL runs (engine/budget.ts), the deepest reads
 * the budget admits answered, writes that would answer over budget refused before they write,
 * and, on the server databases, a read that fans out to more rows than it can answer in
 * `api.query.timeoutMs` cancelled by the database with a 503.
 *
 * A file of its own, on a fresh seed: the deep reads here walk to-many relations, whose rows grow
 * with every article other tests add.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, type Client } from '../support/databases.ts';
import { connect } from '../support/sql.ts';
import { request, startSeededServer, type JsonResponse, type TestServer } from './support.ts';

/** An Article filter through `hops` relations (author, articles, author, ...), around `inner` on the last type. */
const through = (hops: number, inner?: string): string => {
  let filter = inner ?? (hops % 2 === 1 ? '{ name: { contains: "a" } }' : '{ title: { contains: "a" } }');
  for (let hop = hops; hop >= 1; hop -= 1) filter = `{ ${hop % 2 === 1 ? 'author' : 'articles'}: ${filter} }`;
  return filter;
};

/** `populate[author][populate][articles]...=true`, `levels` deep from an article. */
const populateChain = (levels: number): string => {
  let key = 'populate';
  for (let level = 1; level <= levels; level += 1) key += `${level === 1 ? '' : '[populate]'}[${level % 2 === 1 ? 'author' : 'articles'}]`;
  return `${key}=true`;
};

/** `count` published articles by one author, written in one statement each (test data, not the API). */
const bulkArticles: Record<Exclude<Client, 'sqlite'>, (count: number, author: string) => string[]> = {
  postgres: (count, author) => [
    `INSERT INTO articles (document_id, title, created_at, updated_at, published_at) SELECT 'bulk' || lpad(g::text, 20, '0'), 'bulk ' || g, now(), now(), now() FROM generate_series(1, ${count}) AS g`,
    `INSERT INTO articles_author_lnk (entity_id, target_document_id, ord, inverse_ord) SELECT id, '${author}', 1, id FROM articles WHERE document_id LIKE 'bulk%'`,
  ],
  mysql: (count, author) => [
    `INSERT INTO articles (document_id, title, created_at, updated_at, published_at) SELECT CONCAT('bulk', LPAD(seq, 20, '0')), CONCAT('bulk ', seq), NOW(3), NOW(3), NOW(3) FROM seq_1_to_${count}`,
    `INSERT INTO articles_author_lnk (entity_id, target_document_id, ord, inverse_ord) SELECT id, '${author}', 1, id FROM articles WHERE document_id LIKE 'bulk%'`,
  ],
};

describe.each(clients)('the query budget over HTTP on %s', (database) => {
  let server: TestServer;
  const gql = (query: string): Promise<JsonResponse> => request(server.url, 'POST', '/graphql', { query });
  const data = async (query: string): Promise<any> => {
    const response = await gql(query);
    expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
    expect(response.status).toBe(200);
    return response.body.data;
  };
  const refusal = async (query: string) => {
    const response = await gql(query);
    expect(response.body.data?.articles ?? null).toBeNull();
    // Refused before any SQL: SQLite failed these with "Expression tree is too large" before.
    expect(response.queries).toBe(0);
    expect(response.status).toBe(400);
    const [error] = response.body.errors as { extensions: { code: string; error: { details: { limit: string } } }; message: string }[];
    expect(error?.extensions.code).toBe('BAD_USER_INPUT');
    return error!;
  };

  beforeAll(async () => {
    server = await startSeededServer(database, 'budget');
  });
  afterAll(() => server.stop());

  it('answers filters through relations, and refuses them deeper than the budget naming the limit', async () => {
    await data(`{ articles(filters: ${through(10)}) { title } }`);
    const error = await refusal(`{ articles(filters: ${through(20)}) { title } }`);
    expect(error.message).toBe('This query walks 20 relations, components or media deep; the maximum is 10 (api.query.maxDepth)');
    expect(error.extensions.error.details).toEqual({ limit: 'maxDepth', maximum: 10, depth: 20 });
  });

  it('refuses a filter whose and/or/not nesting SQLite could not prepare, within the depth', async () => {
    const nots = (levels: number) => `${'{ not: '.repeat(levels)}{ title: { contains: "a" } }${' }'.repeat(levels)}`;
    await data(`{ articles(filters: ${through(10, nots(20))}) { title } }`);
    const error = await refusal(`{ articles(filters: ${through(10, nots(40))}) { title } }`);
    expect(error.extensions.error.details.limit).toBe('expressionDepth');
  });

  it('answers the deepest selection depthLimit allows, and REST a populate as deep as the budget', async () => {
    let selection = '';
    for (let level = 8; level >= 1; level -= 1) selection = level % 2 === 1 ? `author { name ${selection} }` : `articles { title ${selection} }`;
    const { articles } = await data(`{ articles { title ${selection} } }`);
    expect(articles.length).toBeGreaterThan(0);
    expect((await request(server.url, 'GET', `/api/articles?${populateChain(10)}`)).status).toBe(200);
  });

  it('refuses the same over REST with a 400 in the error envelope', async () => {
    let key = 'filters';
    for (let hop = 1; hop <= 11; hop += 1) key += hop % 2 === 1 ? '[author]' : '[articles]';
    const response = await request(server.url, 'GET', `/api/articles?${key}[name][$contains]=a`);
    expect(response.status).toBe(400);
    expect(response.queries).toBe(0);
    expect(response.body).toEqual({
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: 'This query walks 11 relations, components or media deep; the maximum is 10 (api.query.maxDepth)',
        details: { limit: 'maxDepth', maximum: 10, depth: 11 },
      },
    });
  });

  it('measures what a write answers with before it writes: over budget, nothing is written', async () => {
    // From an article, author, category and tags each lead back to articles: four such rounds
    // walk 8 relations deep (within depthLimit) and 240 tables in all, past maxTables (100).
    let articleFields = 'title';
    for (let round = 0; round < 4; round += 1) articleFields = `title author { articles { ${articleFields} } } category { articles { ${articleFields} } } tags { articles { ${articleFields} } }`;
    const refused = await gql(`mutation { createArticle(data: { title: "over budget" }) { ${articleFields} } }`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', error: { details: { limit: 'maxTables' } } });
    // A dotted populate path walks as deep as it is long: 11 relations, past maxDepth (10).
    const deep = `populate=${Array.from({ length: 11 }, (_, i) => (i % 2 === 0 ? 'author' : 'articles')).join('.')}`;
    const rest = await request(server.url, 'POST', `/api/articles?${deep}`, { data: { title: 'over budget' } });
    expect(rest.body.error).toMatchObject({ name: 'ValidationError', details: { limit: 'maxDepth' } });
    expect((await data('{ articles(filters: { title: { eq: "over budget" } }, status: DRAFT) { title } }')).articles).toEqual([]);
  });

  // Last, on the server databases (SQLite has no statement timeout): the articles it adds would
  // make the deep reads above fan out. (A const, so that the narrowing holds in the closures.)
  const client = database;
  if (client !== 'sqlite') {
    describe('the statement timeout', () => {
      beforeAll(async () => {
        const author = Object.values(server.seedMap.documents).find((document) => document.uid === 'api::author.author')!.documentId;
        const sql = await connect(client, server.databaseUrl);
        try {
          for (const statement of bulkArticles[client](2000, author)) await sql.run(statement);
        } finally {
          await sql.close();
        }
        const apiFile = join(server.project, 'config', 'api.json');
        const api = existsSync(apiFile) ? (JSON.parse(readFileSync(apiFile, 'utf8')) as Record<string, unknown>) : {};
        writeFileSync(apiFile, `${JSON.stringify({ ...api, query: { timeoutMs: 300 } }, null, 2)}\n`);
        await server.restart([]);
      });

      it('cancels a read that fans out past api.query.timeoutMs: 503 in the envelope, and the server answers on', async () => {
        // 100 articles x 2000 articles of their author x 2000 again: 400 million rows to write as JSON
        // (without the timeout, this request runs for hours), within every size limit of the budget.
        const response = await request(server.url, 'GET', `/api/articles?${populateChain(4)}&pagination[pageSize]=100`);
        expect(response.status).toBe(503);
        expect(response.body).toEqual({
          data: null,
          error: {
            status: 503,
            name: 'ServiceUnavailableError',
            message: 'The query took longer than the server allows (api.query.timeoutMs): ask for less (fewer populated relations, a smaller page, narrower filters) or try again later',
            details: { limit: 'timeoutMs' },
          },
        });
        const next = await request(server.url, 'GET', '/api/articles?pagination[pageSize]=1');
        expect(next.status).toBe(200);
      });

      it('answers GraphQL the same way, with HTTP 503', async () => {
        const response = await request(server.url, 'POST', '/graphql', {
          query: '{ articles(pagination: { limit: 100 }) { author { articles(pagination: { limit: 5000 }) { author { articles(pagination: { limit: 5000 }) { title } } } } } }',
        });
        expect(response.status).toBe(503);
        expect(response.body.errors?.[0]?.extensions).toMatchObject({ code: 'STRAPI_SERVICE_UNAVAILABLE_ERROR', error: { name: 'ServiceUnavailableError', details: { limit: 'timeoutMs' } } });
      });
    });
  }
});
