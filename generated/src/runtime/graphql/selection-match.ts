/**
 * Filters and sorts already-read rows in memory, with the engine's SQL semantics
 * (engine/filters.ts, engine/sort.ts), for the lists the engine cannot filter itself
 * (selection-plan.ts `listsInMemory`): repeatable components, and a list selected twice with
 * different arguments.
 *
 * - Three-valued logic: a comparison with a null value is unknown, `not` of unknown is unknown,
 *   and a row matches only when the filter is true, so `ne`, `notIn` and `notContains` never
 *   match null, as in SQL; `eq: null`/`ne: null` and `null`/`notNull` test nullness.
 * - `contains`/`startsWith`/`endsWith` are case sensitive, the `*i` forms and `eqi`/`nei`
 *   compare lower case; text orders by code unit (the engine orders byte-wise).
 * - `nested` is true when one related row matches (EXISTS), or when there is none and the filter
 *   holds on NULLs (`id: { null: true }`), as in the engine.
 * - Sort: nulls first ascending, last descending; a path through a list sorts by its smallest
 *   value ascending and its largest descending; ties keep the rows' order (link order).
 */
import { keyInfo, mediaTarget, type Targets, type Target } from '../query/targets.ts';
import type { Filter, FilterScalar, FilterValue, Operator, SortItem } from '../query/types.ts';
import { OPERATOR_SPECS, takesList, type Truth } from '../../contract/operators.ts';
import { SCALAR_TYPES, type Comparison } from '../../contract/scalar-types.ts';
import type { ScalarType } from '../schema.ts';
import type { Entity } from '../engine/types.ts';
import { matchesMissingRow } from '../engine/missing-row.ts';

export interface MatchContext {
  readonly targets: Targets;
}

export function matches(ctx: MatchContext, target: Target, entity: Entity, filter: Filter): boolean {
  return evaluate(ctx, target, entity, filter) === true;
}

function evaluate(ctx: MatchContext, target: Target, entity: Entity, filter: Filter): Truth {
  switch (filter.kind) {
    case 'and': {
      let result: Truth = true;
      for (const inner of filter.filters) {
        const value = evaluate(ctx, target, entity, inner);
        if (value === false) return false;
        if (value === null) result = null;
      }
      return result;
    }
    case 'or': {
      let result: Truth = false;
      for (const inner of filter.filters) {
        const value = evaluate(ctx, target, entity, inner);
        if (value === true) return true;
        if (value === null) result = null;
      }
      return result;
    }
    case 'not': {
      const value = evaluate(ctx, target, entity, filter.filter);
      return value === null ? null : !value;
    }
    case 'condition':
      return condition(scalarType(target, filter.attribute), entity[filter.attribute], filter.operator, filter.value);
    case 'nested': {
      const related = relatedTarget(ctx, target, filter.attribute);
      if (related === undefined) return false;
      const rows = rowsOf(entity[filter.attribute]);
      // As the engine: no related row matches a filter that holds on NULLs (engine/missing-row.ts).
      if (rows.length === 0) return matchesMissingRow(filter.filter);
      return rows.some((row) => evaluate(ctx, related, row, filter.filter) === true);
    }
  }
}

function rowsOf(value: unknown): Entity[] {
  if (Array.isArray(value)) return value.filter(isEntity);
  return isEntity(value) ? [value] : [];
}

