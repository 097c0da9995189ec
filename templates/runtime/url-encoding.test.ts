import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWellEncoded, rawQueryString } from './url-encoding.ts';

describe('isWellEncoded', () => {
  it('accepts whatever encodeURIComponent makes, and text without %', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => isWellEncoded(encodeURIComponent(text))),
      { seed: 9, numRuns: 500 },
    );
    expect(isWellEncoded('/api/products/abc')).toBe(true);
    expect(isWellEncoded('/api/products/a%2Fb%20c')).toBe(true);
  });

  it('refuses truncated, non-hex, overlong, lone-continuation and surrogate sequences', () => {
    for (const bad of ['%E0%A4%A', '%ZZ', '%E0', '%', '%4', '%C0%AF', '%80', '%ED%A0%80', 'a=%E0&b=%A4']) expect(isWellEncoded(bad), bad).toBe(false);
  });
});

describe('rawQueryString', () => {
  it('is what follows the first ?', () => {
    expect(rawQueryString('/graphql?query=a?b&x=1')).toBe('query=a?b&x=1');
    expect(rawQueryString('/graphql')).toBe('');
  });
});
