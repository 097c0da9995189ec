/**
 * The budget of one read, checked on the query before anything is planned: a read becomes one SQL
 * statement whose size grows with every relation, media or component it walks, so a hostile query
 * string or GraphQL selection could otherwise ask for a statement that takes seconds to plan and
 * run (PostgreSQL), or one SQLite refuses to prepare ("Expression tree is too large (maximum depth
 * 1000)": each relation a filter walks nests two `IN (SELECT ...)` subqueries, about 50 levels of
 * SQLite's expression tree, so 20 hops were past it).
 *
 *   depth   the longest chain of hops: a populated attribute, a filter through a relation, media
 *           or component, a sort through one; a filter or sort inside a populated attribute
 *           continues the chain of that attribute
 *   tables  the hops of the whole query, each one table (or derived table) of the statement
 *   height  SQLite's expression-tree depth of the deepest filter or sort, estimated: each hop
 *           nests its subqueries in the parent's WHERE (or ORDER BY), each and/or/not one more
 *           expression; a populated attribute's filters sit in a derived table of their own, which
 *           SQLite measures apart, so populate levels do not add up
 *
 * depth and tables are checked against `api.query` (config/api.json, docs/configuration.md),
 * height against SQLite's fixed limit on every database (a project may move to SQLite); a read
 * over any is a 400 naming the limit, whichever API it came through.
 */
import { ValidationError } from '../errors.ts';
import type { Filter, PopulateNode, PopulateTree, ReadQuery, SortItem } from '../query/types.ts';

/**
 * A read over budget. REST answers it as any ValidationError; GraphQL with HTTP 400, as its other
 * request limits (depthLimit, input depth), rather than the 200 of other resolver errors: the
 * request itself asks too much. Apollo takes the status from `extensions.http` of the error a
 * resolver throws (graphql-js hands a thrown error's `extensions` on).
 */
export class QueryBudgetError extends ValidationError {
  readonly extensions = { http: { status: 400 } };
}

export interface QueryBudget {
  /** Longest chain of hops one read may walk. */
  readonly maxDepth: number;
  /** Most hops one read may walk in all. */
  readonly maxTables: number;
  /**
   * Longest a statement of a request may run, in milliseconds, before the database cancels it
   * (database.ts `statementTimeoutMs`): the bound on what the size checks cannot see, the rows a
   * read fans out to. 0: none.
   */
  readonly timeoutMs: number;
}

/**
 * Every read the conformance suite and the tests make fits (the deepest GraphQL selection
 * depthLimit 10 allows walks 9 relations; REST's populate fits 10 in its 20 brackets), and so
 * does SQLite's expression tree with room to spare for logical nesting (docs/reliability.md,
 * "Query limits"). The slowest read the size checks admit took 2.5 s (MariaDB, first run): ten
 * seconds leaves room for a loaded machine and stops a read that fans out to millions of rows.
 */
export const DEFAULT_QUERY_BUDGET: QueryBudget = { maxDepth: 10, maxTables: 100, timeoutMs: 10_000 };

/**
 * Expression levels per hop and per and/or/not, measured on SQLite 3 with the conformance model
 * (20 hops fail and 17 pass; 10 hops under 40 `not`s fail and under 20 pass; 90 `not`s pass),
 * rounded up; the bound keeps a tenth of SQLite's 1000 (SQLITE_MAX_EXPR_DEPTH) in reserve.
 */
export const EXPRESSION_HEIGHT = { hop: 60, logic: 11, max: 900, sqlite: 1000 } as const;

export interface QuerySize {
  readonly depth: number;
  readonly tables: number;
  readonly height: number;
}

const NONE: QuerySize = { depth: 0, tables: 0, height: 0 };

/** What a read walks: its filters, sort and populate tree (`sort` only on lists). */
export function querySize(query: Pick<ReadQuery, 'filters' | 'populate'> & { readonly sort?: readonly SortItem[] }): QuerySize {
  return beside([query.filters === undefined ? NONE : filterSize(query.filters), sortSize(query.sort ?? []), treeSize(query.populate)]);
}

