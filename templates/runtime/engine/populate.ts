/**
 * Populating, one SQL statement per populated edge per level, whatever the number of rows: every
 * loader reads the related rows of ALL its parents at once (parent ids bound as one array
 * parameter, sql.ts `idTable`), groups them by parent in JavaScript, and recurses into the next
 * level with the distinct rows it found. A dynamic zone is one statement per component kind it
 * returns; a `count` edge is one grouped statement instead of the rows'. Edges whose parents are
 * all missing cost nothing. Sibling edges run concurrently
 * (on PostgreSQL they use several pool connections; SQLite serialises them).
 *
 * Which target versions a relation returns follows the root query: its status for draft &
 * publish targets, and for localized targets the locale of the row they are reached from (the
 * root query's locale, or any, when that row is not localized).
 *
 * A row reached from several parents (the same author of many articles) is built once and the
 * same object is attached to each: results are JSON trees that may share subtrees, read-only.
 */
import type { Dialect, Queryable, Row } from '../database.ts';
import type { PopulateNode, PopulateTree, RelationPublication, SortItem, Status } from '../query/types.ts';
import type { ComponentField, DynamicZoneField, Field, MediaField, RelationField } from '../schema.ts';
import { FILE_LINK_TABLE, UPLOAD_FILE_UID } from '../upload/file-schema.ts';
import { compileFilter } from './filters.ts';
import { createPlanContext, scopeLocale, type PlanContext, type Scope } from './joins.ts';
import type { Registry, TypeInfo } from './registry.ts';
import { LOCALE_KEY, type PopulatedKey, type Projection, type ProjectionSpec } from './serialize.ts';
import { compileSort } from './sort.ts';
import { and, column, fragment, idTable, inIds, joinFragments, quote, TRUE, type Fragment } from './sql.ts';
import type { Entity } from './types.ts';
import { statusCondition, targetVersionCondition } from './versions.ts';

export interface LoadContext {
  readonly db: Queryable;
  readonly dialect: Dialect;
  readonly registry: Registry;
  readonly status: Status;
  /** The root query's locale when it names one (not `'*'`). */
  readonly rootLocale: string | undefined;
  /** Refinements relation targets follow too (GraphQL reads); undefined for REST. */
  readonly publication?: RelationPublication | undefined;
  /** Planned projections, shared by requests of the same shape. */
  projection(type: TypeInfo, spec: ProjectionSpec): Projection;
}

/** A row whose attributes are being populated. */
export interface Parent {
  readonly id: number;
  /** Undefined for component rows. */
  readonly documentId: string | undefined;
  /** The locale localized relation targets must have when reached from this row; undefined for any. */
  readonly locale: string | undefined;
  readonly entity: Entity;
}

const PARENT_KEY = '__parent';
const ORD_KEY = '__ord';
const COUNT_KEY = '__count';

/** Populates `tree` on `parents` (rows of `type`), in place. */
export async function populate(ctx: LoadContext, type: TypeInfo, parents: readonly Parent[], tree: PopulateTree | undefined): Promise<void> {
  if (tree === undefined || parents.length === 0) return;
  const loads: Promise<void>[] = [];
  for (const [key, node] of Object.entries(tree)) {
    const field: Field | undefined = type.attributes[key];
    if (field === undefined) {
      if (key === 'localizations' && type.localized) loads.push(node.count === true ? countLocalizations(ctx, type, parents, node) : loadLocalizations(ctx, type, parents, node));
      else throw new Error(`read engine: ${type.uid} has no attribute ${key} to populate`);
      continue;
    }
    switch (field.kind) {
      case 'relation':
        loads.push(node.count === true ? countRelation(ctx, key, field, parents, node) : loadRelation(ctx, key, field, parents, node));
        break;
      case 'media':
        loads.push(loadMedia(ctx, type, key, field, parents, node));
        break;
      case 'component':
        loads.push(node.count === true ? countComponent(ctx, type, key, field, parents, node) : loadComponent(ctx, type, key, field, parents, node));
        break;
      case 'dynamiczone':
        loads.push(loadDynamicZone(ctx, type, key, field, parents, node));
        break;
      case 'scalar':
        // Scalars are always there; the parser rejects populating one, nothing to do if it did not.
        break;
    }
  }
  await Promise.all(loads);
}

