/**
 * The read side of the document service: validated queries (query/types.ts) → SQL → entities in
 * Strapi 5's REST shape.
 *
 * Statements per call: 1 for the root rows with everything populated (nested.ts) and the total
 * when the list asks for it (a column of the rows: `withTotal`; a page past the end has no row to
 * carry it and counts apart), never more with more rows. Trees nested.ts does not cover are
 * populated per edge instead (populate.ts): + one per populated edge per level. Rendered reads
 * write the same statement's JSON in SQL, in REST's shape or a caller's layout (layout.ts).
 */
import { DatabaseUsageError, type Dialect, type Queryable, type Row } from '../database.ts';
import type { ListQuery, Pagination, PopulateTree, ReadQuery } from '../query/types.ts';
import type { ModelSchema } from '../schema.ts';
import { compileFilter } from './filters.ts';
import { createPlanContext, scopeLocale, type PlanContext, type Scope } from './joins.ts';
import { LruCache } from './lru.ts';
import { layoutObject, LayoutNotRendered, type EdgeEntry, type EntityLayout } from './layout.ts';
import { NotRendered, planTree, renderObject, shapeKey, type BuildMemo, type NestedPlanner, type TreePlan } from './nested.ts';
import { populate, populatedKeys, type LoadContext, type Parent } from './populate.ts';
import { createRegistry, type Registry, type TypeInfo } from './registry.ts';
import { createProjection, LOCALE_KEY, type Projection, type ProjectionSpec } from './serialize.ts';
import { searchCondition } from './search.ts';
import { sortKeys, type SortKey, type SortPlace } from './sort.ts';
import { and, column, fragment, joinFragments, limitClause, quote, TRUE, type Fragment } from './sql.ts';
import type { Entity, ListResult, ReadEngine, RenderedReads } from './types.ts';
import { needsFallback } from '../dialect/json-text.ts';
import { localeCondition, publicationCondition, statusCondition } from './versions.ts';

export interface ReadEngineOptions {
  /** The database, or a transaction handle to read inside it. */
  readonly db: Queryable;
  readonly model: ModelSchema;
  /**
   * `statement` (the default): a populated read is one statement (nested.ts), falling back to
   * one statement per edge (populate.ts) for the shapes nested.ts does not cover; `per-edge`
   * always reads per edge (kept for comparison in tests and benchmarks). Default: `per-edge` when
   * the environment has CAPI_READ_PER_EDGE=1, else `statement`.
   */
  readonly populate?: 'statement' | 'per-edge';
  /**
   * Whether the engine offers rendered reads (JSON written by the database) where its database
   * writes JSON text. Default: on, unless the environment has CAPI_RENDERED_READS=0 (the
   * benchmarks' and tests' comparison).
   */
  readonly rendered?: boolean;
  /**
   * Renders populated reads too where the dialect does not (`JsonTextSupport.populated`, false on
   * PostgreSQL, where it measured slower): for the tests that keep that SQL exact.
   */
  readonly renderPopulated?: boolean;
}

/** Alias of the root table in every root statement. */
const ROOT = 'a';

/** Column of a page's rows that carries the list's total (withTotal). */
const TOTAL_KEY = '__total';

/** Prefix of the columns carrying a page's order out of its derived table (pageRows). */
const CUT_KEY = '__o';

/** Alias of a rendered page's rows (renderedPage). */
const PAGE = 'p';

/** The last sort key of every root read: the row id, so the order is total. */
const ID_KEY: SortKey = { value: fragment(column(ROOT, 'id')), term: (value) => joinFragments([value, fragment(' ASC')], '') };

