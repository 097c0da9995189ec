/**
 * Populating inside the root statement: every populated edge becomes a correlated subquery that
 * returns its rows as JSON (SQLite json_array/json_group_array, PostgreSQL
 * json_build_array/json_agg), nested to any depth, so a read with any populate tree is ONE
 * statement, the total included. Each row is an array of the same columns the per-edge path
 * selects, in its projection's order, then its edges; the same projections build the entities,
 * so decoding (booleans, bigintegers, time formats, JSON columns) stays in one place and answers
 * are byte-equal to populate.ts.
 *
 * The plan of a populate tree (projections, aliases, static SQL text, builders) depends only on
 * the tree's shape, not on its filter values: it is planned once per (type, shape) and kept in a
 * bounded LRU (read.ts). A tree without filters is compiled once per status and locale; filters
 * are compiled per request into the planned skeleton, since they carry the request's values.
 *
 * Not covered (the caller falls back to populate.ts, one statement per edge): a mappedBy relation
 * populated from a component row (Strapi's components only own relations); on SQLite, a to-many
 * relation populated below a relation (measured slower there: see planEdges); a row of more values
 * than the database's JSON array constructor takes (PostgreSQL: 100).
 *
 * The JSON functions and the choices that depend on the database come from `Dialect.json` and
 * `Dialect.capabilities`.
 */
import type { Dialect } from '../database.ts';
import { NotRendered } from '../dialect/json-text.ts';
import type { JsonTextSupport } from '../dialect/types.ts';
import type { PopulateNode, PopulateTree, RelationPublication, SortItem, Status } from '../query/types.ts';
import type { Field } from '../schema.ts';
import { FILE_LINK_TABLE, UPLOAD_FILE_UID } from '../upload/file-schema.ts';
import { compileFilter } from './filters.ts';
import { LruCache } from './lru.ts';
import { scopeLocale, type PlanContext, type Scope } from './joins.ts';
import { populatedKeys, withSortFields } from './populate.ts';
import type { Registry, TypeInfo } from './registry.ts';
import type { Projection, ProjectionSpec, RenderSlot } from './serialize.ts';
import { sortKeys, type SortKey } from './sort.ts';
import { layoutObject, LayoutNotRendered, type EdgeEntry, type EntityLayout, type ListWindow } from './layout.ts';
import { and, column, fragment, joinFragments, limitClause, quote, TRUE, type Fragment } from './sql.ts';
import type { Entity } from './types.ts';
import { publicationKey, statusCondition, targetVersionCondition } from './versions.ts';

/** Where a planned node's locale requirement for localized relation targets comes from. */
type LocaleSource =
  | { readonly kind: 'none' }
  /** The root query's locale (a parameter). */
  | { readonly kind: 'root' }
  /** The `locale` column of the row at this alias (a localized content type, or the owner of a component). */
  | { readonly kind: 'column'; readonly alias: string };

/** Rows of one type at one alias of the statement, with what they pass on to their edges. */
interface RowsAt {
  readonly type: TypeInfo;
  readonly alias: string;
  readonly locale: LocaleSource;
}

/** What planning needs from the read engine. */
export interface NestedPlanner {
  readonly dialect: Dialect;
  readonly registry: Registry;
  projection(type: TypeInfo, spec: ProjectionSpec): Projection;
}

/** What the SQL of a planned tree depends on besides its filters. */
export interface NestedVersions {
  readonly status: Status;
  /** The root query's locale when it names one (not `'*'`). */
  readonly rootLocale: string | undefined;
  /** Refinements relation targets follow too (GraphQL reads). */
  readonly publication?: RelationPublication | undefined;
}

/** What compiling a planned tree into SQL needs per request. */
interface NestedRequest {
  /**
   * The filters' and sorts' alias source: its names end in `x<n>`, so they never meet the root
   * statement's (joins.ts) nor the planned nodes' (`n<k>`), and the compiled text can be reused.
   */
  readonly plan: PlanContext;
  readonly rootLocale: string | undefined;
}

/** Compiled select items kept per tree for requests without filters, by status and locale. */
const COMPILED_PER_TREE = 32;

/** One populated attribute of a planned node. */
interface EdgePlan {
  readonly key: string;
  /** Key of the edge's JSON value in the row (a column alias at the root). */
  readonly column: string;
  /** The correlated subquery; `node` is the request's populate node at this position. */
  sql(request: NestedRequest, node: PopulateNode): Fragment;
  /** The entity value from the parsed JSON value. */
  value(json: unknown, memo: BuildMemo): unknown;
  /**
   * The attribute's JSON text in SQL (Dialect.json.text), empty value included: `null`, `[]`,
   * `{"count":0}`; its entities in REST's shape, or in `entry`'s layout (layout.ts).
   */
  render(request: NestedRequest, node: PopulateNode, entry?: EdgeEntry): Fragment;
}

