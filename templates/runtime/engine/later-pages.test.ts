/**
 * A page past the first cuts its rows before anything is populated or rendered (read.ts
 * `pageRows`): its statement takes ORDER BY + LIMIT/OFFSET over the root rows in a derived table
 * and computes the populated edges and the JSON over that table's rows only. On PostgreSQL the
 * plan shows it: the populate subqueries run once per row of the page, not once per skipped row
 * too. The answer is the same slice of the list as before, in rows and rendered, still one
 * statement.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, openExampleDatabase, type ExampleDatabase } from '../../../test/support/example-db.ts';
import type { QueryEvent } from '../database.ts';
import type { ListQuery, PopulateTree, SortItem } from '../query/types.ts';
import { createReadEngine } from './read.ts';
import { createRegistry } from './registry.ts';
import { queryArb } from './test-queries.ts';
import { asc, cond, listQuery, seedConformance, seedManyArticles } from './test-seed.ts';
import type { ReadEngine } from './types.ts';

const ARTICLE = 'api::article.article';
const PAGE_SIZE = 10;
/** Page 4: 30 rows skipped. */
const PAGE = 4;

const populate: PopulateTree = { author: {}, tags: {}, cover: {}, seo: { populate: { shareImage: {}, metaSocial: {} } } };
const sorts: readonly (readonly [string, SortItem[]])[] = [
  ['by id', []],
  ['by slug descending', [{ path: ['slug'], direction: 'desc' }]],
  ['by reading time, then slug', [asc('readingTime'), asc('slug')]],
];

const page = (sort: SortItem[], number: number, pageSize: number): ListQuery =>
  listQuery({ filters: cond('slug', 'startsWith', 'bulk-'), sort, populate, pagination: { kind: 'page', page: number, pageSize, withCount: true } });

/** The derived table a later page is cut in: `FROM (SELECT a.* ... OFFSET ?) a`. */
function cutOf(sql: string): string | undefined {
  return /FROM \(SELECT a\.\*.*? OFFSET \?\) a /.exec(sql)?.[0];
}

interface PlanNode {
  readonly 'Parent Relationship'?: string;
  readonly 'Actual Loops'?: number;
  readonly Plans?: readonly PlanNode[];
}

/** The most times any subquery of the select list (a populated edge) ran: the rows it was computed for. */
function subPlanLoops(node: PlanNode): number {
  const own = node['Parent Relationship'] === 'SubPlan' ? (node['Actual Loops'] ?? 0) : 0;
  return Math.max(own, ...(node.Plans ?? []).map(subPlanLoops));
}