export function createReadEngine(options: ReadEngineOptions): ReadEngine {
  const { db, model } = options;
  const dialect = db.dialect;
  const shared = sharedState(model, dialect);
  // CAPI_READ_PER_EDGE=1 makes a server read per edge, for the benchmarks' comparison; an explicit option wins.
  const perEdge = (options.populate ?? (process.env['CAPI_READ_PER_EDGE'] === '1' ? 'per-edge' : 'statement')) === 'per-edge';

  /** The populate tree planned into the root statement, or undefined to read it per edge. */
  function nestedPlan(type: TypeInfo, query: ReadQuery): TreePlan | undefined {
    if (perEdge || Object.keys(query.populate).length === 0) return undefined;
    const rootLocale = query.locale === undefined || query.locale === '*' ? undefined : query.locale;
    return shared.tree(type, query.populate, rootLocale !== undefined);
  }

  /** The root's SELECT list: its columns, then one JSON column per populated edge. */
  function selectList(plan: PlanContext, projection: Projection, nested: TreePlan | undefined, query: ReadQuery): Fragment {
    const columns = fragment(projection.select(ROOT));
    if (nested === undefined) return columns;
    return joinFragments([columns, nested.selectItems({ status: plan.status, rootLocale: plan.rootLocale, publication: plan.publication }, query.populate)], ', ');
  }

  function context(query: ReadQuery): LoadContext {
    return {
      db,
      dialect,
      registry: shared.registry,
      status: query.status,
      rootLocale: query.locale === undefined || query.locale === '*' ? undefined : query.locale,
      publication: query.relationPublication,
      projection: shared.projection,
    };
  }

  /** WHERE of a root read: version selection, publication refinements, filters, `_q`. */
  function rootWhere(plan: PlanContext, scope: Scope, query: ReadQuery): Fragment {
    const { type } = scope;
    return and([
      statusCondition(type, ROOT, query.status),
      localeCondition(type, ROOT, query.locale),
      publicationCondition(type, ROOT, query.status, query.publicationFilter, query.hasPublishedVersion),
      query.filters === undefined ? TRUE : compileFilter(plan, scope, query.filters),
      query.search === undefined ? TRUE : searchCondition(dialect, type, ROOT, query.search),
    ]);
  }

  async function entitiesOf(ctx: LoadContext, type: TypeInfo, projection: Projection, rows: readonly Row[], query: ReadQuery, nested: TreePlan | undefined): Promise<Entity[]> {
    if (nested !== undefined) {
      const memo: BuildMemo = new Map();
      return rows.map((row) => {
        const entity = projection.build(row);
        nested.fill(entity, row, memo);
        return entity;
      });
    }
    const parents: Parent[] = rows.map((row) => ({
      id: row['id'] as number,
      documentId: row['documentId'] as string,
      locale: type.localized ? (row[LOCALE_KEY] as string) : ctx.rootLocale,
      entity: projection.build(row),
    }));
    await populate(ctx, type, parents, query.populate);
    return parents.map((parent) => parent.entity);
  }

  function rootProjection(type: TypeInfo, query: ReadQuery): Projection {
    return shared.projection(type, {
      fields: query.fields,
      populated: populatedKeys(type, query.populate),
    });
  }

  /** The parts of a root statement a query fixes: the type, plan context, scope, projection and WHERE. */
  function rootParts(uid: string, query: ReadQuery) {
    const type = shared.registry.type(uid);
    const ctx = context(query);
    const plan = createPlanContext(dialect, shared.registry, query.status, ctx.rootLocale, query.relationPublication);
    const scope: Scope = { type, alias: ROOT, locale: scopeLocale(plan, type, ROOT) };
    return { type, ctx, plan, scope, projection: rootProjection(type, query), where: rootWhere(plan, scope, query) };
  }

  type RootParts = ReturnType<typeof rootParts>;

  /** A list's order as sort keys, the row id last so that the order is total. */
  function rootOrder({ plan, scope }: RootParts, query: ListQuery, place: SortPlace): SortKey[] {
    return [...sortKeys(plan, scope, query.sort, place), ID_KEY];
  }

  /**
   * `SELECT <select> FROM <type> WHERE ... ORDER BY ... LIMIT ...`: the rows of a list's page.
   *
   * A page past the first cuts its rows first, in a derived table under the root's alias (the
   * table's columns and the values that order them), and `select` is computed over those rows
   * only, ordered again by the carried values. In one flat statement the database computes the
   * select list (populated edges, rendered JSON) for every row the OFFSET skips, since it skips
   * rows above the projection: PostgreSQL read page 4,000 of 100k articles with populate=* in
   * 7.2 s. A first page has no OFFSET and stops after its LIMIT, so its statement stays flat.
   */
  function pageRows({ type, where }: RootParts, query: ListQuery, select: Fragment, order: readonly SortKey[]): Fragment {
    const { limit, offset } = window(query.pagination);
    const terms = joinFragments(
      order.map((key) => key.term(key.value)),
      ', ',
    );
    const rows = [fragment(` FROM ${quote(type.table)} ${ROOT} WHERE `), where, fragment(' ORDER BY '), terms, limitClause(dialect, limit, offset)];
    if (offset === 0) return joinFragments([fragment('SELECT '), select, ...rows], '');
    const carried = order.map((key, i) => joinFragments([fragment(', '), key.value, fragment(` AS ${quote(`${CUT_KEY}${i}`)}`)], ''));
    const again = joinFragments(
      order.map((key, i) => key.term(fragment(column(ROOT, `${CUT_KEY}${i}`)))),
      ', ',
    );
    const cut = joinFragments([fragment(`SELECT ${ROOT}.*`), ...carried, ...rows], '');
    return joinFragments([fragment('SELECT '), select, fragment(' FROM ('), cut, fragment(`) ${ROOT} ORDER BY `), again], '');
  }

  /** `SELECT <select> FROM <type> WHERE ...` for the first matching row by id: findOne and findSingle. */
  function firstStatement(type: TypeInfo, select: Fragment, where: Fragment): Fragment {
    return joinFragments([fragment('SELECT '), select, fragment(` FROM ${quote(type.table)} ${ROOT} WHERE `), where, fragment(` ORDER BY ${column(ROOT, 'id')} LIMIT 1`)], '');
  }

  /** First matching row by id: findOne and findSingle. */
  async function findFirst(uid: string, query: ReadQuery, extra: Fragment): Promise<Entity | null> {
    const { type, ctx, plan, projection, where } = rootParts(uid, query);
    const nested = nestedPlan(type, query);
    const sql = firstStatement(type, selectList(plan, projection, nested, query), and([where, extra]));
    const rows = await db.query<Row>(sql.sql, sql.params);
    const [entity] = await entitiesOf(ctx, type, projection, rows, query, nested);
    return entity ?? null;
  }

  /** A page of a list read in rows: its statement around `select`, and the total's for a page past the end. */
  function pageStatements(uid: string, query: ListQuery, select: (parts: RootParts) => Fragment) {
    const parts = rootParts(uid, query);
    const page = pageRows(parts, query, select(parts), rootOrder(parts, query, 'statement'));
    const count = joinFragments([fragment(`SELECT COUNT(*) AS ${quote('count')} FROM ${quote(parts.type.table)} ${ROOT} WHERE `), parts.where], '');
    return { parts, page, count };
  }

  /**
   * The select list with the total as one more column where the list asks for it: an
   * uncorrelated subquery the database runs once, so a page and its total are one statement.
   */
  function withTotal(select: Fragment, type: TypeInfo, where: Fragment, query: ListQuery): Fragment {
    if (!query.pagination.withCount) return select;
    return joinFragments([select, fragment(`, (SELECT COUNT(*) FROM ${quote(type.table)} ${ROOT} WHERE `), where, fragment(`) AS ${quote(TOTAL_KEY)}`)], '');
  }

  /** The total the page's rows carry; a page past the end has no row to carry it, so it is counted on its own. */
  async function totalOf(query: ListQuery, rows: readonly Row[], count: Fragment): Promise<number | undefined> {
    if (!query.pagination.withCount) return undefined;
    if (rows.length > 0) return Number(rows[0]![TOTAL_KEY]);
    const counted = await db.query<Row>(count.sql, count.params);
    return Number(counted[0]?.['count'] ?? 0);
  }

  /**
   * The root's entity as JSON text (`AS "j"`), in REST's shape or `layout`'s, or undefined where
   * it must be read in rows.
   */
  function renderedSelect(type: TypeInfo, plan: PlanContext, projection: Projection, query: ReadQuery, layout: EntityLayout | undefined): Fragment | undefined {
    const text = dialect.json.text;
    if (perEdge || text === undefined) return undefined;
    const populated = Object.keys(query.populate).length > 0;
    if (populated && !text.populated && options.renderPopulated !== true && layout === undefined) return undefined;
    const nested = populated ? nestedPlan(type, query) : undefined;
    if (populated && nested === undefined) return undefined;
    const versions = { status: plan.status, rootLocale: plan.rootLocale, publication: plan.publication };
    try {
      const object =
        layout !== undefined
          ? (nested?.renderLayout(versions, query.populate, layout) ?? layoutObject(text, type, ROOT, layout, unpopulated, true))
          : renderObject(dialect, projection.renderSlots(ROOT)!, nested?.renderEdges(versions, query.populate) ?? NO_EDGES, true);
      return joinFragments([object, fragment(' AS "j"')], '');
    } catch (error) {
      if (error instanceof NotRendered || error instanceof LayoutNotRendered) return undefined;
      throw error;
    }
  }

  /** findOne and findSingle as JSON text: `null` for no entity, undefined to read in rows. */
  async function renderFirst(uid: string, query: ReadQuery, extra: Fragment, layout: EntityLayout | undefined): Promise<string | undefined> {
    if (fellBack.has(query)) return undefined;
    const { type, plan, projection, where } = rootParts(uid, query);
    const select = renderedSelect(type, plan, projection, query, layout);
    if (select === undefined) return undefined;
    const sql = firstStatement(type, select, and([where, extra]));
    const rows = await whenWritten(db.query<Row>(sql.sql, sql.params));
    if (rows?.length === 0) return 'null';
    const json = rows?.[0]!['j'] as string | undefined;
    if (json !== undefined && !needsFallback(json)) return json;
    fellBack.add(query);
    return undefined;
  }

  /**
   * Queries whose rendered answer held a value only JavaScript prints right: a query object seen
   * again (REST's cached plans hand out the same one per query string) goes to rows at once
   * instead of paying for both reads. Only the cost depends on it, never the answer.
   */
  const fellBack = new WeakSet<ReadQuery>();
  /**
   * A rendered page as one row: each entity's JSON text selected in the page's order (with the
   * values that order it, where the aggregate must sort again), joined into one array text in that
   * order around the page, and the total beside it (an uncorrelated subquery, so a page past the
   * end counts in the same statement). One row for the driver to decode, not one per entity.
   */
  function renderedPage(uid: string, query: ListQuery, layout: EntityLayout | undefined): Fragment | undefined {
    const parts = rootParts(uid, query);
    const { type, plan, projection, where } = parts;
    const object = renderedSelect(type, plan, projection, query, layout);
    if (object === undefined) return undefined;
    const inner = rootOrder(parts, query, 'statement');
    // The values that order the page ride along for an aggregate that must order it again.
    const fed = dialect.capabilities.aggregatesKeepSubqueryOrder;
    const carried = fed ? object : joinFragments([object, ...inner.map((key, i) => joinFragments([fragment(', '), key.value, fragment(` AS "o${i}"`)], ''))], '');
    const rows = pageRows(parts, query, carried, inner);
    const order = fed
      ? undefined
      : joinFragments(
          rootOrder(parts, query, 'aggregate').map((key, i) => key.term(fragment(`${PAGE}."o${i}"`))),
          ', ',
        );
    const array = joinFragments([dialect.json.text!.textArray(fragment(`${PAGE}."j"`), order), fragment(' AS "j"')], '');
    return joinFragments([fragment('SELECT '), withTotal(array, type, where, query), fragment(' FROM ('), rows, fragment(`) ${PAGE}`)], '');
  }

  /**
   * The rendered statement of a query object (and layout), or null where it is read in rows: a
   * statement depends on nothing but the query, and REST's and GraphQL's cached plans hand out
   * one frozen query object per query string, so a repeated query costs a lookup, and its SQL
   * text is the same string each time (the prepared-statement cache hashes it once).
   */
  const renderedPages = new WeakMap<ListQuery, WeakMap<object, Map<string, Fragment | null>>>();
  const rendered: RenderedReads = {
    async findMany(uid, query, layout) {
      if (fellBack.has(query)) return undefined;
      let byLayout = renderedPages.get(query);
      if (byLayout === undefined) renderedPages.set(query, (byLayout = new WeakMap()));
      let byType = byLayout.get(layout ?? REST_LAYOUT);
      if (byType === undefined) byLayout.set(layout ?? REST_LAYOUT, (byType = new Map()));
      let page = byType.get(uid);
      if (page === undefined) byType.set(uid, (page = renderedPage(uid, query, layout) ?? null));
      if (page === null) return undefined;
      const row = (await whenWritten(db.query<Row>(page.sql, page.params)))?.[0];
      const json = row?.['j'] as string | undefined;
      if (row !== undefined && json !== undefined && !needsFallback(json)) return { json, total: query.pagination.withCount ? Number(row[TOTAL_KEY]) : undefined };
      fellBack.add(query);
      return undefined;
    },
    findOne: (uid, documentId, query, layout) => renderFirst(uid, query, fragment(`${column(ROOT, 'document_id')} = ?`, [documentId]), layout),
    findSingle: (uid, query, layout) => renderFirst(uid, query, TRUE, layout),
  };

  const offersRendered = (options.rendered ?? process.env['CAPI_RENDERED_READS'] !== '0') && dialect.json.text !== undefined && !perEdge;
  return {
    ...(offersRendered ? { rendered } : {}),

    async findMany(uid: string, query: ListQuery): Promise<ListResult> {
      let nested: TreePlan | undefined;
      const { parts, page, count } = pageStatements(uid, query, ({ type, plan, projection, where }) => {
        nested = nestedPlan(type, query);
        return withTotal(selectList(plan, projection, nested, query), type, where, query);
      });
      const rows = await db.query<Row>(page.sql, page.params);
      const [results, total] = await Promise.all([entitiesOf(parts.ctx, parts.type, parts.projection, rows, query, nested), totalOf(query, rows, count)]);
      return { results, total };
    },

    findOne(uid: string, documentId: string, query: ReadQuery): Promise<Entity | null> {
      return findFirst(uid, query, fragment(`${column(ROOT, 'document_id')} = ?`, [documentId]));
    },

    findSingle(uid: string, query: ReadQuery): Promise<Entity | null> {
      return findFirst(uid, query, TRUE);
    },
  };
}

