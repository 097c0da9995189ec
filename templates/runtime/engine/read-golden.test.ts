/**
 * The read engine against Strapi 5's recorded answers (test/fixtures/conformance/golden): each case
 * is the validated query the REST parser makes of the recorded query string, run on the
 * conformance seed (test-seed.ts), normalized as the conformance tools normalize responses, and
 * compared with the `data` (and total) Strapi returned. Both databases.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, openExampleDatabase, type ExampleDatabase } from '../../../test/support/example-db.ts';
import { conformanceGoldenDir as goldenDir } from '../../../test/support/fixtures.ts';
import type { ListQuery, PopulateNode } from '../query/types.ts';
import { createReadEngine } from './read.ts';
import { allOf, anyOf, asc, cond, desc, eq, listQuery, nested, normalizeLikeConformance as normalize, seedConformance, type Seeded } from './test-seed.ts';
import type { ReadEngine } from './types.ts';

interface Golden {
  readonly status: number;
  readonly body: { readonly data?: unknown; readonly meta?: { readonly pagination?: { readonly total?: number } } } | unknown[];
}

function golden(name: string): Golden {
  return JSON.parse(readFileSync(resolve(goldenDir, `${name}.json`), 'utf8')) as Golden;
}

const and = allOf;
const or = anyOf;

const ARTICLE = 'api::article.article';
const PRODUCT = 'api::product.product';
const PAGE = 'api::page.page';
const TAG = 'api::tag.tag';
const FILE = 'plugin::upload.file';

const listFields = ['slug', 'title', 'readingTime'];
const bySlug = [asc('slug')];
const hello = eq('slug', 'hello-world');

/** `populate[blocks][populate]=*`: every component of the zone with its own populatable attributes. */
const blocksOneLevel: PopulateNode = {
  on: {
    'shared.rich-text': {},
    'shared.quote': {},
    'shared.media': { populate: { file: {} } },
    'shared.slider': { populate: { files: {} } },
    'shared.article-card': { populate: { image: {}, article: {} } },
  },
};
const blocksPlain: PopulateNode = {
  on: { 'shared.rich-text': {}, 'shared.quote': {}, 'shared.media': {}, 'shared.slider': {}, 'shared.article-card': {} },
};

interface Case {
  readonly name: string;
  readonly uid: string;
  readonly read: 'many' | 'one' | 'single';
  /** Label of the document for `one`. */
  readonly doc?: string;
  readonly query?: Partial<ListQuery>;
}

