/**
 * Selection → what the engine reads: the root's fields and populate tree, for every kind of
 * selection (scalars, relations flat and `_connection`, media, components, zones through
 * fragments, aliases, directives), and where lists are left to memory.
 */
import { describe, expect, it } from 'vitest';
import { connectionSelection, readParts } from './resolvers-read.ts';
import type { GraphqlContext, GraphqlRuntime } from './resolvers-context.ts';
import { DerivedLists } from './selection-lists.ts';
import { derivesLists, listsInMemory } from './selection-plan.ts';
import { bindings, model, planOf, resolveInfo, target, targets } from './test-plan.ts';

const ARTICLE = 'api::article.article';
const read = (document: string, uid = ARTICLE, variables?: Record<string, unknown>) => readParts(planOf(document, uid, variables === undefined ? {} : { variables }));

describe('selection → fields and populate', () => {
  it('reads only the selected scalars; documentId and __typename cost nothing', () => {
    expect(read('{ articles { documentId __typename title slug createdAt } }')).toEqual({ fields: ['title', 'slug', 'createdAt'], populate: {} });
    expect(read('{ articles { documentId } }')).toEqual({ fields: [], populate: {} });
  });

  it('populates relations, media and components with what is selected below them, level by level', () => {
    const parts = read('{ articles { title author { name avatar { url } } cover { name url } seo { metaTitle shareImage { url } metaSocial { title } } } }');
    expect(parts).toEqual({
      fields: ['title'],
      populate: {
        author: { fields: ['name'], populate: { avatar: { fields: ['url'] } } },
        cover: { fields: ['name', 'url'] },
        seo: { fields: ['metaTitle'], populate: { shareImage: { fields: ['url'] }, metaSocial: { fields: ['title'] } } },
      },
    });
  });

  it('hands one set of list arguments to the engine: filters and sort in SQL, pagination per parent later', () => {
    const parts = read('{ articles { tags(filters: { name: { startsWith: "tag-0" } }, sort: "name:desc", pagination: { limit: 2 }) { name } } }');
    expect(parts.populate).toEqual({
      tags: {
        fields: ['name'],
        filters: { kind: 'condition', attribute: 'name', operator: 'startsWith', value: 'tag-0' },
        sort: [{ path: ['name'], direction: 'desc' }],
      },
    });
  });

  it('reads `<relation>_connection { nodes }` and the flat field as one populated attribute', () => {
    const parts = read('{ articles { tags { name } tags_connection { nodes { weight } } } }');
    expect(parts.populate).toEqual({ tags: { fields: ['name', 'weight'] } });
  });

  it('merges aliases and fragments, named and inline, and honours @skip and @include', () => {
    const document = `query ($withAuthor: Boolean!, $noSlug: Boolean!) {
      articles { ...Card a: author @include(if: $withAuthor) { name } ... on Article { slug @skip(if: $noSlug) } }
    }
    fragment Card on Article { title author { bio } }`;
    expect(read(document, ARTICLE, { withAuthor: true, noSlug: true })).toEqual({ fields: ['title'], populate: { author: { fields: ['bio', 'name'] } } });
    expect(read(document, ARTICLE, { withAuthor: false, noSlug: false })).toEqual({ fields: ['title', 'slug'], populate: { author: { fields: ['bio'] } } });
  });

  it('lists every component of a zone (so __typename answers for each entry), with what its fragments select', () => {
    const parts = read('{ articles { blocks { __typename ... on ComponentSharedQuote { title } ...M } } } fragment M on ComponentSharedMedia { file { url } }');
    expect(parts.populate).toEqual({
      blocks: {
        on: {
          'shared.media': { fields: [], populate: { file: { fields: ['url'] } } },
          'shared.quote': { fields: ['title'] },
          'shared.rich-text': { fields: [] },
          'shared.slider': { fields: [] },
          'shared.article-card': { fields: [] },
        },
      },
    });
  });

  it('reads localizations like a relation to the same type', () => {
    const parts = read('{ pages { title localizations(sort: "locale") { locale } } }', 'api::page.page');
    expect(parts).toEqual({ fields: ['title'], populate: { localizations: { fields: ['locale'], sort: [{ path: ['locale'], direction: 'asc' }] } } });
  });

  it('does not read a relation to a type the caller may not read: its field answers null or []', () => {
    const plan = planOf('{ articles { title author { name } tags { name } } }', ARTICLE, { canRead: (uid) => uid !== 'api::author.author' });
    expect(readParts(plan).populate).toEqual({ tags: { fields: ['name'] } });
  });
});

describe('lists answered in memory', () => {
  it('reads a list selected with different arguments unfiltered, with what each selection filters and sorts on', () => {
    const plan = planOf('{ tags { a: articles(sort: "slug") { slug } b: articles(filters: { author: { name: { eq: "Ada" } } }, sort: "readingTime") { title } } }', 'api::tag.tag');
    const articles = plan.attributes.get('articles');
    expect(articles !== undefined && listsInMemory(articles)).toBe(true);
    expect(readParts(plan).populate).toEqual({
      articles: { fields: ['slug', 'title', 'readingTime'], populate: { author: { fields: ['name'] } } },
    });
    expect(derivesLists(plan)).toBe(true);
  });

  it('filters and sorts repeatable components in memory (the engine populates them whole)', () => {
    const plan = planOf('{ products { variants(filters: { dimensions: { unit: { eq: "in" } } }, sort: "price:desc") { sku } } }', 'api::product.product');
    expect(readParts(plan).populate).toEqual({ variants: { fields: ['sku', 'price'], populate: { dimensions: { fields: ['unit'] } } } });
    const variants = plan.attributes.get('variants');
    expect(variants !== undefined && listsInMemory(variants)).toBe(true);
  });

  it('keeps a plain repeatable component and a single argument set in SQL', () => {
    const plan = planOf('{ products { variants { sku } gallery(sort: "name") { name } } }', 'api::product.product');
    expect(derivesLists(plan)).toBe(false);
  });

  it('unfilters a nested list an in-memory filter looks through, even when it is selected filtered too', () => {
    const plan = planOf('{ authors { a: articles(filters: { tags: { name: { eq: "tag-01" } } }) { slug } b: articles { slug tags(filters: { weight: { gt: 1 } }) { name } } } }', 'api::author.author');
    const populate = readParts(plan).populate;
    expect(populate).toEqual({ articles: { fields: ['slug'], populate: { tags: { fields: ['name', 'weight'] } } } });
  });
});

describe('connections', () => {
  const runtime = { targets, bindings, model } as unknown as GraphqlRuntime;
  const context: GraphqlContext = { access: { principal: 'test', can: () => true }, lists: new DerivedLists() };

  it('plans `nodes` and notes whether pageInfo (and so a COUNT) is asked', () => {
    const withInfo = connectionSelection(runtime, context, resolveInfo('{ articles_connection { nodes { title } pageInfo { total } } }'), target(ARTICLE));
    expect(withInfo.pageInfo).toBe(true);
    expect(readParts(withInfo.plan)).toEqual({ fields: ['title'], populate: {} });
    const without = connectionSelection(runtime, context, resolveInfo('{ articles_connection { n: nodes { slug } } }'), target(ARTICLE));
    expect(without.pageInfo).toBe(false);
    expect(readParts(without.plan)).toEqual({ fields: ['slug'], populate: {} });
  });
});
