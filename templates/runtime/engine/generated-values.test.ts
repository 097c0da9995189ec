/** The value a created entry gets: generated, default or given. */
import { describe, expect, it } from 'vitest';
import type { ScalarField } from '../schema.ts';
import { valueOnCreate } from './generated-values.ts';

const field = (extra: Partial<ScalarField>): ScalarField => ({ kind: 'scalar', type: 'uid', column: 'ref', unique: false, required: false, private: false, localized: false, ...extra });
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('valueOnCreate', () => {
  it('generates a fresh UUID when the body gives nothing, null or an empty string, as strapi-advanced-uuid does', () => {
    const uuid = field({ generated: 'uuid' });
    const values = [undefined, null, ''].map((raw) => valueOnCreate(uuid, raw));
    for (const value of values) expect(value).toMatch(UUID_V4);
    expect(new Set(values).size).toBe(3);
    expect(valueOnCreate(uuid, 'given-id')).toBe('given-id');
  });

  it('uses the default only when the field is left out', () => {
    const graded = field({ type: 'string', default: 'unrated' });
    expect(valueOnCreate(graded, undefined)).toBe('unrated');
    expect(valueOnCreate(graded, null)).toBeNull();
    expect(valueOnCreate(graded, 'A')).toBe('A');
  });
});
