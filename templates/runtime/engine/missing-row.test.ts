import { describe, expect, it } from 'vitest';
import type { Filter, FilterValue, Operator } from '../query/types.ts';
import { matchesMissingRow } from './missing-row.ts';

const cond = (attribute: string, operator: Operator, value: FilterValue): Filter => ({ kind: 'condition', attribute, operator, value });

describe('a filter on a missing related row (all NULLs)', () => {
  it('null / notNull decide; eq null is IS NULL', () => {
    expect(matchesMissingRow(cond('id', 'null', true))).toBe(true);
    expect(matchesMissingRow(cond('id', 'null', false))).toBe(false);
    expect(matchesMissingRow(cond('id', 'notNull', false))).toBe(true);
    expect(matchesMissingRow(cond('id', 'notNull', true))).toBe(false);
    expect(matchesMissingRow(cond('name', 'eq', null))).toBe(true);
    expect(matchesMissingRow(cond('name', 'ne', null))).toBe(false);
  });

  it('comparisons with a value are unknown, so never match, negated or not', () => {
    for (const operator of ['eq', 'ne', 'lt', 'gte', 'contains', 'notContains', 'containsi', 'in', 'notIn'] as const) {
      const value: FilterValue = operator === 'in' || operator === 'notIn' ? ['x'] : 'x';
      expect(matchesMissingRow(cond('name', operator, value))).toBe(false);
      expect(matchesMissingRow({ kind: 'not', filter: cond('name', operator, value) })).toBe(false);
    }
    expect(matchesMissingRow(cond('n', 'between', [1, 2]))).toBe(false);
  });

  it('empty lists and the empty needle follow the engine SQL', () => {
    expect(matchesMissingRow(cond('id', 'in', []))).toBe(false);
    expect(matchesMissingRow(cond('id', 'notIn', []))).toBe(true);
    expect(matchesMissingRow(cond('name', 'contains', ''))).toBe(false);
    expect(matchesMissingRow(cond('name', 'notContains', ''))).toBe(true);
  });

  it('and / or / not with three-valued logic; a list on a single-value operator is any of them', () => {
    expect(matchesMissingRow({ kind: 'or', filters: [cond('name', 'eq', 'x'), cond('id', 'null', true)] })).toBe(true);
    expect(matchesMissingRow({ kind: 'and', filters: [cond('name', 'eq', 'x'), cond('id', 'null', true)] })).toBe(false);
    expect(matchesMissingRow({ kind: 'not', filter: cond('id', 'notNull', true) })).toBe(true);
    expect(matchesMissingRow(cond('name', 'eq', ['x', null]))).toBe(true);
    expect(matchesMissingRow({ kind: 'nested', attribute: 'author', filter: cond('id', 'null', true) })).toBe(true);
    expect(matchesMissingRow({ kind: 'nested', attribute: 'author', filter: cond('name', 'eq', 'x') })).toBe(false);
  });
});