/** Entities built during one read, per planned node and row id. */
export type BuildMemo = Map<object, Map<unknown, Entity>>;

/** A populate tree planned over the rows of one type at one alias. */
export interface TreePlan {
  /** `<subquery> AS "__eN"` items to append to the SELECT list of the rows at the planned alias. */
  selectItems(versions: NestedVersions, tree: PopulateTree): Fragment;
  /** Fills the populated attributes of an entity built from a root row. */
  fill(entity: Entity, row: Readonly<Record<string, unknown>>, memo: BuildMemo): void;
  /** The populated attributes' JSON text in SQL, by key, for the root's rendered object (rendered.ts). */
  renderEdges(versions: NestedVersions, tree: PopulateTree): ReadonlyMap<string, Fragment>;
  /** The root entity as JSON text in `layout`'s shape (layout.ts), its attributes from this tree. */
  renderLayout(versions: NestedVersions, tree: PopulateTree, layout: EntityLayout): Fragment;
}

/** Thrown while planning a shape this module does not cover; the caller reads it per edge. */
class NotCovered extends Error {}

export { NotRendered };

/**
 * The JSON functions an edge's subquery is built with: the rows' positional arrays
 * (Dialect.json), or the rendered entities (Dialect.json.text).
 */
interface EdgeJson {
  aggregate(item: Fragment, order: Fragment | undefined): Fragment;
  /** A JSON value read back from a derived table's column. */
  reparse(value: Fragment): Fragment;
  /** The edge's scalar subquery as the value its parent's JSON holds. */
  value(subquery: Fragment): Fragment;
  /** An empty array as that value. */
  readonly emptyArray: string;
}

function rowsJson(json: Dialect['json']): EdgeJson {
  return { aggregate: json.aggregate, reparse: json.reparse, value: (subquery) => subquery, emptyArray: json.emptyArray };
}

/**
 * `(SELECT <array of alias."j"> FROM (<rows>) alias<filter>)`: the JSON of a derived table's rows
 * collected into one array, in `order` (undefined: in the order the derived table feeds them,
 * `Capabilities.aggregatesKeepSubqueryOrder`), as the value the parent's JSON holds.
 */
function collected(form: EdgeJson, alias: string, rows: Fragment, order: Fragment | undefined, filter = ''): Fragment {
  return form.value(joinFragments([fragment('(SELECT '), form.aggregate(form.reparse(fragment(`${alias}."j"`)), order), fragment(' FROM ('), rows, fragment(`) ${alias}${filter})`)], ''));
}

function renderedJson(dialect: Dialect): EdgeJson {
  const text = textSupport(dialect);
  return { aggregate: text.aggregate, reparse: text.nested, value: text.nested, emptyArray: text.emptyArray };
}

function textSupport(dialect: Dialect): JsonTextSupport {
  const text = dialect.json.text;
  if (text === undefined) throw new NotRendered();
  return text;
}

/** An entity as JSON in SQL, its keys in the projection's order, each populated attribute's value taken from `edges`. */
export function renderObject(dialect: Dialect, slots: readonly RenderSlot[], edges: ReadonlyMap<string, Fragment>, outer = false): Fragment {
  const text = textSupport(dialect);
  return text.object(
    slots.map((slot): readonly [string, Fragment] => {
      if (slot.kind === 'constant') return [slot.key, fragment(text.string(slot.value))];
      const value = slot.kind === 'value' ? fragment(slot.sql) : edges.get(slot.key);
      if (value === undefined) throw new NotRendered();
      return [slot.key, value];
    }),
    outer,
  );
}

/**
 * Plans `tree` over rows of `type` at `alias`; undefined when the tree needs the per-edge path.
 * The locale source of the root rows: their own column when localized, else the root locale.
 */
