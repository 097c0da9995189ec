/**
 * The number of SQL statements of a read never depends on the number of rows. By default a read
 * is ONE statement whatever its populate tree (nested.ts), the total included (a column of the
 * page's rows; a page past the end counts apart). The per-edge path (populate.ts, the fallback
 * for shapes nested.ts does not cover) costs 1 for the root rows and the total, 1 per populated
 * relation, media or component edge per level, 1 per component
 * kind of a dynamic zone; large parent sets (6,000 ids) still take one statement per edge there:
 * ids are bound as one array parameter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, openExampleDatabase, type Client, type ExampleDatabase } from '../../../test/support/example-db.ts';
import type { QueryEvent } from '../database.ts';
import type { ListQuery, PopulateTree } from '../query/types.ts';
import { createReadEngine } from './read.ts';
import { asc, cond, listQuery, seedConformance, seedManyArticles, type Seeded } from './test-seed.ts';
import type { Entity, ListResult, ReadEngine } from './types.ts';

/** A statement's text with its page size left out: the limit is written into the text (read.ts limitClause). */
function statementShape(statement: { readonly sql: string }): string {
  return statement.sql.replace(/ LIMIT \d+/g, ' LIMIT <n>');
}

const ARTICLE = 'api::article.article';

/** author, tags, cover, seo(+shareImage, metaSocial) and blocks with every kind, their media and relations. */
const fullPopulate: PopulateTree = {
  author: {},
  tags: {},
  cover: {},
  seo: { populate: { shareImage: {}, metaSocial: {} } },
  blocks: {
    on: {
      'shared.rich-text': {},
      'shared.quote': {},
      'shared.media': { populate: { file: {} } },
      'shared.slider': { populate: { files: {} } },
      'shared.article-card': { populate: { image: {}, article: {} } },
    },
  },
};

/** Statements per read, by populate strategy (ReadEngineOptions.populate). */
interface Expected {
  /** fullPopulate with the total (it holds a dynamic zone, read per kind on MariaDB: nested.ts zoneEdgePerKind). */
  readonly full: Readonly<Record<Client, number>>;
  /** fullPopulate plus author.avatar and author.articles. */
  readonly deeper: Readonly<Record<Client, number>>;
  /** Counts of tags, seo.metaSocial and author.articles. */
  readonly counts: number;
  /** A list with one populated edge and the total. */
  readonly oneEdgeWithTotal: number;
  /** A list with one populated edge, no total. */
  readonly oneEdge: number;
}

const strategies: readonly (readonly ['statement' | 'per-edge', Expected])[] = [
  // The root rows with every populated edge at every depth and the total in one statement.
  ['statement', { full: { sqlite: 1, postgres: 1, mysql: 1 }, deeper: { sqlite: 1, postgres: 1, mysql: 1 }, counts: 1, oneEdgeWithTotal: 1, oneEdge: 1 }],
  [
    'per-edge',
    {
      // root and total 1
      // + author 1 + tags 1 + cover 1 + seo 1 + seo.shareImage 1 + seo.metaSocial 1      (6)
      // + blocks 5 (one per component kind)                                             (5)
      // + media.file 1 + slider.files 1 + card.image 1 + card.article 1                 (4)
      full: { sqlite: 16, postgres: 16, mysql: 16 },
      deeper: { sqlite: 18, postgres: 18, mysql: 18 },
      // root and total + tags + seo + seo.metaSocial + author + author.articles
      counts: 6,
      oneEdgeWithTotal: 2,
      oneEdge: 2,
    },
  ],
];

const BULK = 6000;