describe.each(clients)('pages past the first on %s', (client) => {
  let ex: ExampleDatabase;
  let rows: ReadEngine;
  let rendered: ReadEngine;

  beforeAll(async () => {
    ex = await openExampleDatabase(client);
    await ex.db.transaction(async (tx) => {
      const seeder = await seedConformance(tx, ex.model);
      await seedManyArticles(seeder, 60);
    });
    rows = createReadEngine({ db: ex.db, model: ex.model, rendered: false });
    rendered = createReadEngine({ db: ex.db, model: ex.model, renderPopulated: true });
  }, 300_000);
  afterAll(async () => ex?.close());

  async function recorded<T>(run: () => Promise<T>): Promise<{ result: T; statements: QueryEvent[] }> {
    const statements: QueryEvent[] = [];
    const stop = ex.db.onQuery((event) => statements.push(event));
    try {
      return { result: await run(), statements };
    } finally {
      stop();
    }
  }

  describe.each(sorts)('sorted %s', (_name, sort) => {
    it('in rows: the same slice of the list, one statement whose populated edges are outside the cut', async () => {
      const all = await rows.findMany(ARTICLE, page(sort, 1, 100));
      const { result, statements } = await recorded(() => rows.findMany(ARTICLE, page(sort, PAGE, PAGE_SIZE)));
      expect(all.results).toHaveLength(60);
      expect(result.results).toEqual(all.results.slice((PAGE - 1) * PAGE_SIZE, PAGE * PAGE_SIZE));
      expect(result.total).toBe(60);
      expect(statements).toHaveLength(1);
      const cut = cutOf(statements[0]!.sql);
      expect(cut).toContain(` LIMIT ${PAGE_SIZE} OFFSET ?`);
      // The links and components of the populated edges are read over the cut's rows, not in it.
      expect(cut).not.toMatch(/_lnk|_cmps/);
      expect(statements[0]!.sql).toMatch(/_lnk/);
    });

    // MySQL/MariaDB writes no JSON text (Dialect.json.text): its reads are in rows only.
    if (client !== 'mysql')
      it('rendered: the same JSON as the slice of the list, one statement', async () => {
        const all = await rendered.rendered!.findMany(ARTICLE, page(sort, 1, 100), undefined);
        const { result, statements } = await recorded(() => rendered.rendered!.findMany(ARTICLE, page(sort, PAGE, PAGE_SIZE), undefined));
        expect(all).toBeDefined();
        expect(result).toBeDefined();
        expect(JSON.parse(result!.json)).toEqual((JSON.parse(all!.json) as unknown[]).slice((PAGE - 1) * PAGE_SIZE, PAGE * PAGE_SIZE));
        expect(result!.total).toBe(60);
        expect(statements).toHaveLength(1);
        const cut = cutOf(statements[0]!.sql);
        expect(cut).toContain(` LIMIT ${PAGE_SIZE} OFFSET ?`);
        expect(cut).not.toMatch(/_lnk|_cmps/);
      });

    it('a page past the end is empty and counts the total', async () => {
      const past = await rows.findMany(ARTICLE, page(sort, 100, PAGE_SIZE));
      expect(past.results).toEqual([]);
      expect(past.total).toBe(60);
    });
  });

  it('random reads: page 2 is the second half of page 1 twice as long (flat statement), in rows and rendered', async () => {
    const registry = createRegistry(ex.model);
    await fc.assert(
      fc.asyncProperty(queryArb(registry), async ({ uid, query }) => {
        const size = query.pagination.kind === 'page' ? query.pagination.pageSize : 25;
        const at = (number: number, pageSize: number): ListQuery => ({ ...query, pagination: { kind: 'page', page: number, pageSize, withCount: true } });
        const whole = await rows.findMany(uid, at(1, 2 * size));
        const second = await rows.findMany(uid, at(2, size));
        expect(JSON.stringify(second)).toBe(JSON.stringify({ results: whole.results.slice(size), total: whole.total }));
        const renders = rendered.rendered;
        if (renders === undefined) return;
        const wholeText = await renders.findMany(uid, at(1, 2 * size), undefined);
        const secondText = await renders.findMany(uid, at(2, size), undefined);
        // A query the database cannot write is read in rows (undefined): then for both pages.
        expect(secondText === undefined).toBe(wholeText === undefined);
        if (wholeText === undefined || secondText === undefined) return;
        expect(secondText.json).toBe(JSON.stringify((JSON.parse(wholeText.json) as unknown[]).slice(size)));
        expect(secondText.total).toBe(wholeText.total);
      }),
      { numRuns: 60 },
    );
  }, 300_000);

  if (client === 'postgres')
    it('PostgreSQL computes the populated edges for the page rows only, not for the rows it skips', async () => {
      const { statements } = await recorded(() => rows.findMany(ARTICLE, page([], PAGE, PAGE_SIZE)));
      const [statement] = statements;
      const [explained] = await ex.db.query<{ 'QUERY PLAN': readonly { Plan: PlanNode }[] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement!.sql}`, statement!.params);
      const loops = subPlanLoops(explained!['QUERY PLAN'][0]!.Plan);
      // Before the cut: 40 (the 30 skipped rows and the page's 10).
      expect(loops).toBe(PAGE_SIZE);
    });
});