export function planTree(planner: NestedPlanner, type: TypeInfo, alias: string, tree: PopulateTree, rootLocaleSet: boolean): TreePlan | undefined {
  const rootLocale: LocaleSource = rootLocaleSet ? { kind: 'root' } : { kind: 'none' };
  const aliases: AliasCounter = { next: 0, rootLocale };
  const locale: LocaleSource = type.localized ? { kind: 'column', alias } : rootLocale;
  try {
    const edges = planEdges(planner, aliases, { type, alias, locale }, tree);
    const compile = (versions: NestedVersions, requestTree: PopulateTree): Fragment => {
      const request: NestedRequest = { plan: requestPlan(planner, versions), rootLocale: versions.rootLocale };
      const items = edges.map((edge) => joinFragments([edge.sql(request, requestTree[edge.key]!), fragment(` AS ${quote(edge.column)}`)], ''));
      return joinFragments(items, ', ');
    };
    const render = (versions: NestedVersions, requestTree: PopulateTree): ReadonlyMap<string, Fragment> => {
      const request: NestedRequest = { plan: requestPlan(planner, versions), rootLocale: versions.rootLocale };
      return new Map(edges.map((edge) => [edge.key, edge.render(request, requestTree[edge.key]!)]));
    };
    const rootRows: RowsAt = { type, alias, locale };
    return {
      selectItems: oncePerVersions(compile),
      renderEdges: oncePerVersions(render),
      renderLayout(versions, requestTree, layout) {
        const request: NestedRequest = { plan: requestPlan(planner, versions), rootLocale: versions.rootLocale };
        return layoutRow(planner, rootRows, edges, request, requestTree, layout, true);
      },
      fill(entity, row, memo) {
        for (const edge of edges) {
          const raw = row[edge.column];
          // SQLite hands the root's JSON columns over as text; PostgreSQL's driver parses json.
          entity[edge.key] = edge.value(typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw, memo);
        }
      },
    };
  } catch (error) {
    if (error instanceof NotCovered) return undefined;
    throw error;
  }
}

/** Planning state of one tree: the alias counter, and the locale source of the root query. */
function requestPlan(planner: NestedPlanner, versions: NestedVersions): PlanContext {
  let next = 0;
  return {
    dialect: planner.dialect,
    registry: planner.registry,
    status: versions.status,
    rootLocale: versions.rootLocale,
    publication: versions.publication,
    alias: (prefix) => `${prefix}x${++next}`,
  };
}

/**
 * `compile`, kept per status and locale for trees without filters: their text and params depend
 * on nothing else. Filters carry the request's values, so those trees are compiled per request.
 */
function oncePerVersions<T>(compile: (versions: NestedVersions, tree: PopulateTree) => T): (versions: NestedVersions, tree: PopulateTree) => T {
  const compiled = new LruCache<string, T>(COMPILED_PER_TREE);
  return (versions, tree) => {
    if (hasFilters(tree)) return compile(versions, tree);
    const key = `${versions.status}|${versions.rootLocale ?? ''}|${publicationKey(versions.publication)}`;
    let items = compiled.get(key);
    if (items === undefined) compiled.set(key, (items = compile(versions, tree)));
    return items;
  };
}

function hasFilters(tree: PopulateTree): boolean {
  for (const node of Object.values(tree)) {
    if (node.filters !== undefined) return true;
    if (node.populate !== undefined && hasFilters(node.populate)) return true;
    if (node.on !== undefined && hasFilters(node.on)) return true;
  }
  return false;
}

interface AliasCounter {
  next: number;
  /** What a non-localized content type's rows pass on: the root query's locale, if it names one. */
  readonly rootLocale: LocaleSource;
}

/** The entity of `rows` in `layout`'s shape, each edge entry written by its planned edge. */
function layoutRow(planner: NestedPlanner, rows: RowsAt, edges: readonly EdgePlan[], request: NestedRequest, tree: PopulateTree | undefined, layout: EntityLayout, outer: boolean): Fragment {
  const text = textSupport(planner.dialect);
  return layoutObject(
    text,
    rows.type,
    rows.alias,
    layout,
    (entry) => {
      const edge = edges.find((candidate) => candidate.key === entry.attribute);
      const node = tree?.[entry.attribute];
      if (edge === undefined || node === undefined) throw new LayoutNotRendered(`${entry.attribute} is not populated`);
      return edge.render(request, node, entry);
    },
    outer,
  );
}

/** Aliases of planned nodes: `n<k>`, a prefix filters and sorts (joins.ts, versions.ts) never use. */
function nodeAlias(aliases: AliasCounter): string {
  aliases.next += 1;
  return `n${aliases.next}`;
}

