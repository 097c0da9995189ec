/**
 * The binding factories are typed against the static table they bind: a generated binding that
 * drifts from its schema (an enum missing or extra, a zone missing, the wrong factory for the
 * kind) does not compile. `tsc` checks the `@ts-expect-error` lines; vitest checks the values.
 */
import { describe, expect, it } from 'vitest';
import type { ComponentSchema, ContentTypeSchema } from '../schema.ts';
import { collectionTypeGraphql, componentGraphql, singleTypeGraphql } from './schema-binding.ts';

// Static tables as capi emits them (`as const satisfies`), cut down to the attributes the bindings look at.
const scalar = { kind: 'scalar', required: false, private: false, localized: false, unique: false } as const;
const header = { draftAndPublish: false, localized: false } as const;
const productSchema = {
  ...header,
  uid: 'api::product.product',
  kind: 'collectionType',
  singularName: 'product',
  pluralName: 'products',
  table: 'products',
  attributes: {
    slug: { ...scalar, type: 'uid', column: 'slug', targetField: 'name' },
    size: { ...scalar, type: 'enumeration', column: 'size', enum: ['small', 'medium', 'large', 'x_large'] },
  },
} as const satisfies ContentTypeSchema;
const aboutSchema = {
  ...header,
  uid: 'api::about.about',
  kind: 'singleType',
  singularName: 'about',
  pluralName: 'abouts',
  table: 'abouts',
  attributes: {
    title: { ...scalar, type: 'string', column: 'title' },
    blocks: { kind: 'dynamiczone', required: false, private: false, localized: false, components: ['shared.media', 'shared.quote'] },
  },
} as const satisfies ContentTypeSchema;
const tagSchema = {
  ...header,
  uid: 'api::tag.tag',
  kind: 'collectionType',
  singularName: 'tag',
  pluralName: 'tags',
  table: 'tags',
  attributes: { name: { ...scalar, type: 'string', column: 'name' } },
} as const satisfies ContentTypeSchema;
const componentProductDimensionsSchema = {
  uid: 'product.dimensions',
  table: 'components_product_dimensions',
  attributes: { unit: { ...scalar, type: 'enumeration', column: 'unit', enum: ['cm', 'in'] } },
} as const satisfies ComponentSchema;

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
    const unit = { typeName: 'ENUM_COMPONENTPRODUCTDIMENSIONS_UNIT', values: { cm: 'cm', in: 'in' } };
    expect(componentGraphql(componentProductDimensionsSchema, { typeName: 'ComponentProductDimensions', enums: { unit } }).enums).toEqual({ unit });
    const about = singleTypeGraphql(aboutSchema, {
      typeName: 'About',
      queries: { one: 'about' },
      mutations: { update: 'updateAbout', delete: 'deleteAbout' },
      enums: {},
      dynamicZones: { blocks: 'AboutBlocksDynamicZone' },
    });
    expect(about.dynamicZones).toEqual({ blocks: 'AboutBlocksDynamicZone' });
    const tags = { one: 'tag', many: 'tags', connection: 'tags_connection' };
    expect(collectionTypeGraphql(tagSchema, { typeName: 'Tag', queries: tags, mutations: { create: 'createTag', update: 'updateTag', delete: 'deleteTag' }, enums: {}, dynamicZones: {} }).schema).toBe(
      tagSchema,
    );
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