/** The 400 for a read over `budget`, or undefined when it fits. */
/**
 * Throws budgetError's refusal. A write calls it on the query of its read-back before it writes:
 * refused after the write, the answer would hide that the write happened.
 */
export function assertWithinBudget(query: Parameters<typeof querySize>[0], budget: QueryBudget): void {
  const refused = budgetError(query, budget);
  if (refused !== undefined) throw refused;
}

export function budgetError(query: Parameters<typeof querySize>[0], budget: QueryBudget): QueryBudgetError | undefined {
  const { depth, tables, height } = querySize(query);
  if (depth > budget.maxDepth) {
    return new QueryBudgetError(`This query walks ${depth} relations, components or media deep; the maximum is ${budget.maxDepth} (api.query.maxDepth)`, {
      limit: 'maxDepth',
      maximum: budget.maxDepth,
      depth,
    });
  }
  if (tables > budget.maxTables) {
    return new QueryBudgetError(`This query reads ${tables} relations, components or media; the maximum is ${budget.maxTables} (api.query.maxTables)`, {
      limit: 'maxTables',
      maximum: budget.maxTables,
      tables,
    });
  }
  if (height > EXPRESSION_HEIGHT.max) {
    return new QueryBudgetError(
      `This query's filters or sort nest too deeply: about ${height} levels of SQL expression, where ${EXPRESSION_HEIGHT.max} are accepted (the database's limit is ${EXPRESSION_HEIGHT.sqlite}); use fewer relations or fewer nested and/or/not in one filter`,
      { limit: 'expressionDepth', maximum: EXPRESSION_HEIGHT.max, height },
    );
  }
  return undefined;
}

/** Parts read side by side: the deepest chain of any, the tables of all. */
function beside(parts: readonly QuerySize[]): QuerySize {
  let depth = 0;
  let tables = 0;
  let height = 0;
  for (const part of parts) {
    depth = Math.max(depth, part.depth);
    tables += part.tables;
    height = Math.max(height, part.height);
  }
  return { depth, tables, height };
}

/** One hop more in front of `inner`; `height` says whether its SQL nests in the parent's expression. */
function hop(inner: QuerySize, height: 'nested' | 'apart'): QuerySize {
  return { depth: inner.depth + 1, tables: inner.tables + 1, height: height === 'nested' ? inner.height + EXPRESSION_HEIGHT.hop : inner.height };
}

function filterSize(filter: Filter): QuerySize {
  switch (filter.kind) {
    case 'and':
    case 'or':
      return logic(beside(filter.filters.map(filterSize)));
    case 'not':
      return logic(filterSize(filter.filter));
    case 'condition':
      return NONE;
    case 'nested':
      return hop(filterSize(filter.filter), 'nested');
  }
}

function logic(inner: QuerySize): QuerySize {
  return { ...inner, height: inner.height + EXPRESSION_HEIGHT.logic };
}

function sortSize(sort: readonly SortItem[]): QuerySize {
  // `['author', 'name']` walks one relation to its scalar.
  return beside(sort.map((item) => ({ depth: item.path.length - 1, tables: item.path.length - 1, height: (item.path.length - 1) * EXPRESSION_HEIGHT.hop })));
}

function treeSize(tree: PopulateTree | undefined): QuerySize {
  return tree === undefined ? NONE : beside(Object.values(tree).map(nodeSize));
}

/** A populated attribute: one hop, then what is read of its rows (a dynamic zone: of each component's). */
function nodeSize(node: PopulateNode): QuerySize {
  const own = beside([node.filters === undefined ? NONE : filterSize(node.filters), sortSize(node.sort ?? []), treeSize(node.populate)]);
  if (node.on === undefined) return hop(own, 'apart');
  return hop(beside([own, ...Object.values(node.on).map(nodeSize)]), 'apart');
}
