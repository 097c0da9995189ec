/**
 * `sort: [String] = []` → SortItem[]: each entry is `field`, `field:asc|desc` or a dotted path
 * through relations and components (`author.name:desc`), exactly as a REST `sort` entry, so
 * REST's parser reads them and words its errors: `sort: "nope"` is a BAD_USER_INPUT
 * "Invalid key nope" with `details: { key, path: null, source: "query", param: "sort" }`, as in
 * Strapi. An empty list (the default) keeps the natural order: id for root lists, link order for
 * relations.
 */
import { parseSort } from '../query/sort.ts';
import type { Target } from '../query/targets.ts';
import type { SortItem } from '../query/types.ts';
import { sortList, type ArgsContext } from './args.ts';

export function graphqlSort(input: unknown, target: Target, context: ArgsContext): SortItem[] {
  const entries = sortList(input);
  return entries.length === 0 ? [] : parseSort(entries, target, context.scope, 'sort');
}