describe.each(clients)('statements per read on %s', (client) => {
  let ex: ExampleDatabase;
  let seeded: Seeded;

  beforeAll(async () => {
    ex = await openExampleDatabase(client);
    // One transaction: thousands of single-row INSERTs, one commit.
    seeded = await ex.db.transaction(async (tx) => {
      const seeder = await seedConformance(tx, ex.model);
      await seedManyArticles(seeder, 120);
      return seeder.seeded();
    });
    await seedBulk(ex, seeded);
  }, 300_000);
  afterAll(async () => ex?.close());

  describe.each(strategies)('populating with %s', (strategy, expected) => {
    let engine: ReadEngine;
    beforeAll(() => {
      engine = createReadEngine({
        db: ex.db,
        model: ex.model,
        populate: strategy,
      });
    });

    async function counted(run: () => Promise<ListResult>): Promise<{ result: ListResult; statements: QueryEvent[] }> {
      const statements: QueryEvent[] = [];
      const stop = ex.db.onQuery((event) => statements.push(event));
      try {
        return { result: await run(), statements };
      } finally {
        stop();
      }
    }

    const bulkArticles = (pageSize: number, query: Partial<ListQuery> = {}): Promise<{ result: ListResult; statements: QueryEvent[] }> =>
      counted(() =>
        engine.findMany(
          ARTICLE,
          listQuery({
            filters: cond('slug', 'startsWith', 'bulk-'),
            sort: [asc('slug')],
            populate: fullPopulate,
            pagination: { kind: 'page', page: 1, pageSize, withCount: true },
            ...query,
          }),
        ),
      );

    it(`120 articles with a full populate cost ${JSON.stringify(expected.full)} statements, as 3 do`, async () => {
      const three = await bulkArticles(3);
      const all = await bulkArticles(200);
      expect(three.result.results).toHaveLength(3);
      expect(all.result.results).toHaveLength(120);
      expect(all.result.total).toBe(120);
      expect(three.statements).toHaveLength(expected.full[client]);
      expect(all.statements).toHaveLength(expected.full[client]);
      // The same statements, only with other bound ids.
      expect(all.statements.map(statementShape).sort()).toEqual(three.statements.map(statementShape).sort());
      expect(all.statements.every((s) => s.error === undefined)).toBe(true);
    });

    it('and every one of the 120 is fully populated', async () => {
      const { result } = await bulkArticles(200);
      for (const article of result.results) {
        expect(article['author']).not.toBeNull();
        expect(article['tags']).toHaveLength(3);
        expect(article['cover']).not.toBeNull();
        const seo = article['seo'] as Entity;
        expect(seo['shareImage']).not.toBeNull();
        expect(seo['metaSocial']).toHaveLength(2);
        const blocks = article['blocks'] as Entity[];
        expect(blocks.map((b) => b['__component'])).toEqual(['shared.rich-text', 'shared.quote', 'shared.media', 'shared.slider', 'shared.article-card']);
        expect(blocks[2]!['file']).not.toBeNull();
        expect(blocks[3]!['files']).toHaveLength(2);
        expect((blocks[4]!['article'] as Entity)['documentId']).toBe(seeded.doc['article-hello']);
        expect(blocks[4]!['image']).not.toBeNull();
      }
    });

    it('without the total, as many statements (it rides on the rows); a deeper populate, as many as its shape costs', async () => {
      const noCount = await bulkArticles(200, {
        pagination: { kind: 'page', page: 1, pageSize: 200, withCount: false },
      });
      expect(noCount.statements).toHaveLength(expected.full[client]);
      expect(noCount.result.total).toBeUndefined();
      const deeper = await bulkArticles(200, {
        populate: {
          ...fullPopulate,
          author: { populate: { avatar: {}, articles: { fields: ['slug'] } } },
        },
      });
      expect(deeper.statements).toHaveLength(expected.deeper[client]);
    });

    it('a count is one grouped statement per edge, for 3 parents as for 120, nested too', async () => {
      const countPopulate: PopulateTree = {
        tags: { count: true },
        seo: { populate: { metaSocial: { count: true } } },
        author: { populate: { articles: { count: true } } },
      };
      const three = await bulkArticles(3, { populate: countPopulate });
      const all = await bulkArticles(200, { populate: countPopulate });
      expect(three.statements).toHaveLength(expected.counts);
      expect(all.statements).toHaveLength(expected.counts);
      expect(all.statements.map(statementShape).sort()).toEqual(three.statements.map(statementShape).sort());
      for (const article of all.result.results) {
        expect(article['tags']).toEqual({ count: 3 });
        expect((article['seo'] as Entity)['metaSocial']).toEqual({ count: 2 });
        expect(((article['author'] as Entity)['articles'] as { count: number }).count).toBeGreaterThan(0);
      }
    });

    it(`${BULK} parents count their relation in one statement`, async () => {
      const categories = await counted(() =>
        engine.findMany(
          'api::category.category',
          listQuery({
            filters: cond('slug', 'startsWith', 'bulk-'),
            fields: ['slug'],
            populate: { articles: { count: true } },
            pagination: {
              kind: 'page',
              page: 1,
              pageSize: BULK,
              withCount: false,
            },
          }),
        ),
      );
      expect(categories.statements).toHaveLength(expected.oneEdge);
      expect(categories.result.results).toHaveLength(BULK);
      for (const category of categories.result.results) expect(category['articles']).toEqual({ count: 1 });
    });

    it('an edge whose parents are all missing costs nothing', async () => {
      // lonely-article has no seo, so seo.shareImage and seo.metaSocial have no parents.
      const lonely = await counted(() =>
        engine.findMany(
          ARTICLE,
          listQuery({
            filters: cond('slug', 'eq', 'lonely-article'),
            populate: { seo: { populate: { shareImage: {}, metaSocial: {} } } },
          }),
        ),
      );
      expect(lonely.statements).toHaveLength(expected.oneEdgeWithTotal);
      expect(lonely.result.results[0]!['seo']).toBeNull();
    });

    it(`${BULK} parents take one statement per edge (owning side, mappedBy side, media)`, async () => {
      const categories = await counted(() =>
        engine.findMany(
          'api::category.category',
          listQuery({
            filters: cond('slug', 'startsWith', 'bulk-'),
            fields: ['slug'],
            populate: { articles: { fields: ['slug'] } },
            pagination: {
              kind: 'page',
              page: 1,
              pageSize: BULK,
              withCount: true,
            },
          }),
        ),
      );
      expect(categories.result.results).toHaveLength(BULK);
      expect(categories.statements).toHaveLength(expected.oneEdgeWithTotal);
      for (const category of categories.result.results)
        expect(category['articles']).toEqual([
          {
            id: expect.any(Number),
            documentId: seeded.doc['article-hello'],
            slug: 'hello-world',
          },
        ]);

      const authors = await counted(() =>
        engine.findMany(
          'api::author.author',
          listQuery({
            filters: cond('email', 'endsWith', '@bulk.example'),
            fields: ['name'],
            populate: { avatar: { fields: ['name'] } },
            pagination: {
              kind: 'page',
              page: 1,
              pageSize: BULK,
              withCount: false,
            },
          }),
        ),
      );
      expect(authors.result.results).toHaveLength(BULK);
      expect(authors.statements).toHaveLength(expected.oneEdge);
      for (const author of authors.result.results) expect((author['avatar'] as Entity)['name']).toBe('red.png');

      const products = await counted(() =>
        engine.findMany(
          'api::category.category',
          listQuery({
            filters: cond('slug', 'startsWith', 'bulk-'),
            fields: ['slug'],
            sort: [asc('articles.slug')],
            pagination: {
              kind: 'page',
              page: 1,
              pageSize: BULK,
              withCount: false,
            },
          }),
        ),
      );
      expect(products.statements).toHaveLength(1);
    });
  });
});

