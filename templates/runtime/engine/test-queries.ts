/**
 * Test support (not copied into generated projects): random list queries over the example model
 * (populate trees of every attribute kind up to three levels, with fields, filters, sorts and
 * counts; root filters, sorts, statuses, locales and page sizes), for the property tests of the
 * one-statement read (nested.test.ts) and of rendered layouts (layout.test.ts).
 */
import fc from 'fast-check';
import type { Filter, ListQuery, PopulateNode, PopulateTree, SortItem, Status } from '../query/types.ts';
import { UPLOAD_FILE_UID } from '../upload/file-schema.ts';
import type { Registry, TypeInfo } from './registry.ts';

const ROOTS = ['api::article.article', 'api::author.author', 'api::category.category', 'api::tag.tag', 'api::product.product', 'api::page.page'] as const;

/** Scalars a random filter or sort may use: every type works with null checks and ordering. */
function scalarNames(type: TypeInfo): string[] {
  return [...type.columns.values()].filter((c) => !c.hidden && c.type !== 'json' && c.type !== 'blocks' && c.type !== 'password').map((c) => c.name);
}

/** A filter over rows of `type`: null checks, id ranges, and one level through a relation. */
function filterArb(registry: Registry, type: TypeInfo, depth: number): fc.Arbitrary<Filter> {
  const scalars = scalarNames(type);
  const condition: fc.Arbitrary<Filter> = fc.oneof(
    fc.record({
      kind: fc.constant('condition' as const),
      attribute: fc.constantFrom(...scalars),
      operator: fc.constantFrom('null' as const, 'notNull' as const),
      value: fc.constant(true),
    }),
    fc.record({
      kind: fc.constant('condition' as const),
      attribute: fc.constant('id'),
      operator: fc.constantFrom('gt' as const, 'lte' as const),
      value: fc.integer({ min: 0, max: 40 }),
    }),
  );
  const relations = Object.entries(type.attributes).filter(([, f]) => f.kind === 'relation' || f.kind === 'media' || f.kind === 'component');
  if (depth <= 0 || relations.length === 0) return condition;
  const through = fc.constantFrom(...relations).chain(([name, field]) => {
    const target = registry.type(field.kind === 'relation' ? field.target : field.kind === 'component' ? field.component : UPLOAD_FILE_UID);
    return filterArb(registry, target, depth - 1).map((filter): Filter => ({ kind: 'nested', attribute: name, filter }));
  });
  return fc.oneof(
    condition,
    through,
    fc.tuple(condition, condition).map(([a, b]): Filter => ({ kind: 'or', filters: [a, b] })),
  );
}

function sortArb(type: TypeInfo): fc.Arbitrary<SortItem[]> {
  return fc.array(fc.record({ path: fc.constantFrom(...scalarNames(type)).map((name) => [name]), direction: fc.constantFrom('asc' as const, 'desc' as const) }), { maxLength: 2 });
}

function fieldsArb(type: TypeInfo): fc.Arbitrary<string[] | undefined> {
  const names = [...type.publicScalars.map((s) => s.name), ...type.trailingSystem.map((s) => s.name)];
  if (names.length === 0) return fc.constant(undefined);
  return fc.option(fc.subarray(names, { minLength: 1 }), { nil: undefined });
}

/** A populate node for rows of `type` reached through an attribute of kind `kind`. */
function nodeArb(registry: Registry, type: TypeInfo, kind: 'relation' | 'media' | 'component', depth: number): fc.Arbitrary<PopulateNode> {
  const countable = kind !== 'media';
  return fc
    .record({
      fields: fieldsArb(type),
      filters: fc.option(filterArb(registry, type, 1), { nil: undefined }),
      sort: fc.option(sortArb(type), { nil: undefined }),
      count: countable ? fc.boolean() : fc.constant(false),
      populate: depth > 0 ? fc.option(treeArb(registry, type, depth - 1), { nil: undefined }) : fc.constant(undefined),
    })
    .map((node) => {
      const out: { -readonly [K in keyof PopulateNode]: PopulateNode[K] } = {};
      if (node.count) return { count: true, ...(node.filters === undefined ? {} : { filters: node.filters }) };
      if (node.fields !== undefined) out.fields = node.fields;
      if (node.filters !== undefined) out.filters = node.filters;
      if (node.sort !== undefined && node.sort.length > 0) out.sort = node.sort;
      if (node.populate !== undefined && Object.keys(node.populate).length > 0) out.populate = node.populate;
      return out;
    });
}

export function treeArb(registry: Registry, type: TypeInfo, depth: number): fc.Arbitrary<PopulateTree> {
  const entries: Record<string, fc.Arbitrary<PopulateNode>> = {};
  for (const [name, field] of Object.entries(type.attributes)) {
    switch (field.kind) {
      case 'relation':
        entries[name] = nodeArb(registry, registry.type(field.target), 'relation', depth);
        break;
      case 'media':
        entries[name] = nodeArb(registry, registry.type(UPLOAD_FILE_UID), 'media', depth);
        break;
      case 'component':
        entries[name] = nodeArb(registry, registry.type(field.component), 'component', depth);
        break;
      case 'dynamiczone': {
        const kinds: Record<string, fc.Arbitrary<PopulateNode>> = {};
        for (const uid of field.components) kinds[uid] = nodeArb(registry, registry.type(uid), 'component', depth).map(({ count: _count, sort: _sort, ...rest }) => rest);
        entries[name] = fc.record(kinds, { requiredKeys: [] }).map((on): PopulateNode => ({ on: on as Record<string, PopulateNode> }));
        break;
      }
      case 'scalar':
        break;
    }
  }
  if (type.localized) entries['localizations'] = nodeArb(registry, type, 'relation', 0);
  return fc.record(entries, { requiredKeys: [] }).map((tree) => tree as PopulateTree);
}

export function queryArb(registry: Registry): fc.Arbitrary<{ uid: string; query: ListQuery }> {
  return fc.constantFrom(...ROOTS).chain((uid) => {
    const type = registry.type(uid);
    return fc
      .record({
        populate: treeArb(registry, type, 2),
        fields: fieldsArb(type),
        filters: fc.option(filterArb(registry, type, 1), { nil: undefined }),
        sort: sortArb(type),
        status: fc.constantFrom<Status>('published', 'draft'),
        locale: type.localized ? fc.constantFrom('en', 'fr', '*') : fc.constant(undefined),
        pageSize: fc.integer({ min: 1, max: 30 }),
        withCount: fc.boolean(),
      })
      .map(({ pageSize, withCount, fields, filters, locale, ...rest }) => ({
        uid,
        query: {
          ...rest,
          ...(fields === undefined ? {} : { fields }),
          ...(filters === undefined ? {} : { filters }),
          ...(locale === undefined ? {} : { locale }),
          pagination: { kind: 'page', page: 1, pageSize, withCount },
        },
      }));
  });
}
