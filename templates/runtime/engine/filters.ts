/**
 * Filter → SQL WHERE, with the same answers on SQLite and PostgreSQL:
 * - `contains`/`startsWith`/`endsWith` are case sensitive on both (SQLite's LIKE is not, so it
 *   uses instr/substr there); the `*i` variants and `eqi`/`nei` compare LOWER() of both sides;
 *   LIKE wildcards in values are escaped, so `%` and `_` match themselves.
 * - Comparisons follow SQL's three-valued logic as Strapi's do: `ne`, `notIn`, `notContains`
 *   never match NULL; `eq null` / `ne null` mean IS NULL / IS NOT NULL.
 * - `nested` is EXISTS over the related rows (relations, components, media), whatever the
 *   cardinality, so a to-many relation never duplicates root rows; when the filter holds on a
 *   row of NULLs (`id: { $null: true }`), parents without related rows match too, as they do
 *   through Strapi's LEFT JOINs (missing-row.ts).
 */
import type { SqlValue } from '../database.ts';
import type { Filter, FilterScalar, FilterValue, Operator } from '../query/types.ts';
import { hop, walkSource, type PlanContext, type Scope } from './joins.ts';
import { matchesMissingRow } from './missing-row.ts';
import { DOCUMENT_ID, ID, type ScalarColumn } from './registry.ts';
import { and, escapeLike, FALSE, fragment, inIds, joinFragments, not, or, TRUE, type Fragment } from './sql.ts';
import { encodeFilterValue, orderExpr, placeholder, textExpr, valueExpr } from './values.ts';

export function compileFilter(ctx: PlanContext, scope: Scope, filter: Filter): Fragment {
  switch (filter.kind) {
    case 'and':
      return and(filter.filters.map((f) => compileFilter(ctx, scope, f)));
    case 'or':
      return or(filter.filters.map((f) => compileFilter(ctx, scope, f)));
    case 'not':
      return not(compileFilter(ctx, scope, filter.filter));
    case 'condition':
      return condition(ctx, scope, scalarOf(scope, filter.attribute), filter.operator, filter.value);
    case 'nested':
      return nested(ctx, scope, filter.attribute, filter.filter);
  }
}

function scalarOf(scope: Scope, name: string): ScalarColumn {
  const scalar = scope.type.columns.get(name);
  if (scalar === undefined) throw new Error(`read engine: ${scope.type.uid} has no scalar ${name}`);
  return scalar;
}

function nested(ctx: PlanContext, scope: Scope, attribute: string, filter: Filter): Fragment {
  const step = hop(ctx, scope, attribute);
  const source = walkSource(step.tables);
  const inner = compileFilter(ctx, step.scope, filter);
  const some = exists(source, and([source.correlation, inner]));
  // Strapi's LEFT JOIN also matches a parent without related rows when the filter holds on NULLs.
  return matchesMissingRow(filter) ? or([some, not(exists(source, source.correlation))]) : some;
}

function exists(source: { readonly from: Fragment }, where: Fragment): Fragment {
  return joinFragments([fragment('EXISTS (SELECT 1 FROM '), source.from, fragment(' WHERE '), where, fragment(')')], '');
}

const ARRAY_OPERATORS: ReadonlySet<Operator> = new Set(['in', 'notIn', 'between']);

