/**
 * A root field's selection → a ReadPlan: which scalars to read of its rows and, per populated
 * attribute, what to read of the rows it reaches, and with which list arguments. The plan is built
 * before the engine runs, from the whole selection (fragments, aliases, `_connection { nodes }`
 * and dynamic-zone fragments included), so that one engine call reads everything the answer
 * needs: the number of SQL statements depends on the selection's shape, never on row counts.
 *
 * Lists inside a document (to-many relations, multiple media, repeatable components,
 * `localizations`) take `filters` and `sort`. The engine applies them in SQL for relations and
 * media when every selection of the attribute at that place asks the same; otherwise (two aliases
 * asking differently, or a repeatable component, which the engine does not filter) the rows are
 * read unfiltered and each selection's list is derived in memory (selection-lists.ts). Such a
 * list then needs the data its filters and sort look at: the plan requires it (`require*`).
 */
import { getArgumentValues, getNamedType, isObjectType, type FieldNode, type GraphQLField, type GraphQLObjectType } from './graphql-js.ts';
import { keyInfo, mediaTarget, type KeyInfo, type Target } from '../query/targets.ts';
import type { Filter, SortItem } from '../query/types.ts';
import { listArgsKey, type ArgsContext, type ListArgs } from './args.ts';
import { graphqlFilters } from './args-filters.ts';
import { graphqlSort } from './args-sort.ts';
import { collectSubfields, fieldsNamed, type SelectionScope } from './selection.ts';

/** What to read of the rows of one target at one place of the answer. */
export interface ReadPlan {
  readonly target: Target;
  /** Scalar attributes and system fields selected (`documentId` and `id` always come anyway). */
  readonly fields: Set<string>;
  /** Populated attributes (and `localizations`) by name. */
  readonly attributes: Map<string, AttributePlan>;
}

export type AttributeKind = 'relation' | 'media' | 'component' | 'dynamiczone';

/** What one selection of a list asks: which rows, in which order. Pagination is per parent, later. */
export interface ListUse {
  readonly filter: Filter | undefined;
  readonly sort: readonly SortItem[];
}

export interface AttributePlan {
  readonly kind: AttributeKind;
  /** Lists: to-many relations, multiple media, repeatable components, `localizations`, zones. */
  readonly many: boolean;
  /** Per distinct list arguments (listArgsKey), what the selections ask. Empty for single values. */
  readonly lists: Map<string, ListUse>;
  /** Relations, media, components: what to read of the rows reached. */
  readonly child?: ReadPlan;
  /** Dynamic zones: per component UID, what to read of its entries. */
  readonly zone?: Map<string, ReadPlan>;
}

export interface PlanContext extends ArgsContext {
  readonly selection: SelectionScope;
  /** The GraphQL object type of a component, for dynamic-zone fragments. */
  readonly componentType: (uid: string) => GraphQLObjectType;
}

/** The list arguments of a selection that names none: all rows, link order. */
export const ALL_ROWS_KEY = listArgsKey({});

const CONNECTION_SUFFIX = '_connection';

export function emptyPlan(target: Target): ReadPlan {
  return { target, fields: new Set(), attributes: new Map() };
}

/** The plan of the rows `nodes` select on `type` (the GraphQL object type of `target`). */
export function planSelection(ctx: PlanContext, target: Target, type: GraphQLObjectType, nodes: readonly FieldNode[]): ReadPlan {
  const plan = emptyPlan(target);
  addSelection(ctx, plan, type, nodes);
  return plan;
}

interface AttributeSelection {
  readonly info: Exclude<KeyInfo, { kind: 'scalar' } | { kind: 'hidden' }>;
  readonly nodes: FieldNode[];
  readonly args: ListArgs[];
  childType: GraphQLObjectType | undefined;
}