/**
 * 6,000 categories each linked from hello-world's published version, and 6,000 authors each
 * with an avatar, inserted with set-based SQL (one statement each, not 6,000).
 */
async function seedBulk(ex: ExampleDatabase, seeded: Seeded): Promise<void> {
  // MySQL takes timestamps without the zone suffix; its sessions run in UTC.
  const now = ex.client === 'mysql' ? '2024-06-01 00:00:00.000' : '2024-06-01T00:00:00.000Z';
  const sources: Record<typeof ex.client, (select: string, table: string, columns: string) => string> = {
    sqlite: (select, table, columns) => `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${BULK}) INSERT INTO ${table} (${columns}) SELECT ${select} FROM n`,
    postgres: (select, table, columns) => `INSERT INTO ${table} (${columns}) SELECT ${select} FROM generate_series(1, ${BULK}) AS n(i)`,
    mysql: (select, table, columns) => `INSERT INTO ${table} (${columns}) SELECT ${select} FROM JSON_TABLE(CONCAT('[', REPEAT('0,', ${BULK - 1}), '0]'), '$[*]' COLUMNS (i FOR ORDINALITY)) AS n`,
  };
  const series = sources[ex.client];
  const padded = (prefix: string): string =>
    ex.client === 'sqlite' ? `'${prefix}' || substr('00000000000000000000' || i, -${24 - prefix.length})` : `'${prefix}' || lpad(${ex.db.dialect.textCast('i')}, ${24 - prefix.length}, '0')`;
  await ex.db.execute(
    series(`${padded('bulkcat')}, 'Bulk category ' || i, ${padded('bulk-')}, '${now}', '${now}', '${now}'`, 'categories', 'document_id, name, slug, created_at, updated_at, published_at'),
  );
  await ex.db.execute(
    series(`${padded('bulkaut')}, 'Bulk author ' || i, 'a' || i || '@bulk.example', '${now}', '${now}', '${now}'`, 'authors', 'document_id, name, email, created_at, updated_at, published_at'),
  );
  const [helloPublished] = seeded.rows['article-hello']!.slice(-1);
  await ex.db.execute(`INSERT INTO articles_category_lnk (entity_id, target_document_id, ord, inverse_ord) SELECT ?, document_id, 1, 1 FROM categories WHERE slug LIKE 'bulk-%'`, [helloPublished!]);
  await ex.db.execute(`INSERT INTO files_related_mph (file_id, related_type, related_id, field, ord) SELECT ?, 'api::author.author', id, 'avatar', 1 FROM authors WHERE email LIKE '%@bulk.example'`, [
    seeded.file['img-red']!,
  ]);
}