/** What a populate tree adds to an entity of `type`, with the shape of each empty value. */
export function populatedKeys(type: TypeInfo, tree: PopulateTree | undefined): PopulatedKey[] {
  if (tree === undefined) return [];
  const keys: PopulatedKey[] = [];
  for (const key of Object.keys(tree)) {
    const field = type.attributes[key];
    if (field === undefined) {
      if (key === 'localizations' && type.localized) keys.push({ key, many: true, ...(tree[key]?.count === true ? { count: true } : {}) });
      continue;
    }
    const count = tree[key]?.count === true;
    switch (field.kind) {
      case 'relation':
        keys.push({ key, many: field.cardinality === 'many', ...(count ? { count } : {}) });
        break;
      case 'media':
        keys.push({ key, many: field.multiple });
        break;
      case 'component':
        keys.push({ key, many: field.repeatable, ...(count ? { count } : {}) });
        break;
      case 'dynamiczone':
        keys.push({ key, many: true });
        break;
      case 'scalar':
        break;
    }
  }
  return keys;
}

/** The projection of the rows of one populate node. */
function nodeProjection(ctx: LoadContext, type: TypeInfo, node: PopulateNode, component?: string): Projection {
  return ctx.projection(type, {
    fields: withSortFields(node.fields, node.sort),
    populated: populatedKeys(type, node.populate),
    ...(component === undefined ? {} : { component }),
  });
}

/** A sort inside a populate adds the field it sorts by to the returned fields, as Strapi does. */
export function withSortFields(fields: readonly string[] | undefined, sort: readonly SortItem[] | undefined): readonly string[] | undefined {
  if (fields === undefined || sort === undefined) return fields;
  const extra = sort.filter((item) => item.path.length === 1).map((item) => item.path[0]!);
  return extra.every((name) => fields.includes(name)) ? fields : [...fields, ...extra.filter((name) => !fields.includes(name))];
}

function planFor(ctx: LoadContext): PlanContext {
  return createPlanContext(ctx.dialect, ctx.registry, ctx.status, ctx.rootLocale, ctx.publication);
}

/** The filter and ORDER BY terms of a relation or media node over rows at `scope`. */
function nodeConditions(plan: PlanContext, scope: Scope, node: PopulateNode): { readonly where: Fragment; readonly order: Fragment[] } {
  return {
    where: node.filters === undefined ? TRUE : compileFilter(plan, scope, node.filters),
    order: node.sort === undefined ? [] : compileSort(plan, scope, node.sort),
  };
}

/** Alias of the parent id list every populate statement starts from. */
const IDS = 'ids';

interface LoaderStatement {
  /** Distinct parent keys: row ids (`integer`) or document ids (`text`). */
  readonly ids: readonly (number | string)[];
  readonly kind: 'integer' | 'text';
  readonly select: string;
  /** Tables joined to the id list; `where` ties one of their columns to `ids.value`. */
  readonly from: string;
  readonly where: Fragment;
  readonly order: readonly Fragment[];
  /** GROUP BY terms, for counts. */
  readonly group?: string;
}

/**
 * `SELECT select FROM <parent ids> CROSS JOIN from WHERE where ORDER BY order`: the statement
 * walks the parent ids and probes the index of the related table for each (sql.ts idTable).
 */
function statement(ctx: LoadContext, s: LoaderStatement): Fragment {
  const parts: Fragment[] = [fragment(`SELECT ${s.select} FROM `), idTable(ctx.dialect, s.ids, s.kind, IDS), fragment(` CROSS JOIN ${s.from} WHERE `), s.where];
  if (s.group !== undefined) parts.push(fragment(` GROUP BY ${s.group}`));
  if (s.order.length > 0) parts.push(fragment(' ORDER BY '), joinFragments(s.order, ', '));
  return joinFragments(parts, '');
}

