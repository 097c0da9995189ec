/**
 * Every filter operator on every kind of column, nested filters through relations (both sides),
 * components and media, with the same answers on SQLite and PostgreSQL — case-sensitive
 * `contains`/`startsWith`/`endsWith` included, which SQLite's LIKE would get wrong.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, openExampleDatabase, type ExampleDatabase } from '../../../test/support/example-db.ts';
import type { Filter, ListQuery } from '../query/types.ts';
import { createReadEngine } from './read.ts';
import { allOf, anyOf, asc, cond, eq, listQuery, nested, not, seedConformance, type Seeded } from './test-seed.ts';
import type { ReadEngine } from './types.ts';

const ARTICLE = 'api::article.article';
const PRODUCT = 'api::product.product';
const AUTHOR = 'api::author.author';
const PAGE = 'api::page.page';

const ALL_ARTICLES = ['food-for-thought', 'hello-world', 'lonely-article', 'modified-after-publish', 'second-steps', 'third-time-lucky'];
const ALL_PRODUCTS = ['alpha-widget', 'beta-gadget', 'delta-device', 'epsilon-engine', 'gamma-tool'];

describe.each(clients)('filters on %s', (client) => {
  let ex: ExampleDatabase;
  let engine: ReadEngine;
  let seeded: Seeded;

  beforeAll(async () => {
    ex = await openExampleDatabase(client);
    seeded = (await seedConformance(ex.db, ex.model)).seeded();
    engine = createReadEngine({ db: ex.db, model: ex.model });
  });
  afterAll(async () => ex?.close());

  /** The `key` of every match, in `key` order. */
  async function matching(uid: string, filters: Filter, query: Partial<ListQuery> = {}, key = 'slug'): Promise<unknown[]> {
    const result = await engine.findMany(uid, listQuery({ filters, fields: [key], sort: [asc(key)], pagination: { kind: 'page', page: 1, pageSize: 100, withCount: true }, ...query }));
    expect(result.total).toBe(result.results.length);
    return result.results.map((entity) => entity[key]);
  }
  const articles = (filters: Filter, query?: Partial<ListQuery>): Promise<unknown[]> => matching(ARTICLE, filters, query);
  const products = (filters: Filter): Promise<unknown[]> => matching(PRODUCT, filters);

  describe('comparison operators', () => {
    it('eq / ne, with SQL NULL semantics', async () => {
      expect(await articles(eq('title', 'Hello World'))).toEqual(['hello-world']);
      expect(await articles(eq('title', 'hello world'))).toEqual([]);
      // NULL never equals or differs: lonely-article (no readingTime) is in neither answer.
      expect(await articles(cond('readingTime', 'ne', 5))).toEqual(['food-for-thought', 'modified-after-publish', 'second-steps', 'third-time-lucky']);
      expect(await articles(eq('description', null))).toEqual(['third-time-lucky']);
      expect(await articles(cond('description', 'ne', null))).toEqual(ALL_ARTICLES.filter((s) => s !== 'third-time-lucky'));
      // An array value means "any of them", as Strapi reads it.
      expect(await articles(eq('slug', ['hello-world', 'second-steps']))).toEqual(['hello-world', 'second-steps']);
    });

    it('eqi / nei ignore case', async () => {
      expect(await articles(cond('title', 'eqi', 'hello WORLD'))).toEqual(['hello-world']);
      expect(await articles(cond('title', 'nei', 'HELLO world'))).toEqual(ALL_ARTICLES.filter((s) => s !== 'hello-world'));
    });

    it('lt / lte / gt / gte / between', async () => {
      expect(await articles(cond('readingTime', 'lt', 7))).toEqual(['hello-world', 'second-steps']);
      expect(await articles(cond('readingTime', 'lte', 7))).toEqual(['food-for-thought', 'hello-world', 'second-steps']);
      expect(await articles(cond('readingTime', 'gt', 9))).toEqual(['third-time-lucky']);
      expect(await articles(cond('readingTime', 'gte', 9))).toEqual(['modified-after-publish', 'third-time-lucky']);
      expect(await articles(cond('readingTime', 'between', [5, 9]))).toEqual(['food-for-thought', 'hello-world', 'modified-after-publish']);
      // Text compares byte-wise on both databases: uppercase sorts before lowercase.
      expect(await articles(cond('title', 'lt', 'H'))).toEqual(['food-for-thought']);
      expect(await articles(cond('title', 'gte', 'a'))).toEqual([]);
    });

    it('in / notIn on id and documentId take any number of values (one parameter)', async () => {
      const [hello] = (await engine.findMany(ARTICLE, listQuery({ filters: eq('slug', 'hello-world'), fields: ['slug'] }))).results;
      const id = hello!['id'] as number;
      const many = Array.from({ length: 70_000 }, (_, i) => i + 1_000_000);
      expect(await articles(cond('id', 'in', [...many, id]))).toEqual(['hello-world']);
      expect(await articles(cond('id', 'notIn', [...many, id]))).toEqual(ALL_ARTICLES.filter((s) => s !== 'hello-world'));
      const documents = Array.from({ length: 70_000 }, (_, i) => `doc${i}`);
      expect(await articles(cond('documentId', 'in', [...documents, seeded.doc['article-hello']!]))).toEqual(['hello-world']);
      expect(await articles(cond('documentId', 'notIn', [...documents, seeded.doc['article-hello']!]))).toEqual(ALL_ARTICLES.filter((s) => s !== 'hello-world'));
    });

    it('in / notIn, empty lists included', async () => {
      expect(await articles(cond('readingTime', 'in', [3, 12]))).toEqual(['second-steps', 'third-time-lucky']);
      expect(await articles(cond('readingTime', 'notIn', [3, 12]))).toEqual(['food-for-thought', 'hello-world', 'modified-after-publish']);
      expect(await articles(cond('readingTime', 'in', []))).toEqual([]);
      expect(await articles(cond('readingTime', 'notIn', []))).toEqual(ALL_ARTICLES);
    });

    it('null / notNull', async () => {
      expect(await articles(cond('readingTime', 'null', true))).toEqual(['lonely-article']);
      expect(await articles(cond('readingTime', 'null', false))).toEqual(ALL_ARTICLES.filter((s) => s !== 'lonely-article'));
      expect(await articles(cond('readingTime', 'notNull', true))).toEqual(ALL_ARTICLES.filter((s) => s !== 'lonely-article'));
      expect(await articles(cond('readingTime', 'notNull', false))).toEqual(['lonely-article']);
    });
  });

  describe('string operators', () => {
    it('contains / startsWith / endsWith are case sensitive on both databases', async () => {
      expect(await articles(cond('title', 'contains', 'World'))).toEqual(['hello-world']);
      expect(await articles(cond('title', 'contains', 'world'))).toEqual([]);
      expect(await articles(cond('title', 'startsWith', 'Hello'))).toEqual(['hello-world']);
      expect(await articles(cond('title', 'startsWith', 'hello'))).toEqual([]);
      expect(await articles(cond('title', 'endsWith', 'Lucky'))).toEqual(['third-time-lucky']);
      expect(await articles(cond('title', 'endsWith', 'lucky'))).toEqual([]);
      expect(await articles(cond('title', 'notContains', 'o'))).toEqual(['third-time-lucky']);
      expect(await articles(cond('title', 'notContains', 'O'))).toEqual(ALL_ARTICLES);
    });

    it('the *i variants ignore case', async () => {
      expect(await articles(cond('title', 'containsi', 'WORLD'))).toEqual(['hello-world']);
      expect(await articles(cond('title', 'startsWithi', 'hello'))).toEqual(['hello-world']);
      expect(await articles(cond('title', 'endsWithi', 'LUCKY'))).toEqual(['third-time-lucky']);
      expect(await articles(cond('title', 'notContainsi', 'O'))).toEqual(['third-time-lucky']);
    });

    it('LIKE wildcards in values match themselves', async () => {
      expect(await products(cond('size', 'contains', '_'))).toEqual(['delta-device']);
      expect(await products(cond('size', 'containsi', 'X_'))).toEqual(['delta-device']);
      expect(await products(cond('size', 'startsWith', 'x_'))).toEqual(['delta-device']);
      expect(await products(cond('size', 'endsWithi', '_LARGE'))).toEqual(['delta-device']);
      expect(await products(cond('name', 'contains', '%'))).toEqual([]);
      expect(await products(cond('name', 'containsi', '%'))).toEqual([]);
    });

    it('an empty needle matches every non-NULL value', async () => {
      expect(await articles(cond('description', 'contains', ''))).toEqual(ALL_ARTICLES.filter((s) => s !== 'third-time-lucky'));
      expect(await articles(cond('description', 'endsWith', ''))).toEqual(ALL_ARTICLES.filter((s) => s !== 'third-time-lucky'));
    });
  });

  describe('every scalar type', () => {
    it('biginteger compares as a number, not as text', async () => {
      expect(await products(cond('serialNumber', 'gt', '5'))).toEqual(['alpha-widget', 'beta-gadget']);
      expect(await products(cond('serialNumber', 'lt', '0'))).toEqual(['delta-device']);
      expect(await products(eq('serialNumber', '0'))).toEqual(['epsilon-engine']);
      expect(await products(cond('serialNumber', 'in', ['42', '0']))).toEqual(['beta-gadget', 'epsilon-engine']);
      expect(await products(cond('serialNumber', 'between', ['-20000000000', '50']))).toEqual(['beta-gadget', 'delta-device', 'epsilon-engine']);
      expect(await products(cond('serialNumber', 'contains', '789'))).toEqual(['alpha-widget', 'delta-device']);
    });

    it('decimal, float and integer', async () => {
      expect(await products(cond('price', 'gt', 19.99))).toEqual(['delta-device']);
      expect(await products(cond('price', 'gte', 19.99))).toEqual(['alpha-widget', 'delta-device']);
      expect(await products(eq('price', 0))).toEqual(['epsilon-engine']);
      expect(await products(cond('weight', 'lt', 0.5))).toEqual(['beta-gadget', 'delta-device']);
      expect(await products(eq('stock', 0))).toEqual(['beta-gadget']);
    });

    it('boolean', async () => {
      expect(await products(eq('inStock', true))).toEqual(['alpha-widget', 'delta-device', 'epsilon-engine', 'gamma-tool']);
      expect(await products(eq('inStock', false))).toEqual(['beta-gadget']);
      expect(await products(cond('inStock', 'ne', true))).toEqual(['beta-gadget']);
    });

    it('date, datetime and time', async () => {
      expect(await products(cond('releaseDate', 'gt', '2024-01-01'))).toEqual(['alpha-widget', 'delta-device']);
      expect(await products(eq('releaseDate', '2024-01-15'))).toEqual(['alpha-widget']);
      expect(await products(cond('releaseDate', 'between', ['2023-01-01', '2024-12-31']))).toEqual(['alpha-widget', 'beta-gadget']);
      expect(await products(cond('availableAt', 'gte', '2024-01-15T10:30:00.000Z'))).toEqual(['alpha-widget', 'delta-device']);
      expect(await products(eq('availableAt', '2024-01-15T10:30:00Z'))).toEqual(['alpha-widget']);
      expect(await products(cond('availableAt', 'lt', '2023-01-01T00:00:00Z'))).toEqual(['epsilon-engine']);
      expect(await products(cond('openingTime', 'gt', '08:00'))).toEqual(['alpha-widget', 'beta-gadget']);
      expect(await products(eq('openingTime', '07:00:00'))).toEqual(['delta-device']);
      expect(await products(cond('openingTime', 'lt', '07:00'))).toEqual(['epsilon-engine']);
    });

    it('json and blocks compare their JSON text with the string operators', async () => {
      expect(await products(cond('specs', 'contains', 'silver'))).toEqual(['delta-device']);
      expect(await products(cond('specs', 'contains', 'Silver'))).toEqual([]);
      expect(await products(cond('specs', 'containsi', 'SILVER'))).toEqual(['delta-device']);
      expect(await products(cond('specs', 'notNull', true))).toEqual(['alpha-widget', 'beta-gadget', 'delta-device']);
      expect(await products(cond('notes', 'contains', 'Alpha notes'))).toEqual(['alpha-widget']);
      // Equality compares the JSON text too, never parsing the value as JSON.
      expect(await products(eq('specs', 'silver'))).toEqual([]);
      expect(await products(cond('specs', 'ne', 'silver'))).toEqual(['alpha-widget', 'beta-gadget', 'delta-device']);
    });

    it('text, richtext, email, enumeration', async () => {
      expect(await products(cond('details', 'contains', '**Bold**'))).toEqual(['alpha-widget']);
      expect(await products(cond('summary', 'contains', '\nTwo'))).toEqual(['alpha-widget']);
      expect(await products(cond('contactEmail', 'endsWith', '@example.com'))).toEqual(['alpha-widget', 'beta-gadget', 'delta-device']);
      expect(await products(cond('size', 'in', ['small', 'large']))).toEqual(['alpha-widget', 'beta-gadget']);
    });

    it('system fields', async () => {
      const hello = seeded.doc['article-hello']!;
      expect(await articles(eq('documentId', hello))).toEqual(['hello-world']);
      const [row] = await engine.findMany(ARTICLE, listQuery({ filters: eq('documentId', hello) })).then((r) => r.results);
      expect(await articles(eq('id', row!['id'] as number))).toEqual(['hello-world']);
      expect(await articles(cond('createdAt', 'gte', row!['createdAt'] as string))).toEqual(['hello-world', 'modified-after-publish']);
      expect(await articles(cond('publishedAt', 'notNull', true))).toEqual(ALL_ARTICLES);
      expect(await matching(PAGE, eq('locale', 'fr'), { locale: '*' })).toEqual(['accueil', 'mentions-legales']);
    });

    it('a private attribute can be filtered by the engine (the parser decides whether it may)', async () => {
      expect(await products(eq('internalCode', 'BETA-INTERNAL'))).toEqual(['beta-gadget']);
    });
  });

  describe('and / or / not', () => {
    it('combines conditions', async () => {
      expect(await articles(allOf(eq('featured', false), cond('readingTime', 'gt', 3)))).toEqual(['food-for-thought', 'modified-after-publish']);
      expect(await articles(anyOf(eq('slug', 'hello-world'), cond('readingTime', 'gt', 10)))).toEqual(['hello-world', 'third-time-lucky']);
      expect(await articles(not(eq('featured', true)))).toEqual(['food-for-thought', 'lonely-article', 'modified-after-publish', 'second-steps']);
      expect(await articles(allOf())).toEqual(ALL_ARTICLES);
      expect(await articles(anyOf())).toEqual([]);
    });
  });

  describe('nested filters', () => {
    it('through the owning side of relations, to any depth', async () => {
      expect(await articles(nested('author', eq('name', 'Ada Lovelace')))).toEqual(['hello-world', 'second-steps']);
      expect(await articles(nested('tags', cond('name', 'in', ['tag-03', 'tag-04'])))).toEqual(['hello-world', 'third-time-lucky']);
      expect(await articles(nested('featuredProduct', nested('category', eq('name', 'Tech'))))).toEqual(['hello-world']);
      expect(await products(nested('relatedProducts', eq('name', 'Alpha Widget')))).toEqual(['delta-device']);
      expect(await matching(PAGE, nested('category', eq('name', 'News')), { locale: 'fr' })).toEqual(['accueil']);
    });

    it('through the mappedBy side', async () => {
      expect(await matching(AUTHOR, nested('articles', cond('title', 'containsi', 'steps')), {}, 'name')).toEqual(['Ada Lovelace']);
      expect(await products(nested('reviewArticle', eq('slug', 'hello-world')))).toEqual(['alpha-widget']);
    });

    it('is true when one related row matches, and negates as NOT EXISTS', async () => {
      expect(await articles(nested('tags', eq('name', 'tag-02')))).toEqual(['hello-world', 'second-steps']);
      expect(await articles(not(nested('tags', eq('name', 'tag-02'))))).toEqual(['food-for-thought', 'lonely-article', 'modified-after-publish', 'third-time-lucky']);
    });

    it('sees relation targets in the root status', async () => {
      const byTitle = (title: string): Filter => nested('articles', eq('title', title));
      const authors = (filter: Filter, status: 'draft' | 'published'): Promise<unknown[]> => matching(AUTHOR, filter, { status }, 'name');
      expect(await authors(byTitle('Draft Only Notes'), 'published')).toEqual([]);
      expect(await authors(byTitle('Draft Only Notes'), 'draft')).toEqual(['Grace Hopper']);
      expect(await authors(byTitle('Modified After Publish (draft)'), 'published')).toEqual([]);
      expect(await authors(byTitle('Modified After Publish (draft)'), 'draft')).toEqual(['Grace Hopper']);
      expect(await authors(byTitle('Modified After Publish'), 'published')).toEqual(['Grace Hopper']);
    });

    it("matches parents without related rows when the filter holds on NULLs, as Strapi's LEFT JOIN does", async () => {
      const withCover = ['hello-world', 'third-time-lucky'];
      const withoutCover = ALL_ARTICLES.filter((s) => !withCover.includes(s));
      expect(await articles(nested('cover', cond('id', 'null', true)))).toEqual(withoutCover);
      expect(await articles(nested('cover', cond('documentId', 'null', true)))).toEqual(withoutCover);
      expect(await articles(nested('cover', cond('id', 'notNull', false)))).toEqual(withoutCover);
      expect(await articles(nested('cover', cond('id', 'notNull', true)))).toEqual(withCover);
      // A to-many relation: entries without any tag; an entry with tags never has a NULL id.
      const tagged = await articles(nested('tags', cond('id', 'notNull', true)));
      expect(await articles(nested('tags', cond('id', 'null', true)))).toEqual(ALL_ARTICLES.filter((s) => !tagged.includes(s)));
      // The mappedBy side, and a component.
      expect(await matching(AUTHOR, nested('articles', cond('documentId', 'null', true)), {}, 'name')).toEqual(
        await matching(AUTHOR, not(nested('articles', cond('id', 'notNull', true))), {}, 'name'),
      );
      expect(await articles(nested('seo', cond('id', 'null', true)))).toEqual(await articles(not(nested('seo', cond('id', 'notNull', true)))));
      // A filter that is unknown on NULLs (name = x) never matches a missing row.
      expect(await articles(nested('cover', eq('name', 'photo.jpg')))).toEqual(['third-time-lucky']);
      expect(await articles(nested('cover', anyOf(eq('name', 'photo.jpg'), cond('id', 'null', true))))).toEqual(['third-time-lucky', ...withoutCover].sort());
    });

    it('through components, nested components and repeatables', async () => {
      expect(await articles(nested('seo', cond('metaTitle', 'containsi', 'hello')))).toEqual(['hello-world']);
      expect(await articles(nested('seo', nested('metaSocial', eq('socialNetwork', 'Twitter'))))).toEqual(['hello-world']);
      expect(await products(nested('variants', eq('sku', 'ALPHA-RED')))).toEqual(['alpha-widget']);
      expect(await products(nested('variants', nested('dimensions', eq('unit', 'in'))))).toEqual(['alpha-widget']);
      expect(await products(nested('variants', nested('dimensions', cond('width', 'lte', 1))))).toEqual(['beta-gadget']);
    });

    it('through media, on content types and inside components', async () => {
      expect(await articles(nested('cover', eq('name', 'photo.jpg')))).toEqual(['third-time-lucky']);
      expect(await articles(nested('cover', cond('mime', 'startsWith', 'image/')))).toEqual(['hello-world', 'third-time-lucky']);
      expect(await articles(not(nested('cover', cond('id', 'notNull', true))))).toEqual(['food-for-thought', 'lonely-article', 'modified-after-publish', 'second-steps']);
      expect(await matching(AUTHOR, nested('avatar', eq('name', 'red.png')), {}, 'name')).toEqual(['Ada Lovelace']);
      expect(await articles(nested('seo', nested('shareImage', eq('name', 'blue.png'))))).toEqual(['hello-world']);
      expect(await products(nested('variants', nested('image', eq('name', 'blue.png'))))).toEqual(['alpha-widget']);
      expect(await products(nested('gallery', eq('name', 'photo.jpg')))).toEqual(['beta-gadget']);
    });
  });

  it('every product matches an always-true filter, so nothing above is vacuous', async () => {
    expect(await products(cond('id', 'notNull', true))).toEqual(ALL_PRODUCTS);
  });
});