const cases: readonly Case[] = [
  { name: 'rest-articles-list-default', uid: ARTICLE, read: 'many' },
  { name: 'rest-article-404-unknown-documentid', uid: ARTICLE, read: 'one', doc: 'doesnotexist0000000000000' },
  { name: 'rest-product-by-documentid-variants-star', uid: PRODUCT, read: 'one', doc: 'product-alpha', query: { populate: { variants: { populate: { image: {}, dimensions: {} } } } } },
  { name: 'rest-author-by-documentid-populate-articles', uid: 'api::author.author', read: 'one', doc: 'author-ada', query: { populate: { articles: { sort: [asc('slug')] } } } },
  { name: 'rest-category-by-documentid', uid: 'api::category.category', read: 'one', doc: 'cat-food' },
  { name: 'rest-populate-star-global', uid: 'api::global.global', read: 'single', query: { populate: { favicon: {}, defaultSeo: {} } } },
  { name: 'rest-populate-star-pages', uid: PAGE, read: 'many', query: { locale: 'en', sort: bySlug, populate: { seo: {}, category: {}, localizations: {} } } },
  { name: 'rest-populate-dotted-component-nested', uid: ARTICLE, read: 'many', query: { sort: bySlug, populate: { seo: { populate: { metaSocial: {} } } } } },
  { name: 'rest-populate-dotted-component-media', uid: ARTICLE, read: 'many', query: { sort: bySlug, populate: { seo: { populate: { shareImage: {} } } } } },
  { name: 'rest-populate-dotted-repeatable-nested', uid: PRODUCT, read: 'many', query: { sort: bySlug, populate: { variants: { populate: { dimensions: {}, image: {} } } } } },
  { name: 'rest-populate-object-true', uid: ARTICLE, read: 'many', query: { sort: bySlug, populate: { author: {}, seo: {} } } },
  { name: 'rest-populate-object-populate-star', uid: ARTICLE, read: 'many', query: { sort: bySlug, populate: { seo: { populate: { shareImage: {}, metaSocial: {} } } } } },
  { name: 'rest-populate-media-multiple-sort', uid: PRODUCT, read: 'many', query: { fields: ['name'], sort: bySlug, populate: { gallery: { sort: [asc('name')] } } } },
  {
    name: 'rest-populate-manytomany-inverse',
    uid: TAG,
    read: 'many',
    query: { filters: cond('name', 'in', ['tag-02', 'tag-03']), sort: [asc('name')], populate: { articles: { fields: ['slug'] } } },
  },
  { name: 'rest-populate-dz-true', uid: ARTICLE, read: 'many', query: { filters: hello, populate: { blocks: blocksPlain } } },
  { name: 'rest-populate-dz-string', uid: ARTICLE, read: 'many', query: { filters: hello, populate: { blocks: blocksPlain } } },
  { name: 'rest-populate-dz-populate-star', uid: ARTICLE, read: 'many', query: { filters: hello, populate: { blocks: blocksOneLevel } } },
  {
    name: 'rest-populate-dz-on-array',
    uid: ARTICLE,
    read: 'many',
    query: {
      filters: hello,
      populate: {
        blocks: {
          on: {
            'shared.article-card': { populate: { image: {}, article: {} } },
            'shared.slider': { populate: { files: {} } },
            'shared.media': { populate: { file: {} } },
            'shared.quote': {},
            'shared.rich-text': {},
          },
        },
      },
    },
  },
  {
    name: 'rest-populate-dz-on-deep-object',
    uid: ARTICLE,
    read: 'many',
    query: {
      filters: hello,
      populate: {
        blocks: {
          on: {
            'shared.article-card': { populate: { article: { fields: ['title'], populate: { author: { fields: ['name'] } } }, image: { fields: ['name'] } } },
          },
        },
      },
    },
  },
  { name: 'rest-populate-dz-on-partial', uid: ARTICLE, read: 'many', query: { filters: hello, populate: { blocks: { on: { 'shared.media': { populate: { file: {} } } } } } } },
  { name: 'rest-populate-dz-on-fields', uid: ARTICLE, read: 'many', query: { filters: hello, populate: { blocks: { on: { 'shared.quote': { fields: ['title'] } } } } } },
  {
    name: 'rest-populate-dz-single-type',
    uid: 'api::about.about',
    read: 'single',
    query: {
      populate: {
        blocks: { on: { 'shared.media': { populate: { file: {} } }, 'shared.slider': { populate: { files: {} } }, 'shared.quote': {}, 'shared.rich-text': {} } },
      },
    },
  },
  {
    name: 'rest-populate-nested-star-deep',
    uid: ARTICLE,
    read: 'many',
    query: {
      filters: hello,
      populate: {
        seo: { populate: { shareImage: {}, metaSocial: {} } },
        featuredProduct: { populate: { gallery: {}, manual: {}, variants: {}, category: {}, relatedProducts: {}, reviewArticle: {} } },
      },
    },
  },
  { name: 'rest-populate-localizations', uid: PAGE, read: 'many', query: { locale: 'en', sort: bySlug, populate: { localizations: {} } } },
  { name: 'rest-populate-media-fields', uid: ARTICLE, read: 'many', query: { fields: ['slug'], sort: bySlug, populate: { cover: { fields: ['url', 'name'] } } } },
  { name: 'rest-filter-implicit-eq', uid: ARTICLE, read: 'many', query: { fields: listFields, sort: bySlug, filters: hello } },
  { name: 'rest-filter-ne', uid: ARTICLE, read: 'many', query: { fields: listFields, sort: bySlug, filters: cond('slug', 'ne', 'hello-world') } },
  { name: 'rest-filter-lte', uid: ARTICLE, read: 'many', query: { fields: listFields, sort: bySlug, filters: cond('readingTime', 'lte', 5) } },
  { name: 'rest-filter-notin', uid: ARTICLE, read: 'many', query: { fields: listFields, sort: bySlug, filters: cond('slug', 'notIn', ['hello-world', 'food-for-thought']) } },
  { name: 'rest-filter-notcontainsi', uid: ARTICLE, read: 'many', query: { fields: listFields, sort: bySlug, filters: cond('title', 'notContainsi', 'T') } },
  { name: 'rest-filter-between', uid: ARTICLE, read: 'many', query: { fields: listFields, sort: bySlug, filters: cond('readingTime', 'between', [3, 7]) } },
  { name: 'rest-filter-endswithi', uid: ARTICLE, read: 'many', query: { fields: listFields, sort: bySlug, filters: cond('title', 'endsWithi', 'LUCKY') } },
  { name: 'rest-filter-or', uid: ARTICLE, read: 'many', query: { fields: listFields, sort: bySlug, filters: or(hello, cond('readingTime', 'gt', 10)) } },
  { name: 'rest-filter-not', uid: ARTICLE, read: 'many', query: { fields: listFields, sort: bySlug, filters: { kind: 'not', filter: eq('featured', true) } } },
  {
    name: 'rest-filter-nested-and-or',
    uid: ARTICLE,
    read: 'many',
    query: { fields: listFields, sort: bySlug, filters: or(and(eq('featured', false), cond('readingTime', 'gte', 7)), eq('slug', 'lonely-article')) },
  },
  { name: 'rest-filter-multiple-fields-implicit-and', uid: ARTICLE, read: 'many', query: { fields: listFields, sort: bySlug, filters: and(eq('featured', false), cond('readingTime', 'gt', 3)) } },
  { name: 'rest-filter-relation-manytoone', uid: ARTICLE, read: 'many', query: { fields: listFields, sort: bySlug, filters: nested('author', eq('name', 'Alan Turing')) } },
  {
    name: 'rest-filter-relation-manytomany-in',
    uid: ARTICLE,
    read: 'many',
    query: { fields: listFields, sort: bySlug, filters: nested('tags', cond('name', 'in', ['tag-03', 'tag-04'])) },
  },
  { name: 'rest-filter-relation-onetoone', uid: ARTICLE, read: 'many', query: { fields: listFields, sort: bySlug, filters: nested('featuredProduct', cond('price', 'gt', 10)) } },
  { name: 'rest-filter-component-field', uid: ARTICLE, read: 'many', query: { fields: listFields, sort: bySlug, filters: nested('seo', cond('metaTitle', 'containsi', 'hello')) } },
  { name: 'rest-filter-in-scalar-value', uid: ARTICLE, read: 'many', query: { fields: listFields, sort: bySlug, filters: cond('slug', 'in', ['hello-world']) } },
  { name: 'rest-filter-product-boolean-false', uid: PRODUCT, read: 'many', query: { fields: ['slug'], sort: bySlug, filters: eq('inStock', false) } },
  { name: 'rest-filter-product-biginteger-gt', uid: PRODUCT, read: 'many', query: { fields: ['slug'], sort: bySlug, filters: cond('serialNumber', 'gt', '100') } },
  { name: 'rest-filter-product-time-gt', uid: PRODUCT, read: 'many', query: { fields: ['slug'], sort: bySlug, filters: cond('openingTime', 'gt', '08:00:00') } },
  { name: 'rest-filter-product-email-endswith', uid: PRODUCT, read: 'many', query: { fields: ['slug'], sort: bySlug, filters: cond('contactEmail', 'endsWith', '@example.com') } },
  { name: 'rest-filter-product-richtext-contains', uid: PRODUCT, read: 'many', query: { fields: ['slug'], sort: bySlug, filters: cond('details', 'contains', 'markdown') } },
  { name: 'rest-filter-product-json-contains', uid: PRODUCT, read: 'many', query: { fields: ['slug'], sort: bySlug, filters: cond('specs', 'containsi', 'silver') } },
  { name: 'rest-filter-product-uid-eq', uid: PRODUCT, read: 'many', query: { fields: ['slug'], sort: bySlug, filters: eq('slug', 'gamma-tool') } },
  { name: 'rest-filter-product-component', uid: PRODUCT, read: 'many', query: { fields: ['slug'], sort: bySlug, filters: nested('variants', eq('sku', 'ALPHA-RED')) } },
  {
    name: 'rest-filter-product-nested-component',
    uid: PRODUCT,
    read: 'many',
    query: { fields: ['slug'], sort: bySlug, filters: nested('variants', nested('dimensions', eq('unit', 'in'))) },
  },
  { name: 'rest-filter-product-manyway-relation', uid: PRODUCT, read: 'many', query: { fields: ['slug'], sort: bySlug, filters: nested('relatedProducts', eq('name', 'Alpha Widget')) } },
  { name: 'rest-sort-relation-field', uid: ARTICLE, read: 'many', query: { fields: ['slug', 'readingTime', 'featured'], sort: [asc('author.name'), asc('slug')] } },
  { name: 'rest-sort-products-date', uid: PRODUCT, read: 'many', query: { fields: ['slug', 'releaseDate'], sort: [asc('releaseDate')] } },
  { name: 'rest-sort-products-float-name', uid: PRODUCT, read: 'many', query: { fields: ['slug', 'weight', 'inStock'], sort: [asc('inStock'), desc('weight')] } },
  { name: 'rest-pagination-default', uid: TAG, read: 'many', query: { fields: ['name'], sort: [asc('name')] } },
  { name: 'rest-pagination-start-limit', uid: TAG, read: 'many', query: { fields: ['name'], sort: [asc('name')], pagination: { kind: 'offset', start: 5, limit: 5, withCount: true } } },
  { name: 'rest-pagination-pagesize-over-max', uid: TAG, read: 'many', query: { fields: ['name'], sort: [asc('name')], pagination: { kind: 'page', page: 1, pageSize: 100, withCount: true } } },
  { name: 'rest-pagination-page-zero', uid: TAG, read: 'many', query: { fields: ['name'], sort: [asc('name')], pagination: { kind: 'page', page: 1, pageSize: 3, withCount: true } } },
  { name: 'rest-pagination-page-beyond', uid: TAG, read: 'many', query: { fields: ['name'], sort: [asc('name')], pagination: { kind: 'page', page: 99, pageSize: 10, withCount: true } } },
  { name: 'rest-pagination-without-count', uid: TAG, read: 'many', query: { fields: ['name'], sort: [asc('name')], pagination: { kind: 'page', page: 1, pageSize: 3, withCount: false } } },
  { name: 'rest-fields-array', uid: ARTICLE, read: 'many', query: { fields: ['title', 'slug'], sort: bySlug } },
  { name: 'rest-fields-string', uid: ARTICLE, read: 'many', query: { fields: ['title'], sort: bySlug } },
  { name: 'rest-fields-timestamps', uid: ARTICLE, read: 'many', query: { fields: ['createdAt', 'publishedAt'], sort: bySlug } },
  { name: 'rest-locale-pages-all', uid: PAGE, read: 'many', query: { locale: '*', sort: bySlug } },
  { name: 'rest-locale-pages-draft-default', uid: PAGE, read: 'many', query: { locale: 'en', status: 'draft', sort: bySlug } },
  { name: 'rest-locale-page-one-default', uid: PAGE, read: 'one', doc: 'page-home', query: { locale: 'en' } },
  { name: 'rest-locale-page-fr-draft-only-404', uid: PAGE, read: 'one', doc: 'page-contact', query: { locale: 'fr' } },
  { name: 'rest-locale-filter-locale-field', uid: PAGE, read: 'many', query: { locale: '*', sort: bySlug, filters: eq('locale', 'fr') } },
  { name: 'rest-status-draft-only-404', uid: ARTICLE, read: 'one', doc: 'article-draft-only' },
  {
    name: 'rest-status-published-author-articles',
    uid: 'api::author.author',
    read: 'one',
    doc: 'author-grace',
    query: { populate: { articles: { fields: ['title'], sort: [asc('slug')] } } },
  },
  { name: 'rest-status-publication-filter-modified', uid: ARTICLE, read: 'many', query: { status: 'draft', publicationFilter: 'modified', fields: ['slug'], sort: bySlug } },
  { name: 'rest-unknown-query-param', uid: ARTICLE, read: 'many', query: { fields: ['slug'], sort: bySlug } },
  { name: 'rest-upload-files-filter-mime', uid: FILE, read: 'many', query: { filters: eq('mime', 'image/png'), sort: [desc('name')], fields: ['name', 'mime'] } },
];

