import { describe, expect, it } from 'vitest';
import { createDocumentId, DOCUMENT_ID_PATTERN, isDocumentId } from './document-id.ts';

describe('document ids', () => {
  it('have Strapi 5 shape: 24 lowercase letters and digits, starting with a letter', () => {
    for (let i = 0; i < 1000; i++) expect(createDocumentId()).toMatch(DOCUMENT_ID_PATTERN);
  });

  it('do not repeat', () => {
    const ids = new Set(Array.from({ length: 10_000 }, createDocumentId));
    expect(ids.size).toBe(10_000);
  });

  it('are recognised, and other strings are not', () => {
    expect(isDocumentId('abcdefghijklmnopqrstuvwx')).toBe(true);
    expect(isDocumentId('1bcdefghijklmnopqrstuvwx')).toBe(false);
    expect(isDocumentId('ABCDEFGHIJKLMNOPQRSTUVWX')).toBe(false);
    expect(isDocumentId('abc')).toBe(false);
    expect(isDocumentId(42)).toBe(false);
  });
});