function planEdges(planner: NestedPlanner, aliases: AliasCounter, parent: RowsAt, tree: PopulateTree): EdgePlan[] {
  const edges: EdgePlan[] = [];
  for (const [key, node] of Object.entries(tree)) {
    const field: Field | undefined = parent.type.attributes[key];
    const jsonKey = `__e${edges.length}`;
    if (field === undefined) {
      if (key !== 'localizations' || !parent.type.localized) throw new NotCovered();
      edges.push(node.count === true ? localizationsCount(aliases, parent, key, jsonKey) : localizations(planner, aliases, parent, key, jsonKey, node));
      continue;
    }
    switch (field.kind) {
      case 'relation': {
        const target = planner.registry.type(field.target);
        if (!field.owner && parent.type.isComponent) throw new NotCovered();
        const walk = relationSource(aliases, parent, field.owner, field.linkTable, target);
        // Every locale of a localized target matches where no locale applies: one version per document, the first in order.
        const onePerDocument = target.localized && parent.locale.kind === 'none';
        // Ranking one version per document takes a derived table that reads the parent row.
        if (onePerDocument && field.cardinality === 'many' && node.count !== true && !planner.dialect.capabilities.correlatedDerivedTables) throw new NotCovered();
        edges.push(
          node.count === true
            ? countEdge(key, jsonKey, walk, `COUNT(DISTINCT ${quote(walk.rows.alias)}."document_id")`)
            : rowsEdge(planner, aliases, key, jsonKey, walk, node, field.cardinality === 'many', onePerDocument),
        );
        break;
      }
      case 'media': {
        const files = planner.registry.type(UPLOAD_FILE_UID);
        const m = nodeAlias(aliases);
        const f = nodeAlias(aliases);
        const walk: Source = {
          rows: { type: files, alias: f, locale: { kind: 'none' } },
          from: `${quote(FILE_LINK_TABLE)} ${m} JOIN ${quote(files.table)} ${f} ON ${column(f, 'id')} = ${column(m, 'file_id')}`,
          correlation: fragment(`${column(m, 'related_type')} = ? AND ${column(m, 'field')} = ? AND ${column(m, 'related_id')} = ${column(parent.alias, 'id')}`, [parent.type.uid, key]),
          versions: () => TRUE,
          tieBreak: [column(m, 'ord'), column(m, 'id')],
        };
        edges.push(rowsEdge(planner, aliases, key, jsonKey, walk, { ...node, count: false }, field.multiple));
        break;
      }
      case 'component': {
        const walk = componentSource(aliases, parent, key, planner.registry.type(field.component));
        edges.push(node.count === true ? countEdge(key, jsonKey, walk, 'COUNT(*)') : rowsEdge(planner, aliases, key, jsonKey, walk, node, field.repeatable));
        break;
      }
      case 'dynamiczone':
        edges.push(zoneEdge(planner, aliases, parent, key, jsonKey, field.components, node));
        break;
      case 'scalar':
        break;
    }
  }
  return edges;
}

/** The tables an edge reads, tied to its parent row. */
interface Source {
  readonly rows: RowsAt;
  /** `FROM` text (static). */
  readonly from: string;
  /** Ties the first table to the parent row (static, with its params). */
  readonly correlation: Fragment;
  /** Which versions of the rows count: status and locale, per request. */
  versions(request: NestedRequest): Fragment;
  /** ORDER BY terms after the node's own sort: link or entry order. */
  readonly tieBreak: readonly string[];
}

function relationSource(aliases: AliasCounter, parent: RowsAt, owner: boolean, linkTable: string, target: TypeInfo): Source {
  const l = nodeAlias(aliases);
  const t = nodeAlias(aliases);
  const on = owner ? `${column(t, 'document_id')} = ${column(l, 'target_document_id')}` : `${column(t, 'id')} = ${column(l, 'entity_id')}`;
  const correlation = owner ? `${column(l, 'entity_id')} = ${column(parent.alias, 'id')}` : `${column(l, 'target_document_id')} = ${column(parent.alias, 'document_id')}`;
  const locale = parent.locale;
  return {
    // A content row passes on its own locale when localized, else the root query's (populate.ts contentParent).
    rows: { type: target, alias: t, locale: target.localized ? { kind: 'column', alias: t } : aliases.rootLocale },
    from: `${quote(linkTable)} ${l} JOIN ${quote(target.table)} ${t} ON ${on}`,
    correlation: fragment(correlation),
    versions(request) {
      const status = targetVersionCondition(target, t, request.plan.status, request.plan.publication);
      if (!target.localized || locale.kind === 'none') return status;
      return and([status, joinFragments([fragment(`${column(t, 'locale')} = `), localeValue(locale, request)], '')]);
    },
    tieBreak: [column(l, owner ? 'ord' : 'inverse_ord'), column(l, 'id')],
  };
}

function componentSource(aliases: AliasCounter, parent: RowsAt, key: string, component: TypeInfo): Source {
  const c = nodeAlias(aliases);
  return {
    // A component row passes its owner's locale on to the relations inside it.
    rows: { type: component, alias: c, locale: parent.locale },
    from: `${quote(component.table)} ${c}`,
    correlation: fragment(`${column(c, 'entity_type')} = ? AND ${column(c, 'entity_field')} = ? AND ${column(c, 'entity_id')} = ${column(parent.alias, 'id')}`, [parent.type.uid, key]),
    versions: () => TRUE,
    tieBreak: [column(c, 'entity_ord'), column(c, 'id')],
  };
}

