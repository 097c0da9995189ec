/**
 * A filter through a relation, component or media attribute is planned so that the database
 * starts from the related rows and looks the root rows up by key, never by reading every root
 * row: on SQLite, EXPLAIN QUERY PLAN of the root statement shows the articles table searched by
 * its primary key (or an index), not scanned. Answers and statement counts are those of any
 * other filter (1 root + 1 total), on both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, openExampleDatabase, type ExampleDatabase } from '../../../test/support/example-db.ts';
import type { QueryEvent } from '../database.ts';
import type { Filter } from '../query/types.ts';
import { createReadEngine } from './read.ts';
import { asc, eq, listQuery, nested, not, seedConformance, seedManyArticles } from './test-seed.ts';
import type { ListResult, ReadEngine } from './types.ts';

const ARTICLE = 'api::article.article';
const PAGE = 'api::page.page';

describe.each(clients)('relation filters as key sets on %s', (client) => {
  let ex: ExampleDatabase;
  let engine: ReadEngine;

  beforeAll(async () => {
    ex = await openExampleDatabase(client);
    await ex.db.transaction(async (tx) => {
      const seeder = await seedConformance(tx, ex.model);
      await seedManyArticles(seeder, 200);
    });
    engine = createReadEngine({ db: ex.db, model: ex.model });
  }, 300_000);
  afterAll(async () => ex?.close());

  async function read(uid: string, filters: Filter): Promise<{ result: ListResult; statements: QueryEvent[] }> {
    const statements: QueryEvent[] = [];
    const stop = ex.db.onQuery((event) => statements.push(event));
    try {
      const result = await engine.findMany(uid, listQuery({ filters, fields: ['slug'], sort: [asc('slug')], pagination: { kind: 'page', page: 1, pageSize: 25, withCount: true } }));
      return { result, statements };
    } finally {
      stop();
    }
  }

  /** SQLite's plan lines for a statement the engine ran. */
  async function plan(statement: QueryEvent): Promise<string[]> {
    const rows = await ex.db.query<{ detail: string }>(`EXPLAIN QUERY PLAN ${statement.sql}`, statement.params);
    return rows.map((row) => row.detail);
  }

  const cases: readonly { readonly name: string; readonly filter: Filter; readonly total: number }[] = [
    // seedManyArticles gives bulk article i the tags (i % 30) + 1, (i + 7) % 30 + 1, (i + 13) % 30 + 1.
    { name: 'a to-many relation (tags.name)', filter: nested('tags', eq('name', 'tag-01')), total: -1 },
    { name: 'a to-one relation (author.name)', filter: nested('author', eq('name', 'Ada Lovelace')), total: -1 },
    { name: 'a component (seo.metaTitle)', filter: nested('seo', eq('metaTitle', 'Bulk SEO 0007')), total: 1 },
    { name: 'a media attribute (cover.name)', filter: nested('cover', eq('name', 'red.png')), total: -1 },
  ];

  for (const { name, filter, total } of cases) {
    it(`through ${name}: 1 statement, the total included${client === 'sqlite' ? ', the articles looked up by key, not scanned' : ''}`, async () => {
      const { result, statements } = await read(ARTICLE, filter);
      expect(statements).toHaveLength(1);
      expect(result.results.length).toBeGreaterThan(0);
      if (total >= 0) expect(result.total).toBe(total);
      if (client !== 'sqlite') return;
      for (const statement of statements) {
        const lines = await plan(statement);
        expect(lines.some((line) => /SEARCH a\w* USING (INTEGER PRIMARY KEY|INDEX)/.test(line))).toBe(true);
        // The root rows are never read whole: no bare scan of the articles table.
        expect(lines.filter((line) => /^SCAN a\w*$/.test(line.trim()))).toEqual([]);
      }
    });
  }

  it('the answer is the same as reading every article and checking its tags', async () => {
    const { result } = await read(ARTICLE, nested('tags', eq('name', 'tag-02')));
    const all = await engine.findMany(
      ARTICLE,
      listQuery({ fields: ['slug'], populate: { tags: { fields: ['name'] } }, sort: [asc('slug')], pagination: { kind: 'page', page: 1, pageSize: 1000, withCount: true } }),
    );
    const expected = all.results.filter((a) => (a['tags'] as { name: string }[]).some((t) => t.name === 'tag-02')).map((a) => a['slug']);
    expect(result.total).toBe(expected.length);
    expect(result.results.map((a) => a['slug'])).toEqual(expected.slice(0, 25));
    const negated = await read(ARTICLE, not(nested('tags', eq('name', 'tag-02'))));
    expect(negated.result.total).toBe(all.total! - expected.length);
  });

  it('a localized type filtered through a relation reads the key set too', async () => {
    const { result, statements } = await read(PAGE, nested('category', eq('slug', 'news')));
    expect(statements).toHaveLength(1);
    expect(result.results.map((p) => p['slug'])).toEqual(['accueil', 'home']);
    expect(statements[0]!.sql).toMatch(client === 'postgres' ? /= ANY\(ARRAY\(SELECT/ : /IN \(SELECT/);
  });
});