function condition(ctx: PlanContext, scope: Scope, scalar: ScalarColumn, operator: Operator, value: FilterValue): Fragment {
  // Strapi reads `{ eq: [a, b] }` as "equals a or b"; the same for every non-array operator.
  if (isList(value) && !ARRAY_OPERATORS.has(operator)) {
    return or(value.map((item) => condition(ctx, scope, scalar, operator, item)));
  }
  const { dialect } = ctx;
  const expr = valueExpr(dialect, scope.alias, scalar);
  const ph = placeholder(dialect, scalar.type);
  const encode = (v: FilterScalar): SqlValue => encodeFilterValue(dialect, scalar.type, v);
  // Ordering operators on text compare byte-wise on PostgreSQL too ("C" collation), as on SQLite.
  const ordered = orderExpr(dialect, scope.alias, scalar);
  const single = isList(value) ? (value[0] ?? null) : value;
  switch (operator) {
    case 'eq':
      return single === null ? fragment(`${expr} IS NULL`) : fragment(`${expr} = ${ph}`, [encode(single)]);
    case 'ne':
      return single === null ? fragment(`${expr} IS NOT NULL`) : fragment(`${expr} <> ${ph}`, [encode(single)]);
    case 'eqi':
      return single === null ? fragment(`${expr} IS NULL`) : fragment(`LOWER(${textExpr(dialect, scope.alias, scalar)}) = LOWER(?)`, [String(single)]);
    case 'nei':
      return single === null ? fragment(`${expr} IS NOT NULL`) : fragment(`LOWER(${textExpr(dialect, scope.alias, scalar)}) <> LOWER(?)`, [String(single)]);
    case 'lt':
      return fragment(`${ordered} < ${ph}`, [encode(single)]);
    case 'lte':
      return fragment(`${ordered} <= ${ph}`, [encode(single)]);
    case 'gt':
      return fragment(`${ordered} > ${ph}`, [encode(single)]);
    case 'gte':
      return fragment(`${ordered} >= ${ph}`, [encode(single)]);
    case 'in':
    case 'notIn': {
      const items = isList(value) ? value : [value];
      if (items.length === 0) return operator === 'in' ? FALSE : TRUE;
      const ids = idList(scalar, items);
      if (ids !== undefined) {
        // A list of ids or documentIds travels as one parameter, as populate's parent ids do:
        // no placeholder limit, whatever its length (upload/related.ts reads thousands).
        const membership = inIds(dialect, expr, ids.values, ids.kind);
        return operator === 'in' ? membership : not(membership);
      }
      const list = items.map(() => ph).join(', ');
      return fragment(`${expr} ${operator === 'in' ? 'IN' : 'NOT IN'} (${list})`, items.map(encode));
    }
    case 'between': {
      const [low = null, high = null] = isList(value) ? value : [value, value];
      return fragment(`${ordered} BETWEEN ${ph} AND ${ph}`, [encode(low), encode(high)]);
    }
    case 'null':
      return fragment(`${expr} IS ${truthy(single) ? '' : 'NOT '}NULL`);
    case 'notNull':
      return fragment(`${expr} IS ${truthy(single) ? 'NOT ' : ''}NULL`);
    case 'contains':
      return caseSensitive(ctx, scope, scalar, 'contains', single);
    case 'notContains':
      return not(caseSensitive(ctx, scope, scalar, 'contains', single));
    case 'startsWith':
      return caseSensitive(ctx, scope, scalar, 'start', single);
    case 'endsWith':
      return caseSensitive(ctx, scope, scalar, 'end', single);
    case 'containsi':
      return caseInsensitive(ctx, scope, scalar, 'contains', single);
    case 'notContainsi':
      return not(caseInsensitive(ctx, scope, scalar, 'contains', single));
    case 'startsWithi':
      return caseInsensitive(ctx, scope, scalar, 'start', single);
    case 'endsWithi':
      return caseInsensitive(ctx, scope, scalar, 'end', single);
  }
}

type Position = 'contains' | 'start' | 'end';

function pattern(position: Position, value: string): string {
  const escaped = escapeLike(value);
  return position === 'contains' ? `%${escaped}%` : position === 'start' ? `${escaped}%` : `%${escaped}`;
}

function caseSensitive(ctx: PlanContext, scope: Scope, scalar: ScalarColumn, position: Position, value: FilterScalar): Fragment {
  const text = textExpr(ctx.dialect, scope.alias, scalar);
  if (value === null) return fragment(`${text} IS NULL`);
  const needle = String(value);
  // LIKE '%%' matches every non-NULL value; so does the empty needle here, on both databases.
  if (needle === '') return fragment(`${text} IS NOT NULL`);
  if (ctx.dialect === 'postgres') return fragment(`${text} LIKE ? ESCAPE '\\'`, [pattern(position, needle)]);
  switch (position) {
    case 'contains':
      return fragment(`instr(${text}, ?) > 0`, [needle]);
    case 'start':
      return fragment(`substr(${text}, 1, length(?)) = ?`, [needle, needle]);
    case 'end':
      return fragment(`substr(${text}, -length(?)) = ?`, [needle, needle]);
  }
}

function caseInsensitive(ctx: PlanContext, scope: Scope, scalar: ScalarColumn, position: Position, value: FilterScalar): Fragment {
  const text = textExpr(ctx.dialect, scope.alias, scalar);
  if (value === null) return fragment(`${text} IS NULL`);
  return fragment(`LOWER(${text}) LIKE LOWER(?) ESCAPE '\\'`, [pattern(position, String(value))]);
}

/** The items as a list of row ids or documentIds, when the column is one and they all are. */
function idList(scalar: ScalarColumn, items: readonly FilterScalar[]): { readonly values: (number | string)[]; readonly kind: 'integer' | 'text' } | undefined {
  if (scalar === ID && items.every((item) => typeof item === 'number' && Number.isSafeInteger(item))) return { values: items as number[], kind: 'integer' };
  if (scalar === DOCUMENT_ID && items.every((item) => typeof item === 'string')) return { values: items as string[], kind: 'text' };
  return undefined;
}

function isList(value: FilterValue): value is readonly FilterScalar[] {
  return Array.isArray(value);
}

function truthy(value: FilterScalar): boolean {
  return value === true || value === 'true' || value === 1 || value === '1';
}