/**
 * The result of a rendered read, or undefined when the database could not write it: a stored
 * value its JSON functions refuse (SQLite's json() on text that is not JSON) fails the statement,
 * and the read then runs in rows, which answers for such values as it always has.
 */
async function whenWritten<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    // A closed or misused handle fails the same way in rows: say so now.
    if (error instanceof DatabaseUsageError) throw error;
    return undefined;
  }
}

/** A root with nothing populated: its rendered object has no edges. */
const NO_EDGES: ReadonlyMap<string, Fragment> = new Map();

/** The key of REST's shape where statements are kept per layout. */
const REST_LAYOUT: object = {};

/** A layout's edge where nothing is populated: the query and the layout disagree, so rows answer. */
function unpopulated(entry: EdgeEntry): never {
  throw new LayoutNotRendered(`${entry.attribute} is not populated`);
}

function window(pagination: Pagination): {
  readonly limit: number;
  readonly offset: number;
} {
  if (pagination.kind === 'page')
    return {
      limit: pagination.pageSize,
      offset: Math.max(0, (pagination.page - 1) * pagination.pageSize),
    };
  return { limit: pagination.limit, offset: Math.max(0, pagination.start) };
}

interface SharedState {
  readonly registry: Registry;
  projection(type: TypeInfo, spec: ProjectionSpec): Projection;
  /** The planned populate tree of a root type (nested.ts), cached per shape; undefined when not covered. */
  tree(type: TypeInfo, populate: PopulateTree, rootLocaleSet: boolean): TreePlan | undefined;
}

