import { describe, expect, it } from 'vitest';
import { parseListQuery, parseQueryString } from '../query/params.ts';
import { ARTICLE, queryContext } from '../query/test-fixtures.ts';
import type { ListQuery } from '../query/types.ts';
import { QueryPlans } from './query-plans.ts';

const everything = (): boolean => true;
const noCategories = (uid: string): boolean => uid !== 'api::category.category';

/** A cache of article list queries, parsed by the real parser; `parses` counts the parses it ran. */
function articlePlans(limit?: number) {
  const plans = new QueryPlans<ListQuery>(limit);
  let parses = 0;
  const plan = (raw: string, canRead: (uid: string) => boolean = everything): ListQuery =>
    plans.plan(raw, canRead, (allowed) => {
      parses += 1;
      return parseListQuery(parseQueryString(raw), queryContext(ARTICLE, { canRead: allowed }));
    });
  return { plans, plan, parses: () => parses };
}

describe('query plans of a core action', () => {
  it('parses a query string once and hands out the same frozen plan after', () => {
    const { plan, parses } = articlePlans();
    const first = plan('populate=*&pagination[pageSize]=5');
    expect(plan('populate=*&pagination[pageSize]=5')).toBe(first);
    expect(parses()).toBe(1);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.populate)).toBe(true);
    expect(Object.isFrozen(first.pagination)).toBe(true);
  });

  it('keys by the raw query string: different strings are different plans', () => {
    const { plan, parses } = articlePlans();
    const five = plan('pagination[pageSize]=5');
    const six = plan('pagination[pageSize]=6');
    expect(five.pagination).toMatchObject({ pageSize: 5 });
    expect(six.pagination).toMatchObject({ pageSize: 6 });
    expect(plan('status=draft').status).toBe('draft');
    expect(plan('status=published').status).toBe('published');
    expect(parses()).toBe(4);
  });

  it('serves a plan only to a caller whose permissions answer as the parse was answered', () => {
    const { plan, parses } = articlePlans();
    const full = plan('populate=*');
    expect(Object.keys(full.populate)).toContain('category');
    // Without category.find, populate=* leaves the relation out: never the other caller's plan.
    const restricted = plan('populate=*', noCategories);
    expect(Object.keys(restricted.populate)).not.toContain('category');
    expect(parses()).toBe(2);
    // Back to a caller reading everything: parsed again, not handed the restricted plan.
    expect(Object.keys(plan('populate=*').populate)).toContain('category');
    expect(parses()).toBe(3);
  });

  it('shares a plan between callers that differ only on types the query does not touch', () => {
    const { plan, parses } = articlePlans();
    const first = plan('pagination[pageSize]=5');
    expect(plan('pagination[pageSize]=5', noCategories)).toBe(first);
    expect(parses()).toBe(1);
  });

  it('refuses a filter on a relation the caller may not read, even after another caller was allowed it', () => {
    const { plan } = articlePlans();
    plan('filters[category][name][$eq]=news');
    expect(() => plan('filters[category][name][$eq]=news', noCategories)).toThrow(/Invalid key category/);
  });

  it('keeps no failed parse: a bad query fails every time', () => {
    const { plans, plan, parses } = articlePlans();
    expect(() => plan('pagination[pageSize]=x')).toThrow();
    expect(() => plan('pagination[pageSize]=x')).toThrow();
    expect(parses()).toBe(2);
    expect(plans.size).toBe(0);
  });

  it('is bounded, the least recently used out first', () => {
    const { plans, plan, parses } = articlePlans(2);
    const one = plan('pagination[page]=1');
    plan('pagination[page]=2');
    expect(plan('pagination[page]=1')).toBe(one); // now the most recent
    plan('pagination[page]=3'); // evicts page 2
    expect(plans.size).toBe(2);
    expect(parses()).toBe(3);
    expect(plan('pagination[page]=1')).toBe(one);
    plan('pagination[page]=2');
    expect(parses()).toBe(4);
    expect(plans.size).toBe(2);
  });
});