/** Adds what `nodes` select on `type` to `plan`. */
export function addSelection(ctx: PlanContext, plan: ReadPlan, type: GraphQLObjectType, nodes: readonly FieldNode[]): void {
  const selected = new Map<string, AttributeSelection>();
  for (const fieldNodes of collectSubfields(ctx.selection, type, nodes).values()) {
    const first = fieldNodes[0];
    if (first === undefined || first.name.value.startsWith('__')) continue;
    const name = first.name.value;
    const field = type.getFields()[name];
    if (field === undefined) continue;
    const connection = name.endsWith(CONNECTION_SUFFIX) && keyInfo(plan.target, name, 'populate') === undefined;
    const attribute = connection ? name.slice(0, -CONNECTION_SUFFIX.length) : name;
    const info = keyInfo(plan.target, attribute, 'populate');
    // Not an attribute (UploadFile.related): resolved on its own.
    if (info === undefined || info.kind === 'hidden') continue;
    if (info.kind === 'scalar') {
      plan.fields.add(attribute);
      continue;
    }
    // A relation the caller may not read is not read: its field answers null or [].
    if (info.kind === 'relation' && !ctx.scope.canRead(info.target)) continue;
    let entry = selected.get(attribute);
    if (entry === undefined) selected.set(attribute, (entry = { info, nodes: [], args: [], childType: undefined }));
    if (connection) {
      // `<attr>_connection { nodes { ... } }`: the rows are what `nodes` selects.
      const collection = getNamedType(field.type);
      if (!isObjectType(collection)) continue;
      const inner = fieldsNamed(collectSubfields(ctx.selection, collection, fieldNodes), 'nodes');
      const nodesField = collection.getFields()['nodes'];
      const childType = nodesField === undefined ? undefined : getNamedType(nodesField.type);
      if (isObjectType(childType)) entry.childType = childType;
      entry.nodes.push(...inner);
    } else {
      const childType = getNamedType(field.type);
      if (isObjectType(childType)) entry.childType = childType;
      entry.nodes.push(...fieldNodes);
    }
    if (field.args.some((arg) => arg.name === 'filters' || arg.name === 'sort')) entry.args.push(listArguments(ctx, field, first));
  }
  for (const [attribute, entry] of selected) mergeAttribute(ctx, plan, attribute, entry);
}

function listArguments(ctx: PlanContext, field: GraphQLField<unknown, unknown>, node: FieldNode): ListArgs {
  return getArgumentValues(field, node, ctx.selection.variableValues as Record<string, unknown>) as ListArgs;
}

function mergeAttribute(ctx: PlanContext, plan: ReadPlan, attribute: string, entry: AttributeSelection): void {
  const attributePlan = ensureAttribute(ctx, plan, attribute, entry.info);
  if (attributePlan.child !== undefined && entry.childType !== undefined) addSelection(ctx, attributePlan.child, entry.childType, entry.nodes);
  if (attributePlan.zone !== undefined) {
    for (const [uid, componentPlan] of attributePlan.zone) addSelection(ctx, componentPlan, ctx.componentType(uid), entry.nodes);
  }
  if (attributePlan.child !== undefined) {
    for (const args of entry.args) {
      const key = listArgsKey(args);
      if (attributePlan.lists.has(key)) continue;
      attributePlan.lists.set(key, {
        filter: graphqlFilters(args.filters, attributePlan.child.target, ctx),
        sort: graphqlSort(args.sort, attributePlan.child.target, ctx),
      });
    }
  }
  requireListData(ctx, attributePlan);
}

/** The plan of `attribute` in `plan`, created empty the first time. */
function ensureAttribute(ctx: PlanContext, plan: ReadPlan, attribute: string, info: AttributeSelection['info']): AttributePlan {
  const existing = plan.attributes.get(attribute);
  if (existing !== undefined) return existing;
  const created = newAttributePlan(ctx, plan.target, attribute, info);
  plan.attributes.set(attribute, created);
  return created;
}

