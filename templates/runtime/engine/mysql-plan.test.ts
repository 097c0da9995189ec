/**
 * MariaDB/MySQL plans of the growth shapes (docs/benchmarks.md, "Growth with data"): EXPLAIN of
 * the statements the engine runs shows each table reached through an index, so a page costs
 * what it reads, not the table size.
 * - a relation filter's key set reads the target by its lookup index and the links by the
 *   covering index by target (emit/prisma.ts coveringInverseIndex: no row lookup per link);
 * - a sort on an indexed text column reads that index in order, in both directions (the
 *   descending twin `(column DESC, id)` serves `column DESC, id ASC`), with no filesort: the sort
 *   term is the column itself, not `CAST(column AS BINARY)` (dialect/mysql.ts sortOrder).
 * The article rows are read through the index too, never by a scan with a sort of every row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, openExampleDatabase, type ExampleDatabase } from '../../../test/support/example-db.ts';
import type { QueryEvent } from '../database.ts';
import type { ListQuery } from '../query/types.ts';
import { createReadEngine } from './read.ts';
import { asc, desc, eq, listQuery, nested, seedConformance, seedManyArticles } from './test-seed.ts';
import type { ReadEngine } from './types.ts';

const ARTICLE = 'api::article.article';

interface PlanRow {
  readonly table: string;
  readonly type: string;
  readonly key: string | null;
  readonly Extra: string | null;
}

describe.runIf(clients.includes('mysql'))('MySQL plans of the growth shapes', () => {
  let ex: ExampleDatabase;
  let engine: ReadEngine;

  beforeAll(async () => {
    ex = await openExampleDatabase('mysql');
    await ex.db.transaction(async (tx) => {
      const seeder = await seedConformance(tx, ex.model);
      await seedManyArticles(seeder, 300);
    });
    // 10,000 more published rows, so that the planner weighs reading an index in order against
    // sorting the table as it would on a real one (on a few hundred rows it sorts them all).
    const digits =
      '(SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)';
    await ex.db.execute(
      `INSERT INTO articles (document_id, slug, title, created_at, updated_at, published_at)
       SELECT 'pad' || n, 'pad-' || n, 'Pad', CURRENT_TIMESTAMP(3), CURRENT_TIMESTAMP(3), CURRENT_TIMESTAMP(3)
       FROM (SELECT d1.d + 10 * d2.d + 100 * d3.d + 1000 * d4.d AS n FROM ${digits} d1, ${digits} d2, ${digits} d3, ${digits} d4) numbers`,
    );
    for (const table of ['articles', 'articles_tags_lnk', 'tags']) await ex.db.execute(ex.db.dialect.analyzeTable(table) ?? '');
    engine = createReadEngine({ db: ex.db, model: ex.model });
  }, 300_000);
  afterAll(async () => ex?.close());

  /** The statements a list read runs, each with its EXPLAIN rows. */
  async function plans(query: Partial<ListQuery>): Promise<{ statement: QueryEvent; rows: PlanRow[] }[]> {
    const statements: QueryEvent[] = [];
    const stop = ex.db.onQuery((event) => statements.push(event));
    try {
      await engine.findMany(ARTICLE, listQuery({ fields: ['slug'], ...query }));
    } finally {
      stop();
    }
    return Promise.all(statements.map(async (statement) => ({ statement, rows: await ex.db.query<PlanRow>(`EXPLAIN ${statement.sql}`, statement.params) })));
  }

  it('a filter through tags.name: the tag by its name index, the links by the covering index by target, 1 statement with the total', async () => {
    const explained = await plans({ filters: nested('tags', eq('name', 'tag-01')) });
    expect(explained).toHaveLength(1);
    const { rows } = explained[0]!;
    // The page's rows and the total's subquery: each reads the tags, links and articles.
    for (const tags of rows.filter((r) => r.table === 't2')) expect(tags.key).toBe('tags_name_idx');
    for (const links of rows.filter((r) => r.table === 'l1')) {
      expect(links.key).toBe('articles_tags_lnk_target_document_id_inverse_ord_entity_id_idx');
      expect(links.Extra).toContain('Using index');
    }
    // The articles are looked up by their primary key, or read in its order: never scanned whole.
    const articles = rows.filter((r) => r.table === 'a');
    expect(articles.length).toBeGreaterThan(0);
    for (const article of articles) expect(article.type).not.toBe('ALL');
  });

  it.each([
    ['asc', asc('slug'), 'articles_slug_idx'],
    ['desc', desc('slug'), 'articles_slug_id_idx'],
  ] as const)('a sort on slug %s reads the index in order, without a filesort', async (_direction, sort, index) => {
    const [root] = await plans({ sort: [sort], pagination: { kind: 'page', page: 1, pageSize: 25, withCount: false } });
    expect(root!.statement.sql).not.toContain('CAST(');
    expect(root!.rows).toHaveLength(1);
    expect(root!.rows[0]!.key).toBe(index);
    expect(root!.rows[0]!.Extra ?? '').not.toContain('filesort');
  });
});
