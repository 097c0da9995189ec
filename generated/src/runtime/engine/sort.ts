/**
 * SortItem[] → ORDER BY terms. A path through relations or components sorts by a correlated
 * subquery over the rows it reaches, its least value for ascending and its greatest for
 * descending, so a to-many path orders by its first value in that direction and never
 * multiplies root rows. NULLs come first
 * in ascending order and last in descending order on both databases (SQLite's own rule, which
 * Strapi shows; PostgreSQL is told so explicitly).
 */
import type { SortItem } from '../query/types.ts';
import { hop, walkSource, type JoinedTable, type PlanContext, type Scope } from './joins.ts';
import type { ScalarColumn } from './registry.ts';
import { fragment, joinFragments, type Fragment } from './sql.ts';
import { orderExpr } from './values.ts';

export function compileSort(ctx: PlanContext, scope: Scope, items: readonly SortItem[], place: SortPlace = 'statement'): Fragment[] {
  return sortKeys(ctx, scope, items, place).map((key) => key.term(key.value));
}

/** A sort item's value, and its ORDER BY term over that value or over a column that carries it. */
export interface SortKey {
  readonly value: Fragment;
  term(value: Fragment): Fragment;
}

/**
 * The sort as values and terms: a derived table selects the values, and the query around it
 * orders by the columns that carry them (a nested list's page, nested.ts).
 */
export function sortKeys(ctx: PlanContext, scope: Scope, items: readonly SortItem[], place: SortPlace = 'statement'): SortKey[] {
  return items.map((item) => ({ value: sortValue(ctx, scope, item), term: (value) => sortTerm(ctx, item, place, value) }));
}

/** Where a sort applies: a statement's ORDER BY, or an aggregate's (nested reads). */
export type SortPlace = 'statement' | 'aggregate';

function sortTerm(ctx: PlanContext, item: SortItem, place: SortPlace, value: Fragment): Fragment {
  const direction = item.direction === 'desc' ? 'DESC' : 'ASC';
  if (place === 'aggregate' && !ctx.dialect.capabilities.aggregateOrdersNulls) {
    // NULL first ascending and last descending, as the statements' ORDER BY places it.
    return joinFragments([value, fragment(` IS NULL ${item.direction === 'desc' ? 'ASC' : 'DESC'}, `), value, fragment(` ${direction}`)], '');
  }
  const nulls = ctx.dialect.nullsOrder(item.direction);
  return joinFragments([value, fragment(` ${direction}${nulls}`)], '');
}

function sortValue(ctx: PlanContext, scope: Scope, item: SortItem): Fragment {
  const path = item.path;
  const last = path[path.length - 1];
  if (last === undefined) throw new Error('read engine: empty sort path');
  if (path.length === 1) return fragment(orderExpr(ctx.dialect, scope.alias, scalarOf(scope, last)));
  const tables: JoinedTable[] = [];
  let current = scope;
  for (const name of path.slice(0, -1)) {
    const step = hop(ctx, current, name);
    tables.push(...step.tables);
    current = step.scope;
  }
  const source = walkSource(tables);
  const direction = item.direction === 'desc' ? 'DESC' : 'ASC';
  const expr = orderExpr(ctx.dialect, current.alias, scalarOf(current, last));
  // The first non-null value in the sort's direction: MIN/MAX without their type restrictions
  // (PostgreSQL has no MAX(boolean)), so every scalar type sorts through a to-many path.
  return joinFragments([fragment(`(SELECT ${expr} FROM `), source.from, fragment(' WHERE '), source.correlation, fragment(` ORDER BY ${ctx.dialect.orderNullsLast(expr, direction)} LIMIT 1)`)], '');
}

function scalarOf(scope: Scope, name: string): ScalarColumn {
  const scalar = scope.type.columns.get(name);
  if (scalar === undefined) throw new Error(`read engine: ${scope.type.uid} has no scalar ${name} to sort on`);
  return scalar;
}