function localeValue(locale: LocaleSource, request: NestedRequest): Fragment {
  if (locale.kind === 'column') return fragment(column(locale.alias, 'locale'));
  return fragment('?', [request.rootLocale ?? null]);
}

/** The scope filters and sorts of a node see (joins.ts): as populate.ts gives them. */
function filterScope(request: NestedRequest, rows: RowsAt): Scope {
  return {
    type: rows.type,
    alias: rows.alias,
    locale: scopeLocale(request.plan, rows.type, rows.alias),
  };
}

/** WHERE of an edge's subquery: correlation, versions, the node's filters. */
function whereOf(request: NestedRequest, source: Source, node: PopulateNode): Fragment {
  const filter = node.filters === undefined ? TRUE : compileFilter(request.plan, filterScope(request, source.rows), node.filters);
  return and([source.correlation, source.versions(request), filter]);
}

function orderOf(request: NestedRequest, source: Source, sort: readonly SortItem[] | undefined): Fragment {
  return joinFragments(
    orderKeys(request, source, sort).map((key) => key.term(key.value)),
    ', ',
  );
}

/** The edge's order as values and terms (sort.ts SortKey): its sort, then link or entry order. */
function orderKeys(request: NestedRequest, source: Source, sort: readonly SortItem[] | undefined): SortKey[] {
  const keys = sort === undefined ? [] : sortKeys(request.plan, filterScope(request, source.rows), sort, 'aggregate');
  return [...keys, ...source.tieBreak.map((column): SortKey => ({ value: fragment(column), term: (value) => value }))];
}

/** Rows of one node as a JSON array expression, with their own edges nested. */
interface RowPlan {
  sql(request: NestedRequest, node: PopulateNode): Fragment;
  build(json: readonly unknown[], memo: BuildMemo): Entity;
  /** The row's entity as JSON text in SQL: REST's shape, or `layout`'s. */
  render(request: NestedRequest, node: PopulateNode, layout?: EntityLayout): Fragment;
}

function rowPlan(planner: NestedPlanner, aliases: AliasCounter, rows: RowsAt, node: PopulateNode, component?: { readonly uid: string; readonly tag: number }): RowPlan {
  const projection = planner.projection(rows.type, {
    fields: withSortFields(node.fields, node.sort),
    populated: populatedKeys(rows.type, node.populate),
    ...(component === undefined ? {} : { component: component.uid }),
  });
  const edges = node.populate === undefined ? [] : planEdges(planner, aliases, rows, node.populate);
  // [zone tag?, ...columns, ...edges]
  const values = [...(component === undefined ? [] : [String(component.tag)]), ...projection.jsonValues(rows.alias)];
  const json = planner.dialect.json;
  if (values.length + edges.length > json.maxArrayArguments) throw new NotCovered();
  const head = `${json.arrayOpen}${values.join(', ')}`;
  const offset = component === undefined ? 0 : 1;
  const firstEdge = values.length;
  const slots = projection.renderSlots(rows.alias);
  return {
    render(request, requestNode, layout) {
      if (layout !== undefined) return layoutRow(planner, rows, edges, request, requestNode.populate, layout, false);
      if (slots === undefined) throw new NotRendered();
      const rendered = new Map(edges.map((edge) => [edge.key, edge.render(request, requestNode.populate![edge.key]!)]));
      return renderObject(planner.dialect, slots, rendered);
    },
    sql(request, requestNode) {
      if (edges.length === 0) return fragment(`${head})`);
      const parts: Fragment[] = [fragment(head)];
      for (const edge of edges) parts.push(fragment(', '), json.reparse(edge.sql(request, requestNode.populate![edge.key]!)));
      parts.push(fragment(')'));
      return joinFragments(parts, '');
    },
    build(json, memo) {
      // The same row under the same node has the same subtree (its edges correlate on its own
      // columns): built once per request and shared, as populate.ts shares it.
      let built = memo.get(this);
      if (built === undefined) memo.set(this, (built = new Map()));
      const id = json[offset];
      let entity = built.get(id);
      if (entity !== undefined) return entity;
      entity = projection.buildFrom(json, offset);
      for (let i = 0; i < edges.length; i += 1) entity[edges[i]!.key] = edges[i]!.value(json[firstEdge + i], memo);
      built.set(id, entity);
      return entity;
    },
  };
}