function isEntity(value: unknown): value is Entity {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function scalarType(target: Target, attribute: string): ScalarType {
  const info = keyInfo(target, attribute);
  return info?.kind === 'scalar' ? info.type : 'string';
}

function relatedTarget(ctx: MatchContext, target: Target, attribute: string): Target | undefined {
  const info = keyInfo(target, attribute, 'populate');
  switch (info?.kind) {
    case 'relation':
      return ctx.targets.relation(info.target);
    case 'media':
      return mediaTarget;
    case 'component':
      return ctx.targets.component(info.component);
    default:
      return undefined;
  }
}

function condition(type: ScalarType, actual: unknown, operator: Operator, expected: FilterValue): Truth {
  // `{ eq: [a, b] }` reads as "equals a or b", for every operator that takes one value (engine's rule).
  if (Array.isArray(expected) && !takesList(operator)) {
    return evaluateOr(expected.map((item: FilterScalar) => condition(type, actual, operator, item)));
  }
  const single = Array.isArray(expected) ? ((expected[0] as FilterScalar | undefined) ?? null) : (expected as FilterScalar);
  const items = Array.isArray(expected) ? (expected as readonly FilterScalar[]) : operator === 'between' ? [single, single] : [single];
  return OPERATOR_SPECS[operator].evaluate({
    actual: actual === undefined ? null : actual,
    value: single,
    items,
    compare: (a, b) => compare(type, a, b),
    text: (value) => text(type, value),
  });
}

function evaluateOr(values: readonly Truth[]): Truth {
  if (values.includes(true)) return true;
  return values.includes(null) ? null : false;
}

/** A value as the engine compares it as text (JSON as its serialized text). */
function text(type: ScalarType, value: unknown): string {
  return SCALAR_TYPES[type].compare === 'json' ? jsonText(value) : String(value);
}

function jsonText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Per comparison of the contract's SCALAR_TYPES, how two non-null values order. */
const COMPARES: Readonly<Record<Comparison, (a: unknown, b: unknown) => number>> = {
  number: (a, b) => Number(a) - Number(b),
  biginteger: (a, b) => {
    const x = toBigInt(a);
    const y = toBigInt(b);
    if (x === undefined || y === undefined) return compareText(String(a), String(b));
    return x < y ? -1 : x > y ? 1 : 0;
  },
  boolean: (a, b) => Number(a === true || a === 1 || a === 'true') - Number(b === true || b === 1 || b === 'true'),
  text: (a, b) => compareText(String(a), String(b)),
  json: (a, b) => compareText(jsonText(a), jsonText(b)),
  date: (a, b) => compareText(String(a), String(b)),
  datetime: (a, b) => compareText(String(a), String(b)),
  time: (a, b) => compareText(String(a), String(b)),
};

/** Orders two non-null values of one scalar type. */
function compare(type: ScalarType, a: unknown, b: unknown): number {
  return COMPARES[SCALAR_TYPES[type].compare](a, b);
}

function toBigInt(value: unknown): bigint | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^[+-]?\d+$/.test(value)) return BigInt(value);
  return undefined;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The rows matching `filter`, in their order. */
export function filterRows(ctx: MatchContext, target: Target, rows: readonly Entity[], filter: Filter | undefined): Entity[] {
  return filter === undefined ? [...rows] : rows.filter((row) => matches(ctx, target, row, filter));
}

/** The rows in `sort` order; ties keep their order. */
export function sortRows(ctx: MatchContext, target: Target, rows: readonly Entity[], sort: readonly SortItem[]): Entity[] {
  if (sort.length === 0) return [...rows];
  const keyed = rows.map((row, index) => ({ row, index, keys: sort.map((item) => sortKey(ctx, target, row, item)) }));
  keyed.sort((a, b) => {
    for (const [i, item] of sort.entries()) {
      const order = compareKeys(a.keys[i], b.keys[i], item);
      if (order !== 0) return order;
    }
    return a.index - b.index;
  });
  return keyed.map((entry) => entry.row);
}

interface SortKey {
  readonly type: ScalarType;
  readonly value: unknown;
}

/** The value a row sorts by: its scalar, or the smallest (asc) / largest (desc) reached through the path. */
function sortKey(ctx: MatchContext, target: Target, row: Entity, item: SortItem): SortKey {
  let rows: Entity[] = [row];
  let current = target;
  const path = item.path;
  for (const step of path.slice(0, -1)) {
    const next = relatedTarget(ctx, current, step);
    if (next === undefined) return { type: 'string', value: null };
    rows = rows.flatMap((r) => rowsOf(r[step]));
    current = next;
  }
  const last = path[path.length - 1] ?? '';
  const type = scalarType(current, last);
  const values = rows.map((r) => r[last]).filter((value) => value !== null && value !== undefined);
  if (values.length === 0) return { type, value: null };
  const pick = values.reduce((best, value) => {
    const order = compare(type, value, best);
    return item.direction === 'desc' ? (order > 0 ? value : best) : order < 0 ? value : best;
  });
  return { type, value: pick };
}

function compareKeys(a: SortKey | undefined, b: SortKey | undefined, item: SortItem): number {
  const x = a?.value ?? null;
  const y = b?.value ?? null;
  const sign = item.direction === 'desc' ? -1 : 1;
  if (x === null || y === null) {
    if (x === y) return 0;
    // Nulls first ascending, last descending: null is the smallest value either way.
    return (x === null ? -1 : 1) * sign;
  }
  return compare(a?.type ?? 'string', x, y) * sign;
}
