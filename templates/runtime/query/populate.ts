/**
 * `populate`, in each form Strapi 5 accepts, into one explicit PopulateTree: no `*`, no `true`,
 * every dynamic zone with its `on` map.
 *
 * - `*` (at the root, or as the value of a nested `populate`): every relation, media, component
 *   and dynamic zone one level deep, plus `localizations` on localized types; components and zone
 *   entries with their scalars only.
 * - Strings, comma lists and arrays of dotted paths (`seo.shareImage`): each level explicit.
 * - The object form: `populate[attr]=true` or `{ populate, fields, filters, sort, count }`,
 *   `populate[zone][on][uid]=...` for dynamic zones; indexed strings mixed into it
 *   (`populate[0]=a&populate[b][fields][0]=x`) are dotted paths, as in the array form.
 * - `count` on a relation or a component answers `{ count: N }` instead of the rows.
 *
 * A `*` as the value of a media or dynamic zone attribute reads as `true`; a `*` anywhere else
 * (below a relation or a component), an attribute written directly under a populated attribute instead of
 * under its `populate`, `populate[zone][populate]` other than `*`, unknown `on` components,
 * scalars, private fields and creator fields are 400s worded as Strapi words them.
 *
 * Relations to a type the reader cannot read are dropped from the tree without an error, as
 * Strapi's sanitizer drops them (its validator does not check populate against permissions):
 * the response simply lacks them. The rest of such a branch is still validated. Media are not
 * checked against the upload permissions, as Strapi does not check them either.
 */
import { ValidationError } from '../errors.ts';
import type { ParseScope } from './context.ts';
import { parseFields } from './fields.ts';
import { parseFilters } from './filters.ts';
import { invalidKey, join, ROOT_PATH, stepInto, type KeyPath } from './invalid.ts';
import { booleanLike, commaList, isRecord, isStringArray, type RawRecord } from './raw.ts';
import { parseSort } from './sort.ts';
import { firstKeyOfStar, keyInfo, mediaTarget, populatableKeys, type KeyInfo, type Target } from './targets.ts';
import type { PopulateNode, PopulateTree, SortItem } from './types.ts';

type Populatable = Exclude<KeyInfo, { kind: 'scalar' } | { kind: 'hidden' }>;
type Zone = Extract<KeyInfo, { kind: 'dynamiczone' }>;

const INVALID_POPULATE = 'Invalid populate parameter. Expected a string, an array of strings, a populate object';
const INVALID_NESTED = "Invalid nested populate. Expected '*' or an object";
const ALWAYS_RETURNED: readonly string[] = ['id', 'documentId'];

export function parsePopulate(raw: unknown, target: Target, scope: ParseScope): PopulateTree {
  return new PopulateParser(scope).populate(raw, target, ROOT_PATH);
}

class PopulateParser {
  constructor(private readonly scope: ParseScope) {}

  /** A `populate` value: at the root, or under a populated relation or component. */
  populate(raw: unknown, target: Target, path: KeyPath): PopulateTree {
    if (raw === undefined || raw === '') return {};
    if (raw === '*') return this.star(target);
    if (typeof raw === 'string') return this.dotted([raw], target);
    if (Array.isArray(raw)) {
      if (!isStringArray(raw)) throw new ValidationError(INVALID_POPULATE);
      return this.dotted(raw, target);
    }
    if (isRecord(raw)) return this.objectForm(raw, target, path);
    throw new ValidationError(INVALID_POPULATE);
  }

  private star(target: Target): PopulateTree {
    const entries: [string, PopulateNode][] = [];
    for (const key of populatableKeys(target)) {
      const info = keyInfo(target, key, 'populate');
      if (info === undefined || !isPopulatable(info) || !this.readable(info)) continue;
      entries.push([key, this.plainNode(info)]);
    }
    return Object.fromEntries(entries);
  }

  /** What `populate[attr]=true` reads: scalars only; every component of a zone. */
  private plainNode(info: Populatable): PopulateNode {
    return info.kind === 'dynamiczone' ? { on: this.everyComponent(info, () => ({})) } : {};
  }