/** `/api/upload/files` adds isUrlSigned outside the engine. */
function withoutUploadKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUploadKeys);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'isUrlSigned'));
  return value;
}

describe.each(clients)('read engine vs Strapi 5 golden answers on %s', (client) => {
  let ex: ExampleDatabase;
  let engine: ReadEngine;
  let seeded: Seeded;

  beforeAll(async () => {
    ex = await openExampleDatabase(client);
    seeded = (await seedConformance(ex.db, ex.model)).seeded();
    engine = createReadEngine({ db: ex.db, model: ex.model });
  });
  afterAll(async () => ex?.close());

  it.each(cases)('$name', async (c) => {
    const expected = golden(c.name);
    const query = listQuery(c.query);
    if (c.read === 'many') {
      const result = await engine.findMany(c.uid, query);
      if (Array.isArray(expected.body)) {
        expect(normalize(result.results, seeded)).toEqual(withoutUploadKeys(expected.body));
        return;
      }
      expect(normalize(result.results, seeded)).toEqual(expected.body.data);
      expect(result.total).toEqual(expected.body.meta?.pagination?.total);
      return;
    }
    const entity = c.read === 'one' ? await engine.findOne(c.uid, seeded.doc[c.doc!] ?? c.doc!, query) : await engine.findSingle(c.uid, query);
    const data = Array.isArray(expected.body) ? expected.body : (expected.body.data ?? null);
    expect(normalize(entity, seeded)).toEqual(expected.status === 404 ? null : data);
  });
});
