/** The budget of one read (budget.ts): sizes measured on queries, refusals at each limit's edge. */
import { describe, expect, it } from 'vitest';
import type { Filter, PopulateTree, ReadQuery } from '../query/types.ts';
import { budgetError, DEFAULT_QUERY_BUDGET, EXPRESSION_HEIGHT, querySize } from './budget.ts';

const leaf: Filter = { kind: 'condition', attribute: 'title', operator: 'contains', value: 'a' };

/** `author.articles.author...` through `hops` relations, then `leaf`. */
function through(hops: number, inner: Filter = leaf): Filter {
  let filter = inner;
  for (let hop = hops; hop >= 1; hop -= 1) filter = { kind: 'nested', attribute: hop % 2 === 1 ? 'author' : 'articles', filter };
  return filter;
}

function nots(levels: number, inner: Filter = leaf): Filter {
  let filter = inner;
  for (let level = 0; level < levels; level += 1) filter = { kind: 'not', filter };
  return filter;
}

/** `populate[author][populate][articles]...` `levels` deep. */
function chain(levels: number): PopulateTree {
  let tree: PopulateTree = {};
  for (let level = levels; level >= 1; level -= 1) tree = { [level % 2 === 1 ? 'author' : 'articles']: { populate: tree } };
  return tree;
}

const read = (parts: Partial<ReadQuery> & { sort?: { path: string[]; direction: 'asc' }[] }) => ({ populate: {}, ...parts });

describe('querySize', () => {
  it('counts hops of filters, sort and populate, a populated attribute continuing its own chain', () => {
    expect(querySize(read({}))).toEqual({ depth: 0, tables: 0, height: 0 });
    expect(querySize(read({ filters: through(3) }))).toEqual({ depth: 3, tables: 3, height: 3 * EXPRESSION_HEIGHT.hop });
    expect(querySize(read({ sort: [{ path: ['author', 'name'], direction: 'asc' }] }))).toEqual({ depth: 1, tables: 1, height: EXPRESSION_HEIGHT.hop });
    // A filter inside the fourth populated level: four hops of populate, two of the filter.
    const tree: PopulateTree = { author: { populate: { articles: { populate: { author: { populate: { articles: { filters: through(2) } } } } } } }, cover: {} };
    expect(querySize(read({ populate: tree }))).toEqual({ depth: 6, tables: 7, height: 2 * EXPRESSION_HEIGHT.hop });
  });

  it('counts and/or/not into the expression height, and every component of a dynamic zone as a table', () => {
    expect(querySize(read({ filters: nots(3, through(1)) })).height).toBe(3 * EXPRESSION_HEIGHT.logic + EXPRESSION_HEIGHT.hop);
    const or: Filter = { kind: 'or', filters: [through(2), through(1)] };
    expect(querySize(read({ filters: or }))).toEqual({ depth: 2, tables: 3, height: EXPRESSION_HEIGHT.logic + 2 * EXPRESSION_HEIGHT.hop });
    const zone: PopulateTree = { blocks: { on: { 'shared.quote': {}, 'shared.media': { populate: { file: {} } } } } };
    expect(querySize(read({ populate: zone }))).toEqual({ depth: 3, tables: 4, height: 0 });
  });
});

describe('budgetError', () => {
  it('accepts the default depth and refuses one more, naming the limit', () => {
    const { maxDepth } = DEFAULT_QUERY_BUDGET;
    expect(budgetError(read({ populate: chain(maxDepth) }), DEFAULT_QUERY_BUDGET)).toBeUndefined();
    expect(budgetError(read({ filters: through(maxDepth) }), DEFAULT_QUERY_BUDGET)).toBeUndefined();
    const refused = budgetError(read({ populate: chain(maxDepth + 1) }), DEFAULT_QUERY_BUDGET);
    expect(refused?.status).toBe(400);
    expect(refused?.message).toBe(`This query walks ${maxDepth + 1} relations, components or media deep; the maximum is ${maxDepth} (api.query.maxDepth)`);
    expect(refused?.details).toEqual({ limit: 'maxDepth', maximum: maxDepth, depth: maxDepth + 1 });
  });

  it('refuses more tables than maxTables, counted over the whole query', () => {
    const budget = { ...DEFAULT_QUERY_BUDGET, maxTables: 5 };
    const wide = (attributes: number): PopulateTree => Object.fromEntries(Array.from({ length: attributes }, (_, index) => [`a${index}`, {}]));
    expect(budgetError(read({ populate: wide(4), filters: through(1) }), budget)).toBeUndefined();
    expect(budgetError(read({ populate: wide(5), filters: through(1) }), budget)?.message).toBe('This query reads 6 relations, components or media; the maximum is 5 (api.query.maxTables)');
  });

  it('refuses filters SQLite could not prepare (10 hops under 40 not), within the default depth', () => {
    // Measured: 10 hops under 20 `not` prepare on SQLite, under 40 they fail with "Expression tree is too large".
    expect(budgetError(read({ filters: through(10, nots(20)) }), DEFAULT_QUERY_BUDGET)).toBeUndefined();
    const refused = budgetError(read({ filters: through(10, nots(40)) }), DEFAULT_QUERY_BUDGET);
    expect(refused?.details).toEqual({ limit: 'expressionDepth', maximum: EXPRESSION_HEIGHT.max, height: 10 * EXPRESSION_HEIGHT.hop + 40 * EXPRESSION_HEIGHT.logic });
    expect(refused?.message).toContain("the database's limit is 1000");
  });
});
