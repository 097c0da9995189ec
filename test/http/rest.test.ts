/**
 * The REST content API through HTTP against a generated server, on SQLite and PostgreSQL:
 * writes and their validation, draft & publish, relations, private data, permissions, and the
 * number of SQL statements a request costs. (Reads are covered case by case by the conformance
 * suite in test/conformance.)
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients } from '../support/databases.ts';
import { request, startSeededServer, type TestServer } from './support.ts';

const DOCUMENT_ID = /^[a-z][a-z0-9]{23}$/;

describe.each(clients)('REST API on %s', (database) => {
  let server: TestServer;
  const call = (method: string, path: string, body?: unknown) => request(server.url, method, path, body);
  const doc = (label: string): string => server.seedMap.documents[label]?.documentId ?? '';
  const media = (label: string): number => server.seedMap.media[label]?.id ?? 0;

  beforeAll(async () => {
    server = await startSeededServer(database, 'rest');
  });
  afterAll(() => server.stop());

  describe('writes', () => {
    it('creates, reads, updates and deletes a document', async () => {
      const created = await call('POST', '/api/tags', { data: { name: 'brand-new', weight: 3 } });
      expect(created.status).toBe(201);
      expect(created.body.meta).toEqual({});
      expect(created.body.data).toMatchObject({ name: 'brand-new', weight: 3 });
      expect(created.body.data.documentId).toMatch(DOCUMENT_ID);
      expect(typeof created.body.data.id).toBe('number');
      const id = created.body.data.documentId as string;

      const updated = await call('PUT', `/api/tags/${id}`, { data: { weight: 4 } });
      expect(updated.status).toBe(200);
      expect(updated.body.data).toMatchObject({ documentId: id, name: 'brand-new', weight: 4 });

      const removed = await call('DELETE', `/api/tags/${id}`);
      expect(removed.status).toBe(204);
      expect(removed.body).toBeUndefined();
      expect((await call('GET', `/api/tags/${id}`)).status).toBe(404);
      // Strapi answers 204 for a document that does not exist, too.
      expect((await call('DELETE', `/api/tags/${id}`)).status).toBe(204);
      expect((await call('PUT', `/api/tags/${id}`, { data: { weight: 5 } })).status).toBe(404);
    });

    it('refuses a body without data, unknown keys and system keys', async () => {
      const missing = await call('POST', '/api/tags', { name: 'x' });
      expect(missing.status).toBe(400);
      expect(missing.body.error).toMatchObject({ name: 'ValidationError', message: 'Missing "data" payload in the request body' });
      const unknown = await call('POST', '/api/tags', { data: { name: 'x', nope: 1 } });
      expect(unknown.body.error).toEqual({ status: 400, name: 'ValidationError', message: 'Invalid key nope', details: { key: 'nope', source: 'body' } });
      const system = await call('POST', '/api/tags', { data: { name: 'x', documentId: 'abc' } });
      expect(system.status).toBe(400);
      expect(system.body.error.message).toBe('Invalid key documentId');
      const malformed = await call('POST', '/api/tags', '{"data": {');
      expect(malformed.status).toBe(400);
      expect(malformed.body.error.name).toBe('ValidationError');
    });

    it('lists every failing path at once and writes nothing', async () => {
      const before = (await call('GET', '/api/products?fields[0]=slug')).body.meta.pagination.total;
      const refused = await call('POST', '/api/products', {
        data: { name: 'x'.repeat(61), stock: -1, contactEmail: 'not-an-email', size: 'huge', variants: [{ color: 'red' }] },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error.name).toBe('ValidationError');
      const paths = (refused.body.error.details.errors as { path: string[] }[]).map((e) => e.path.join('.')).sort();
      expect(paths).toEqual(['contactEmail', 'name', 'size', 'slug', 'stock', 'variants.0.sku']);
      expect((await call('GET', '/api/products?fields[0]=slug')).body.meta.pagination.total).toBe(before);
    });

    it('enforces unique attributes across documents', async () => {
      const duplicate = await call('POST', '/api/tags', { data: { name: 'tag-01' } });
      expect(duplicate.status).toBe(400);
      expect(duplicate.body.error.details.errors).toEqual([{ path: ['name'], message: 'This attribute must be unique', name: 'ValidationError', value: 'tag-01' }]);
    });

    it('publishes on POST and PUT unless ?status=draft, and reads drafts only when asked', async () => {
      const draft = await call('POST', '/api/articles?status=draft', { data: { title: 'Draft via HTTP', slug: 'draft-via-http' } });
      expect(draft.status).toBe(201);
      expect(draft.body.data.publishedAt).toBeNull();
      const id = draft.body.data.documentId as string;
      expect((await call('GET', `/api/articles/${id}`)).status).toBe(404);
      expect((await call('GET', `/api/articles/${id}?status=draft`)).body.data.title).toBe('Draft via HTTP');

      const published = await call('PUT', `/api/articles/${id}`, { data: { title: 'Published via HTTP' } });
      expect(published.body.data.publishedAt).toEqual(expect.any(String));
      expect((await call('GET', `/api/articles/${id}`)).body.data.title).toBe('Published via HTTP');
      await call('DELETE', `/api/articles/${id}`);
    });

    it('sets relations by documentId and edits them with connect and disconnect', async () => {
      const created = await call('POST', '/api/articles?populate[author][fields][0]=name&populate[tags][fields][0]=name', {
        data: { title: 'Related', slug: 'related', author: doc('author-ada'), tags: [doc('tag-10'), doc('tag-11')], cover: media('img-red') },
      });
      expect(created.status).toBe(201);
      expect(created.body.data.author.name).toBe('Ada Lovelace');
      expect(created.body.data.tags.map((t: { name: string }) => t.name)).toEqual(['tag-10', 'tag-11']);
      const id = created.body.data.documentId as string;
      const edited = await call('PUT', `/api/articles/${id}?populate[tags][fields][0]=name&populate[cover]=true`, {
        data: { tags: { connect: [doc('tag-12')], disconnect: [doc('tag-10')] } },
      });
      expect(edited.status).toBe(200);
      expect(edited.body.data.cover.id).toBe(media('img-red'));
      expect(edited.body.data.tags.map((t: { name: string }) => t.name)).toEqual(['tag-11', 'tag-12']);
      const bad = await call('PUT', `/api/articles/${id}`, { data: { author: 'doesnotexist0000000000000' } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toBe('Document with id "doesnotexist0000000000000", locale "null" not found');
      await call('DELETE', `/api/articles/${id}`);
    });
  });

  describe('unknown query parameters', () => {
    it('ignores a parameter the content API does not read (a document middleware of the Strapi project did), and logs it once per name', async () => {
      const plain = await call('GET', '/api/articles?pagination[pageSize]=1');
      for (const query of ['populateDynamicZone=true', 'populateDynamicZone=true&pagination[pageSize]=1', 'populateDynamicZone=1&populate=*', 'populateDynamicZone=true']) {
        const answer = await call('GET', `/api/articles?${query}`);
        expect(answer.status).toBe(200);
      }
      expect((await call('GET', '/api/articles?populateDynamicZone=true&pagination[pageSize]=1')).body).toEqual(plain.body);
      await call('GET', `/api/articles/${doc('article-hello')}?populateDynamicZone=true`);
      const lines = server
        .output()
        .split('\n')
        .filter((line) => line.includes('query parameter'));
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ level: 40, param: 'populateDynamicZone' });
    });
  });

  describe('private data', () => {
    it('never returns private or password attributes, even right after writing them', async () => {
      const created = await call('POST', '/api/products', { data: { name: 'Secretive', slug: 'secretive', internalCode: 'HIDDEN', secret: 'hunter2' } });
      expect(created.status).toBe(201);
      expect(created.body.data).not.toHaveProperty('internalCode');
      expect(created.body.data).not.toHaveProperty('secret');
      const listed = await call('GET', '/api/products?populate=*');
      for (const product of listed.body.data) {
        expect(product).not.toHaveProperty('internalCode');
        expect(product).not.toHaveProperty('secret');
      }
      expect(JSON.stringify(listed.body)).not.toContain('HIDDEN');
      await call('DELETE', `/api/products/${created.body.data.documentId}`);
    });

    it('refuses private attributes in filters, sort, fields and populate, directly or through a relation', async () => {
      for (const query of ['filters[internalCode][$eq]=ALPHA-INTERNAL', 'filters[secret][$startsWith]=a', 'sort=internalCode:asc', 'fields[0]=secret', 'populate=internalCode']) {
        const res = await call('GET', `/api/products?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.body.error.name, query).toBe('ValidationError');
      }
      for (const query of ['filters[featuredProduct][internalCode][$eq]=ALPHA-INTERNAL', 'sort=featuredProduct.secret', 'populate[featuredProduct][fields][0]=internalCode']) {
        const res = await call('GET', `/api/articles?${query}`);
        expect(res.status, query).toBe(400);
      }
    });
  });

  describe('query counts', () => {
    it('costs the same number of SQL statements for 3 articles as for 120', async () => {
      const deep = '/api/articles?populate[author][populate][0]=avatar&populate[tags]=true&populate[seo][populate]=*&populate[blocks][populate]=*&pagination[pageSize]=100';
      const small = await call('GET', deep);
      expect(small.status).toBe(200);
      expect(small.queries).toBeGreaterThan(0);
      const created: string[] = [];
      for (let i = 0; i < 120; i++) {
        const res = await call('POST', '/api/articles', {
          data: {
            title: `Bulk ${i}`,
            slug: `bulk-${i}`,
            author: doc(i % 2 === 0 ? 'author-ada' : 'author-alan'),
            tags: [doc('tag-01'), doc('tag-02')],
            seo: { metaTitle: `Bulk ${i}`, metaDescription: 'bulk', shareImage: media('img-blue') },
            blocks: [
              { __component: 'shared.quote', title: 'q', body: 'b' },
              { __component: 'shared.media', file: media('img-red') },
            ],
          },
        });
        expect(res.status).toBe(201);
        created.push(res.body.data.documentId as string);
      }
      const large = await call('GET', deep);
      expect(large.body.data).toHaveLength(100);
      expect(large.queries).toBe(small.queries);
      for (const id of created) await call('DELETE', `/api/articles/${id}`);
    });

    it('serves populate=* over 1,000 documents a page at a time, with the same statements as for a few', async () => {
      const few = await call('GET', '/api/tags?populate=*&pagination[pageSize]=100');
      const ids: string[] = [];
      for (let i = 0; i < 1000; i += 20) {
        const batch = await Promise.all(Array.from({ length: 20 }, (_, j) => call('POST', '/api/tags', { data: { name: `bulk-tag-${i + j}`, weight: j, articles: [doc('article-hello')] } })));
        for (const res of batch) ids.push(res.body.data.documentId as string);
      }
      const many = await call('GET', '/api/tags?populate=*&pagination[pageSize]=100');
      expect(many.status).toBe(200);
      expect(many.body.data).toHaveLength(100);
      expect(many.body.meta.pagination.total).toBe(1030);
      expect(many.queries).toBe(few.queries);
      for (let i = 0; i < ids.length; i += 20) await Promise.all(ids.slice(i, i + 20).map((id) => call('DELETE', `/api/tags/${id}`)));
    });
  });

  describe('bad query strings', () => {
    // Pieces that real query strings are made of, so that generated ones reach deep into the
    // parser instead of failing at the first character.
    const key = fc.constantFrom('populate', 'filters', 'sort', 'fields', 'pagination', 'locale', 'status', 'publicationFilter', '__proto__', 'constructor', '$or', '');
    const inner = fc.constantFrom(
      'author',
      'tags',
      'seo',
      'blocks',
      'on',
      'shared.quote',
      'populate',
      'fields',
      'title',
      'readingTime',
      '$eq',
      '$in',
      '$between',
      '$null',
      '$foo',
      '0',
      '1',
      '-1',
      '99999999999',
      '*',
      '',
      '[',
      ']',
      '%5B',
      '..',
      '__proto__',
    );
    const value = fc.oneof(fc.constantFrom('true', 'false', '*', 'abc', '-1', '1e309', 'null', '%00', '%', '%E0%A4%A', 'asc', 'desc:desc', 'title:sideways'), fc.string({ maxLength: 8 }));
    const pair = fc.tuple(key, fc.array(inner, { maxLength: 6 }), value).map(([k, path, v]) => `${k}${path.map((p) => `[${p}]`).join('')}=${v}`);
    const queryString = fc.array(pair, { minLength: 1, maxLength: 8 }).map((pairs) => pairs.join('&'));

    it('never answer 500: hundreds of malformed queries get a 2xx or a 4xx envelope', async () => {
      await fc.assert(
        fc.asyncProperty(queryString, fc.constantFrom('/api/articles', '/api/products', '/api/pages', '/api/global', `/api/articles/x`), async (query, path) => {
          const res = await fetch(`${server.url}${path}?${query}`);
          expect(res.status, `${path}?${query}`).toBeLessThan(500);
          const body = (await res.json()) as { data?: unknown; error?: { status: number; name: string } };
          if (res.status >= 400) expect(body.error?.status, `${path}?${query}`).toBe(res.status);
        }),
        { numRuns: 300 },
      );
    });
  });

  describe('permissions', () => {
    it('answers 403 in the error envelope for an action the role lacks', async () => {
      const res = await call('GET', '/api/internal-notes');
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } });
    });

    it('hides a type the role cannot find from populate and refuses it in filters', async () => {
      await server.restart(['api::author.author.find']);
      const populated = await call('GET', `/api/articles?populate=author&filters[slug]=hello-world`);
      expect(populated.status).toBe(200);
      expect(populated.body.data[0]).not.toHaveProperty('author');
      const filtered = await call('GET', '/api/articles?filters[author][name][$eq]=Ada%20Lovelace');
      expect(filtered.status).toBe(400);
      expect((await call('GET', '/api/authors')).status).toBe(403);
      await server.restart([]);
    });
  });
});
