/**
 * `_q` on SQLite and PostgreSQL: which columns it searches (engine/search.ts), case, wildcards,
 * numbers only for a numeric query, combined with filters, locale and status.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, openExampleDatabase, type ExampleDatabase } from '../../../test/support/example-db.ts';
import type { ListQuery } from '../query/types.ts';
import { createReadEngine } from './read.ts';
import { asc, eq, listQuery, seedConformance, type Seeded } from './test-seed.ts';
import type { ReadEngine } from './types.ts';

const PRODUCT = 'api::product.product';
const ARTICLE = 'api::article.article';
const PAGE = 'api::page.page';

describe.each(clients)('_q on %s', (client) => {
  let ex: ExampleDatabase;
  let engine: ReadEngine;
  let seeded: Seeded;

  beforeAll(async () => {
    ex = await openExampleDatabase(client);
    seeded = (await seedConformance(ex.db, ex.model)).seeded();
    engine = createReadEngine({ db: ex.db, model: ex.model });
  });
  afterAll(async () => ex?.close());

  async function search(uid: string, text: string, query: Partial<ListQuery> = {}): Promise<unknown[]> {
    const result = await engine.findMany(uid, listQuery({ search: text, fields: ['slug'], sort: [asc('slug')], pagination: { kind: 'page', page: 1, pageSize: 100, withCount: true }, ...query }));
    expect(result.total).toBe(result.results.length);
    return result.results.map((entity) => entity['slug']);
  }

  it('finds text in string, uid, text, richtext, email and enumeration attributes, ignoring case', async () => {
    expect(await search(PRODUCT, 'WIDGET')).toEqual(['alpha-widget']); // name, slug
    expect(await search(PRODUCT, 'two lines')).toEqual(['alpha-widget']); // text
    expect(await search(PRODUCT, 'markdown')).toEqual(['alpha-widget', 'delta-device']); // richtext
    expect(await search(PRODUCT, 'sales@')).toEqual(['epsilon-engine']); // email
    expect(await search(PRODUCT, 'x_large')).toEqual(['delta-device']); // enumeration
  });

  it('never searches json, blocks, dates, private attributes or passwords', async () => {
    expect(await search(PRODUCT, 'silver')).toEqual([]); // json
    expect(await search(PRODUCT, 'Alpha notes')).toEqual([]); // blocks
    expect(await search(PRODUCT, '2024-01-15')).toEqual([]); // date
    expect(await search(PRODUCT, 'INTERNAL')).toEqual([]); // private
    expect(await search(PRODUCT, 'hashed')).toEqual([]); // password
  });

  it('searches the id and documentId', async () => {
    const alpha = seeded.doc['product-alpha']!;
    expect(await search(PRODUCT, alpha)).toEqual(['alpha-widget']);
    const [first] = (await engine.findMany(PRODUCT, listQuery({ fields: ['slug'], filters: eq('slug', 'gamma-tool') }))).results;
    const id = String(first!['id']);
    expect(await search(PRODUCT, id)).toContain('gamma-tool');
  });

  it('searches number attributes only when the query is a number', async () => {
    // serialNumber (biginteger) 1234567890123, price (decimal) 99.95, weight (float) 0.125, stock 100.
    expect(await search(PRODUCT, '7890123')).toEqual(['alpha-widget']);
    expect(await search(PRODUCT, '99.95')).toEqual(['delta-device']);
    expect(await search(PRODUCT, '0.125')).toEqual(['beta-gadget']);
    // Not a number: `100x` looks at text columns only.
    expect(await search(PRODUCT, '100x')).toEqual([]);
  });

  it('LIKE wildcards in the text match themselves', async () => {
    expect(await search(PRODUCT, '%')).toEqual([]);
    expect(await search(PRODUCT, 'x_l')).toEqual(['delta-device']);
    expect(await search(PRODUCT, 'a_p')).toEqual([]);
  });

  it('combines with filters, status and locale', async () => {
    expect(await search(ARTICLE, 'steps')).toEqual(['second-steps']);
    expect(await search(ARTICLE, 'steps', { filters: eq('slug', 'hello-world') })).toEqual([]);
    expect(await search(ARTICLE, 'draft only')).toEqual([]);
    expect(await search(ARTICLE, 'draft only', { status: 'draft' })).toHaveLength(1);
    const english = await search(PAGE, 'a', { locale: 'en' });
    const french = await search(PAGE, 'a', { locale: 'fr' });
    expect(english).not.toEqual(french);
    expect(await search(PAGE, 'zzz-nothing')).toEqual([]);
  });
});
