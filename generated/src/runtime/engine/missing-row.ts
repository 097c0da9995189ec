/**
 * Whether a filter over related rows holds for a parent that has no related row at all.
 *
 * Strapi filters through relations, components and media with LEFT JOINs: a parent without a
 * related row is joined to one row of NULLs, and the filter is evaluated on it. So
 * `filters[author][id][$null]=true` finds the entries without an author, while
 * `filters[author][name][$eq]=x` never matches one. capi filters with EXISTS; this module decides,
 * from the filter alone and with SQL's three-valued logic, whether the row of NULLs matches, so
 * that the engine adds "or there is no related row" exactly when Strapi's join would match.
 */
import type { Filter, FilterScalar, FilterValue, Operator } from '../query/types.ts';

/** SQL's three truth values. */
type Truth = 'true' | 'false' | 'unknown';

export function matchesMissingRow(filter: Filter): boolean {
  return onNulls(filter) === 'true';
}

function onNulls(filter: Filter): Truth {
  switch (filter.kind) {
    case 'and':
      return all(filter.filters.map(onNulls));
    case 'or':
      return any(filter.filters.map(onNulls));
    case 'not':
      return negate(onNulls(filter.filter));
    case 'nested':
      // Below a missing row there is no row either: the nested EXISTS is false, and its
      // "or there is none" branch (engine/filters.ts) decides.
      return matchesMissingRow(filter.filter) ? 'true' : 'false';
    case 'condition':
      return conditionOnNull(filter.operator, filter.value);
  }
}

/** The operators whose value is a list as a whole; every other operator ORs over a list. */
const LIST_OPERATORS: ReadonlySet<Operator> = new Set(['in', 'notIn', 'between']);

/** A condition on a NULL column (engine/filters.ts states the SQL of each operator). */
function conditionOnNull(operator: Operator, value: FilterValue): Truth {
  if (Array.isArray(value) && !LIST_OPERATORS.has(operator)) return any(value.map((item: FilterScalar) => conditionOnNull(operator, item)));
  const single = Array.isArray(value) ? (value[0] ?? null) : value;
  switch (operator) {
    case 'null':
      return single === true ? 'true' : 'false';
    case 'notNull':
      return single === true ? 'false' : 'true';
    // `= null` and the text operators with a null value are IS NULL; `<> null` is IS NOT NULL.
    case 'eq':
    case 'eqi':
    case 'containsi':
    case 'startsWithi':
    case 'endsWithi':
      return single === null ? 'true' : 'unknown';
    case 'ne':
    case 'nei':
    case 'notContainsi':
      return single === null ? 'false' : 'unknown';
    // The case-sensitive text operators read an empty needle as IS NOT NULL.
    case 'contains':
    case 'startsWith':
    case 'endsWith':
      return single === null ? 'true' : single === '' ? 'false' : 'unknown';
    case 'notContains':
      return single === null ? 'false' : single === '' ? 'true' : 'unknown';
    case 'in':
      return Array.isArray(value) && value.length === 0 ? 'false' : 'unknown';
    case 'notIn':
      return Array.isArray(value) && value.length === 0 ? 'true' : 'unknown';
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
    case 'between':
      return 'unknown';
  }
}

function all(values: readonly Truth[]): Truth {
  if (values.includes('false')) return 'false';
  return values.includes('unknown') ? 'unknown' : 'true';
}

function any(values: readonly Truth[]): Truth {
  if (values.includes('true')) return 'true';
  return values.includes('unknown') ? 'unknown' : 'false';
}

function negate(value: Truth): Truth {
  return value === 'true' ? 'false' : value === 'false' ? 'true' : 'unknown';
}
