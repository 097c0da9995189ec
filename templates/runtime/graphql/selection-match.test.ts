/**
 * Filtering and sorting rows in memory must answer what the engine's SQL answers: three-valued
 * logic around nulls, case rules of the text operators, EXISTS through relations and components,
 * MIN/MAX through lists, nulls first ascending.
 */
import { describe, expect, it } from 'vitest';
import type { Entity } from '../engine/types.ts';
import type { Filter } from '../query/types.ts';
import { filterRows, matches, sortRows } from './selection-match.ts';
import { target, targets } from './test-plan.ts';

const ctx = { targets };
const article = target('api::article.article');
const product = target('api::product.product');
const cond = (attribute: string, operator: string, value: unknown): Filter => ({ kind: 'condition', attribute, operator, value }) as Filter;

const rows: Entity[] = [
  { id: 1, documentId: 'a', title: 'Hello World', readingTime: 5, featured: true, author: { id: 10, name: 'Ada' }, tags: [{ id: 1, name: 'tag-01' }] },
  { id: 2, documentId: 'b', title: 'food for thought', readingTime: null, featured: false, author: null, tags: [] },
  {
    id: 3,
    documentId: 'c',
    title: null,
    readingTime: 12,
    featured: false,
    author: { id: 11, name: 'Alan' },
    tags: [
      { id: 2, name: 'tag-02' },
      { id: 3, name: 'tag-09' },
    ],
  },
];
const ids = (list: readonly Entity[]) => list.map((row) => row['documentId']);

describe('filters in memory', () => {
  it('never matches null with ne, notIn, notContains or not (unknown stays unknown)', () => {
    expect(ids(filterRows(ctx, article, rows, cond('readingTime', 'ne', 5)))).toEqual(['c']);
    expect(ids(filterRows(ctx, article, rows, cond('readingTime', 'notIn', [5])))).toEqual(['c']);
    expect(ids(filterRows(ctx, article, rows, cond('title', 'notContains', 'o')))).toEqual([]);
    expect(ids(filterRows(ctx, article, rows, { kind: 'not', filter: cond('readingTime', 'eq', 5) }))).toEqual(['c']);
    expect(ids(filterRows(ctx, article, rows, { kind: 'or', filters: [cond('readingTime', 'gt', 10), cond('featured', 'eq', true)] }))).toEqual(['a', 'c']);
  });

  it('tests nullness with null/notNull and eq/ne null', () => {
    expect(ids(filterRows(ctx, article, rows, cond('readingTime', 'null', true)))).toEqual(['b']);
    expect(ids(filterRows(ctx, article, rows, cond('readingTime', 'notNull', true)))).toEqual(['a', 'c']);
    expect(ids(filterRows(ctx, article, rows, cond('title', 'eq', null)))).toEqual(['c']);
    expect(ids(filterRows(ctx, article, rows, cond('title', 'ne', null)))).toEqual(['a', 'b']);
  });

  it('compares text case-sensitively except with the *i operators', () => {
    expect(ids(filterRows(ctx, article, rows, cond('title', 'contains', 'wor')))).toEqual([]);
    expect(ids(filterRows(ctx, article, rows, cond('title', 'containsi', 'WOR')))).toEqual(['a']);
    expect(ids(filterRows(ctx, article, rows, cond('title', 'eqi', 'hello world')))).toEqual(['a']);
    expect(ids(filterRows(ctx, article, rows, cond('title', 'startsWith', 'food')))).toEqual(['b']);
    expect(ids(filterRows(ctx, article, rows, cond('title', 'endsWithi', 'THOUGHT')))).toEqual(['b']);
  });

  it('compares numbers, ranges and lists', () => {
    expect(ids(filterRows(ctx, article, rows, cond('readingTime', 'between', [5, 12])))).toEqual(['a', 'c']);
    expect(ids(filterRows(ctx, article, rows, cond('readingTime', 'in', [12, 7])))).toEqual(['c']);
    expect(ids(filterRows(ctx, article, rows, cond('readingTime', 'eq', [5, 12])))).toEqual(['a', 'c']);
    expect(ids(filterRows(ctx, article, rows, cond('readingTime', 'in', [])))).toEqual([]);
  });

  it('compares bigintegers as integers, not as text', () => {
    const products: Entity[] = [
      { id: 1, documentId: 'p', serialNumber: '9' },
      { id: 2, documentId: 'q', serialNumber: '10' },
    ];
    expect(ids(filterRows(ctx, product, products, cond('serialNumber', 'gt', '9')))).toEqual(['q']);
  });

  it('matches a relation or a list when one related row matches (EXISTS)', () => {
    const byAuthor: Filter = { kind: 'nested', attribute: 'author', filter: cond('name', 'startsWith', 'A') };
    expect(ids(filterRows(ctx, article, rows, byAuthor))).toEqual(['a', 'c']);
    const byTag: Filter = { kind: 'nested', attribute: 'tags', filter: cond('name', 'eq', 'tag-09') };
    expect(ids(filterRows(ctx, article, rows, byTag))).toEqual(['c']);
    expect(matches(ctx, article, rows[1]!, { kind: 'not', filter: byTag })).toBe(true);
  });

  it('matches an entry without related rows when the filter holds on NULLs, as the engine does', () => {
    const noTags: Filter = { kind: 'nested', attribute: 'tags', filter: cond('id', 'null', true) };
    const withTags: Filter = { kind: 'nested', attribute: 'tags', filter: cond('id', 'notNull', true) };
    const lonely: Entity = { id: 9, documentId: 'z', tags: [], author: null };
    expect(matches(ctx, article, lonely, noTags)).toBe(true);
    expect(matches(ctx, article, lonely, withTags)).toBe(false);
    expect(matches(ctx, article, lonely, { kind: 'nested', attribute: 'author', filter: cond('documentId', 'null', true) })).toBe(true);
    expect(matches(ctx, article, lonely, { kind: 'nested', attribute: 'author', filter: cond('name', 'eq', 'x') })).toBe(false);
  });
});

describe('sort in memory', () => {
  it('puts nulls first ascending and last descending, and keeps ties in their order', () => {
    expect(ids(sortRows(ctx, article, rows, [{ path: ['readingTime'], direction: 'asc' }]))).toEqual(['b', 'a', 'c']);
    expect(ids(sortRows(ctx, article, rows, [{ path: ['readingTime'], direction: 'desc' }]))).toEqual(['c', 'a', 'b']);
    expect(ids(sortRows(ctx, article, rows, [{ path: ['featured'], direction: 'asc' }]))).toEqual(['b', 'c', 'a']);
  });

  it('sorts by several keys, and through relations and lists by their smallest (asc) or largest (desc) value', () => {
    expect(ids(sortRows(ctx, article, rows, [{ path: ['author', 'name'], direction: 'desc' }]))).toEqual(['c', 'a', 'b']);
    expect(ids(sortRows(ctx, article, rows, [{ path: ['tags', 'name'], direction: 'asc' }]))).toEqual(['b', 'a', 'c']);
    expect(ids(sortRows(ctx, article, rows, [{ path: ['tags', 'name'], direction: 'desc' }]))).toEqual(['c', 'a', 'b']);
    expect(
      ids(
        sortRows(ctx, article, rows, [
          { path: ['featured'], direction: 'desc' },
          { path: ['readingTime'], direction: 'desc' },
        ]),
      ),
    ).toEqual(['a', 'c', 'b']);
  });
});