async function run(ctx: LoadContext, sql: Fragment): Promise<Row[]> {
  return ctx.db.query<Row>(sql.sql, sql.params);
}

function groupBy<K>(parents: readonly Parent[], key: (parent: Parent) => K | undefined): Map<K, Parent[]> {
  const groups = new Map<K, Parent[]>();
  for (const parent of parents) {
    const k = key(parent);
    if (k === undefined) continue;
    const group = groups.get(k);
    if (group === undefined) groups.set(k, [parent]);
    else group.push(parent);
  }
  return groups;
}

function attach(parent: Parent, key: string, many: boolean, child: Entity): void {
  if (many) (parent.entity[key] as Entity[]).push(child);
  else if (parent.entity[key] === null) parent.entity[key] = child;
}

/** A content-type row as a parent of the next level. */
function contentParent(ctx: LoadContext, type: TypeInfo, row: Row, entity: Entity): Parent {
  return {
    id: row['id'] as number,
    documentId: row['documentId'] as string,
    locale: type.localized ? (row[LOCALE_KEY] as string) : ctx.rootLocale,
    entity,
  };
}

/** The link rows and target versions a relation edge reads, for its rows or for its counts. */
interface RelationWalk {
  readonly target: TypeInfo;
  readonly groups: Map<number | string, Parent[]>;
  readonly parentColumn: string;
  readonly from: string;
  readonly where: Fragment;
  readonly order: readonly Fragment[];
  readonly kind: 'integer' | 'text';
}

const T = 't';
const L = 'l';

function relationWalk(ctx: LoadContext, field: RelationField, parents: readonly Parent[], node: PopulateNode): RelationWalk {
  const target = ctx.registry.type(field.target);
  const plan = planFor(ctx);
  const scope: Scope = { type: target, alias: T, locale: scopeLocale(plan, target, T) };
  // The owning side reads links by the parent rows' ids; the mappedBy side by their documents.
  const groups = groupBy<number | string>(parents, (p) => (field.owner ? p.id : p.documentId));
  const parentColumn = column(L, field.owner ? 'entity_id' : 'target_document_id');
  const on = field.owner ? `${column(T, 'document_id')} = ${column(L, 'target_document_id')}` : `${column(T, 'id')} = ${column(L, 'entity_id')}`;
  const locales = new Set(parents.map((p) => p.locale));
  const localeRestriction = target.localized && !locales.has(undefined) ? inIds(ctx.dialect, column(T, 'locale'), [...locales] as string[], 'text') : TRUE;
  const { where, order } = nodeConditions(plan, scope, node);
  return {
    target,
    groups,
    parentColumn,
    from: `${quote(field.linkTable)} ${L} JOIN ${quote(target.table)} ${T} ON ${on}`,
    where: and([fragment(`${parentColumn} = ${IDS}.value`), targetVersionCondition(target, T, ctx.status, ctx.publication), localeRestriction, where]),
    order: [...order, fragment(column(L, field.owner ? 'ord' : 'inverse_ord')), fragment(column(L, 'id'))],
    kind: field.owner ? 'integer' : 'text',
  };
}

async function loadRelation(ctx: LoadContext, key: string, field: RelationField, parents: readonly Parent[], node: PopulateNode): Promise<void> {
  const walk = relationWalk(ctx, field, parents, node);
  const { target, groups } = walk;
  const projection = nodeProjection(ctx, target, node);
  const sql = statement(ctx, {
    ids: [...groups.keys()],
    kind: walk.kind,
    select: `${walk.parentColumn} AS ${quote(PARENT_KEY)}, ${projection.select(T)}`,
    from: walk.from,
    where: walk.where,
    order: walk.order,
  });
  const rows = await run(ctx, sql);

  const many = field.cardinality === 'many';
  const children = new Map<number, Parent>();
  // Localized targets can match several versions (one per locale) of one document: keep the first.
  const seen = target.localized ? new Map<Parent, Set<string>>() : undefined;
  for (const row of rows) {
    const group = groups.get(row[PARENT_KEY] as number | string);
    if (group === undefined) continue;
    const id = row['id'] as number;
    let child = children.get(id);
    if (child === undefined) {
      child = contentParent(ctx, target, row, projection.build(row));
      children.set(id, child);
    }
    for (const parent of group) {
      if (seen !== undefined) {
        if (parent.locale !== undefined && child.locale !== parent.locale) continue;
        let documents = seen.get(parent);
        if (documents === undefined) seen.set(parent, (documents = new Set()));
        if (documents.has(child.documentId!)) continue;
        documents.add(child.documentId!);
      }
      attach(parent, key, many, child.entity);
    }
  }
  await populate(ctx, target, [...children.values()], node.populate);
}

