/**
 * Rendered reads in a layout (layout.ts: the shape GraphQL's selections ask for) against the rows
 * path: for random list queries over the conformance seed and random layouts of their populate
 * trees (scalars picked, renamed and reordered, constants, objects around lists, pages of every
 * list per parent, dynamic zones per component, ids as digits, enums by name, Long), the JSON the
 * database writes is the rows path's entities reshaped in JavaScript, byte for byte, on each
 * database that writes JSON (MariaDB has no rendered reads).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, openExampleDatabase, type ExampleDatabase } from '../../../test/support/example-db.ts';
import type { PopulateNode, PopulateTree } from '../query/types.ts';
import { UPLOAD_FILE_UID } from '../upload/file-schema.ts';
import type { EntityLayout, LayoutEntry, ListWindow, ScalarFormat } from './layout.ts';
import { createReadEngine } from './read.ts';
import { createRegistry, type Registry, type TypeInfo } from './registry.ts';
import { queryArb } from './test-queries.ts';
import { desc, listQuery, seedConformance, seedManyArticles } from './test-seed.ts';
import type { Entity, ReadEngine } from './types.ts';

/** What a layout's JavaScript counterpart reads where the database must fall back. */
const FALLBACK = Symbol('fallback');

/** The scalars a rows-path entity of `type` holds for `fields`: `id`, `documentId`, the fields (or all). */
function returnedScalars(type: TypeInfo, fields: readonly string[] | undefined): string[] {
  const all = [...type.publicScalars, ...type.trailingSystem].map((s) => s.name);
  const chosen = fields === undefined ? all : all.filter((name) => fields.includes(name));
  return [...new Set(['id', ...(type.isComponent ? [] : ['documentId']), ...chosen])];
}

function formatArb(type: TypeInfo, name: string): fc.Arbitrary<ScalarFormat> {
  const field = type.attributes[name];
  const column = type.columns.get(name)!;
  if (field?.kind === 'scalar' && field.type === 'enumeration' && field.enum !== undefined) {
    return fc.constant({ kind: 'enum', names: new Map(field.enum.map((value) => [value, `E_${value.replaceAll('-', '_')}`])) });
  }
  if (column.type === 'biginteger') return fc.constantFrom<ScalarFormat>({ kind: 'stored' }, { kind: 'long' });
  if (column.type === 'integer') return fc.constantFrom<ScalarFormat>({ kind: 'stored' }, { kind: 'digits' });
  return fc.constant({ kind: 'stored' });
}

const windowArb: fc.Arbitrary<ListWindow> = fc.record({ start: fc.integer({ min: 0, max: 3 }), limit: fc.oneof(fc.constant(-1), fc.integer({ min: 1, max: 4 })) });

/** A layout of the rows of `type` read with `node`: scalars and edges picked, renamed, reordered. */
function layoutArb(registry: Registry, type: TypeInfo, node: PopulateNode): fc.Arbitrary<EntityLayout> {
  const scalars = returnedScalars(type, node.fields).map((name) => formatArb(type, name).map((format) => ({ name, format })));
  const edges = Object.entries(node.populate ?? {})
    .filter(([, child]) => child.count !== true)
    .map(([attribute, child]) => edgeArb(registry, type, attribute, child));
  return fc
    .record({
      scalars: fc.subarray([...scalars.keys()]).chain((picked) => fc.tuple(...picked.map((i) => scalars[i]!))),
      edges: fc.subarray([...edges.keys()]).chain((picked) => fc.tuple(...picked.map((i) => edges[i]!))),
      typename: fc.boolean(),
      order: fc.integer({ min: 0, max: 1_000_000 }),
    })
    .map(({ scalars: picked, edges: pickedEdges, typename, order }) => {
      const entries: LayoutEntry[] = [
        ...picked.map(({ name, format }, i): LayoutEntry => ({ kind: 'scalar', key: `s${i}_${name}`, attribute: name, format, nonNull: false })),
        ...pickedEdges.map((edge, i) => edge(`e${i}`)),
        ...(typename ? [{ kind: 'string', key: '__typename', value: type.uid } as const] : []),
      ];
      // A deterministic shuffle from the drawn number: keys in any order.
      return {
        entries: entries
          .map((entry, i) => ({ entry, rank: (i * 7919 + order) % (entries.length + 13) }))
          .sort((a, b) => a.rank - b.rank)
          .map(({ entry }) => entry),
      };
    });
}

