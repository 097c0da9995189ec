/**
 * Which versions a read selects (status, locale, publicationFilter, hasPublishedVersion),
 * pagination and totals, findOne / findSingle, and the REST serialization of every scalar
 * type, on both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, openExampleDatabase, type ExampleDatabase } from '../../../test/support/example-db.ts';
import type { ListQuery, PublicationFilter, ReadQuery, Status } from '../query/types.ts';
import { createReadEngine } from './read.ts';
import { asc, eq, listQuery, seedConformance, type Seeded } from './test-seed.ts';
import type { Entity, ReadEngine } from './types.ts';

const ARTICLE = 'api::article.article';
const PRODUCT = 'api::product.product';
const PAGE = 'api::page.page';
const TAG = 'api::tag.tag';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const PUBLISHED_ARTICLES = ['food-for-thought', 'hello-world', 'lonely-article', 'modified-after-publish', 'published-only', 'second-steps', 'third-time-lucky'];
const WITH_BOTH_VERSIONS = ['food-for-thought', 'hello-world', 'lonely-article', 'modified-after-publish', 'second-steps', 'third-time-lucky'];

describe.each(clients)('read engine on %s', (client) => {
  let ex: ExampleDatabase;
  let engine: ReadEngine;
  let seeded: Seeded;

  beforeAll(async () => {
    ex = await openExampleDatabase(client);
    const seeder = await seedConformance(ex.db, ex.model);
    // A published version whose draft is gone: what `published-without-draft` is for.
    await seeder.document(ARTICLE, 'article-published-only', [{ status: 'published', data: { title: 'Published only', slug: 'published-only' } }]);
    seeded = seeder.seeded();
    engine = createReadEngine({ db: ex.db, model: ex.model });
  });
  afterAll(async () => ex?.close());

  async function slugs(uid: string, query: Partial<ListQuery>): Promise<unknown[]> {
    const result = await engine.findMany(uid, listQuery({ fields: ['slug'], sort: [asc('slug')], pagination: { kind: 'page', page: 1, pageSize: 100, withCount: true }, ...query }));
    expect(result.total).toBe(result.results.length);
    return result.results.map((e) => e['slug']);
  }

  describe('versions', () => {
    it('published by default, drafts with status draft', async () => {
      expect(await slugs(ARTICLE, {})).toEqual(PUBLISHED_ARTICLES);
      const drafts = await engine.findMany(ARTICLE, listQuery({ status: 'draft', fields: ['slug', 'title', 'publishedAt'], sort: [asc('slug')] }));
      expect(drafts.results.map((e) => [e['slug'], e['publishedAt']])).toEqual(['draft-only-notes', ...WITH_BOTH_VERSIONS].map((slug) => [slug, null]));
      expect(drafts.results.find((e) => e['slug'] === 'modified-after-publish')!['title']).toBe('Modified After Publish (draft)');
    });

    it('types without draft & publish ignore status', async () => {
      for (const status of ['draft', 'published'] as const) {
        const authors = await engine.findMany('api::author.author', listQuery({ status, fields: ['name', 'publishedAt'] }));
        expect(authors.results.map((a) => a['name'])).toEqual(['Ada Lovelace', 'Alan Turing', 'Grace Hopper']);
        for (const author of authors.results) expect(author['publishedAt']).toMatch(ISO);
      }
    });

    it('a locale selects that locale, * every locale, an unknown one nothing', async () => {
      expect(await slugs(PAGE, { locale: 'en' })).toEqual(['contact', 'home']);
      expect(await slugs(PAGE, { locale: 'fr' })).toEqual(['accueil', 'mentions-legales']);
      expect(await slugs(PAGE, { locale: '*' })).toEqual(['accueil', 'contact', 'home', 'mentions-legales']);
      expect(await slugs(PAGE, { locale: 'en', status: 'draft' })).toEqual(['contact', 'home', 'upcoming']);
      expect(await slugs(PAGE, { locale: 'fr', status: 'draft' })).toEqual(['accueil', 'contactez-nous', 'mentions-legales']);
      expect(await slugs(PAGE, { locale: 'de' })).toEqual([]);
      // A locale on a type without i18n is ignored.
      expect(await slugs(ARTICLE, { locale: 'fr' })).toEqual(PUBLISHED_ARTICLES);
    });

    const cohorts: [Status, PublicationFilter, string[]][] = [
      ['draft', 'never-published', ['draft-only-notes']],
      ['draft', 'has-published-version', WITH_BOTH_VERSIONS],
      ['draft', 'modified', ['modified-after-publish']],
      ['draft', 'unmodified', WITH_BOTH_VERSIONS.filter((s) => s !== 'modified-after-publish')],
      ['draft', 'published-without-draft', []],
      ['draft', 'published-with-draft', []],
      ['published', 'never-published', []],
      ['published', 'has-published-version', WITH_BOTH_VERSIONS],
      ['published', 'modified', ['modified-after-publish']],
      ['published', 'unmodified', WITH_BOTH_VERSIONS.filter((s) => s !== 'modified-after-publish')],
      ['published', 'published-without-draft', ['published-only']],
      ['published', 'published-with-draft', WITH_BOTH_VERSIONS],
    ];
    it.each(cohorts)('status %s, publicationFilter %s', async (status, publicationFilter, expected) => {
      expect(await slugs(ARTICLE, { status, publicationFilter })).toEqual(expected);
    });

    it('hasPublishedVersion', async () => {
      expect(await slugs(ARTICLE, { status: 'draft', hasPublishedVersion: true })).toEqual(WITH_BOTH_VERSIONS);
      expect(await slugs(ARTICLE, { status: 'draft', hasPublishedVersion: false })).toEqual(['draft-only-notes']);
      expect(await slugs(ARTICLE, { status: 'published', hasPublishedVersion: true })).toEqual(PUBLISHED_ARTICLES);
      expect(await slugs(ARTICLE, { status: 'published', hasPublishedVersion: false })).toEqual([]);
      expect(await slugs(ARTICLE, { status: 'draft', hasPublishedVersion: true, publicationFilter: 'modified' })).toEqual(['modified-after-publish']);
    });

    it('publication refinements look at the same locale only', async () => {
      expect(await slugs(PAGE, { status: 'draft', locale: 'fr', publicationFilter: 'never-published' })).toEqual(['contactez-nous']);
      expect(await slugs(PAGE, { status: 'draft', locale: 'en', publicationFilter: 'never-published' })).toEqual(['upcoming']);
      expect(await slugs(PAGE, { status: 'draft', locale: '*', hasPublishedVersion: true })).toEqual(['accueil', 'contact', 'home', 'mentions-legales']);
    });

    it('types without draft & publish ignore publication refinements', async () => {
      const authors = await engine.findMany('api::author.author', listQuery({ publicationFilter: 'never-published', hasPublishedVersion: false }));
      expect(authors.total).toBe(3);
    });
  });

  describe('pagination', () => {
    const tags = (pagination: ListQuery['pagination']): Promise<{ names: unknown[]; total: number | undefined }> =>
      engine.findMany(TAG, listQuery({ fields: ['name'], sort: [asc('name')], pagination })).then((r) => ({ names: r.results.map((t) => t['name']), total: r.total }));

    it('pages and offsets, with the total over all pages', async () => {
      expect(await tags({ kind: 'page', page: 2, pageSize: 3, withCount: true })).toEqual({ names: ['tag-04', 'tag-05', 'tag-06'], total: 30 });
      expect(await tags({ kind: 'offset', start: 28, limit: 5, withCount: true })).toEqual({ names: ['tag-29', 'tag-30'], total: 30 });
      expect(await tags({ kind: 'page', page: 99, pageSize: 10, withCount: true })).toEqual({ names: [], total: 30 });
    });

    it('counts only when asked, in the statement of the page; a page past the end counts apart', async () => {
      const before = ex.db.queryCount;
      expect(await tags({ kind: 'page', page: 1, pageSize: 2, withCount: false })).toEqual({ names: ['tag-01', 'tag-02'], total: undefined });
      expect(ex.db.queryCount - before).toBe(1);
      const total = (await tags({ kind: 'page', page: 1, pageSize: 2, withCount: true })).total;
      expect(total).toBeGreaterThan(2);
      expect(ex.db.queryCount - before).toBe(2);
      expect(await tags({ kind: 'page', page: 1000, pageSize: 2, withCount: true })).toEqual({ names: [], total });
      expect(ex.db.queryCount - before).toBe(4);
    });

    it('counts versions that match the filters, not rows of joined tables', async () => {
      const result = await engine.findMany(
        ARTICLE,
        listQuery({ filters: { kind: 'nested', attribute: 'tags', filter: { kind: 'condition', attribute: 'name', operator: 'in', value: ['tag-01', 'tag-02', 'tag-03'] } } }),
      );
      expect(result.total).toBe(3);
      expect(result.results).toHaveLength(3);
    });
  });

  describe('findOne and findSingle', () => {
    const read = (query: Partial<ReadQuery>): ReadQuery => ({ status: 'published', populate: {}, ...query });

    it('selects the version by status and locale', async () => {
      const id = seeded.doc['article-modified']!;
      expect((await engine.findOne(ARTICLE, id, read({ fields: ['title'] })))!['title']).toBe('Modified After Publish');
      expect((await engine.findOne(ARTICLE, id, read({ status: 'draft', fields: ['title'] })))!['title']).toBe('Modified After Publish (draft)');
      expect(await engine.findOne(ARTICLE, seeded.doc['article-draft-only']!, read({}))).toBeNull();
      expect((await engine.findOne(PAGE, seeded.doc['page-home']!, read({ locale: 'fr', fields: ['title'] })))!['title']).toBe('Accueil');
      expect(await engine.findOne(PAGE, seeded.doc['page-contact']!, read({ locale: 'fr' }))).toBeNull();
      expect(await engine.findOne(ARTICLE, 'doesnotexist0000000000000', read({}))).toBeNull();
    });

    it('applies filters as well', async () => {
      const id = seeded.doc['article-hello']!;
      expect(await engine.findOne(ARTICLE, id, read({ filters: eq('featured', false) }))).toBeNull();
      expect(await engine.findOne(ARTICLE, id, read({ filters: eq('featured', true) }))).not.toBeNull();
    });

    it('reads the single type document', async () => {
      expect(await engine.findSingle('api::global.global', read({ fields: ['siteName'] }))).toEqual({
        id: expect.any(Number),
        documentId: seeded.doc['global'],
        siteName: 'Conformance Site',
      });
      expect(await engine.findSingle('api::global.global', read({ filters: eq('siteName', 'nope') }))).toBeNull();
    });
  });

  describe('serialization', () => {
    const product = async (label: string): Promise<Entity> => (await engine.findOne(PRODUCT, seeded.doc[label]!, { status: 'published', populate: {} }))!;

    it('every scalar type in Strapi 5 REST form', async () => {
      expect(await product('product-alpha')).toEqual({
        id: expect.any(Number),
        documentId: seeded.doc['product-alpha'],
        name: 'Alpha Widget',
        slug: 'alpha-widget',
        summary: 'The first widget.\nTwo lines.',
        details: '# Alpha\n\n**Bold** markdown with a [link](https://example.com).',
        notes: [
          {
            type: 'paragraph',
            children: [
              { type: 'text', text: 'Alpha notes ' },
              { type: 'text', text: 'bold', bold: true },
            ],
          },
          { type: 'heading', level: 2, children: [{ type: 'text', text: 'Heading' }] },
        ],
        contactEmail: 'alpha@example.com',
        stock: 10,
        serialNumber: '1234567890123',
        price: 19.99,
        weight: 1.5,
        inStock: true,
        releaseDate: '2024-01-15',
        availableAt: '2024-01-15T10:30:00.000Z',
        openingTime: '09:30:00.000',
        size: 'small',
        specs: { color: 'red', tags: ['a', 'b'], nested: { n: 1, ok: true, nothing: null } },
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
        publishedAt: expect.stringMatching(ISO),
      });
    });

    it('edge values: negative and zero bigintegers, zero decimals, false, JSON arrays, NULLs', async () => {
      const delta = await product('product-delta');
      expect([delta['serialNumber'], delta['price']]).toEqual(['-12345678901', 99.95]);
      const epsilon = await product('product-epsilon');
      expect([epsilon['serialNumber'], epsilon['price'], epsilon['specs'], epsilon['openingTime']]).toEqual(['0', 0, null, '00:00:00.000']);
      const beta = await product('product-beta');
      expect([beta['inStock'], beta['specs'], beta['weight'], beta['openingTime']]).toEqual([false, [1, 2, 3], 0.125, '18:45:30.000']);
      const gamma = await product('product-gamma');
      expect([gamma['serialNumber'], gamma['price'], gamma['releaseDate'], gamma['availableAt'], gamma['openingTime'], gamma['notes'], gamma['details']]).toEqual([
        null,
        null,
        null,
        null,
        null,
        null,
        null,
      ]);
    });

    it('never returns private or password attributes, even when asked for', async () => {
      const alpha = await product('product-alpha');
      expect(alpha).not.toHaveProperty('internalCode');
      expect(alpha).not.toHaveProperty('secret');
      const asked = await engine.findOne(PRODUCT, seeded.doc['product-alpha']!, { status: 'published', populate: {}, fields: ['name', 'internalCode', 'secret'] });
      expect(asked).toEqual({ id: expect.any(Number), documentId: seeded.doc['product-alpha'], name: 'Alpha Widget' });
    });

    it('fields narrow scalars and system fields; id and documentId always come', async () => {
      const [home] = (await engine.findMany(PAGE, listQuery({ locale: 'en', fields: ['title'], filters: eq('slug', 'home') }))).results;
      expect(home).toEqual({ id: expect.any(Number), documentId: seeded.doc['page-home'], title: 'Home' });
      const [withLocale] = (await engine.findMany(PAGE, listQuery({ locale: 'en', fields: ['locale', 'updatedAt'], filters: eq('slug', 'home') }))).results;
      expect(withLocale).toEqual({ id: expect.any(Number), documentId: seeded.doc['page-home'], locale: 'en', updatedAt: expect.stringMatching(ISO) });
    });

    it('locale on localized types only, publishedAt on every type', async () => {
      const [page] = (await engine.findMany(PAGE, listQuery({ locale: 'en' }))).results;
      expect(Object.keys(page!)).toEqual(['id', 'documentId', 'title', 'slug', 'body', 'sortOrder', 'theme', 'createdAt', 'updatedAt', 'publishedAt', 'locale']);
      const [tag] = (await engine.findMany(TAG, listQuery({}))).results;
      expect(Object.keys(tag!)).toEqual(['id', 'documentId', 'name', 'weight', 'createdAt', 'updatedAt', 'publishedAt']);
    });
  });
});
