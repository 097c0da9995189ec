/**
 * The read side of Strapi 5's content API beyond the conformance cases, through HTTP on SQLite
 * and PostgreSQL: `$null`/`$notNull` values and lists on single-value operators, relation
 * filters that find entries without related entries, `_q`, populate `count`, the mixed populate
 * forms, filters/sort/fields inside components and zone fragments, `populate=related` on files,
 * and `Strapi-Response-Format: v4`; with the statements each costs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients } from '../support/databases.ts';
import { startSeededServer, type JsonResponse, type TestServer } from './support.ts';

describe.each(clients)('REST reads on %s', (database) => {
  // A list with its total: one rendered statement on SQLite (PostgreSQL: without populate); else rows and a count apart.
  let server: TestServer;
  const doc = (label: string): string => server.seedMap.documents[label]?.documentId ?? '';
  const media = (label: string): number => server.seedMap.media[label]?.id ?? 0;

  async function call(method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<JsonResponse> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${server.url}${path}`, { method, headers, ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }) });
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : JSON.parse(text), queries: Number(res.headers.get('x-query-count') ?? NaN) };
  }
  const get = (path: string, headers?: Record<string, string>) => call('GET', path, headers === undefined ? {} : { headers });
  /** Slugs of the articles a query string returns, sorted. */
  const slugs = async (query: string): Promise<string[]> => {
    const res = await get(`/api/articles?fields[0]=slug&pagination[pageSize]=100&${query}`);
    expect(res.status).toBe(200);
    return (res.body.data as { slug: string }[]).map((a) => a.slug).sort();
  };

  beforeAll(async () => {
    server = await startSeededServer(database, 'reads');
  });
  afterAll(() => server.stop());

  describe('filters', () => {
    it('$null / $notNull take any value: false, f, 0 and empty are false, everything else true', async () => {
      const all = await slugs('');
      const withoutTime = await slugs('filters[readingTime][$null]=true');
      expect(withoutTime).toEqual(['lonely-article']);
      for (const yes of ['1', 't', 'anything', 'TRUE']) expect(await slugs(`filters[readingTime][$null]=${yes}`)).toEqual(withoutTime);
      expect(await slugs('filters[readingTime][$null][0]=anything')).toEqual(withoutTime);
      expect(await slugs('filters[readingTime][$notNull][anything]=anything')).toEqual(all.filter((s) => !withoutTime.includes(s)));
      for (const no of ['false', 'f', '0', '']) {
        expect(await slugs(`filters[readingTime][$notNull]=${no}`)).toEqual(withoutTime);
        expect(await slugs(`filters[readingTime][$null]=${no}`)).toEqual(all.filter((s) => !withoutTime.includes(s)));
      }
    });

    it('a list given to a single-value operator matches any of its values', async () => {
      expect(await slugs('filters[title][$containsi][0]=HELLO&filters[title][$containsi][1]=steps')).toEqual(['hello-world', 'second-steps']);
      expect(await slugs('filters[readingTime][$lt][0]=4&filters[readingTime][$lt][1]=1')).toEqual(await slugs('filters[readingTime][$lt]=4'));
      // $ne of two values: every non-null value differs from one of them.
      expect(await slugs('filters[slug][$ne][0]=hello-world&filters[slug][$ne][1]=second-steps')).toEqual(await slugs(''));
      // Not containing hello, or not containing world: all but hello-world.
      expect(await slugs('filters[slug][$notContains][0]=hello&filters[slug][$notContains][1]=world')).toEqual((await slugs('')).filter((s) => s !== 'hello-world'));
      expect(await slugs('filters[slug][$notContains][0]=hello&filters[slug][$notContains][1]=steps')).toEqual(await slugs(''));
      expect(await slugs('filters[slug][$notContainsi][0]=hello&filters[slug][$notContainsi][1]=hello')).toEqual((await slugs('')).filter((s) => s !== 'hello-world'));
    });

    it('id and documentId $null: true on a relation or media find the entries without one', async () => {
      const withoutAuthor = await slugs('filters[author][$null]=true');
      expect(withoutAuthor.length).toBeGreaterThan(0);
      expect(await slugs('filters[author][id][$null]=true')).toEqual(withoutAuthor);
      expect(await slugs('filters[author][documentId][$null]=true')).toEqual(withoutAuthor);
      expect(await slugs('filters[author][id][$notNull]=true')).toEqual((await slugs('')).filter((s) => !withoutAuthor.includes(s)));
      const withoutTags = await slugs('filters[tags][id][$null]=true');
      expect(withoutTags).toContain('lonely-article');
      expect(withoutTags).not.toContain('hello-world');
      expect(await slugs('filters[cover][id][$null]=true')).toEqual(await slugs('filters[cover][$null]=true'));
      // Or-ed with a match on the related entry.
      expect(await slugs(`filters[$or][0][author][id][$null]=true&filters[$or][1][author][name][$eq]=Ada%20Lovelace`)).toEqual(
        [...withoutAuthor, ...(await slugs('filters[author][name][$eq]=Ada%20Lovelace'))].sort(),
      );
    });
  });

  it('GraphQL: a relation filter on documentId null finds the entries without one, as REST', async () => {
    const query = '{ articles(filters: { author: { documentId: { null: true } } }, pagination: { limit: 100 }) { slug } }';
    const res = await call('POST', '/graphql', { body: { query } });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect((res.body.data.articles as { slug: string }[]).map((a) => a.slug).sort()).toEqual(await slugs('filters[author][$null]=true'));
  });

  describe('_q', () => {
    it('searches text attributes, ignoring case, combined with filters; empty is no search', async () => {
      expect(await slugs('_q=STEPS')).toEqual(['second-steps']);
      expect(await slugs('_q=steps&filters[slug][$eq]=hello-world')).toEqual([]);
      expect(await slugs('_q=')).toEqual(await slugs(''));
      expect(await slugs(`_q=${doc('article-hello')}`)).toEqual(['hello-world']);
      const counted = await get('/api/articles?_q=steps');
      expect(counted.body.meta.pagination.total).toBe(1);
      expect(counted.queries).toBe(1);
    });

    it('numbers when the query is numeric; never private attributes; drafts with status=draft', async () => {
      const products = async (q: string) => ((await get(`/api/products?fields[0]=slug&_q=${q}`)).body.data as { slug: string }[]).map((p) => p.slug).sort();
      expect(await products('99.95')).toEqual(['delta-device']);
      expect(await products('INTERNAL')).toEqual([]);
      expect(await slugs('_q=never%20published')).toEqual([]);
      expect(await slugs('_q=never%20published&status=draft')).toEqual(['draft-only-notes']);
    });

    it('searches files on /api/upload/files too', async () => {
      const res = await get('/api/upload/files?_q=GRADIENT');
      expect((res.body as { id: number }[]).map((f) => f.id)).toEqual([media('img-large')]);
    });

    it('a list or object is a 400', async () => {
      const res = await get('/api/articles?_q[0]=a');
      expect(res.status).toBe(400);
      expect((await get('/api/articles?_q=a%00b')).status).toBe(400);
      // Unicode and LIKE metacharacters are plain text.
      expect((await get('/api/articles?_q=%C3%A9%5C%25_')).status).toBe(200);
      expect(res.body.error).toEqual({ status: 400, name: 'ValidationError', message: 'Invalid _q parameter. Expected a string', details: { source: 'query', param: '_q' } });
    });
  });

  describe('populate', () => {
    it('count answers { count: N }, as many as populating lists, inside the one statement of the read', async () => {
      const counted = await get('/api/authors?fields[0]=name&populate[articles][count]=true');
      const listed = await get('/api/authors?fields[0]=name&populate[articles][fields][0]=slug');
      expect(counted.status).toBe(200);
      const lengths = (listed.body.data as { articles: unknown[] }[]).map((a) => ({ count: a.articles.length }));
      expect((counted.body.data as { articles: unknown }[]).map((a) => a.articles)).toEqual(lengths);
      // The rows with their counts, and the total.
      expect(counted.queries).toBe(1);
      const nested = await get(
        `/api/articles?filters[slug]=hello-world&fields[0]=slug&populate[author][populate][articles][count]=true&populate[tags][count]=true&populate[tags][filters][name][$in][0]=tag-01&populate[seo][populate][metaSocial][count]=true`,
      );
      expect(nested.body.data[0].author.articles).toEqual({ count: 2 });
      expect(nested.body.data[0].tags).toEqual({ count: 1 });
      expect(nested.body.data[0].seo.metaSocial).toEqual({ count: 2 });
      // root (with author, author.articles, tags, seo, seo.metaSocial inside), total
      expect(nested.queries).toBe(1);
    });

    it('the array form and the object form mixed in one query', async () => {
      const res = await get('/api/articles?filters[slug]=hello-world&fields[0]=slug&populate[0]=author&populate[1]=seo.shareImage&populate[tags][fields][0]=name');
      expect(res.status).toBe(200);
      const [hello] = res.body.data;
      expect(hello.author.name).toBe('Ada Lovelace');
      expect(hello.seo.shareImage.id).toBe(media('img-blue'));
      expect(hello.tags.map((t: Record<string, unknown>) => Object.keys(t).sort())).toEqual([
        ['documentId', 'id', 'name'],
        ['documentId', 'id', 'name'],
        ['documentId', 'id', 'name'],
      ]);
    });

    it('* on a media or dynamic zone attribute is true', async () => {
      const star = await get('/api/articles?filters[slug]=hello-world&fields[0]=slug&populate[cover]=*&populate[blocks]=*');
      const plain = await get('/api/articles?filters[slug]=hello-world&fields[0]=slug&populate[cover]=true&populate[blocks]=true');
      expect(star.status).toBe(200);
      expect(star.body).toEqual(plain.body);
      expect(star.body.data[0].blocks).toHaveLength(5);
    });

    it('filters, sort and fields inside a repeatable component, a component and a zone fragment', async () => {
      const variants = await get(
        '/api/products?filters[slug]=alpha-widget&fields[0]=slug&populate[variants][fields][0]=sku&populate[variants][sort]=price:desc&populate[variants][filters][color][$ne]=green',
      );
      expect(variants.body.data[0].variants).toEqual([
        { id: expect.any(Number), sku: 'ALPHA-BLUE', price: 21.5 },
        { id: expect.any(Number), sku: 'ALPHA-RED', price: 19.99 },
      ]);
      const seo = await get('/api/articles?filters[slug]=hello-world&fields[0]=slug&populate[seo][filters][metaTitle][$eq]=nope');
      expect(seo.body.data[0].seo).toBeNull();
      const zone = await get(
        '/api/articles?filters[slug]=hello-world&fields[0]=slug&populate[blocks][on][shared.quote][fields][0]=title&populate[blocks][on][shared.quote][filters][title][$eq]=Grace&populate[blocks][on][shared.rich-text][filters][body][$contains]=nope',
      );
      expect(zone.body.data[0].blocks).toEqual([{ __component: 'shared.quote', id: expect.any(Number), title: 'Grace' }]);
    });
  });

  describe('/api/upload/files/page', () => {
    it("answers one page of files with meta.pagination, in each of Strapi's pagination forms, not taken for a file id", async () => {
      const all = (await get('/api/upload/files')).body as { id: number }[];
      expect(all.length).toBeGreaterThanOrEqual(5);
      const first = await get('/api/upload/files/page');
      expect(first.status).toBe(200);
      expect(first.body.meta.pagination).toEqual({ page: 1, pageSize: 25, pageCount: 1, total: all.length });
      expect(first.body.data.map((f: { id: number }) => f.id)).toEqual(all.map((f) => f.id));
      expect(first.body.data[0].isUrlSigned).toBe(false);

      const one = await get('/api/upload/files/page?pagination[page]=1&pagination[pageSize]=2&sort=id');
      const two = await get('/api/upload/files/page?pagination[page]=2&pagination[pageSize]=2&sort=id');
      expect(one.body.meta.pagination).toEqual({ page: 1, pageSize: 2, pageCount: Math.ceil(all.length / 2), total: all.length });
      expect(two.body.meta.pagination.page).toBe(2);
      const ids = [...one.body.data, ...two.body.data].map((f: { id: number }) => f.id);
      expect(ids).toEqual(
        all
          .map((f) => f.id)
          .sort((a, b) => a - b)
          .slice(0, 4),
      );

      const offset = await get('/api/upload/files/page?pagination[start]=1&pagination[limit]=3&sort=id');
      expect(offset.body.data).toHaveLength(3);
      expect(offset.body.meta.pagination).toEqual({ start: 1, limit: 3, total: all.length });
      const uncounted = await get('/api/upload/files/page?pagination[page]=1&pagination[pageSize]=2&pagination[withCount]=false');
      expect(uncounted.body.meta.pagination).toEqual({ page: 1, pageSize: 2 });

      // Filters and fields as on /api/upload/files; a bad parameter is the same 400.
      const pngs = await get('/api/upload/files/page?filters[mime][$eq]=image/png&fields[0]=name');
      expect(pngs.body.meta.pagination.total).toBe(all.filter((f) => (f as unknown as { mime: string }).mime === 'image/png').length);
      expect(Object.keys(pngs.body.data[0]).sort()).toEqual(['documentId', 'id', 'isUrlSigned', 'name']);
      expect((await get('/api/upload/files/page?pagination[withCount]=maybe')).status).toBe(400);
      // The list route keeps answering a bare array.
      expect(Array.isArray((await get('/api/upload/files')).body)).toBe(true);
    });
  });

  describe('/api/upload/files?populate=related', () => {
    it('lists the entries that use each file, with __type, in a bounded number of statements', async () => {
      const res = await get('/api/upload/files?populate=related');
      expect(res.status).toBe(200);
      const byId = new Map((res.body as { id: number; related: Record<string, unknown>[]; isUrlSigned: boolean }[]).map((f) => [f.id, f]));
      const large = byId.get(media('img-large'))!;
      expect(large.isUrlSigned).toBe(false);
      // hello-world's cover, in its draft and its published version, and alpha-widget's gallery;
      // components (the article card's image) are not listed.
      expect(large.related.map((r) => [r['__type'], r['documentId'], r['publishedAt'] === null])).toEqual([
        ['api::article.article', doc('article-hello'), true],
        ['api::article.article', doc('article-hello'), false],
        ['api::product.product', doc('product-alpha'), false],
      ]);
      expect(large.related[0]).toMatchObject({ __type: 'api::article.article', slug: 'hello-world', title: 'Hello World' });
      expect(Object.keys(large.related[0]!)[0]).toBe('__type');
      const red = byId.get(media('img-red'))!;
      expect(red.related).toEqual([
        expect.objectContaining({ __type: 'api::author.author', documentId: doc('author-ada'), name: 'Ada Lovelace' }),
        expect.objectContaining({ __type: 'api::product.product', documentId: doc('product-alpha'), slug: 'alpha-widget' }),
      ]);
      // Private attributes stay hidden in related entries too.
      expect(red.related[1]).not.toHaveProperty('internalCode');
      expect(red.related[1]).not.toHaveProperty('secret');
      // files + links + article (draft, published) + author + global + product.
      expect(res.queries).toBe(7);
    });

    it('on one file too, in every populate form; without it there is no related key', async () => {
      for (const query of ['populate=related', 'populate[related]=true', 'populate[0]=related', 'populate=*']) {
        const one = await get(`/api/upload/files/${media('img-red')}?${query}`);
        expect(one.status).toBe(200);
        expect(one.body.isUrlSigned).toBe(false);
        expect(one.body.related.map((r: Record<string, unknown>) => r['__type'])).toEqual(['api::author.author', 'api::product.product']);
      }
      // The file, its links, then one read per linked type (author, product): 4, as for any number of links.
      expect((await get(`/api/upload/files/${media('img-red')}?populate=related`)).queries).toBe(4);
      // As Strapi's findOne: fields, filters and _q are validated, not applied.
      const ignored = await get(`/api/upload/files/${media('img-red')}?fields[0]=name&_q=nothing-like-it&filters[name][$eq]=other`);
      expect(ignored.status).toBe(200);
      expect(ignored.body.url).toBeDefined();
      expect((await get(`/api/upload/files/${media('img-red')}?fields[0]=nope`)).status).toBe(400);
      const plain = await get(`/api/upload/files/${media('img-red')}`);
      expect(plain.body).not.toHaveProperty('related');
      expect(plain.body.isUrlSigned).toBe(false);
      expect((await get('/api/upload/files/999999?populate=related')).status).toBe(404);
    });
  });

  describe('Strapi-Response-Format: v4', () => {
    const V4 = { 'Strapi-Response-Format': 'v4' };

    it('find and findOne answer in Strapi 4 shape: attributes, relations and media in { data }, components flat', async () => {
      const query = 'filters[slug]=hello-world&populate[author]=true&populate[tags]=true&populate[cover]=true&populate[seo][populate][0]=shareImage&populate[blocks]=true';
      const v5 = await get(`/api/articles?${query}`);
      const v4 = await get(`/api/articles?${query}`, V4);
      expect(v4.status).toBe(200);
      expect(v4.body.meta).toEqual(v5.body.meta);
      const [entry] = v4.body.data;
      const [flat] = v5.body.data;
      expect(Object.keys(entry).sort()).toEqual(['attributes', 'documentId', 'id']);
      expect(entry.id).toBe(flat.id);
      expect(entry.attributes.title).toBe('Hello World');
      expect(entry.attributes.author.data).toEqual({ id: flat.author.id, documentId: flat.author.documentId, attributes: expect.objectContaining({ name: 'Ada Lovelace' }) });
      expect(entry.attributes.tags.data).toHaveLength(3);
      expect(entry.attributes.cover.data.attributes.url).toBe(flat.cover.url);
      expect(entry.attributes.seo.metaTitle).toBe(flat.seo.metaTitle);
      expect(entry.attributes.seo.shareImage.data.id).toBe(media('img-blue'));
      expect(entry.attributes.blocks).toEqual(flat.blocks);
      // Strapi 4's shape is built from rows, Strapi 5's written by the database (SQLite): one statement each, the total included.
      expect(v4.queries).toBe(1);
      expect(v5.queries).toBe(1);

      const one = await get(`/api/articles/${doc('article-lonely')}?populate[author]=true&populate[cover]=true`, V4);
      expect(one.body.meta).toEqual({});
      expect(one.body.data.attributes.author).toEqual({ data: null });
      expect(one.body.data.attributes.cover).toEqual({ data: null });
      const single = await get('/api/global?populate[favicon]=true', V4);
      expect(single.body.data.attributes.favicon.data.id).toBe(media('img-blue'));
    });

    it('localizations and counts are wrapped like relations', async () => {
      const pages = await get('/api/pages?filters[slug]=home&populate[localizations]=true&populate[category][count]=true', V4);
      expect(pages.status).toBe(200);
      const [home] = pages.body.data;
      expect(home.attributes.localizations.data).toEqual([
        expect.objectContaining({ id: expect.any(Number), documentId: home.documentId, attributes: expect.objectContaining({ slug: 'accueil', locale: 'fr' }) }),
      ]);
      expect(home.attributes.category).toEqual({ data: { attributes: { count: 1 } } });
    });

    it('create and update too; delete still answers 204; other values of the header change nothing', async () => {
      const created = await call('POST', '/api/tags?populate[articles]=true', { body: { data: { name: 'v4-tag', articles: [doc('article-hello')] } }, headers: V4 });
      expect(created.status).toBe(201);
      expect(created.body.data.attributes).toMatchObject({
        name: 'v4-tag',
        articles: { data: [expect.objectContaining({ documentId: doc('article-hello'), attributes: expect.objectContaining({ slug: 'hello-world' }) })] },
      });
      const id = created.body.data.documentId as string;
      const updated = await call('PUT', `/api/tags/${id}`, { body: { data: { weight: 7 } }, headers: V4 });
      expect(updated.body.data).toEqual({ id: expect.any(Number), documentId: id, attributes: expect.objectContaining({ name: 'v4-tag', weight: 7 }) });
      const v5 = await get(`/api/tags/${id}`, { 'Strapi-Response-Format': 'v5' });
      expect(v5.body.data.name).toBe('v4-tag');
      const removed = await call('DELETE', `/api/tags/${id}`, { headers: V4 });
      expect(removed.status).toBe(204);
      expect(removed.body).toBeUndefined();
    });
  });
});
