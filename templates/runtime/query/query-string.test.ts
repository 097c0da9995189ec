import { describe, expect, it } from 'vitest';
import { parseQueryString, QUERY_LIMITS } from './query-string.ts';
import { failure } from './test-fixtures.ts';

const limitError = (message: string) => ({ status: 400, name: 'ValidationError', message, details: { source: 'query' } });

describe('parseQueryString', () => {
  it('reads bracket notation into nested objects and arrays', () => {
    expect(parseQueryString('populate[author][fields][0]=name&sort[0]=title:asc&filters[$or][0][slug]=a')).toEqual({
      populate: { author: { fields: ['name'] } },
      sort: ['title:asc'],
      filters: { $or: [{ slug: 'a' }] },
    });
  });

  it('takes a leading ? and decodes percent-encoding and +', () => {
    expect(parseQueryString('?filters[name][$eq]=Alan%20Turing&x=a+b')).toEqual({ filters: { name: { $eq: 'Alan Turing' } }, x: 'a b' });
  });

  it('does not read dots as nesting', () => {
    expect(parseQueryString('populate=seo.shareImage&a.b=c')).toEqual({ populate: 'seo.shareImage', 'a.b': 'c' });
  });

  it('keeps a repeated key as a list', () => {
    expect(parseQueryString('sort=a&sort=b')).toEqual({ sort: ['a', 'b'] });
  });

  it('survives malformed percent-encoding', () => {
    expect(parseQueryString('a=%E0%A4%A&b=%ZZ')).toEqual({ a: '%E0%A4%A', b: '%ZZ' });
  });

  it(`refuses more than ${QUERY_LIMITS.parameterLimit} parameters`, () => {
    const query = Array.from({ length: QUERY_LIMITS.parameterLimit + 1 }, (_, i) => `k${i}=1`).join('&');
    expect(failure(() => parseQueryString(query))).toEqual(limitError('Invalid query string: more than 1000 parameters'));
    expect(() => parseQueryString(query.slice(0, query.lastIndexOf('&')))).not.toThrow();
  });

  it('refuses arrays past the limit instead of turning them into objects', () => {
    expect(failure(() => parseQueryString(`filters[$or][${QUERY_LIMITS.arrayLimit}][slug]=x`))).toEqual(limitError('Invalid query string: an array has more than 100 items'));
    const many = Array.from({ length: QUERY_LIMITS.arrayLimit + 1 }, (_, i) => `fields[]=f${i}`).join('&');
    expect(failure(() => parseQueryString(many))).toEqual(limitError('Invalid query string: an array has more than 100 items'));
    expect(parseQueryString(`fields[${QUERY_LIMITS.arrayLimit - 1}]=a`)).toEqual({ fields: ['a'] });
  });

  it('refuses nesting past the depth limit instead of cutting it into a key', () => {
    const deep = (levels: number) => `populate${'[a]'.repeat(levels)}=1`;
    expect(failure(() => parseQueryString(deep(QUERY_LIMITS.depth + 1)))).toEqual(limitError('Invalid query string: brackets nested deeper than 20 levels'));
    expect(() => parseQueryString(deep(QUERY_LIMITS.depth))).not.toThrow();
  });

  it('makes objects without a prototype, and never writes to Object.prototype', () => {
    const parsed = parseQueryString('__proto__[polluted]=1&constructor[prototype][polluted]=1&a[__proto__][polluted]=1&toString=x');
    expect(Object.getPrototypeOf(parsed)).toBeNull();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(parsed.toString).toBe('x');
    expect(Object.hasOwn(parsed, '__proto__')).toBe(false);
  });
});