function newAttributePlan(ctx: PlanContext, owner: Target, attribute: string, info: AttributeSelection['info']): AttributePlan {
  const field = Object.hasOwn(owner.attributes, attribute) ? owner.attributes[attribute] : undefined;
  const { targets } = ctx.scope;
  switch (info.kind) {
    case 'relation':
      // `localizations` is no attribute: a to-many relation to the same type.
      return { kind: 'relation', many: field?.kind !== 'relation' || field.cardinality === 'many', lists: new Map(), child: emptyPlan(targets.relation(info.target)) };
    case 'media':
      return { kind: 'media', many: field?.kind === 'media' && field.multiple, lists: new Map(), child: emptyPlan(mediaTarget) };
    case 'component':
      return { kind: 'component', many: field?.kind === 'component' && field.repeatable, lists: new Map(), child: emptyPlan(targets.component(info.component)) };
    case 'dynamiczone':
      return {
        kind: 'dynamiczone',
        many: true,
        lists: new Map(),
        // Every component of the zone is read, so that `__typename` answers for every entry.
        zone: new Map(info.components.map((uid) => [uid, emptyPlan(targets.component(uid))])),
      };
  }
}

/**
 * Whether the engine can answer a list's selections itself: relations and media with one set of
 * arguments (or none). Otherwise the rows are read unfiltered, in link order, and each
 * selection's list is derived in memory.
 */
export function listsInMemory(attribute: AttributePlan): boolean {
  if (!attribute.many || attribute.child === undefined) return false;
  if (attribute.kind === 'component') return [...attribute.lists.values()].some((use) => use.filter !== undefined || use.sort.length > 0);
  return attribute.lists.size > 1;
}

/** A list derived in memory needs every scalar and relation its filters and sort look at. */
function requireListData(ctx: PlanContext, attribute: AttributePlan): void {
  if (!listsInMemory(attribute) || attribute.child === undefined) return;
  for (const use of attribute.lists.values()) {
    if (use.filter !== undefined) requireFilterData(ctx, attribute.child, use.filter);
    for (const item of use.sort) requirePath(ctx, attribute.child, item.path);
  }
}

function requireFilterData(ctx: PlanContext, plan: ReadPlan, filter: Filter): void {
  switch (filter.kind) {
    case 'and':
    case 'or':
      for (const inner of filter.filters) requireFilterData(ctx, plan, inner);
      return;
    case 'not':
      requireFilterData(ctx, plan, filter.filter);
      return;
    case 'condition':
      plan.fields.add(filter.attribute);
      return;
    case 'nested': {
      const child = requireAttribute(ctx, plan, filter.attribute);
      if (child !== undefined) requireFilterData(ctx, child, filter.filter);
    }
  }
}

/** A sort path: relations and components to walk, then a scalar. */
function requirePath(ctx: PlanContext, plan: ReadPlan, path: readonly string[]): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  if (rest.length === 0) {
    plan.fields.add(head);
    return;
  }
  const child = requireAttribute(ctx, plan, head);
  if (child !== undefined) requirePath(ctx, child, rest);
}

/** Makes `plan` read every row of `attribute` (all of a list, unfiltered); returns what it reads of them. */
function requireAttribute(ctx: PlanContext, plan: ReadPlan, attribute: string): ReadPlan | undefined {
  const info = keyInfo(plan.target, attribute, 'populate');
  if (info === undefined || info.kind === 'scalar' || info.kind === 'hidden' || info.kind === 'dynamiczone') return undefined;
  const attributePlan = ensureAttribute(ctx, plan, attribute, info);
  if (attributePlan.many && !attributePlan.lists.has(ALL_ROWS_KEY)) {
    attributePlan.lists.set(ALL_ROWS_KEY, { filter: undefined, sort: [] });
    requireListData(ctx, attributePlan);
  }
  return attributePlan.child;
}

/** Whether answering the plan derives any list in memory (else nothing is left to do after the engine). */
export function derivesLists(plan: ReadPlan): boolean {
  for (const attribute of plan.attributes.values()) {
    if (listsInMemory(attribute)) return true;
    if (attribute.child !== undefined && derivesLists(attribute.child)) return true;
    if (attribute.zone !== undefined && [...attribute.zone.values()].some(derivesLists)) return true;
  }
  return false;
}
