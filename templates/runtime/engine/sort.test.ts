/**
 * Sorting by scalars and system fields and through relations (both sides, to-one and to-many),
 * components and media, with NULLs first ascending and last descending, and ties broken by id,
 * identically on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, openExampleDatabase, type ExampleDatabase } from '../../../test/support/example-db.ts';
import type { ListQuery, SortItem } from '../query/types.ts';
import { createReadEngine } from './read.ts';
import { asc, desc, listQuery, seedConformance } from './test-seed.ts';
import type { ReadEngine } from './types.ts';

const ARTICLE = 'api::article.article';
const PRODUCT = 'api::product.product';
const AUTHOR = 'api::author.author';

describe.each(clients)('sort on %s', (client) => {
  let ex: ExampleDatabase;
  let engine: ReadEngine;

  beforeAll(async () => {
    ex = await openExampleDatabase(client);
    const seeder = await seedConformance(ex.db, ex.model);
    // Lower case sorts after upper case byte-wise; a locale-aware collation would put it first.
    await seeder.document('api::category.category', 'cat-lower', [{ status: 'published', data: { name: 'apple', slug: 'apple' } }]);
    engine = createReadEngine({ db: ex.db, model: ex.model });
  });
  afterAll(async () => ex?.close());

  async function order(uid: string, sort: SortItem[], key = 'slug', query: Partial<ListQuery> = {}): Promise<unknown[]> {
    const result = await engine.findMany(uid, listQuery({ sort, fields: [key], ...query }));
    return result.results.map((entity) => entity[key]);
  }
  const articles = (...sort: SortItem[]): Promise<unknown[]> => order(ARTICLE, sort);
  const products = (...sort: SortItem[]): Promise<unknown[]> => order(PRODUCT, sort);

  it('without sort, in row order (Strapi returns insertion order)', async () => {
    expect(await articles()).toEqual(['second-steps', 'third-time-lucky', 'food-for-thought', 'lonely-article', 'hello-world', 'modified-after-publish']);
  });

  it('by a scalar, NULLs first ascending and last descending', async () => {
    expect(await articles(asc('readingTime'))).toEqual(['lonely-article', 'second-steps', 'hello-world', 'food-for-thought', 'modified-after-publish', 'third-time-lucky']);
    expect(await articles(desc('readingTime'))).toEqual(['third-time-lucky', 'modified-after-publish', 'food-for-thought', 'hello-world', 'second-steps', 'lonely-article']);
    expect(await products(desc('price'))).toEqual(['delta-device', 'alpha-widget', 'beta-gadget', 'epsilon-engine', 'gamma-tool']);
  });

  it('breaks ties by id', async () => {
    expect(await articles(asc('featured'))).toEqual(['second-steps', 'food-for-thought', 'lonely-article', 'modified-after-publish', 'third-time-lucky', 'hello-world']);
    expect(await articles(desc('featured'))).toEqual(['third-time-lucky', 'hello-world', 'second-steps', 'food-for-thought', 'lonely-article', 'modified-after-publish']);
  });

  it('by several items in turn', async () => {
    expect(await products(asc('inStock'), desc('weight'))).toEqual(['beta-gadget', 'epsilon-engine', 'alpha-widget', 'delta-device', 'gamma-tool']);
  });

  it('biginteger numerically, dates and times chronologically', async () => {
    expect(await products(asc('serialNumber'))).toEqual(['gamma-tool', 'delta-device', 'epsilon-engine', 'beta-gadget', 'alpha-widget']);
    expect(await products(asc('releaseDate'))).toEqual(['gamma-tool', 'epsilon-engine', 'beta-gadget', 'alpha-widget', 'delta-device']);
    expect(await products(desc('availableAt'))).toEqual(['delta-device', 'alpha-widget', 'beta-gadget', 'epsilon-engine', 'gamma-tool']);
    expect(await products(asc('openingTime'))).toEqual(['gamma-tool', 'epsilon-engine', 'delta-device', 'alpha-widget', 'beta-gadget']);
  });

  it('text byte-wise on both databases', async () => {
    expect(await order('api::category.category', [asc('name')], 'name')).toEqual(['Empty', 'Food', 'News', 'Tech', 'apple']);
  });

  it('by system fields', async () => {
    expect(await articles(desc('createdAt'))).toEqual(['modified-after-publish', 'hello-world', 'lonely-article', 'food-for-thought', 'third-time-lucky', 'second-steps']);
    expect(await articles(desc('id'))).toEqual(['modified-after-publish', 'hello-world', 'lonely-article', 'food-for-thought', 'third-time-lucky', 'second-steps']);
  });

  it('through a to-one relation', async () => {
    expect(await articles(asc('author.name'))).toEqual(['lonely-article', 'second-steps', 'hello-world', 'third-time-lucky', 'food-for-thought', 'modified-after-publish']);
    expect(await articles(desc('author.name'))).toEqual(['modified-after-publish', 'third-time-lucky', 'food-for-thought', 'second-steps', 'hello-world', 'lonely-article']);
  });

  it('through a to-many relation: by the smallest value ascending, the largest descending', async () => {
    expect(await articles(asc('tags.name'))).toEqual(['food-for-thought', 'lonely-article', 'modified-after-publish', 'hello-world', 'second-steps', 'third-time-lucky']);
    expect(await articles(desc('tags.name'))).toEqual(['third-time-lucky', 'hello-world', 'second-steps', 'food-for-thought', 'lonely-article', 'modified-after-publish']);
  });

  it('through the mappedBy side, seeing targets in the root status', async () => {
    expect(await order(AUTHOR, [asc('articles.readingTime')], 'name')).toEqual(['Ada Lovelace', 'Alan Turing', 'Grace Hopper']);
    // Grace's drafts include a one-minute read that has no published version.
    expect(await order(AUTHOR, [asc('articles.readingTime')], 'name', { status: 'draft' })).toEqual(['Grace Hopper', 'Ada Lovelace', 'Alan Turing']);
  });

  it('every scalar type through a to-many relation, booleans included (PostgreSQL has no MAX(boolean))', async () => {
    const product = ex.model.contentTypes[PRODUCT]!;
    const scalars = Object.entries(product.attributes).filter(([, field]) => field.kind === 'scalar' && !field.private && field.type !== 'password');
    expect(scalars.map(([, field]) => (field.kind === 'scalar' ? field.type : '')).sort()).toEqual(
      expect.arrayContaining(['biginteger', 'blocks', 'boolean', 'date', 'datetime', 'decimal', 'float', 'integer', 'json', 'string', 'time', 'uid']),
    );
    for (const [name, field] of scalars) {
      const type = field.kind === 'scalar' ? field.type : 'string';
      const rows = await engine.findMany(PRODUCT, listQuery({ fields: ['slug'], populate: { relatedProducts: { fields: [name] } } }));
      for (const direction of ['asc', 'desc'] as const) {
        const got = await products(direction === 'asc' ? asc(`relatedProducts.${name}`) : desc(`relatedProducts.${name}`));
        // JSON sorts by its stored text, which each database spells its own way: it only has to work.
        if (type === 'json' || type === 'blocks') {
          expect(got).toHaveLength(rows.results.length);
          continue;
        }
        expect(got, `${direction} relatedProducts.${name}`).toEqual(expectedOrder(rows.results, name, type, direction));
      }
    }
  });

  it('through several relations', async () => {
    expect(await articles(asc('featuredProduct.category.name'))).toEqual(['second-steps', 'food-for-thought', 'lonely-article', 'modified-after-publish', 'third-time-lucky', 'hello-world']);
  });

  it('through components and media', async () => {
    expect(await articles(asc('seo.metaTitle'))).toEqual(['second-steps', 'food-for-thought', 'lonely-article', 'modified-after-publish', 'hello-world', 'third-time-lucky']);
    expect(await articles(desc('seo.metaSocial.title'))).toEqual(['hello-world', 'second-steps', 'third-time-lucky', 'food-for-thought', 'lonely-article', 'modified-after-publish']);
    expect(await products(desc('variants.dimensions.width'))).toEqual(['alpha-widget', 'beta-gadget', 'gamma-tool', 'delta-device', 'epsilon-engine']);
    expect(await articles(asc('cover.name'))).toEqual(['second-steps', 'food-for-thought', 'lonely-article', 'modified-after-publish', 'hello-world', 'third-time-lucky']);
  });
});

/** The order a to-many sort must give: each row by its least (asc) or greatest (desc) related value, NULLs first asc, ties by id. */
function expectedOrder(rows: readonly Record<string, unknown>[], name: string, type: string, direction: 'asc' | 'desc'): unknown[] {
  const compare = (a: unknown, b: unknown): number => {
    if (type === 'biginteger') return Number(BigInt(String(a)) - BigInt(String(b)));
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
    const x = String(a);
    const y = String(b);
    return x < y ? -1 : x > y ? 1 : 0;
  };
  const keyed = rows.map((row) => {
    const related = (row.relatedProducts as Record<string, unknown>[] | undefined) ?? [];
    const values = related.map((r) => r[name]).filter((v) => v !== null && v !== undefined);
    values.sort(compare);
    return { row, key: values.length === 0 ? null : direction === 'asc' ? values[0] : values[values.length - 1] };
  });
  keyed.sort((a, b) => {
    if (a.key === null || b.key === null) {
      if (a.key === b.key) return Number(a.row.id) - Number(b.row.id);
      return (a.key === null ? -1 : 1) * (direction === 'asc' ? 1 : -1);
    }
    const order = compare(a.key, b.key) * (direction === 'asc' ? 1 : -1);
    return order !== 0 ? order : Number(a.row.id) - Number(b.row.id);
  });
  return keyed.map(({ row }) => row.slug);
}
