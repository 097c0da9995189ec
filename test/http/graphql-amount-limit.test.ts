/**
 * graphql.config.amountLimit through HTTP, on every database (test/support/databases.ts): every list and `_connection`
 * field returns at most amountLimit entries, at the root and nested in documents, whatever page
 * size is asked (`limit`, `limit: -1`, `pageSize`, or none), lowered silently as Strapi lowers a
 * size above maxLimit; pageInfo reports the lowered size.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients } from '../support/databases.ts';
import { request, startSeededServer, type TestServer } from './support.ts';

const AMOUNT_LIMIT = 3;
/** More articles on one tag than amountLimit lets through. */
const ARTICLES = 6;

describe.each(clients)('GraphQL amountLimit on %s', (database) => {
  let server: TestServer;
  let tagId = '';
  const data = async (query: string): Promise<any> => {
    const response = await request(server.url, 'POST', '/graphql', { query });
    expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
    expect(response.status).toBe(200);
    return response.body.data;
  };

  beforeAll(async () => {
    server = await startSeededServer(database, 'gqlamount');
    const { createTag } = await data('mutation { createTag(data: { name: "amount-limit" }) { documentId } }');
    tagId = createTag.documentId as string;
    for (let i = 0; i < ARTICLES; i++) await data(`mutation { createArticle(data: { title: "amount ${i}", slug: "amount-${i}", tags: ["${tagId}"] }) { documentId } }`);
    const path = join(server.project, 'config', 'plugins.json');
    const plugins = JSON.parse(readFileSync(path, 'utf8')) as { graphql: { config: Record<string, unknown> } };
    plugins.graphql.config.amountLimit = AMOUNT_LIMIT;
    writeFileSync(path, JSON.stringify(plugins, null, 2));
    await server.restart([]);
  }, 240_000);
  afterAll(() => server?.stop());

  it('lowers root lists and connections to amountLimit, for limit, limit -1, pageSize and no pagination', async () => {
    const read = await data(`{
      big: tags(pagination: { limit: 50 }) { name }
      all: tags(pagination: { limit: -1 }) { name }
      none: tags { name }
      small: tags(pagination: { limit: 2 }) { name }
      page2: tags(pagination: { page: 2, pageSize: 50 }) { name }
      page1: tags(pagination: { page: 1, pageSize: 50 }) { name }
      connection: tags_connection(pagination: { limit: 50 }) { nodes { name } pageInfo { pageSize page total } }
    }`);
    expect(read.big).toHaveLength(AMOUNT_LIMIT);
    expect(read.all).toHaveLength(AMOUNT_LIMIT);
    expect(read.none).toHaveLength(AMOUNT_LIMIT);
    expect(read.small).toHaveLength(2);
    expect(read.page2).toHaveLength(AMOUNT_LIMIT);
    // Pages follow each other at the lowered size.
    const all = await data(`{ tags_connection { pageInfo { total } } }`);
    expect(all.tags_connection.pageInfo.total).toBeGreaterThan(2 * AMOUNT_LIMIT);
    expect(read.page2.map((t: { name: string }) => t.name)).not.toEqual(read.page1.map((t: { name: string }) => t.name));
    expect(read.connection.nodes).toHaveLength(AMOUNT_LIMIT);
    expect(read.connection.pageInfo).toMatchObject({ pageSize: AMOUNT_LIMIT, page: 1, total: all.tags_connection.pageInfo.total });
  });

  it('lowers lists and connections nested in documents, at every level', async () => {
    const read = await data(`{
      tag(documentId: "${tagId}") {
        articles(pagination: { limit: 50 }) { slug }
        everything: articles(pagination: { limit: -1 }) { slug }
        articles_connection(pagination: { pageSize: 50 }) { nodes { slug } }
        deeper: articles(pagination: { limit: 1 }) {
          tags(pagination: { limit: 50 }) { articles(pagination: { limit: -1 }) { slug } articles_connection { nodes { slug } } }
        }
      }
    }`);
    expect(read.tag.articles).toHaveLength(AMOUNT_LIMIT);
    expect(read.tag.everything).toHaveLength(AMOUNT_LIMIT);
    expect(read.tag.articles_connection.nodes).toHaveLength(AMOUNT_LIMIT);
    const [article] = read.tag.deeper;
    const inner = article.tags.find((t: { articles: unknown[] }) => t.articles.length > 0);
    expect(inner.articles).toHaveLength(AMOUNT_LIMIT);
    expect(inner.articles_connection.nodes).toHaveLength(AMOUNT_LIMIT);
  });
});