/**
 * `populate[key][count]=true` on a relation: the number of related documents each parent has in
 * the version populating would return (status, locale, `filters`), one grouped statement.
 * Localized targets are counted per locale, and each parent takes its own locale's count.
 */
async function countRelation(ctx: LoadContext, key: string, field: RelationField, parents: readonly Parent[], node: PopulateNode): Promise<void> {
  const walk = relationWalk(ctx, field, parents, node);
  const perLocale = walk.target.localized && parents.every((p) => p.locale !== undefined);
  const localeColumn = column(T, 'locale');
  const select = [`${walk.parentColumn} AS ${quote(PARENT_KEY)}`, `COUNT(DISTINCT ${column(T, 'document_id')}) AS ${quote(COUNT_KEY)}`];
  if (perLocale) select.push(`${localeColumn} AS ${quote(LOCALE_KEY)}`);
  const sql = statement(ctx, {
    ids: [...walk.groups.keys()],
    kind: walk.kind,
    select: select.join(', '),
    from: walk.from,
    where: walk.where,
    order: [],
    group: perLocale ? `${walk.parentColumn}, ${localeColumn}` : walk.parentColumn,
  });
  const rows = await run(ctx, sql);
  for (const row of rows) {
    for (const parent of walk.groups.get(row[PARENT_KEY] as number | string) ?? []) {
      if (perLocale && row[LOCALE_KEY] !== parent.locale) continue;
      parent.entity[key] = { count: Number(row[COUNT_KEY]) };
    }
  }
}

async function loadMedia(ctx: LoadContext, owner: TypeInfo, key: string, field: MediaField, parents: readonly Parent[], node: PopulateNode): Promise<void> {
  const files = ctx.registry.type(UPLOAD_FILE_UID);
  const plan = planFor(ctx);
  const f = 'f';
  const m = 'm';
  const groups = groupBy(parents, (p) => p.id);
  const { where, order } = nodeConditions(plan, { type: files, alias: f, locale: undefined }, node);
  const projection = nodeProjection(ctx, files, node);
  const sql = statement(ctx, {
    ids: [...groups.keys()],
    kind: 'integer',
    select: `${column(m, 'related_id')} AS ${quote(PARENT_KEY)}, ${projection.select(f)}`,
    from: `${quote(FILE_LINK_TABLE)} ${m} JOIN ${quote(files.table)} ${f} ON ${column(f, 'id')} = ${column(m, 'file_id')}`,
    where: and([fragment(`${column(m, 'related_type')} = ? AND ${column(m, 'field')} = ? AND ${column(m, 'related_id')} = ${IDS}.value`, [owner.uid, key]), where]),
    order: [...order, fragment(column(m, 'ord')), fragment(column(m, 'id'))],
  });
  const rows = await run(ctx, sql);
  const built = new Map<number, Entity>();
  for (const row of rows) {
    const group = groups.get(row[PARENT_KEY] as number);
    if (group === undefined) continue;
    const id = row['id'] as number;
    let entity = built.get(id);
    if (entity === undefined) built.set(id, (entity = projection.build(row)));
    for (const parent of group) attach(parent, key, field.multiple, entity);
  }
}