/** An edge entry under a key given later, sometimes wrapped in an object (`tags_connection { nodes }`). */
function edgeArb(registry: Registry, owner: TypeInfo, attribute: string, child: PopulateNode): fc.Arbitrary<(key: string) => LayoutEntry> {
  const field = owner.attributes[attribute];
  if (field?.kind === 'dynamiczone') {
    const kinds = Object.entries(child.on ?? {});
    return fc
      .tuple(...kinds.map(([uid, sub]) => layoutArb(registry, registry.type(uid), sub).map((layout) => [uid, layout] as const)))
      .map((layouts) => (key) => ({ kind: 'zone', key, attribute, layouts: new Map(layouts) }));
  }
  const target = field === undefined ? owner : registry.type(field.kind === 'relation' ? field.target : field.kind === 'component' ? field.component : UPLOAD_FILE_UID);
  const many = field === undefined || (field.kind === 'relation' && field.cardinality === 'many') || (field.kind === 'media' && field.multiple) || (field.kind === 'component' && field.repeatable);
  return fc
    .record({ layout: layoutArb(registry, target, child), window: many ? fc.option(windowArb, { nil: undefined }) : fc.constant(undefined), wrapped: fc.boolean() })
    .map(({ layout, window, wrapped }) => (key) => {
      const edge: LayoutEntry = { kind: 'edge', key: wrapped ? 'nodes' : key, attribute, window, layout };
      return wrapped ? { kind: 'object', key, entries: [{ kind: 'string', key: '__typename', value: 'Connection' }, edge] } : edge;
    });
}

/** The entity reshaped by `layout` in JavaScript, as the database should write it. */
function reshape(entity: Entity, layout: EntityLayout): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const entry of layout.entries) out[entry.key] = entryValue(entity, entry);
  return out;
}

function entryValue(entity: Entity, entry: LayoutEntry): unknown {
  switch (entry.kind) {
    case 'scalar':
      return scalar(entity[entry.attribute], entry.format);
    case 'string':
      return entry.value;
    case 'null':
      return null;
    case 'emptyList':
      return [];
    case 'object':
      return reshape(entity, { entries: entry.entries });
    case 'edge': {
      const value = entity[entry.attribute];
      if (!Array.isArray(value)) return value === null || value === undefined ? null : reshape(value as Entity, entry.layout);
      const window = entry.window ?? { start: 0, limit: -1 };
      const page = window.limit === -1 ? value.slice(window.start) : value.slice(window.start, window.start + window.limit);
      return page.map((item) => reshape(item as Entity, entry.layout));
    }
    case 'zone':
      return (entity[entry.attribute] as Entity[]).map((item) => reshape(item, entry.layouts.get(item['__component'] as string)!));
  }
}

function scalar(value: unknown, format: ScalarFormat): unknown {
  if (value === null || value === undefined) return null;
  switch (format.kind) {
    case 'stored':
      return value;
    case 'digits':
      return String(value);
    case 'long':
      return Number.isSafeInteger(Number(value)) ? Number(value) : FALLBACK;
    case 'enum':
      return format.names.get(String(value)) ?? FALLBACK;
  }
}

function hasFallback(value: unknown): boolean {
  if (value === FALLBACK) return true;
  if (Array.isArray(value)) return value.some(hasFallback);
  if (typeof value === 'object' && value !== null) return Object.values(value).some(hasFallback);
  return false;
}