  private everyComponent(zone: Zone, node: (component: Target) => PopulateNode): Record<string, PopulateNode> {
    return Object.fromEntries(zone.components.map((uid) => [uid, node(this.scope.targets.component(uid))]));
  }

  private readable(info: Populatable): boolean {
    return info.kind !== 'relation' || this.scope.canRead(info.target);
  }

  private targetOf(info: Populatable, parent: Target): Target {
    switch (info.kind) {
      case 'relation':
        return this.scope.targets.relation(info.target);
      case 'media':
        return mediaTarget;
      case 'component':
        return this.scope.targets.component(info.component);
      case 'dynamiczone':
        // Strapi reads a `*` or a string under a zone against the zone's owner.
        return parent;
    }
  }

  // ---- dotted paths: populate=a,b.c / populate[0]=a.b ----

  private dotted(items: readonly string[], target: Target): PopulateTree {
    let tree: PopulateTree = {};
    for (const path of items.flatMap(commaList)) {
      const segments = path
        .split('.')
        .map((segment) => segment.trim())
        .filter((segment) => segment !== '');
      if (segments.length > 0) tree = mergeTrees(tree, this.dottedPath(segments, target, null));
    }
    return tree;
  }

  private dottedPath(segments: readonly string[], target: Target, prefix: string | null): PopulateTree {
    const [head = '', ...tail] = segments;
    const at = join(prefix, head);
    const info = keyInfo(target, head, 'populate');
    if (info === undefined || !isPopulatable(info)) throw invalidKey(head, at, 'populate');
    const node = this.dottedNode(head, info, tail, at, target);
    return this.readable(info) ? { [head]: node } : {};
  }

  private dottedNode(key: string, info: Populatable, tail: readonly string[], at: string, parent: Target): PopulateNode {
    if (tail.length === 0) return this.plainNode(info);
    switch (info.kind) {
      case 'media':
        throw invalidKey(key, at, 'populate');
      case 'dynamiczone':
        return this.dottedZone(info, tail, at);
      default:
        return withPopulate({}, this.dottedPath(tail, this.targetOf(info, parent), at));
    }
  }

  /**
   * `zone.attr[.more]`: populates `attr` in every component of the zone that has it. Like Strapi,
   * the path is valid when at least one component can follow it.
   */
  private dottedZone(zone: Zone, tail: readonly string[], at: string): PopulateNode {
    const [next = '', ...rest] = tail;
    let followed = false;
    const on = this.everyComponent(zone, (component) => {
      const info = keyInfo(component, next, 'populate');
      if (info === undefined || info.kind === 'hidden') return {};
      if (info.kind === 'scalar') {
        followed ||= rest.length === 0;
        return {};
      }
      try {
        const tree = this.dottedPath(tail, component, at);
        followed = true;
        return withPopulate({}, tree);
      } catch (error) {
        if (error instanceof ValidationError) return {};
        throw error;
      }
    });
    if (!followed) throw invalidKey(next, `${at}.${next}`, 'populate');
    return { on };
  }

  // ---- object form: populate[attr]=... ----

  private objectForm(record: RawRecord, target: Target, path: KeyPath): PopulateTree {
    const entries: [string, PopulateNode][] = [];
    const paths: string[] = [];
    for (const key of Object.keys(record)) {
      // `populate[0]=a&populate[b][fields][0]=x`: qs makes one object of both forms; the indexed
      // strings are dotted paths, as in the array form.
      const value = record[key];
      if (LIST_INDEX.test(key) && typeof value === 'string') {
        paths.push(value);
        continue;
      }
      const info = keyInfo(target, key, 'populate');
      if (info === undefined) throw invalidKey(key, path.attribute, 'populate');
      const here = stepInto(path, key, true);
      if (info.kind === 'hidden') throw invalidKey(key, here.attribute, 'populate');
      if (info.kind === 'scalar') throw invalidKey(key, here.raw, 'populate');
      const node = this.attributeValue(key, info, record[key], target, here);
      if (node !== undefined && this.readable(info)) entries.push([key, node]);
    }
    const tree: PopulateTree = Object.fromEntries(entries);
    return paths.length === 0 ? tree : mergeTrees(this.dotted(paths, target), tree);
  }

