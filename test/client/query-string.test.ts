/**
 * The client writes query strings that the server's parser (runtime/query/query-string.ts, qs
 * with capi's limits) reads back as exactly the query given, for any query shape; and it reads
 * the same as the string @strapi/client writes for the same arguments (wire compatibility).
 */
import fc from 'fast-check';
import qs from 'qs';
import { describe, expect, it } from 'vitest';
import { stringifyQuery, withQuery } from '../../templates/client/query-string.ts';
import { parseQueryString } from '../../templates/runtime/query/query-string.ts';

/** What qs.parse gives back for a value: every leaf is a string. */
function asParsed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asParsed);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asParsed(v)]));
  return String(value);
}

/** Strings with the characters a query must escape: &, =, %, #, +, spaces, unicode; values also brackets. */
const characters = ['a', 'Z', '0', ' ', '&', '=', '%', '#', '+', '?', '/', 'é', '日', '.', ',', ':', '$'];
const text = fc.string({ unit: fc.constantFrom(...characters, '[', ']'), minLength: 1, maxLength: 8 });
// A bracket inside a key name is nesting to qs, and an all-digit key an array index, whoever
// writes the string: keys are attribute names, operators and component uids, which are neither.
const keyText = fc.string({ unit: fc.constantFrom(...characters), minLength: 1, maxLength: 8 }).filter((k) => !/^\d+$/.test(k));
const key = fc.oneof(fc.constantFrom('title', '$eq', '$in', '$or', 'populate', 'a.b', 'on', 'shared.seo'), keyText);
const leaf = fc.oneof(text, fc.integer(), fc.boolean());
const query = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('list'), tie('object')),
  list: fc.array(tie('node'), { minLength: 1, maxLength: 4 }),
  object: fc.dictionary(key, tie('node'), { minKeys: 1, maxKeys: 4 }),
})).object;

describe('query strings', () => {
  it('parse back on the server as the query given', () => {
    fc.assert(
      fc.property(query, (q) => {
        expect(parseQueryString(stringifyQuery(q))).toEqual(asParsed(q));
      }),
      { numRuns: 300 },
    );
  });

  it("read as @strapi/client's for the same arguments", () => {
    const strapiClient = (params: object) => qs.stringify(params, { addQueryPrefix: false, allowEmptyArrays: true });
    fc.assert(
      fc.property(query, (q) => {
        expect(parseQueryString(stringifyQuery(q))).toEqual(parseQueryString(strapiClient(q)));
      }),
      { numRuns: 300 },
    );
  });

  it('keep brackets readable and encode values', () => {
    expect(stringifyQuery({ filters: { title: { $eq: 'a&b=c' } }, populate: ['author', 'tags'] })).toBe('filters[title][$eq]=a%26b%3Dc&populate[0]=author&populate[1]=tags');
    expect(stringifyQuery({ populate: { blocks: { on: { 'shared.quote': { fields: ['body'] } } } } })).toBe('populate[blocks][on][shared.quote][fields][0]=body');
    expect(stringifyQuery({ pagination: { page: 2 }, status: 'draft', date: new Date(Date.UTC(2024, 0, 2)) })).toBe('pagination[page]=2&status=draft&date=2024-01-02T00%3A00%3A00.000Z');
  });

  it('append to a path, with & when it already has a query', () => {
    expect(withQuery('/upload?id=1', { fields: ['name'] })).toBe('/upload?id=1&fields[0]=name');
    expect(withQuery('/tags', {})).toBe('/tags');
    expect(withQuery('/tags', undefined)).toBe('/tags');
  });
});
