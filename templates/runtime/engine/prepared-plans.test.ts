/**
 * PostgreSQL plans a prepared statement once (its generic plan) only where that plan does not
 * look dearer than planning each execution for its values. A bound OFFSET is planned as if it
 * skipped a tenth of the rows, so with `OFFSET $n` on every page the generic plan never won and
 * each read was planned again, at more than the cost of running it (limitClause, sql.ts). A first
 * page, read again on one connection, now runs on the generic plan, and a statement left with no
 * parameter at all is prepared too (database-postgres.ts), not sent as a script planned each
 * time; a later page keeps its offset as a parameter, and reads the same rows as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openExampleDatabase, type ExampleDatabase } from '../../../test/support/example-db.ts';
import { createReadEngine } from './read.ts';
import { asc, listQuery, seedConformance, seedManyArticles } from './test-seed.ts';

describe('prepared read statements on postgres', () => {
  let ex: ExampleDatabase;

  beforeAll(async () => {
    ex = await openExampleDatabase('postgres');
    await ex.db.transaction(async (tx) => {
      const seeder = await seedConformance(tx, ex.model);
      await seedManyArticles(seeder, 12);
    });
  }, 120_000);
  afterAll(async () => ex?.close());

  it('a populated first page, read again and again, is planned once', async () => {
    const texts: string[] = [];
    const stop = ex.db.onQuery((event) => texts.push(event.sql));
    // One transaction: one connection, whose prepared statements pg_prepared_statements lists.
    const plans = await ex.db
      .transaction(async (tx) => {
        const engine = createReadEngine({ db: tx, model: ex.model, populate: 'statement', rendered: false });
        const query = listQuery({ sort: [asc('id')], populate: { tags: {}, author: { populate: { avatar: {} } } }, pagination: { kind: 'page', page: 1, pageSize: 5, withCount: true } });
        for (let i = 0; i < 8; i += 1) await engine.findMany('api::article.article', query);
        return tx.query<{ statement: string; generic_plans: number | string; custom_plans: number | string }>(
          'SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE ?',
          ['%FROM "articles" a%'],
        );
      })
      .finally(stop);
    expect(new Set(texts.filter((text) => text.includes('FROM "articles" a'))).size).toBe(1);
    expect(texts[0]).not.toContain('OFFSET');
    expect(plans).toHaveLength(1);
    // PostgreSQL tries five custom plans before it compares; every later execution is generic.
    expect(Number(plans[0]!.generic_plans)).toBe(3);
    expect(Number(plans[0]!.custom_plans)).toBe(5);
  });

  it('a first page without a parameter at all is prepared too, not sent as a script to plan each time', async () => {
    const plans = await ex.db.transaction(async (tx) => {
      const engine = createReadEngine({ db: tx, model: ex.model, populate: 'statement', rendered: false });
      const query = listQuery({ sort: [asc('id')], pagination: { kind: 'page', page: 1, pageSize: 7, withCount: false } });
      for (let i = 0; i < 4; i += 1) await engine.findMany('api::tag.tag', query);
      return tx.query<{ generic_plans: number | string }>('SELECT generic_plans FROM pg_prepared_statements WHERE statement LIKE ?', ['%FROM "tags" a%LIMIT 7']);
    });
    expect(plans.map((plan) => Number(plan.generic_plans))).toEqual([4]);
  });

  it('a later page binds its offset and reads the rows after the first page', async () => {
    const engine = createReadEngine({ db: ex.db, model: ex.model, populate: 'statement', rendered: false });
    const page = (n: number) => listQuery({ sort: [asc('id')], pagination: { kind: 'page', page: n, pageSize: 4, withCount: true } });
    const all = await engine.findMany('api::article.article', listQuery({ sort: [asc('id')], pagination: { kind: 'page', page: 1, pageSize: 100, withCount: true } }));
    const texts: string[] = [];
    const stop = ex.db.onQuery((event) => texts.push(event.sql));
    const second = await engine.findMany('api::article.article', page(2)).finally(stop);
    expect(texts.some((text) => text.includes(' LIMIT 4 OFFSET ?'))).toBe(true);
    expect(second.results.map((entity) => entity['id'])).toEqual(all.results.slice(4, 8).map((entity) => entity['id']));
  });
});