  /** The value of `populate[attr]`: a boolean, `*` (refused), or an object. Undefined: not populated. */
  private attributeValue(key: string, info: Populatable, value: unknown, parent: Target, path: KeyPath): PopulateNode | undefined {
    const flag = booleanLike(value);
    if (flag !== undefined) return flag ? this.plainNode(info) : undefined;
    if (value === undefined || value === null || value === '') return undefined;
    const target = this.targetOf(info, parent);
    // Strapi's own API tests answer `populate[image]=*` and `populate[dz]=*` as `true`; a relation's
    // or a component's `*` stays refused, as recorded from Strapi 5.54.
    if (value === '*') return info.kind === 'media' || info.kind === 'dynamiczone' ? this.plainNode(info) : this.starBelowRoot(target, path, this.plainNode(info));
    if (typeof value === 'string' || isStringArray(value)) return strayStrings(typeof value === 'string' ? [value] : value, target, path);
    if (!isRecord(value)) throw new ValidationError(INVALID_NESTED);
    if (info.kind === 'dynamiczone') return this.zone(info, value, path);
    return this.node(info.kind, target, value, path, `Using fragments is not permitted to populate "${key}" in "${parent.uid}"`);
  }

  /** `*` below the root: refused with the first key it stands for, unless it stands for none. */
  private starBelowRoot(target: Target, path: KeyPath, plain: PopulateNode): PopulateNode {
    const first = firstKeyOfStar(target);
    if (first === undefined) return plain;
    throw invalidKey(first, join(path.attribute, first), undefined);
  }

  /** `{ populate, fields, filters, sort, count }` of a relation, media or component. */
  private node(kind: 'relation' | 'media' | 'component', target: Target, record: RawRecord, path: KeyPath, noFragments: string): PopulateNode {
    let node: PopulateNode = {};
    for (const key of Object.keys(record)) {
      const value = record[key];
      if (key === 'populate') node = withPopulate(node, this.populate(value, target, stepInto(path, key, false)));
      else if (key === 'fields') node = withFields(node, parseFields(value, target, 'populate'));
      else if (key === 'on') throw new ValidationError(noFragments);
      else if (key === 'filters') node = withFilters(node, parseFilters(value, target, this.scope, 'populate'));
      else if (key === 'sort') node = withSort(node, parseSort(value, target, this.scope, 'populate'));
      // Strapi counts relations and components; on media it populates the files as usual.
      else if (key === 'count') node = parseCount(value, path) && kind !== 'media' ? { ...node, count: true } : node;
      else strayKey(key, target, path);
    }
    return withSortedFields(node);
  }

  /** `populate[zone]={ on, populate: '*' }`. */
  private zone(zone: Zone, record: RawRecord, path: KeyPath): PopulateNode {
    let on: Record<string, PopulateNode> | undefined;
    let deep = false;
    for (const key of Object.keys(record)) {
      if (key === 'on') on = this.fragments(zone, record[key], path);
      // Strapi only takes `*` here ("every component one level deeper"); per-field populate needs `on`.
      else if (key === 'populate' && record[key] === '*') deep = true;
      // Strapi accepts `count` on a zone and returns the entries all the same.
      else if (key === 'count') parseCount(record[key], path);
      else throw invalidKey(key, path.raw, 'populate');
    }
    if (on !== undefined) return { on };
    return { on: this.everyComponent(zone, (component) => (deep ? withPopulate({}, this.star(component)) : {})) };
  }

  private fragments(zone: Zone, value: unknown, path: KeyPath): Record<string, PopulateNode> {
    const onPath = stepInto(path, 'on', false);
    if (!isRecord(value)) throw invalidKey('on', onPath.raw, 'populate');
    const entries: [string, PopulateNode][] = [];
    for (const uid of Object.keys(value)) {
      if (!zone.components.includes(uid) || !this.scope.targets.hasComponent(uid)) throw invalidKey(uid, `${onPath.raw}.${uid}`, 'populate');
      const node = this.fragment(uid, value[uid], { raw: `${onPath.raw}[${uid}]`, attribute: path.attribute });
      if (node !== undefined) entries.push([uid, node]);
    }
    return Object.fromEntries(entries);
  }