/** The rows an edge reaches: a JSON array of rows (to-many), or the first row or null (to-one). */
function rowsEdge(planner: NestedPlanner, aliases: AliasCounter, key: string, jsonKey: string, source: Source, node: PopulateNode, many: boolean, onePerDocument = false): EdgePlan {
  const row = rowPlan(planner, aliases, source.rows, node);
  const from = ` FROM ${source.from} WHERE `;
  const z = onePerDocument && many ? nodeAlias(aliases) : undefined;
  const json = planner.dialect.json;
  /** The edge's correlated subquery around `object`, one row's JSON, in either form; a list shows the rows in `window`. */
  const subquery = (form: EdgeJson, object: Fragment, request: NestedRequest, requestNode: PopulateNode, window?: ListWindow): Fragment => {
    const where = whereOf(request, source, requestNode);
    const order = orderOf(request, source, requestNode.sort);
    if (many && window !== undefined && (window.start > 0 || window.limit >= 0)) return windowed(form, object, where, orderKeys(request, source, requestNode.sort), window);
    if (z !== undefined) {
      // Rows numbered in the edge's order overall and per document; the first of each document kept.
      const ranked = joinFragments(
        [
          fragment('SELECT '),
          object,
          fragment(' AS "j", ROW_NUMBER() OVER (ORDER BY '),
          order,
          fragment(`) AS "o", ROW_NUMBER() OVER (PARTITION BY ${column(source.rows.alias, 'document_id')} ORDER BY `),
          order,
          fragment(`) AS "r"${from}`),
          where,
        ],
        '',
      );
      return collected(form, z, ranked, fragment(`${z}."o"`), ` WHERE ${z}."r" = 1`);
    }
    if (many) {
      if (!planner.dialect.capabilities.aggregatesKeepSubqueryOrder) return form.value(joinFragments([fragment('(SELECT '), form.aggregate(object, order), fragment(from), where, fragment(')')], ''));
      // The rows ordered in a derived table the aggregate only collects: SQLite then reads them in
      // an index's order where one has it (a link table's (entity_id, ord)) instead of sorting them
      // into a temporary B-tree per parent row (populate=*'s statement 0.110 -> 0.086 ms).
      const rows = joinFragments([fragment('SELECT '), object, fragment(' AS "j"'), fragment(from), where, fragment(' ORDER BY '), order], '');
      return collected(form, nodeAlias(aliases), rows, undefined);
    }
    // A to-one edge matches at most one row in data written through the API (writes replace its
    // link; status and locale pick one version), and SQLite would build a sorter per parent row to
    // order that one row: 25% of a populate=* statement. PostgreSQL's top-1 is free.
    const top = !planner.dialect.capabilities.freeTopOne && requestNode.sort === undefined && !onePerDocument ? [] : [fragment(' ORDER BY '), order];
    return form.value(joinFragments([fragment('(SELECT '), object, fragment(from), where, ...top, fragment(' LIMIT 1)')], ''));
  };
  /**
   * A page of the list: `window`'s rows in the edge's order. Where the database does not feed an
   * aggregate in its derived table's order (`aggregatesKeepSubqueryOrder`), the aggregate orders
   * them again by the columns that carry the order's values (measured 0.025 ms where numbering the
   * rows with ROW_NUMBER took 0.037, gql-nested's statement on SQLite); where versions are ranked,
   * by their number, after keeping the first of each document.
   */
  const windowed = (form: EdgeJson, object: Fragment, where: Fragment, keys: readonly SortKey[], window: ListWindow): Fragment => {
    const w = nodeAlias(aliases);
    const page = limitClause(planner.dialect, window.limit, window.start);
    const fed = planner.dialect.capabilities.aggregatesKeepSubqueryOrder;
    const order = joinFragments(
      keys.map((key) => key.term(key.value)),
      ', ',
    );
    if (z === undefined) {
      const carried = fed ? [] : keys.map((key, i) => joinFragments([fragment(', '), key.value, fragment(` AS "o${i}"`)], ''));
      const rows = joinFragments([fragment('SELECT '), object, fragment(' AS "j"'), ...carried, fragment(from), where, fragment(' ORDER BY '), order, page], '');
      const again = fed
        ? undefined
        : joinFragments(
            keys.map((key, i) => key.term(fragment(`${w}."o${i}"`))),
            ', ',
          );
      return collected(form, w, rows, again);
    }
    const numbered = joinFragments(
      [
        fragment('SELECT "j", "o" FROM (SELECT '),
        object,
        fragment(' AS "j", ROW_NUMBER() OVER (ORDER BY '),
        order,
        fragment(`) AS "o", ROW_NUMBER() OVER (PARTITION BY ${column(source.rows.alias, 'document_id')} ORDER BY `),
        order,
        fragment(`) AS "r"${from}`),
        where,
        fragment(`) ${z} WHERE ${z}."r" = 1 ORDER BY ${z}."o"`),
        page,
      ],
      '',
    );
    return collected(form, w, numbered, fed ? undefined : fragment(`${w}."o"`));
  };
  return {
    key,
    column: jsonKey,
    sql(request, requestNode) {
      return subquery(rowsJson(json), row.sql(request, requestNode), request, requestNode);
    },
    render(request, requestNode, entry) {
      if (entry !== undefined && entry.kind !== 'edge') throw new LayoutNotRendered(`${key} is no dynamic zone`);
      return subquery(renderedJson(planner.dialect), row.render(request, requestNode, entry?.layout), request, requestNode, entry?.window);
    },
    value(json, memo) {
      if (!many) return json === null || json === undefined ? null : row.build(json as unknown[], memo);
      return (json as unknown[][]).map((item) => row.build(item, memo));
    },
  };
}