describe.each(clients)('rendered layouts against rows on %s', (client) => {
  let ex: ExampleDatabase;
  let registry: Registry;
  let rows: ReadEngine;
  let rendered: ReadEngine['rendered'];

  beforeAll(async () => {
    ex = await openExampleDatabase(client);
    registry = createRegistry(ex.model);
    await ex.db.transaction(async (tx) => {
      const seeder = await seedConformance(tx, ex.model);
      await seedManyArticles(seeder, 12);
    });
    rows = createReadEngine({ db: ex.db, model: ex.model, populate: 'statement', rendered: false });
    rendered = createReadEngine({ db: ex.db, model: ex.model, populate: 'statement' }).rendered;
  }, 300_000);
  afterAll(async () => ex?.close());

  it('writes the rows path entities reshaped, byte for byte, in one statement', async () => {
    if (client === 'mysql') {
      expect(rendered).toBeUndefined();
      return;
    }
    let written = 0;
    await fc.assert(
      fc.asyncProperty(
        queryArb(registry).chain(({ uid, query }) =>
          layoutArb(registry, registry.type(uid), { ...(query.fields === undefined ? {} : { fields: query.fields }), populate: query.populate as PopulateTree }).map((layout) => ({
            uid,
            query,
            layout,
          })),
        ),
        async ({ uid, query, layout }) => {
          const expected = await rows.findMany(uid, query);
          const shaped = expected.results.map((entity) => reshape(entity, layout));
          let statements = 0;
          const stop = ex.db.onQuery(() => (statements += 1));
          const page = await rendered!.findMany(uid, query, layout).finally(stop);
          if (hasFallback(shaped)) {
            expect(page).toBeUndefined();
            return;
          }
          expect(page).toBeDefined();
          expect(page!.json).toBe(JSON.stringify(shaped));
          expect(page!.total).toBe(expected.total);
          // One statement, the total included, even for a page past the end.
          expect(statements).toBe(1);
          written += 1;
        },
      ),
      { numRuns: 120, seed: 20261124 },
    );
    // Most drawn layouts are written by the database, not refused.
    expect(written).toBeGreaterThan(100);
  }, 300_000);

  it('sorts a page once where the database feeds an aggregate in its derived table order (SQLite), twice elsewhere', async () => {
    if (rendered === undefined) return;
    const tagName: LayoutEntry = { kind: 'scalar', key: 'name', attribute: 'name', format: { kind: 'stored' }, nonNull: false };
    const articles: LayoutEntry = {
      kind: 'edge',
      key: 'articles',
      attribute: 'articles',
      window: { start: 0, limit: 2 },
      layout: { entries: [{ kind: 'scalar', key: 'title', attribute: 'title', format: { kind: 'stored' }, nonNull: false }] },
    };
    const populated = ex.db.dialect.json.text?.populated === true;
    const query = listQuery({ sort: [desc('name')], ...(populated ? { populate: { articles: {} } } : {}) });
    const sql: string[] = [];
    const stop = ex.db.onQuery((event) => sql.push(event.sql));
    const page = await rendered.findMany('api::tag.tag', query, { entries: populated ? [tagName, articles] : [tagName] }).finally(stop);
    const expected = (await rows.findMany('api::tag.tag', query)).results.map((tag) => ({
      name: tag['name'],
      ...(populated ? { articles: (tag['articles'] as Entity[]).slice(0, 2).map((article) => ({ title: article['title'] })) } : {}),
    }));
    expect(page?.json).toBe(JSON.stringify(expected));
    expect(sql).toHaveLength(1);
    // Every ORDER BY of the statement: the page's, a nested page's, and the aggregates' own where they sort again.
    const sorts = sql[0]!.match(/ORDER BY/g)?.length ?? 0;
    const fed = ex.db.dialect.capabilities.aggregatesKeepSubqueryOrder;
    expect(fed).toBe(client === 'sqlite');
    expect(sorts).toBe((populated ? 2 : 1) * (fed ? 1 : 2));
  });
});
