/**
 * The one-statement read (nested.ts) against the per-edge read (populate.ts) it replaces: for
 * random populate trees (every attribute kind, nested up to three levels, with fields, filters,
 * sorts and counts), random root filters, sorts, statuses and locales over the conformance seed,
 * both give the same JSON byte for byte, on both databases. The statement read costs one
 * statement, the total included (two for a page past the end), whenever it covers the tree.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, openExampleDatabase, type ExampleDatabase } from '../../../test/support/example-db.ts';
import type { QueryEvent } from '../database.ts';
import type { PopulateTree } from '../query/types.ts';
import type { ModelSchema } from '../schema.ts';
import { UPLOAD_FILE_UID } from '../upload/file-schema.ts';
import { LruCache } from './lru.ts';
import { shapeKey } from './nested.ts';
import { createReadEngine } from './read.ts';
import { createRegistry, type Registry, type TypeInfo } from './registry.ts';
import { queryArb, treeArb } from './test-queries.ts';
import { seedConformance, seedManyArticles } from './test-seed.ts';
import type { ReadEngine } from './types.ts';

describe('shape keys and the plan cache', () => {
  it('a shape key ignores filter values and tells different shapes apart', () => {
    const filtered: PopulateTree = { author: { filters: { kind: 'condition', attribute: 'name', operator: 'eq', value: 'x' }, fields: ['name'] } };
    const other: PopulateTree = { author: { filters: { kind: 'condition', attribute: 'name', operator: 'eq', value: 'y' }, fields: ['name'] } };
    expect(shapeKey(filtered)).toBe(shapeKey(other));
    expect(shapeKey({ author: { fields: ['name'] } })).not.toBe(shapeKey({ author: { fields: ['email'] } }));
    expect(shapeKey({ author: { count: true } })).not.toBe(shapeKey({ author: {} }));
    expect(shapeKey({ filters: {} })).not.toBe(shapeKey({}));
    expect(shapeKey({ blocks: { on: { 'shared.quote': {} } } })).not.toBe(shapeKey({ blocks: { on: { 'shared.media': {} } } }));
  });

  it('the LRU keeps the most recently used entries up to its capacity', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.has('b')).toBe(false);
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    expect(cache.size).toBe(2);
  });
});

describe.each(clients)('one statement against per edge on %s', (client) => {
  let ex: ExampleDatabase;
  let model: ModelSchema;
  let statement: ReadEngine;
  let perEdge: ReadEngine;

  beforeAll(async () => {
    ex = await openExampleDatabase(client);
    model = ex.model;
    await ex.db.transaction(async (tx) => {
      const seeder = await seedConformance(tx, ex.model);
      await seedManyArticles(seeder, 12);
    });
    // PostgreSQL renders only unpopulated reads (JsonTextSupport.populated): forced here, so its populated SQL stays exact.
    statement = createReadEngine({ db: ex.db, model, populate: 'statement', renderPopulated: true });
    perEdge = createReadEngine({ db: ex.db, model, populate: 'per-edge' });
  }, 300_000);
  afterAll(async () => ex?.close());

  /** The documentId of the first published article. */
  async function firstArticle(): Promise<string> {
    const [article] = (await perEdge.findMany('api::article.article', { status: 'published', populate: {}, sort: [], pagination: { kind: 'page', page: 1, pageSize: 1, withCount: false } })).results;
    return article!['documentId'] as string;
  }

  async function counted<T>(read: () => Promise<T>): Promise<{ readonly result: T; readonly statements: number }> {
    const statements: QueryEvent[] = [];
    const stop = ex.db.onQuery((event) => statements.push(event));
    try {
      return { result: await read(), statements: statements.length };
    } finally {
      stop();
    }
  }

  it('random reads give the same JSON, in one statement (the total included) when covered', async () => {
    const registry = createRegistry(model);
    await fc.assert(
      fc.asyncProperty(queryArb(registry), async ({ uid, query }) => {
        const actual = await counted(() => statement.findMany(uid, query));
        const expected = await counted(() => perEdge.findMany(uid, query));
        expect(JSON.stringify(actual.result)).toBe(JSON.stringify(expected.result));
        // The total rides along on the rows, so a page past the end counts apart.
        const one = query.pagination.withCount && expected.result.results.length === 0 ? 2 : 1;
        if (client === 'mysql' && needsDerivedTable(registry, registry.type(uid), query.populate)) expect([one, expected.statements]).toContain(actual.statements);
        else expect(actual.statements).toBe(one);
      }),
      { numRuns: 150 },
    );
  }, 300_000);

  it("rendered reads: the JSON text the database writes is the rows path's JSON, byte for byte", async () => {
    const registry = createRegistry(model);
    // MariaDB writes no JSON text: its engine offers no rendered reads.
    expect(statement.rendered === undefined).toBe(client === 'mysql');
    const rendered = statement.rendered;
    if (rendered === undefined) return;
    let written = 0;
    await fc.assert(
      fc.asyncProperty(queryArb(registry), async ({ uid, query }) => {
        const actual = await counted(() => rendered.findMany(uid, query));
        const expected = await perEdge.findMany(uid, query);
        // The seed holds only values the database prints as JavaScript does: no fallback.
        expect(actual.result).toBeDefined();
        expect(actual.result!.json).toBe(JSON.stringify(expected.results));
        expect(actual.result!.total).toBe(expected.total);
        // One statement, the total included, even for a page past the end (one aggregated row).
        expect(actual.statements).toBe(1);
        written += 1;
      }),
      { numRuns: 150 },
    );
    expect(written).toBeGreaterThan(75);
  }, 300_000);

  it('rendered findOne and findSingle: the same JSON as the rows path, null for none', async () => {
    const rendered = statement.rendered;
    if (rendered === undefined) return;
    const registry = createRegistry(model);
    const documentId = await firstArticle();
    await fc.assert(
      fc.asyncProperty(treeArb(registry, registry.type('api::article.article'), 2), async (populate) => {
        const query = { status: 'published' as const, populate };
        const actual = await rendered.findOne('api::article.article', documentId, query);
        expect(actual).toBe(JSON.stringify(await perEdge.findOne('api::article.article', documentId, query)));
      }),
      { numRuns: 40 },
    );
    expect(await rendered.findOne('api::article.article', 'no-such-document', { status: 'published', populate: {} })).toBe('null');
    expect(await rendered.findSingle('api::page.page', { status: 'published', populate: {} })).toBe(JSON.stringify(await perEdge.findSingle('api::page.page', { status: 'published', populate: {} })));
  }, 300_000);

  it("places NULL in a nested sort as the statements do, next to 0 (MariaDB's GROUP_CONCAT compares them equal)", async () => {
    for (const direction of ['asc', 'desc'] as const) {
      // Alpha's related products hold a stock of 0 (Beta) and none (Gamma).
      const query = {
        status: 'published',
        populate: { relatedProducts: { sort: [{ path: ['stock'], direction }] } },
        sort: [],
        pagination: { kind: 'page', page: 1, pageSize: 1, withCount: false },
      } as const;
      const actual = await statement.findMany('api::product.product', query);
      expect(actual.results[0]!['relatedProducts']).toHaveLength(2);
      expect(JSON.stringify(actual)).toBe(JSON.stringify(await perEdge.findMany('api::product.product', query)));
    }
  });

  it('renders populated reads only where the database measured faster: SQLite, not PostgreSQL', async () => {
    const rendered = createReadEngine({ db: ex.db, model, populate: 'statement' }).rendered;
    if (rendered === undefined) return;
    const page = { kind: 'page', page: 1, pageSize: 5, withCount: true } as const;
    const populated = await rendered.findMany('api::article.article', { status: 'published', populate: { tags: {} }, sort: [], pagination: page });
    expect(populated === undefined).toBe(client === 'postgres');
    expect(await rendered.findMany('api::tag.tag', { status: 'published', populate: {}, sort: [], pagination: page })).toBeDefined();
  });

  it('findOne is one statement and equal to the per-edge read', async () => {
    const registry = createRegistry(model);
    const documentId = await firstArticle();
    await fc.assert(
      fc.asyncProperty(treeArb(registry, registry.type('api::article.article'), 2), async (populate) => {
        const query = { status: 'published' as const, populate };
        const actual = await counted(() => statement.findOne('api::article.article', documentId, query));
        const expected = await counted(() => perEdge.findOne('api::article.article', documentId, query));
        expect(JSON.stringify(actual.result)).toBe(JSON.stringify(expected.result));
        if (client === 'mysql' && needsDerivedTable(registry, registry.type('api::article.article'), populate)) expect([1, expected.statements]).toContain(actual.statements);
        else expect(actual.statements).toBe(1);
      }),
      { numRuns: 40 },
    );
  }, 300_000);
});

/**
 * Whether a tree may need a derived table that reads its parent row (a dynamic zone, or one
 * version per document of a localized to-many target): read per edge on MariaDB (nested.ts).
 */
function needsDerivedTable(registry: Registry, type: TypeInfo, tree: PopulateTree | undefined): boolean {
  if (tree === undefined) return false;
  return Object.entries(tree).some(([key, node]) => {
    const field = type.attributes[key];
    if (field === undefined) return needsDerivedTable(registry, type, node.populate);
    switch (field.kind) {
      case 'relation': {
        const target = registry.type(field.target);
        if (node.count === true) return false;
        return (field.cardinality === 'many' && target.localized) || needsDerivedTable(registry, target, node.populate);
      }
      case 'component':
        return node.count !== true && needsDerivedTable(registry, registry.type(field.component), node.populate);
      case 'dynamiczone':
        return true;
      case 'media':
        return needsDerivedTable(registry, registry.type(UPLOAD_FILE_UID), node.populate);
      default:
        return false;
    }
  });
}