/** `{ count }` of the rows (or distinct documents) an edge reaches. */
function countEdge(key: string, jsonKey: string, source: Source, aggregate: string): EdgePlan {
  return {
    key,
    column: jsonKey,
    sql(request, requestNode) {
      return joinFragments([fragment(`(SELECT ${aggregate} FROM ${source.from} WHERE `), whereOf(request, source, requestNode), fragment(')')], '');
    },
    value: (json) => ({ count: Number(json ?? 0) }),
    render(request, requestNode) {
      const text = textSupport(request.plan.dialect);
      const count = joinFragments([fragment(`(SELECT ${aggregate} FROM ${source.from} WHERE `), whereOf(request, source, requestNode), fragment(')')], '');
      return text.object([['count', text.count(count)]], false);
    },
  };
}

/**
 * A dynamic zone: one SELECT per listed component kind, UNION ALL, aggregated in the zone's order
 * (entry order, then id), as Strapi places entries by their position in the zone. Kinds not
 * listed under `on` are dropped; a kind's sort does not apply (entries keep the zone's order).
 */
function zoneEdge(planner: NestedPlanner, aliases: AliasCounter, parent: RowsAt, key: string, jsonKey: string, components: readonly string[], node: PopulateNode): EdgePlan {
  const kinds = Object.keys(node.on ?? Object.fromEntries(components.map((uid) => [uid, {}])));
  const planned = kinds.map((uid, tag) => {
    const source = componentSource(aliases, parent, key, planner.registry.type(uid));
    return {
      uid,
      source,
      row: rowPlan(planner, aliases, source.rows, node.on?.[uid] ?? {}, {
        uid,
        tag,
      }),
    };
  });
  const z = nodeAlias(aliases);
  const json = planner.dialect.json;
  // Where a derived table cannot read the parent row (MariaDB), each kind is its own aggregate of
  // `[entity_ord, id, entry]` and the entries are merged in that order here.
  if (!planner.dialect.capabilities.correlatedDerivedTables) return zoneEdgePerKind(planner, key, jsonKey, planned);
  /** The zone's entries of every listed kind, in zone order, each written by `entry`. */
  const entries = (form: EdgeJson, request: NestedRequest, requestNode: PopulateNode, entry: (row: RowPlan, sub: PopulateNode, uid: string) => Fragment): Fragment => {
    if (planned.length === 0) return fragment(form.emptyArray);
    const selects = planned.map(({ uid, source, row }) => {
      const sub = requestNode.on?.[uid] ?? {};
      const [ord, id] = source.tieBreak;
      return joinFragments([fragment('SELECT '), entry(row, sub, uid), fragment(` AS "j", ${ord} AS "o", ${id} AS "i" FROM ${source.from} WHERE `), whereOf(request, source, sub)], '');
    });
    // Where the database feeds the aggregate in its derived table's order (SQLite), the union is
    // ordered (an ORDER BY of a compound names its result columns) and the aggregate only collects.
    const fed = planner.dialect.capabilities.aggregatesKeepSubqueryOrder;
    const union = joinFragments([joinFragments(selects, ' UNION ALL '), fragment(fed ? ' ORDER BY "o", "i"' : '')], '');
    return collected(form, z, union, fed ? undefined : fragment(`${z}."o", ${z}."i"`));
  };
  return {
    key,
    column: jsonKey,
    sql: (request, requestNode) => entries(rowsJson(json), request, requestNode, (row, sub) => row.sql(request, sub)),
    render(request, requestNode, entry) {
      if (entry !== undefined && entry.kind !== 'zone') throw new LayoutNotRendered(`${key} is a dynamic zone`);
      return entries(renderedJson(planner.dialect), request, requestNode, (row, sub, uid) => row.render(request, sub, entry === undefined ? undefined : zoneLayout(entry, uid)));
    },
    value(json, memo) {
      return (json as unknown[][]).map((entry) => planned[entry[0] as number]!.row.build(entry, memo));
    },
  };
}

