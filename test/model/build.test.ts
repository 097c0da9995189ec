import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Attribute, ContentType, RelationAttribute } from '../../generator/model/types.ts';
import { exampleContentTypes, loadModelFrom } from '../support/model.ts';

const model = loadModelFrom(exampleContentTypes);
const type = (singular: string): ContentType => model.contentTypes.find((t) => t.singularName === singular) as ContentType;
const attribute = (singular: string, name: string): Attribute => type(singular).attributes.find((a) => a.name === name) as Attribute;

describe('buildModel on the example content types', () => {
  it('lists types and components sorted by uid, with derived names', () => {
    expect(model.contentTypes.map((t) => t.uid)).toEqual([
      'api::about.about',
      'api::article.article',
      'api::author.author',
      'api::category.category',
      'api::global.global',
      'api::internal-note.internal-note',
      'api::page.page',
      'api::product.product',
      'api::tag.tag',
      'plugin::users-permissions.role',
      'plugin::users-permissions.user',
    ]);
    expect(type('internal-note').names).toEqual({
      table: 'internal_notes',
      prismaModel: 'InternalNote',
      graphqlType: 'InternalNote',
      tsType: 'InternalNote',
      schemaConst: 'internalNoteSchema',
      routesConst: 'internalNoteRoutes',
      graphqlConst: 'internalNoteGraphql',
    });
    const richText = model.components.find((c) => c.uid === 'shared.rich-text');
    expect(richText?.names.graphqlType).toBe('ComponentSharedRichText');
    expect(richText?.names.table).toBe('components_shared_rich_texts');
  });

  it('reads kind, draft & publish and i18n options', () => {
    expect(type('global').kind).toBe('singleType');
    expect(type('article').draftAndPublish).toBe(true);
    expect(type('author').draftAndPublish).toBe(false);
    expect(type('page').localized).toBe(true);
    expect(type('article').localized).toBe(false);
  });

  it('marks attributes localized the way Strapi does: explicit opt-in, relations and uids always', () => {
    const localized = type('page')
      .attributes.filter((a) => a.localized)
      .map((a) => a.name);
    expect(localized).toEqual(['title', 'slug', 'body', 'seo', 'category']);
  });

  it('resolves both sides of a relation to one link table owned by the inversedBy side', () => {
    const owning = attribute('article', 'author') as RelationAttribute;
    const inverse = attribute('author', 'articles') as RelationAttribute;
    expect(owning).toMatchObject({ owner: true, cardinality: 'one', inverse: 'articles', linkTable: 'articles_author_lnk' });
    expect(inverse).toMatchObject({ owner: false, cardinality: 'many', inverse: 'author', linkTable: 'articles_author_lnk' });
    const oneWay = attribute('product', 'relatedProducts') as RelationAttribute;
    expect(oneWay).toMatchObject({ owner: true, cardinality: 'many', linkTable: 'products_related_products_lnk' });
    expect(oneWay.inverse).toBeUndefined();
  });

  it('has one link table per owning relation, components included', () => {
    expect(model.linkTables.map((l) => `${l.table} ${l.ownerUid}.${l.attribute} -> ${l.targetUid}`)).toEqual([
      'articles_author_lnk api::article.article.author -> api::author.author',
      'articles_category_lnk api::article.article.category -> api::category.category',
      'articles_featured_product_lnk api::article.article.featuredProduct -> api::product.product',
      'articles_tags_lnk api::article.article.tags -> api::tag.tag',
      'components_shared_article_cards_article_lnk shared.article-card.article -> api::article.article',
      'pages_category_lnk api::page.page.category -> api::category.category',
      'products_category_lnk api::product.product.category -> api::category.category',
      'products_related_products_lnk api::product.product.relatedProducts -> api::product.product',
      'up_users_role_lnk plugin::users-permissions.user.role -> plugin::users-permissions.role',
    ]);
  });

  it('marks private what the schema declares private (a password is not: it is hidden by its type) and keeps scalar options', () => {
    expect(attribute('product', 'secret')).toMatchObject({ kind: 'scalar', type: 'password', private: false });
    expect(attribute('product', 'internalCode')).toMatchObject({ private: true });
    expect(attribute('product', 'size')).toMatchObject({ enum: ['small', 'medium', 'large', 'x_large'], default: 'medium' });
    expect(attribute('product', 'stock')).toMatchObject({ min: 0, column: 'stock' });
    expect(attribute('product', 'serialNumber')).toMatchObject({ type: 'biginteger', column: 'serial_number' });
  });

  it('is deeply immutable', () => {
    expect(Object.isFrozen(model)).toBe(true);
    expect(Object.isFrozen(type('article').attributes[0])).toBe(true);
  });
});

describe('buildModel on spelled-out one-way relations', () => {
  it('treats oneWay as to-one and manyWay as to-many, both owning their link table', () => {
    const dir = mkdtempSync(join(tmpdir(), 'capi-oneway-'));
    try {
      const type = (singular: string, plural: string, attributes: object) =>
        JSON.stringify({ kind: 'collectionType', collectionName: plural, info: { singularName: singular, pluralName: plural, displayName: singular }, attributes });
      writeFileSync(join(dir, 'tag.json'), type('tag', 'tags', { name: { type: 'string' } }));
      writeFileSync(
        join(dir, 'post.json'),
        type('post', 'posts', {
          mainTag: { type: 'relation', relation: 'oneWay', target: 'api::tag.tag' },
          otherTags: { type: 'relation', relation: 'manyWay', target: 'api::tag.tag' },
        }),
      );
      const post = loadModelFrom(dir).contentTypes.find((t) => t.singularName === 'post') as ContentType;
      expect(post.attributes).toMatchObject([
        { name: 'mainTag', relation: 'oneWay', cardinality: 'one', owner: true, linkTable: 'posts_main_tag_lnk' },
        { name: 'otherTags', relation: 'manyWay', cardinality: 'many', owner: true, linkTable: 'posts_other_tags_lnk' },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