/** The component rows of one attribute (a component, or one kind of a dynamic zone) that `node` keeps. */
function componentWalk(ctx: LoadContext, owner: TypeInfo, key: string, component: TypeInfo, parents: readonly Parent[], node: PopulateNode) {
  const c = 'c';
  const plan = planFor(ctx);
  const groups = groupBy(parents, (p) => p.id);
  const { where, order } = nodeConditions(plan, { type: component, alias: c, locale: scopeLocale(plan, component, c) }, node);
  return {
    c,
    groups,
    from: `${quote(component.table)} ${c}`,
    where: and([fragment(`${column(c, 'entity_type')} = ? AND ${column(c, 'entity_field')} = ? AND ${column(c, 'entity_id')} = ${IDS}.value`, [owner.uid, key]), where]),
    order,
  };
}

/**
 * Component rows of `parents` for one attribute, filtered and sorted as `node` asks; entry order
 * breaks ties. Dynamic zone entries keep the zone's order (`sorted: false`), as Strapi places
 * them by their position in the zone.
 */
async function componentRows(
  ctx: LoadContext,
  owner: TypeInfo,
  key: string,
  component: TypeInfo,
  projection: Projection,
  parents: readonly Parent[],
  node: PopulateNode,
  sorted: boolean,
): Promise<{ readonly rows: Row[]; readonly groups: Map<number, Parent[]> }> {
  const walk = componentWalk(ctx, owner, key, component, parents, node);
  const { c } = walk;
  const sql = statement(ctx, {
    ids: [...walk.groups.keys()],
    kind: 'integer',
    select: `${column(c, 'entity_id')} AS ${quote(PARENT_KEY)}, ${column(c, 'entity_ord')} AS ${quote(ORD_KEY)}, ${projection.select(c)}`,
    from: walk.from,
    where: walk.where,
    order: [...(sorted ? walk.order : []), fragment(column(c, 'entity_ord')), fragment(column(c, 'id'))],
  });
  return { rows: await run(ctx, sql), groups: walk.groups };
}

/** `populate[key][count]=true` on a component: how many entries (that `filters` keeps) each parent has. */
async function countComponent(ctx: LoadContext, owner: TypeInfo, key: string, field: ComponentField, parents: readonly Parent[], node: PopulateNode): Promise<void> {
  const walk = componentWalk(ctx, owner, key, ctx.registry.type(field.component), parents, node);
  const parentColumn = column(walk.c, 'entity_id');
  const sql = statement(ctx, {
    ids: [...walk.groups.keys()],
    kind: 'integer',
    select: `${parentColumn} AS ${quote(PARENT_KEY)}, COUNT(*) AS ${quote(COUNT_KEY)}`,
    from: walk.from,
    where: walk.where,
    order: [],
    group: parentColumn,
  });
  for (const row of await run(ctx, sql)) {
    for (const parent of walk.groups.get(row[PARENT_KEY] as number) ?? []) parent.entity[key] = { count: Number(row[COUNT_KEY]) };
  }
}

async function loadComponent(ctx: LoadContext, owner: TypeInfo, key: string, field: ComponentField, parents: readonly Parent[], node: PopulateNode): Promise<void> {
  const component = ctx.registry.type(field.component);
  const projection = nodeProjection(ctx, component, node);
  const { rows, groups } = await componentRows(ctx, owner, key, component, projection, parents, node, true);
  const children: Parent[] = [];
  for (const row of rows) {
    const group = groups.get(row[PARENT_KEY] as number);
    if (group === undefined) continue;
    const entity = projection.build(row);
    // A component row has one owner; it passes the owner's locale on to relations inside it.
    for (const parent of group) {
      attach(parent, key, field.repeatable, entity);
      children.push({ id: row['id'] as number, documentId: undefined, locale: parent.locale, entity });
    }
  }
  await populate(ctx, component, children, node.populate);
}

interface ZoneEntry {
  readonly ord: number;
  readonly id: number;
  readonly entity: Entity;
}