/** How a zone's entries of one component are written; every component a zone reads has one. */
function zoneLayout(entry: Extract<EdgeEntry, { kind: 'zone' }>, uid: string): EntityLayout {
  const layout = entry.layouts.get(uid);
  if (layout === undefined) throw new LayoutNotRendered(`${entry.attribute} has no layout for ${uid}`);
  return layout;
}

/** A zone kind planned: its component rows under the parent and the entry built from each. */
interface ZoneKind {
  readonly uid: string;
  readonly source: Source;
  readonly row: RowPlan;
}

/** A zone entry as the per-kind aggregates return it: its order in the zone, then the entry. */
type OrderedEntry = [ord: number, id: number, entry: unknown[]];

/**
 * A dynamic zone without a derived table: `json_array(<kind 1 entries>, <kind 2 entries>, ...)`,
 * each a correlated aggregate of `[entity_ord, id, entry]` over one component table; the
 * entries are put in zone order (entity_ord, then id) when built.
 */
function zoneEdgePerKind(planner: NestedPlanner, key: string, jsonKey: string, planned: readonly ZoneKind[]): EdgePlan {
  const json = planner.dialect.json;
  return {
    key,
    column: jsonKey,
    sql(request, requestNode) {
      if (planned.length === 0) return fragment(json.emptyArray);
      const kinds = planned.map(({ uid, source, row }) => {
        const sub = requestNode.on?.[uid] ?? {};
        const [ord, id] = source.tieBreak;
        const entry = joinFragments([fragment(`${json.arrayOpen}${ord}, ${id}, `), row.sql(request, sub), fragment(')')], '');
        return joinFragments([fragment('(SELECT '), json.aggregate(entry, fragment(`${ord}, ${id}`)), fragment(` FROM ${source.from} WHERE `), whereOf(request, source, sub), fragment(')')], '');
      });
      return joinFragments([fragment(json.arrayOpen), joinFragments(kinds, ', '), fragment(')')], '');
    },
    render() {
      // Only MariaDB reads zones per kind, and it writes no JSON text (Dialect.json.text).
      throw new NotRendered();
    },
    value(json, memo) {
      const entries = (json as OrderedEntry[][]).flat();
      entries.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      return entries.map(([, , entry]) => planned[entry[0] as number]!.row.build(entry, memo));
    },
  };
}

/** The other locales' versions of the same document (a localized type's `localizations`). */
function localizationsSource(aliases: AliasCounter, parent: RowsAt): Source {
  const t = nodeAlias(aliases);
  return {
    rows: { type: parent.type, alias: t, locale: { kind: 'column', alias: t } },
    from: `${quote(parent.type.table)} ${t}`,
    correlation: fragment(`${column(t, 'document_id')} = ${column(parent.alias, 'document_id')} AND ${column(t, 'locale')} <> ${column(parent.alias, 'locale')}`),
    versions: (request) => statusCondition(parent.type, t, request.plan.status),
    tieBreak: [column(t, 'id')],
  };
}

function localizations(planner: NestedPlanner, aliases: AliasCounter, parent: RowsAt, key: string, jsonKey: string, node: PopulateNode): EdgePlan {
  return rowsEdge(planner, aliases, key, jsonKey, localizationsSource(aliases, parent), node, true);
}

function localizationsCount(aliases: AliasCounter, parent: RowsAt, key: string, jsonKey: string): EdgePlan {
  const source = localizationsSource(aliases, parent);
  return countEdge(key, jsonKey, source, `COUNT(DISTINCT ${column(source.rows.alias, 'locale')})`);
}

/**
 * What a planned tree depends on: attributes, fields, sorts, counts and zone kinds, at every
 * depth. Filters are left out: they are compiled per request into the planned skeleton.
 */
export function shapeKey(tree: PopulateTree): string {
  return Object.entries(tree)
    .map(([key, node]) => `${JSON.stringify(key)}:${nodeKey(node)}`)
    .join(',');
}

function nodeKey(node: PopulateNode): string {
  const fields = node.fields === undefined ? '*' : JSON.stringify(node.fields);
  const sort = node.sort === undefined ? '' : node.sort.map((item) => `${JSON.stringify(item.path)}${item.direction}`).join(';');
  const on =
    node.on === undefined
      ? ''
      : Object.entries(node.on)
          .map(([uid, sub]) => `${JSON.stringify(uid)}=${nodeKey(sub)}`)
          .join(',');
  return `{${fields}|${sort}|${node.count === true ? '#' : ''}|${on}|${node.populate === undefined ? '' : shapeKey(node.populate)}}`;
}