/** Distinct populate shapes kept planned; shapes come from requests, so the cache is bounded. */
const TREE_PLANS = 500;

/**
 * Registry and planned projections per model and dialect, shared by every engine over them, so
 * an engine made per transaction (the write engine reading back) plans nothing twice.
 */
const sharedStates = new WeakMap<ModelSchema, Map<Dialect, SharedState>>();

function sharedState(model: ModelSchema, dialect: Dialect): SharedState {
  let byDialect = sharedStates.get(model);
  if (byDialect === undefined) sharedStates.set(model, (byDialect = new Map()));
  let state = byDialect.get(dialect);
  if (state === undefined) {
    const registry = createRegistry(model);
    const projections = new Map<string, Projection>();
    const trees = new LruCache<string, TreePlan | undefined>(TREE_PLANS);
    state = {
      registry,
      tree(type, populate, rootLocaleSet) {
        const key = `${type.uid}|${rootLocaleSet ? 'L' : ''}|${shapeKey(populate)}`;
        if (trees.has(key)) return trees.get(key);
        const plan = planTree(planner, type, ROOT, populate, rootLocaleSet);
        trees.set(key, plan);
        return plan;
      },
      projection(type, spec) {
        const key = `${type.uid}|${spec.component ?? ''}|${spec.fields?.join(',') ?? '*'}|${spec.populated.map((p) => (p.count === true ? `#${p.key}` : p.key)).join(',')}`;
        let projection = projections.get(key);
        if (projection === undefined) {
          projection = createProjection(dialect, type, spec);
          // Shapes come from requests: bound the cache so odd queries cannot grow it forever.
          if (projections.size >= 2000) projections.clear();
          projections.set(key, projection);
        }
        return projection;
      },
    };
    const planner: NestedPlanner = {
      dialect,
      registry,
      projection: (type, spec) => state!.projection(type, spec),
    };
    byDialect.set(dialect, state);
  }
  return state;
}
