/**
 * Populate options beyond rows, on SQLite and PostgreSQL: `count` on relations (both sides,
 * status, locale, filters) and components, and `filters`/`sort`/`fields` inside components and
 * dynamic-zone fragments.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, openExampleDatabase, type ExampleDatabase } from '../../../test/support/example-db.ts';
import type { ListQuery, PopulateTree } from '../query/types.ts';
import type { ModelSchema, RelationField } from '../schema.ts';
import { createReadEngine } from './read.ts';
import { asc, cond, desc, eq, listQuery, seedConformance } from './test-seed.ts';
import type { Entity, ReadEngine } from './types.ts';

const ARTICLE = 'api::article.article';
const AUTHOR = 'api::author.author';
const PRODUCT = 'api::product.product';
const PAGE = 'api::page.page';
const CATEGORY = 'api::category.category';

describe.each(clients)('populate options on %s', (client) => {
  let ex: ExampleDatabase;
  let engine: ReadEngine;
  let model: ModelSchema;

  beforeAll(async () => {
    ex = await openExampleDatabase(client);
    model = ex.model;
    await seedConformance(ex.db, ex.model);
    engine = createReadEngine({ db: ex.db, model: ex.model });
  });
  afterAll(async () => ex?.close());

  const list = async (uid: string, populate: PopulateTree, query: Partial<ListQuery> = {}): Promise<Entity[]> =>
    (await engine.findMany(uid, listQuery({ populate, sort: [asc('id')], pagination: { kind: 'page', page: 1, pageSize: 100, withCount: false }, ...query }))).results;

  /** Every entry's count equals the length of the list the same node populates. */
  async function countsMatchLists(uid: string, key: string, node: PopulateTree[string], query: Partial<ListQuery> = {}): Promise<number[]> {
    const counted = await list(uid, { [key]: { ...node, count: true } }, query);
    const listed = await list(uid, { [key]: node }, query);
    expect(counted.map((e) => e['documentId'])).toEqual(listed.map((e) => e['documentId']));
    const counts = counted.map((e) => (e[key] as { count: number }).count);
    const lengths = listed.map((e) => {
      const value = e[key];
      return Array.isArray(value) ? value.length : value === null ? 0 : 1;
    });
    expect(counts).toEqual(lengths);
    return counts;
  }

  describe('count', () => {
    it('answers { count } for to-many relations on both sides, in the root status', async () => {
      const published = await countsMatchLists(AUTHOR, 'articles', {});
      const drafts = await countsMatchLists(AUTHOR, 'articles', {}, { status: 'draft' });
      // Grace Hopper's draft-only article counts among drafts only.
      expect(drafts.reduce((a, b) => a + b, 0)).toBeGreaterThan(published.reduce((a, b) => a + b, 0));
      expect(await countsMatchLists(ARTICLE, 'tags', {})).toContain(3);
      expect(await countsMatchLists(CATEGORY, 'articles', {})).toContain(0);
    });

    it('counts only what filters keep', async () => {
      const counts = await countsMatchLists(ARTICLE, 'tags', { filters: cond('name', 'in', ['tag-01', 'tag-03']) });
      const [hello] = await list(ARTICLE, { tags: { count: true, filters: cond('name', 'in', ['tag-01', 'tag-03']) } }, { filters: eq('slug', 'hello-world') });
      expect(hello!['tags']).toEqual({ count: 2 });
      expect(counts).toContain(0);
    });

    it('a to-one relation counts 0 or 1', async () => {
      const counts = await countsMatchLists(ARTICLE, 'author', {});
      expect(new Set(counts)).toEqual(new Set([0, 1]));
    });

    it('counts from localized parents in every locale', async () => {
      for (const locale of ['en', 'fr', '*']) expect(await countsMatchLists(PAGE, 'category', {}, { locale })).toContain(1);
    });

    it('counts localizations: the other locales of the document, in the root status', async () => {
      for (const locale of ['en', 'fr', '*']) {
        await countsMatchLists(PAGE, 'localizations', {}, { locale });
        await countsMatchLists(PAGE, 'localizations', {}, { locale, status: 'draft' });
      }
      const [home] = await list(PAGE, { localizations: { count: true } }, { locale: 'en', filters: eq('slug', 'home') });
      expect(home!['localizations']).toEqual({ count: 1 });
    });

    it('counts localized targets in the locale populating reads, one document once', async () => {
      // The example model has no relation to a localized type; read page.category's links from
      // the category side, as a `mappedBy` relation to pages would.
      const categories = model.contentTypes[CATEGORY]!;
      const pages: RelationField = {
        kind: 'relation',
        target: PAGE,
        cardinality: 'many',
        owner: false,
        linkTable: 'pages_category_lnk',
        inverse: 'category',
        required: false,
        private: false,
        localized: false,
      };
      const withPages: ModelSchema = { ...model, contentTypes: { ...model.contentTypes, [CATEGORY]: { ...categories, attributes: { ...categories.attributes, pages } } } };
      const reader = createReadEngine({ db: ex.db, model: withPages });
      const read = async (populate: PopulateTree, locale: string | undefined) =>
        (await reader.findMany(CATEGORY, listQuery({ populate, filters: eq('slug', 'news'), ...(locale === undefined ? {} : { locale }) }))).results[0]!['pages'];
      // News is the category of the home page, in English (Home) and in French (Accueil).
      for (const locale of ['en', 'fr', undefined]) {
        const listed = (await read({ pages: {} }, locale)) as Entity[];
        expect(listed).toHaveLength(1);
        expect(await read({ pages: { count: true } }, locale)).toEqual({ count: 1 });
      }
      expect(await read({ pages: { count: true } }, 'de')).toEqual({ count: 0 });
    });

    it('counts component entries, with filters; inside a populated relation too', async () => {
      const [alpha] = await list(PRODUCT, { variants: { count: true } }, { filters: eq('slug', 'alpha-widget') });
      expect(alpha!['variants']).toEqual({ count: 2 });
      const [red] = await list(PRODUCT, { variants: { count: true, filters: eq('color', 'red') } }, { filters: eq('slug', 'alpha-widget') });
      expect(red!['variants']).toEqual({ count: 1 });
      const [gamma] = await list(PRODUCT, { variants: { count: true } }, { filters: eq('slug', 'gamma-tool') });
      expect(gamma!['variants']).toEqual({ count: 0 });
      const [hello] = await list(ARTICLE, { author: { populate: { articles: { count: true } } }, seo: { populate: { metaSocial: { count: true } } } }, { filters: eq('slug', 'hello-world') });
      expect((hello!['author'] as Entity)['articles']).toEqual({ count: 2 });
      expect((hello!['seo'] as Entity)['metaSocial']).toEqual({ count: 2 });
    });
  });

  describe('components', () => {
    it('repeatable components take filters, sort and fields', async () => {
      const [sorted] = await list(PRODUCT, { variants: { fields: ['sku'], sort: [desc('price')] } }, { filters: eq('slug', 'alpha-widget') });
      expect(sorted!['variants']).toEqual([
        { id: expect.any(Number), sku: 'ALPHA-BLUE', price: 21.5 },
        { id: expect.any(Number), sku: 'ALPHA-RED', price: 19.99 },
      ]);
      const [filtered] = await list(PRODUCT, { variants: { fields: ['sku'], filters: cond('color', 'ne', 'red') } }, { filters: eq('slug', 'alpha-widget') });
      expect(filtered!['variants']).toEqual([{ id: expect.any(Number), sku: 'ALPHA-BLUE' }]);
      // A filter through a nested component.
      const [inches] = await list(PRODUCT, { variants: { fields: ['sku'], filters: { kind: 'nested', attribute: 'dimensions', filter: eq('unit', 'in') } } }, { filters: eq('slug', 'alpha-widget') });
      expect(inches!['variants']).toEqual([{ id: expect.any(Number), sku: 'ALPHA-BLUE' }]);
    });

    it('a single component that filters exclude is null', async () => {
      const [hello] = await list(ARTICLE, { seo: { filters: eq('metaTitle', 'nope') } }, { filters: eq('slug', 'hello-world') });
      expect(hello!['seo']).toBeNull();
      const [kept] = await list(ARTICLE, { seo: { fields: ['metaTitle'], filters: eq('metaTitle', 'Hello World SEO') } }, { filters: eq('slug', 'hello-world') });
      expect(kept!['seo']).toEqual({ id: expect.any(Number), metaTitle: 'Hello World SEO' });
    });

    it('dynamic zone fragments take filters and fields; entries keep the zone order', async () => {
      const on = {
        'shared.quote': { fields: ['title'], filters: eq('title', 'Nope') },
        'shared.rich-text': {},
        'shared.media': { fields: ['id'], sort: [desc('id')] },
      };
      const [hello] = await list(ARTICLE, { blocks: { on } }, { filters: eq('slug', 'hello-world') });
      expect((hello!['blocks'] as Entity[]).map((b) => b['__component'])).toEqual(['shared.rich-text', 'shared.media']);
      const [kept] = await list(ARTICLE, { blocks: { on: { ...on, 'shared.quote': { fields: ['title'], filters: eq('title', 'Grace') } } } }, { filters: eq('slug', 'hello-world') });
      expect(kept!['blocks']).toEqual([
        expect.objectContaining({ __component: 'shared.rich-text' }),
        { __component: 'shared.quote', id: expect.any(Number), title: 'Grace' },
        { __component: 'shared.media', id: expect.any(Number) },
      ]);
    });
  });
});