  private fragment(uid: string, value: unknown, path: KeyPath): PopulateNode | undefined {
    const target = this.scope.targets.component(uid);
    const flag = booleanLike(value);
    if (flag !== undefined) return flag ? {} : undefined;
    if (value === undefined || value === null || value === '') return undefined;
    if (value === '*') return this.starBelowRoot(target, path, {});
    if (typeof value === 'string' || isStringArray(value)) return strayStrings(typeof value === 'string' ? [value] : value, target, path);
    if (!isRecord(value)) throw new ValidationError(INVALID_NESTED);
    return this.node('component', target, value, path, `Using fragments is not permitted to populate "${uid}"`);
  }
}

const LIST_INDEX = /^(0|[1-9]\d{0,8})$/;

/** `count` of a populate node: a boolean spelling, as Strapi's parseType reads it. */
function parseCount(value: unknown, path: KeyPath): boolean {
  const flag = booleanLike(value);
  if (flag === undefined) {
    throw new ValidationError(`Invalid value for count at ${path.attribute ?? ''}: expected a boolean ("true" or "false")`, { source: 'query', param: 'populate' });
  }
  return flag;
}

function isPopulatable(info: KeyInfo): info is Populatable {
  return info.kind !== 'scalar' && info.kind !== 'hidden';
}

/**
 * A key directly under a populated attribute. Strapi reads attribute names there as misplaced
 * (they belong under `populate`) and reports them without `source`/`param`; other keys are
 * unknown parameters of the populate node.
 */
function strayKey(key: string, target: Target, path: KeyPath): never {
  if (keyInfo(target, key, 'populate') !== undefined) throw invalidKey(key, join(path.attribute, key), undefined);
  throw invalidKey(key, path.attribute, 'populate');
}

/** `populate[author]=avatar`: Strapi reads the string as keys of the node, never as a populate. */
function strayStrings(values: readonly string[], target: Target, path: KeyPath): never {
  for (const value of values) {
    const key = (value.split('.')[0] ?? '').trim();
    if (key !== '' && booleanLike(key) === undefined) strayKey(key, target, path);
  }
  throw new ValidationError(INVALID_NESTED);
}

function withPopulate(node: PopulateNode, populate: PopulateTree): PopulateNode {
  return Object.keys(populate).length === 0 ? node : { ...node, populate };
}

function withFields(node: PopulateNode, fields: readonly string[] | undefined): PopulateNode {
  if (fields !== undefined) return { ...node, fields };
  const { fields: _all, ...rest } = node;
  return rest;
}

function withFilters(node: PopulateNode, filters: PopulateNode['filters']): PopulateNode {
  return filters === undefined ? node : { ...node, filters };
}

function withSort(node: PopulateNode, sort: readonly SortItem[]): PopulateNode {
  return sort.length === 0 ? node : { ...node, sort };
}

/** Strapi returns the scalars a populated relation is sorted by even when `fields` omits them. */
function withSortedFields(node: PopulateNode): PopulateNode {
  if (node.fields === undefined || node.sort === undefined) return node;
  const fields = [...node.fields];
  for (const item of node.sort) {
    const [name] = item.path;
    if (item.path.length === 1 && name !== undefined && !ALWAYS_RETURNED.includes(name) && !fields.includes(name)) fields.push(name);
  }
  return { ...node, fields };
}

function mergeTrees(a: PopulateTree, b: PopulateTree): PopulateTree {
  const merged = new Map<string, PopulateNode>(Object.entries(a));
  for (const [key, node] of Object.entries(b)) {
    const existing = merged.get(key);
    merged.set(key, existing === undefined ? node : mergeNodes(existing, node));
  }
  return Object.fromEntries(merged);
}

function mergeNodes(a: PopulateNode, b: PopulateNode): PopulateNode {
  let node: PopulateNode = { ...a, ...b };
  if (a.populate !== undefined && b.populate !== undefined) node = { ...node, populate: mergeTrees(a.populate, b.populate) };
  if (a.on !== undefined && b.on !== undefined) node = { ...node, on: mergeTrees(a.on, b.on) };
  return node;
}
