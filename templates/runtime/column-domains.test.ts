/**
 * The column domains: each attribute type's edges, the same answer whatever database serves it,
 * and the depth and NUL walks on values too deep or wide for recursion.
 */
import { describe, expect, it } from 'vitest';
import { SCALAR_TYPE_NAMES, SCALAR_TYPES } from '../contract/scalar-types.ts';
import { isRowId, jsonDepthExceeds, nulPath, outside, outsideDomain, ROW_ID_DOMAIN } from './column-domains.ts';

describe('column domains', () => {
  it('integers: 32 bits, whole numbers only, as numbers or digit strings', () => {
    expect(outsideDomain('integer', 2147483647)).toBeUndefined();
    expect(outsideDomain('integer', -2147483648)).toBeUndefined();
    for (const value of [2147483648, -2147483649, 0.5, 1e300, '2147483648']) {
      expect(outsideDomain('integer', value), String(value)).toBe('an integer between -2147483648 and 2147483647');
    }
    expect(outside(ROW_ID_DOMAIN, 2147483648)).toBeDefined();
  });

  it('bigintegers: 64 bits, as digit strings beyond 2^53', () => {
    expect(outsideDomain('biginteger', '9223372036854775807')).toBeUndefined();
    expect(outsideDomain('biginteger', '-9223372036854775808')).toBeUndefined();
    expect(outsideDomain('biginteger', '9223372036854775808')).toBe('an integer between -9223372036854775808 and 9223372036854775807');
    expect(outsideDomain('biginteger', '1.5')).toBeDefined();
  });

  it('decimals below 10^35, floats finite', () => {
    expect(outsideDomain('decimal', 9.9e34)).toBeUndefined();
    expect(outsideDomain('decimal', -1e35)).toBe('a number with at most 35 digits before the decimal point');
    expect(outsideDomain('decimal', Number.NaN)).toBeDefined();
    expect(outsideDomain('float', 1e300)).toBeUndefined();
    expect(outsideDomain('float', Number.POSITIVE_INFINITY)).toBe('a finite number');
  });

  it('text and JSON without NUL, keys included', () => {
    for (const type of ['string', 'text', 'richtext', 'email', 'uid', 'enumeration', 'password'] as const) {
      expect(outsideDomain(type, 'ok')).toBeUndefined();
      expect(outsideDomain(type, 'a\u0000b')).toBe('text without NUL (\\u0000) characters');
    }
    expect(outsideDomain('json', { a: ['b', { c: 'd' }] })).toBeUndefined();
    expect(outsideDomain('json', { a: ['b', { c: 'd\u0000' }] })).toBeDefined();
    expect(outsideDomain('blocks', [{ 'k\u0000': 1 }])).toBeDefined();
  });

  it('dates and timestamps in years 1 to 9999', () => {
    expect(outsideDomain('date', '0001-01-01')).toBeUndefined();
    expect(outsideDomain('datetime', '9999-12-31T23:59:59.999Z')).toBeUndefined();
    for (const value of ['0000-01-01', '+010000-01-01T00:00:00.000Z', '-000001-01-01T00:00:00.000Z']) {
      expect(outsideDomain('timestamp', value), value).toBe('a date between the years 1 and 9999');
    }
  });

  it('bounds booleans and times by their format alone, and lets null through every domain', () => {
    expect(outsideDomain('boolean', true)).toBeUndefined();
    expect(outsideDomain('time', '23:59:59.999')).toBeUndefined();
    for (const type of SCALAR_TYPE_NAMES) {
      expect(outsideDomain(type, null), type).toBeUndefined();
      expect(outsideDomain(type, undefined), type).toBeUndefined();
    }
  });

  it('row ids are bounded as integer attributes are', () => {
    expect(ROW_ID_DOMAIN).toEqual(SCALAR_TYPES.integer.domain);
    expect(isRowId(2147483647)).toBe(true);
    for (const id of [0, -1, 2147483648]) expect(isRowId(id), String(id)).toBe(false);
  });

  it('walks values far deeper and wider than the stack allows', () => {
    let deep: unknown = 'leaf\u0000';
    for (let i = 0; i < 100_000; i += 1) deep = i % 2 === 0 ? [deep] : { k: deep };
    expect(jsonDepthExceeds(deep, 100)).toBe(true);
    expect(nulPath(deep)).toHaveLength(100_000);
    const wide = Array.from({ length: 200_000 }, (_, i) => i);
    expect(jsonDepthExceeds(wide, 1)).toBe(false);
    expect(nulPath(wide)).toBeUndefined();
    expect(jsonDepthExceeds({ a: { b: 1 } }, 2)).toBe(false);
    expect(jsonDepthExceeds({ a: { b: {} } }, 2)).toBe(true);
  });
});