async function loadDynamicZone(ctx: LoadContext, owner: TypeInfo, key: string, field: DynamicZoneField, parents: readonly Parent[], node: PopulateNode): Promise<void> {
  // Components not listed under `on` are dropped, as Strapi does; the parser lists them all by default.
  const kinds: Readonly<Record<string, PopulateNode>> = node.on ?? Object.fromEntries(field.components.map((uid) => [uid, {}]));
  const entries = new Map<Parent, ZoneEntry[]>();
  await Promise.all(
    Object.entries(kinds).map(async ([uid, sub]) => {
      const component = ctx.registry.type(uid);
      const projection = nodeProjection(ctx, component, sub, uid);
      const { rows, groups } = await componentRows(ctx, owner, key, component, projection, parents, sub, false);
      const children: Parent[] = [];
      for (const row of rows) {
        const group = groups.get(row[PARENT_KEY] as number);
        if (group === undefined) continue;
        const entity = projection.build(row);
        const entry: ZoneEntry = { ord: Number(row[ORD_KEY]), id: row['id'] as number, entity };
        for (const parent of group) {
          let list = entries.get(parent);
          if (list === undefined) entries.set(parent, (list = []));
          list.push(entry);
          children.push({ id: entry.id, documentId: undefined, locale: parent.locale, entity });
        }
      }
      await populate(ctx, component, children, sub.populate);
    }),
  );
  // Kinds were read separately: interleave them back into the zone's order.
  for (const [parent, list] of entries) {
    list.sort((a, b) => a.ord - b.ord || a.id - b.id);
    parent.entity[key] = list.map((entry) => entry.entity);
  }
}

/**
 * `populate[localizations][count]=true`: how many other locales each parent's document has in the
 * root status (after `filters`). One statement, grouped by document and locale.
 */
async function countLocalizations(ctx: LoadContext, type: TypeInfo, parents: readonly Parent[], node: PopulateNode): Promise<void> {
  const plan = planFor(ctx);
  const t = 't';
  const groups = groupBy(parents, (p) => p.documentId);
  const { where } = nodeConditions(plan, { type, alias: t, locale: scopeLocale(plan, type, t) }, node);
  const documentColumn = column(t, 'document_id');
  const localeColumn = column(t, 'locale');
  const sql = statement(ctx, {
    ids: [...groups.keys()],
    kind: 'text',
    select: `${documentColumn} AS ${quote(PARENT_KEY)}, ${localeColumn} AS ${quote(LOCALE_KEY)}`,
    from: `${quote(type.table)} ${t}`,
    where: and([fragment(`${documentColumn} = ${IDS}.value`), statusCondition(type, t, ctx.status), where]),
    order: [],
    group: `${documentColumn}, ${localeColumn}`,
  });
  for (const row of await run(ctx, sql)) {
    for (const parent of groups.get(row[PARENT_KEY] as string) ?? []) {
      if (row[LOCALE_KEY] === parent.locale) continue;
      const current = parent.entity['localizations'] as { count: number };
      parent.entity['localizations'] = { count: current.count + 1 };
    }
  }
}

/** The other locales' versions of the same documents, with the root status. */
async function loadLocalizations(ctx: LoadContext, type: TypeInfo, parents: readonly Parent[], node: PopulateNode): Promise<void> {
  const plan = planFor(ctx);
  const t = 't';
  const groups = groupBy(parents, (p) => p.documentId);
  const { where, order } = nodeConditions(plan, { type, alias: t, locale: scopeLocale(plan, type, t) }, node);
  const projection = nodeProjection(ctx, type, node);
  const sql = statement(ctx, {
    ids: [...groups.keys()],
    kind: 'text',
    select: projection.select(t),
    from: `${quote(type.table)} ${t}`,
    where: and([fragment(`${column(t, 'document_id')} = ${IDS}.value`), statusCondition(type, t, ctx.status), where]),
    order: [...order, fragment(column(t, 'id'))],
  });
  const rows = await run(ctx, sql);
  const children: Parent[] = [];
  for (const row of rows) {
    const group = groups.get(row['documentId'] as string);
    if (group === undefined) continue;
    const locale = row[LOCALE_KEY] as string;
    let child: Parent | undefined;
    for (const parent of group) {
      if (parent.locale === locale) continue;
      if (child === undefined) {
        child = contentParent(ctx, type, row, projection.build(row));
        children.push(child);
      }
      attach(parent, 'localizations', true, child.entity);
    }
  }
  await populate(ctx, type, children, node.populate);
}
