/**
 * `sort`: `field`, `field:asc|desc` (any case), comma lists, arrays, the object form
 * `sort[field]=desc` / `sort[author][name]=asc`, and dotted paths through relations, media and
 * components (`author.name:asc`). Like Strapi, every key is checked before any direction, so a
 * query with both faults reports the key.
 */
import { ValidationError } from '../errors.ts';
import type { ParseScope } from './context.ts';
import { invalidKey, join, type QueryParam } from './invalid.ts';
import { commaList, isRecord, type RawRecord } from './raw.ts';
import { keyInfo, mediaTarget, type Target } from './targets.ts';
import type { SortItem } from './types.ts';

interface RawSortItem {
  readonly path: readonly string[];
  readonly order: string;
}

const INVALID_SORT = 'Invalid sort parameter. Expected a string, an array of strings, a sort object or an array of sort objects';
const INVALID_ORDER = 'Invalid order. order can only be one of asc|desc|ASC|DESC';

export function parseSort(raw: unknown, target: Target, scope: ParseScope, param: QueryParam): SortItem[] {
  if (raw === undefined) return [];
  const items = collect(raw);
  for (const item of items) checkPath(target, item.path, scope, param);
  return items.map((item) => ({ path: item.path, direction: direction(item.order) }));
}

function collect(raw: unknown): RawSortItem[] {
  if (typeof raw === 'string') return fromString(raw);
  if (isRecord(raw)) return fromObject(raw, []);
  if (!Array.isArray(raw)) throw new ValidationError(INVALID_SORT);
  return raw.flatMap((item: unknown) => {
    if (typeof item === 'string') return fromString(item);
    if (isRecord(item)) return fromObject(item, []);
    throw new ValidationError(INVALID_SORT);
  });
}

function fromString(value: string): RawSortItem[] {
  return commaList(value).map((segment) => {
    const [rawField = '', order = 'asc'] = segment.split(':');
    const field = rawField.trim();
    if (field === '') throw new ValidationError('Field cannot be empty');
    return { path: field.split('.'), order: order.trim() };
  });
}

function fromObject(record: RawRecord, prefix: readonly string[]): RawSortItem[] {
  return Object.keys(record).flatMap((key): RawSortItem[] => {
    const value = record[key];
    const path = [...prefix, key];
    if (isRecord(value)) return fromObject(value, path);
    if (typeof value !== 'string') throw new ValidationError(`Invalid sort type expected object or string got ${typeof value}`);
    const order = value.trim();
    return order === '' ? [] : [{ path, order }];
  });
}

function direction(order: string): 'asc' | 'desc' {
  const lower = order.toLowerCase();
  if (lower !== 'asc' && lower !== 'desc') throw new ValidationError(INVALID_ORDER);
  return lower;
}

/** A sort path must walk relations, media or components and end on a scalar. */
function checkPath(root: Target, path: readonly string[], scope: ParseScope, param: QueryParam): void {
  let target = root;
  let at: string | null = null;
  for (const [index, key] of path.entries()) {
    const info = keyInfo(target, key);
    if (info === undefined) throw invalidKey(key, at, param);
    const here = join(at, key);
    const last = index === path.length - 1;
    if (info.kind === 'scalar') {
      if (last) return;
      throw invalidKey(path[index + 1] ?? '', here, param);
    }
    if (info.kind === 'hidden' || info.kind === 'dynamiczone') throw invalidKey(key, here, param);
    if (info.kind === 'relation' && !scope.canRead(info.target)) throw invalidKey(key, undefined, param);
    // A relation, media or component is no value to sort by: Strapi wants a scalar below it.
    if (last) throw invalidKey(key, here, param);
    target = info.kind === 'relation' ? scope.targets.relation(info.target) : info.kind === 'media' ? mediaTarget : scope.targets.component(info.component);
    at = here;
  }
}
