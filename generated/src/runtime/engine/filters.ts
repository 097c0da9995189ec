/**
 * Filter → SQL WHERE, with the same answers on every database; each operator's SQL is its entry
 * in the contract's OPERATORS table (templates/contract/operators.ts):
 * - `contains`/`startsWith`/`endsWith` are case sensitive on both (SQLite's LIKE is not, so it
 *   uses instr/substr there); the `*i` variants and `eqi`/`nei` compare LOWER() of both sides;
 *   LIKE wildcards in values are escaped, so `%` and `_` match themselves.
 * - Comparisons follow SQL's three-valued logic as Strapi's do: `ne`, `notIn`, `notContains`
 *   never match NULL; `eq null` / `ne null` mean IS NULL / IS NOT NULL.
 * - `nested` is membership in the set of rows that reach a matching related row (relations,
 *   components, media; joins.ts' KeyedWalk), whatever the cardinality, so a to-many relation
 *   never duplicates root rows; when the filter holds on a
 *   row of NULLs (`id: { $null: true }`), parents without related rows match too, as they do
 *   through Strapi's LEFT JOINs (missing-row.ts).
 */
import { OPERATOR_SPECS, takesList, type LikePosition, type SqlKit } from '../../contract/operators.ts';
import type { Filter, FilterScalar, FilterValue, Operator } from '../query/types.ts';
import { hop, type KeyedWalk, type PlanContext, type Scope } from './joins.ts';
import { matchesMissingRow } from './missing-row.ts';
import { DOCUMENT_ID, ID, type ScalarColumn } from './registry.ts';
import { and, column, escapeLike, FALSE, fragment, inIds, joinFragments, not, or, TRUE, type Fragment } from './sql.ts';
import { columnExpressions, encodeFilterValue } from './values.ts';

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
  const inner = compileFilter(ctx, step.scope, filter);
  const some = reaches(ctx, step.keyed, inner);
  // Strapi's LEFT JOIN also matches a parent without related rows when the filter holds on NULLs.
  return matchesMissingRow(filter) ? or([some, not(reaches(ctx, step.keyed, TRUE))]) : some;
}

/**
 * The outer row reaches a row of the walk where `filter` holds: its key is in the walk's key set
 * (joins.ts' KeyedWalk). SQLite reads `key IN (SELECT ...)` as a set built once; PostgreSQL is
 * told the same with `key = ANY(ARRAY(SELECT ...))`. Given `IN (SELECT ...)` it plans a join from
 * row estimates it cannot make here (which target a filter picks is known only at run time): at
 * 100k articles a merge join walking every link in owner order under ORDER BY + LIMIT took
 * 600 ms for a tag on two articles, and a hash join read all 200k category links for a category
 * on three; each set computed first answers in 0.1 ms.
 */
function reaches(ctx: PlanContext, walk: KeyedWalk, filter: Fragment): Fragment {
  const member = (key: string, select: string, from: Fragment, where: Fragment): Fragment =>
    ctx.dialect.memberOf(key, joinFragments([fragment(`SELECT ${select} FROM `), from, fragment(' WHERE '), where], ''));
  if (walk.via === undefined) return member(walk.outer, walk.inner, walk.table, and([walk.where, filter]));
  const target = member(walk.via.column, walk.via.key, walk.via.table, and([walk.via.where, filter]));
  return member(walk.outer, walk.inner, walk.table, and([walk.where, target]));
}

/** How the operators of the contract build SQL: this engine's fragments. */
const KIT: SqlKit<Fragment> = { sql: fragment, not, always: TRUE, never: FALSE };

function condition(ctx: PlanContext, scope: Scope, scalar: ScalarColumn, operator: Operator, value: FilterValue): Fragment {
  // Strapi reads `{ eq: [a, b] }` as "equals a or b"; the same for every operator of one value.
  if (isList(value) && !takesList(operator)) {
    return or(value.map((item) => condition(ctx, scope, scalar, operator, item)));
  }
  const { dialect } = ctx;
  // Ordering operators on text compare byte-wise on PostgreSQL too ("C" collation), as on SQLite.
  const { expr, ordered, text, placeholder } = columnExpressions(dialect, column(scope.alias, scalar.column), scalar.type);
  const items = isList(value) ? value : [value];
  return OPERATOR_SPECS[operator].sql[dialect.kind]({
    kit: KIT,
    expr,
    ordered,
    text,
    placeholder,
    bind: (v) => encodeFilterValue(dialect, scalar.type, v),
    value: isList(value) ? (value[0] ?? null) : value,
    // A `between` given one value is between it and itself.
    items: operator === 'between' && !isList(value) ? [value, value] : items,
    idMembership: () => {
      // A list of ids or documentIds travels as one parameter, as populate's parent ids do:
      // no placeholder limit, whatever its length (upload/related.ts reads thousands).
      const ids = idList(scalar, items);
      return ids === undefined ? undefined : inIds(dialect, expr, ids.values, ids.kind);
    },
    likePattern,
  });
}

/** The LIKE pattern of a needle at a position, its wildcards escaped so `%` and `_` match themselves. */
function likePattern(position: LikePosition, needle: string): string {
  const escaped = escapeLike(needle);
  return position === 'contains' ? `%${escaped}%` : position === 'start' ? `${escaped}%` : `%${escaped}`;
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
