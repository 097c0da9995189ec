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
import { OPERATOR_SPECS, takesList } from '../../contract/operators.ts';
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

/** A condition on a NULL column: its operator's `onNull` in the contract's OPERATORS table. */
function conditionOnNull(operator: Operator, value: FilterValue): Truth {
  // Every operator of one value reads a list as "any of them".
  if (Array.isArray(value) && !takesList(operator)) return any(value.map((item: FilterScalar) => conditionOnNull(operator, item)));
  const single = Array.isArray(value) ? (value[0] ?? null) : value;
  const items = Array.isArray(value) ? value : [value];
  const truth = OPERATOR_SPECS[operator].onNull(single, items);
  return truth === null ? 'unknown' : truth ? 'true' : 'false';
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
