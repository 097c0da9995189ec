/**
 * The binding factories are typed against the static table they bind: a generated binding that
 * drifts from its schema (an enum missing or extra, a zone missing, the wrong factory for the
 * kind) does not compile. `tsc` checks the `@ts-expect-error` lines; vitest checks the values.
 */
import { describe, expect, it } from 'vitest';
import { componentProductDimensionsSchema } from '../../../generated/src/components/product/dimensions.ts';
import { aboutSchema } from '../../../generated/src/api/about/schema.ts';
import { productSchema } from '../../../generated/src/api/product/schema.ts';
import { tagSchema } from '../../../generated/src/api/tag/schema.ts';
import { collectionTypeGraphql, componentGraphql, singleTypeGraphql } from './schema-binding.ts';

const size = { typeName: 'ENUM_PRODUCT_SIZE', values: { small: 'small' } };
const names = {
  typeName: 'Product',
  queries: { one: 'product', many: 'products', connection: 'products_connection' },
  mutations: { create: 'createProduct', update: 'updateProduct', delete: 'deleteProduct' },
};

describe('binding factories', () => {
  it('bind a schema to its names', () => {
    const binding = collectionTypeGraphql(productSchema, { ...names, enums: { size }, dynamicZones: {} });
    expect(binding.schema).toBe(productSchema);
    expect(binding.enums).toEqual({ size });
  });

  it('refuse, at compile time, bindings that do not fit their schema', () => {
    // @ts-expect-error -- the enumeration `size` has no enum
    collectionTypeGraphql(productSchema, { ...names, enums: {}, dynamicZones: {} });
    // @ts-expect-error -- `slug` is no enumeration
    collectionTypeGraphql(productSchema, { ...names, enums: { size, slug: size }, dynamicZones: {} });
    // @ts-expect-error -- the zone `blocks` has no union
    singleTypeGraphql(aboutSchema, { typeName: 'About', queries: { one: 'about' }, mutations: { update: 'updateAbout', delete: 'deleteAbout' }, enums: {}, dynamicZones: {} });
    // @ts-expect-error -- a collection type is no single type
    singleTypeGraphql(tagSchema, { typeName: 'Tag', queries: { one: 'tag' }, mutations: { update: 'updateTag', delete: 'deleteTag' }, enums: {}, dynamicZones: {} });
    // @ts-expect-error -- the enumeration `unit` has no enum
    componentGraphql(componentProductDimensionsSchema, { typeName: 'ComponentProductDimensions', enums: {} });
    expect(true).toBe(true);
  });
});
