/**
 * Malformed percent-encoding in a request URL, through HTTP against a generated server on SQLite
 * and PostgreSQL: a path segment any route decodes (content types, single types, uploads, the
 * uploads folder) or a GraphQL GET query string is a 400 ValidationError, never a 500 and never a
 * silently altered value; well-encoded URLs keep working, and a refused write changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients } from '../support/databases.ts';
import { request, startSeededServer, type TestServer } from './support.ts';

const pathError = { status: 400, name: 'ValidationError', message: 'Malformed percent-encoding in the URL path', details: { source: 'path' } };

/** Truncated, non-hex, overlong, lone-continuation and surrogate sequences. */
const MALFORMED = ['%E0%A4%A', '%ZZ', '%E0', '%', '%4', '%C0%AF', '%80', '%ED%A0%80', 'ok%E0%A4%Aok'];

describe.each(clients)('malformed percent-encoding on %s', (database) => {
  let server: TestServer;
  const call = (method: string, path: string, body?: unknown) => request(server.url, method, path, body);
  const doc = (label: string): string => server.seedMap.documents[label]?.documentId ?? '';
  const media = (label: string): number => server.seedMap.media[label]?.id ?? 0;
  const graphqlGet = async (query: string) => {
    const res = await fetch(`${server.url}/graphql?${query}`, { headers: { 'apollo-require-preflight': '1' } });
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    server = await startSeededServer(database, 'encoding');
  });
  afterAll(() => server.stop());

  it('is a 400 in every path segment a route decodes', async () => {
    for (const bad of MALFORMED) {
      for (const path of [`/api/products/${bad}`, `/api/${bad}`, `/api/upload/files/${bad}`, `/uploads/${bad}`, `/api/global/${bad}`, `/${bad}/api/tags`]) {
        const answer = await call('GET', path);
        expect({ path, status: answer.status, body: answer.body }).toEqual({ path, status: 400, body: { data: null, error: pathError } });
      }
    }
  });

  it('refuses writes and deletes before touching anything', async () => {
    const tag = doc('tag-01');
    const before = (await call('GET', `/api/tags/${tag}`)).body.data;
    expect((await call('PUT', `/api/tags/${tag}%E0`, { data: { name: 'renamed' } })).status).toBe(400);
    expect((await call('DELETE', `/api/tags/${tag}%ZZ`)).status).toBe(400);
    expect((await call('DELETE', `/api/upload/files/${media('img-red')}%E0%A4%A`)).status).toBe(400);
    expect((await call('POST', '/api/tags/%E0', { data: { name: 'never-created' } })).status).toBe(400);
    expect((await call('GET', `/api/tags/${tag}`)).body.data).toEqual(before);
    expect((await call('GET', `/api/upload/files/${media('img-red')}`)).status).toBe(200);
    expect((await call('GET', '/api/tags?filters[name][$eq]=never-created')).body.data).toEqual([]);
  });

  it('still serves well-encoded paths: encoded characters, an encoded slash, an unknown id', async () => {
    expect((await call('GET', `/api/tags/${doc('tag-02')}`)).status).toBe(200);
    expect((await call('GET', '/api/products/%C3%A9t%C3%A9')).body.error).toMatchObject({ status: 404, name: 'NotFoundError' });
    expect((await call('GET', '/api/products/a%2Fb')).status).toBe(404);
    expect((await call('GET', '/api/upload/files/%31')).status).toBe(200);
  });

  it('keeps malformed sequences in a REST query string as written, as Strapi does', async () => {
    const answer = await call('GET', '/api/tags?filters[name][$eq]=%E0%A4%A');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual([]);
  });

  it("is a 400 ValidationError in a GraphQL GET query string, in Strapi's GraphQL error shape", async () => {
    const query = encodeURIComponent('{ tags(filters: { name: { eq: "x" } }) { name } }');
    const refused = [`query=${query.replace('x', '%E0%A4%A')}`, `query=${query}&variables=%7B%22a%22%3A%22%ZZ%22%7D`, `query=${query}&operationName=%E0`, `query=%ZZ`];
    for (const search of refused) {
      const answer = await graphqlGet(search);
      expect({ search, ...answer }).toEqual({
        search,
        status: 400,
        body: {
          errors: [
            {
              message: 'Malformed percent-encoding in the query string',
              extensions: { code: 'BAD_USER_INPUT', error: { name: 'ValidationError', message: 'Malformed percent-encoding in the query string', details: { source: 'query' } } },
            },
          ],
        },
      });
    }
    const accepted = await graphqlGet(`query=${encodeURIComponent('{ tags(filters: { name: { eq: "tag-03" } }) { name } }')}`);
    expect(accepted).toEqual({ status: 200, body: { data: { tags: [{ name: 'tag-03' }] } } });
  });
});
