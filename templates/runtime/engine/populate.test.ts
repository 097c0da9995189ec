/**
 * Every populate kind — relations (owning and mappedBy sides, in components and dynamic zones),
 * media (single, multiple, in components), components (single, repeatable, nested), dynamic
 * zones with `on`, localizations — with their fields/filters/sort, the versions relations pick
 * (root status, parent locale), and the empty shapes, on both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, openExampleDatabase, type ExampleDatabase } from '../../../test/support/example-db.ts';
import type { ListQuery, PopulateTree, ReadQuery } from '../query/types.ts';
import type { ContentTypeSchema, ModelSchema } from '../schema.ts';
import { createReadEngine } from './read.ts';
import { asc, cond, desc, docs, eq, listQuery, nested, published, seedConformance, type Seeded, type Seeder } from './test-seed.ts';
import type { Entity, ReadEngine } from './types.ts';

const ARTICLE = 'api::article.article';
const PRODUCT = 'api::product.product';
const AUTHOR = 'api::author.author';
const PAGE = 'api::page.page';
const CATEGORY = 'api::category.category';
const TAG = 'api::tag.tag';

/**
 * The example model has no relation to a localized type; these two reuse pages_category_lnk to
 * get one: `page.related` (owning, localized → localized) and `category.pages` (the mappedBy
 * side of page.category, non-localized → localized).
 */
function withLocalizedRelations(model: ModelSchema): ModelSchema {
  const page = model.contentTypes[PAGE]!;
  const category = model.contentTypes[CATEGORY]!;
  const related: ContentTypeSchema = {
    ...page,
    attributes: {
      ...page.attributes,
      related: { kind: 'relation', target: PAGE, cardinality: 'many', owner: true, linkTable: 'pages_category_lnk', required: false, private: false, localized: true },
    },
  };
  const pages: ContentTypeSchema = {
    ...category,
    attributes: {
      ...category.attributes,
      pages: { kind: 'relation', target: PAGE, cardinality: 'many', owner: false, inverse: 'category', linkTable: 'pages_category_lnk', required: false, private: false, localized: false },
    },
  };
  return { ...model, contentTypes: { ...model.contentTypes, [PAGE]: related, [CATEGORY]: pages } };
}

describe.each(clients)('populate on %s', (client) => {
  let ex: ExampleDatabase;
  let engine: ReadEngine;
  let seeded: Seeded;
  let seeder: Seeder;

  beforeAll(async () => {
    ex = await openExampleDatabase(client);
    seeder = await seedConformance(ex.db, ex.model);
    // Tags linked out of id order, and a card pointing at an article that was never published.
    await seeder.document(ARTICLE, 'article-ordered', published({ title: 'Ordered', slug: 'ordered', tags: docs('tag-10', 'tag-02', 'tag-07') }));
    await seeder.document(
      ARTICLE,
      'article-card-draft',
      published({ title: 'Card to a draft', slug: 'card-to-a-draft', blocks: [{ __component: 'shared.article-card', title: 'Soon', article: docs('article-draft-only') }] }),
    );
    seeded = seeder.seeded();
    engine = createReadEngine({ db: ex.db, model: withLocalizedRelations(ex.model) });
    // page.related exists only in the extended model: link it by hand.
    for (const rowId of seeded.rows['page-home']!) {
      for (const [ord, label] of ['page-contact', 'page-legal'].entries()) {
        await seeder.insert('pages_category_lnk', { entity_id: rowId, target_document_id: seeded.doc[label]!, ord: ord + 1, inverse_ord: 1 });
      }
    }
  });
  afterAll(async () => ex?.close());

  const list = async (uid: string, query: Partial<ListQuery>): Promise<Entity[]> => (await engine.findMany(uid, listQuery(query))).results;
  const one = async (uid: string, label: string, query: Partial<ReadQuery>): Promise<Entity> => {
    const entity = await engine.findOne(uid, seeded.doc[label]!, { status: 'published', populate: {}, ...query });
    expect(entity).not.toBeNull();
    return entity!;
  };
  const pick = (entities: unknown, key: string): unknown[] => (entities as Entity[]).map((e) => e[key]);

  describe('relations', () => {
    it('returns to-one as an object or null, to-many as an array in link order', async () => {
      const [ordered] = await list(ARTICLE, { filters: eq('slug', 'ordered'), populate: { tags: { fields: ['name'] }, author: {}, featuredProduct: {} } });
      expect(pick(ordered!['tags'], 'name')).toEqual(['tag-10', 'tag-02', 'tag-07']);
      expect(ordered!['author']).toBeNull();
      expect(ordered!['featuredProduct']).toBeNull();
      const [lonely] = await list(ARTICLE, { filters: eq('slug', 'lonely-article'), populate: { tags: {} } });
      expect(lonely!['tags']).toEqual([]);
    });

    it('applies fields, filters and sort, and a sort adds its field', async () => {
      const hello = await one(ARTICLE, 'article-hello', {
        populate: { tags: { fields: ['name'], filters: cond('weight', 'gt', 10), sort: [desc('weight')] } },
      });
      expect(hello['tags']).toEqual([
        { id: expect.any(Number), documentId: seeded.doc['tag-03'], name: 'tag-03', weight: 21 },
        { id: expect.any(Number), documentId: seeded.doc['tag-02'], name: 'tag-02', weight: 14 },
      ]);
    });

    it('reads the mappedBy side in the target list order', async () => {
      const tags = await list(TAG, { filters: eq('name', 'tag-02'), populate: { articles: { fields: ['slug'] } } });
      expect(pick(tags[0]!['articles'], 'slug')).toEqual(['second-steps', 'hello-world', 'ordered']);
      const alpha = await one(PRODUCT, 'product-alpha', { fields: ['name'], populate: { reviewArticle: { fields: ['slug'] } } });
      expect(alpha['reviewArticle']).toEqual({ id: expect.any(Number), documentId: seeded.doc['article-hello'], slug: 'hello-world' });
    });

    it('follows the root status: drafts read drafts, published reads only targets with a published version', async () => {
      const grace = (status: 'draft' | 'published'): Promise<Entity> => one(AUTHOR, 'author-grace', { status, populate: { articles: { fields: ['title', 'publishedAt'], sort: [asc('slug')] } } });
      expect(pick((await grace('published'))['articles'], 'title')).toEqual(['Modified After Publish']);
      const drafts = (await grace('draft'))['articles'] as Entity[];
      expect(pick(drafts, 'title')).toEqual(['Draft Only Notes', 'Modified After Publish (draft)']);
      expect(pick(drafts, 'publishedAt')).toEqual([null, null]);
    });

    it('follows the root status inside dynamic zones too', async () => {
      const card = async (status: 'draft' | 'published'): Promise<unknown> => {
        const entity = await one(ARTICLE, 'article-card-draft', { status, populate: { blocks: { on: { 'shared.article-card': { populate: { article: { fields: ['title'] } } } } } } });
        return (entity['blocks'] as Entity[])[0]!['article'];
      };
      expect(await card('published')).toBeNull();
      expect(await card('draft')).toEqual({ id: expect.any(Number), documentId: seeded.doc['article-draft-only'], title: 'Draft Only Notes' });
    });

    it('populates several levels deep', async () => {
      const hello = await one(ARTICLE, 'article-hello', {
        fields: ['slug'],
        populate: { author: { fields: ['name'], populate: { articles: { fields: ['slug'], sort: [asc('slug')], populate: { tags: { fields: ['name'] } } } } } },
      });
      const author = hello['author'] as Entity;
      expect(author['name']).toBe('Ada Lovelace');
      expect(pick(author['articles'], 'slug')).toEqual(['hello-world', 'second-steps']);
      expect((author['articles'] as Entity[]).map((a) => pick(a['tags'], 'name'))).toEqual([['tag-01', 'tag-02', 'tag-03'], ['tag-02']]);
    });
  });

  describe('localized relation targets', () => {
    it('an owning relation from a localized row reads the targets of that row locale', async () => {
      const related = async (locale: string, status: 'draft' | 'published'): Promise<unknown[]> => {
        const home = await one(PAGE, 'page-home', { locale, status, populate: { related: { fields: ['slug', 'locale'] } } });
        return pick(home['related'], 'slug');
      };
      expect(await related('en', 'published')).toEqual(['contact']);
      expect(await related('fr', 'published')).toEqual(['mentions-legales']);
      expect(await related('fr', 'draft')).toEqual(['contactez-nous', 'mentions-legales']);
    });

    it('in a list over every locale, each row gets its own locale', async () => {
      const pages = await list(PAGE, { locale: '*', filters: eq('slug', ['home', 'accueil']), sort: [asc('slug')], populate: { related: { fields: ['slug'] } } });
      expect(pages.map((p) => [p['slug'], pick(p['related'], 'slug')])).toEqual([
        ['accueil', ['mentions-legales']],
        ['home', ['contact']],
      ]);
    });

    it('from a non-localized row: the root query locale, or one version per document', async () => {
      const pagesOf = async (locale?: string): Promise<unknown[]> => {
        const query: Partial<ReadQuery> = { populate: { pages: { fields: ['slug'] } }, ...(locale === undefined ? {} : { locale }) };
        return pick((await one(CATEGORY, 'cat-news', query))['pages'], 'slug');
      };
      expect(await pagesOf('fr')).toEqual(['accueil']);
      expect(await pagesOf('en')).toEqual(['home']);
      expect(await pagesOf()).toEqual(['home']);
    });

    it('a non-localized row reached from a localized one passes on the root query locale, not its parent row locale', async () => {
      const pages = await list(PAGE, { locale: '*', filters: eq('slug', ['home', 'accueil']), sort: [asc('slug')], populate: { category: { populate: { pages: { fields: ['slug'] } } } } });
      // No locale applies below the category: one version per document, as from a category read alone.
      expect(pages.map((p) => [p['slug'], pick((p['category'] as Entity)['pages'], 'slug')])).toEqual([
        ['accueil', ['home']],
        ['home', ['home']],
      ]);
    });

    it('filters through a localized relation see the same versions', async () => {
      const pages = await list(PAGE, { locale: '*', fields: ['slug'], sort: [asc('slug')], filters: nested('related', eq('title', 'Mentions légales')) });
      expect(pick(pages, 'slug')).toEqual(['accueil']);
    });
  });

  describe('media', () => {
    it('single as an object or null, multiple as an array or []', async () => {
      const products = await list(PRODUCT, { fields: ['slug'], sort: [asc('slug')], populate: { manual: { fields: ['name'] }, gallery: { fields: ['name'] } } });
      expect(products.map((p) => [p['slug'], (p['manual'] as Entity | null)?.['name'] ?? null, pick(p['gallery'], 'name')])).toEqual([
        ['alpha-widget', 'manual.pdf', ['red.png', 'green.png', 'large-gradient.png']],
        ['beta-gadget', null, ['photo.jpg']],
        ['delta-device', null, []],
        ['epsilon-engine', null, []],
        ['gamma-tool', null, []],
      ]);
    });

    it('with filters and sort', async () => {
      const alpha = await one(PRODUCT, 'product-alpha', { populate: { gallery: { fields: ['name'], filters: cond('width', 'lt', 100), sort: [desc('name')] } } });
      expect(pick(alpha['gallery'], 'name')).toEqual(['red.png', 'green.png']);
    });

    it('returns every file field but private ones', async () => {
      const hello = await one(ARTICLE, 'article-hello', { fields: ['slug'], populate: { cover: {} } });
      expect(hello['cover']).toEqual({
        id: seeded.file['img-large'],
        documentId: seeded.fileDoc['img-large'],
        name: 'large-gradient.png',
        alternativeText: 'A gradient large enough for a thumbnail',
        caption: 'Gradient',
        focalPoint: null,
        width: 320,
        height: 200,
        formats: {
          thumbnail: {
            name: 'thumbnail_large-gradient.png',
            hash: `thumbnail_${seeded.fileHash['img-large']}`,
            ext: '.png',
            mime: 'image/png',
            path: null,
            url: `/uploads/thumbnail_${seeded.fileHash['img-large']}.png`,
            width: 245,
            height: 153,
            size: 92.25,
            sizeInBytes: 92247,
          },
        },
        hash: seeded.fileHash['img-large'],
        ext: '.png',
        mime: 'image/png',
        size: 20.01,
        url: `/uploads/${seeded.fileHash['img-large']}.png`,
        previewUrl: null,
        provider: 'local',
        provider_metadata: null,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        updatedAt: expect.stringMatching(/Z$/),
        publishedAt: expect.stringMatching(/Z$/),
      });
    });

    it('inside components, nested components and dynamic zones', async () => {
      const hello = await one(ARTICLE, 'article-hello', {
        fields: ['slug'],
        populate: {
          seo: { populate: { shareImage: { fields: ['name'] } } },
          blocks: { on: { 'shared.slider': { populate: { files: { fields: ['name'] } } }, 'shared.media': { populate: { file: { fields: ['name'] } } } } },
        },
      });
      expect((hello['seo'] as Entity)['shareImage']).toEqual({ id: seeded.file['img-blue'], documentId: seeded.fileDoc['img-blue'], name: 'blue.png' });
      expect((hello['blocks'] as Entity[]).map((b) => [b['__component'], b['file'] ?? pick(b['files'], 'name')])).toEqual([
        ['shared.media', { id: seeded.file['img-red'], documentId: seeded.fileDoc['img-red'], name: 'red.png' }],
        ['shared.slider', ['green.png', 'blue.png']],
      ]);
      const alpha = await one(PRODUCT, 'product-alpha', { fields: ['slug'], populate: { variants: { fields: ['sku'], populate: { image: { fields: ['name'] } } } } });
      expect((alpha['variants'] as Entity[]).map((v) => [v['sku'], (v['image'] as Entity)['name']])).toEqual([
        ['ALPHA-RED', 'red.png'],
        ['ALPHA-BLUE', 'blue.png'],
      ]);
    });
  });

  describe('components', () => {
    it('single as an object or null, repeatable as an array or [], with id and scalars only', async () => {
      const articles = await list(ARTICLE, { fields: ['slug'], filters: eq('slug', ['hello-world', 'lonely-article']), sort: [asc('slug')], populate: { seo: {} } });
      expect(articles.map((a) => a['seo'])).toEqual([{ id: expect.any(Number), metaTitle: 'Hello World SEO', metaDescription: 'The hello world article' }, null]);
      const products = await list(PRODUCT, { fields: ['slug'], sort: [asc('slug')], populate: { variants: { fields: ['sku'] } } });
      expect(products.map((p) => pick(p['variants'], 'sku'))).toEqual([['ALPHA-RED', 'ALPHA-BLUE'], ['BETA-ONE'], [], [], []]);
    });

    it('nested components only when populated in turn', async () => {
      const plain = await one(PRODUCT, 'product-beta', { fields: ['slug'], populate: { variants: {} } });
      expect(Object.keys((plain['variants'] as Entity[])[0]!).sort()).toEqual(['color', 'id', 'price', 'sku']);
      const deep = await one(PRODUCT, 'product-beta', { fields: ['slug'], populate: { variants: { populate: { dimensions: { fields: ['unit'] } } } } });
      expect((deep['variants'] as Entity[])[0]!['dimensions']).toEqual({ id: expect.any(Number), unit: 'cm' });
      const seo = await one('api::global.global', 'global', { populate: { defaultSeo: { populate: { metaSocial: {} } } } });
      expect((seo['defaultSeo'] as Entity)['metaSocial']).toEqual([{ id: expect.any(Number), socialNetwork: 'Twitter', title: 'Site on Twitter', description: null }]);
    });
  });

  describe('dynamic zones', () => {
    it('interleaves component kinds in zone order, each entry with __component and id', async () => {
      const hello = await one(ARTICLE, 'article-hello', {
        fields: ['slug'],
        populate: { blocks: { on: { 'shared.rich-text': {}, 'shared.quote': {}, 'shared.media': {}, 'shared.slider': {}, 'shared.article-card': {} } } },
      });
      expect(pick(hello['blocks'], '__component')).toEqual(['shared.rich-text', 'shared.quote', 'shared.media', 'shared.slider', 'shared.article-card']);
      for (const entry of hello['blocks'] as Entity[]) expect(entry['id']).toEqual(expect.any(Number));
    });

    it('drops the kinds not listed under `on` and applies fields per kind', async () => {
      const hello = await one(ARTICLE, 'article-hello', { fields: ['slug'], populate: { blocks: { on: { 'shared.quote': { fields: ['title'] }, 'shared.rich-text': {} } } } });
      expect(hello['blocks']).toEqual([
        { __component: 'shared.rich-text', id: expect.any(Number), body: '# Hello\n\nWelcome to **the** blog.' },
        { __component: 'shared.quote', id: expect.any(Number), title: 'Grace' },
      ]);
    });

    it('is [] when empty', async () => {
      const lonely = await one(ARTICLE, 'article-lonely', { fields: ['slug'], populate: { blocks: { on: { 'shared.quote': {} } } } });
      expect(lonely['blocks']).toEqual([]);
    });
  });

  describe('localizations', () => {
    it('lists the other locales of the same document in the root status', async () => {
      const pages = (locale: string, status: 'draft' | 'published'): Promise<Entity[]> =>
        list(PAGE, { locale, status, sort: [asc('slug')], fields: ['slug'], populate: { localizations: { fields: ['slug', 'locale'] } } });
      expect((await pages('en', 'published')).map((p) => [p['slug'], pick(p['localizations'], 'slug')])).toEqual([
        ['contact', []],
        ['home', ['accueil']],
      ]);
      expect((await pages('en', 'draft')).map((p) => [p['slug'], pick(p['localizations'], 'locale')])).toEqual([
        ['contact', ['fr']],
        ['home', ['fr']],
        ['upcoming', []],
      ]);
      expect((await pages('*', 'published')).map((p) => [p['slug'], pick(p['localizations'], 'slug')])).toEqual([
        ['accueil', ['home']],
        ['contact', []],
        ['home', ['accueil']],
        ['mentions-legales', []],
      ]);
    });

    it('populates inside localizations', async () => {
      const home = await one(PAGE, 'page-home', { locale: 'en', fields: ['slug'], populate: { localizations: { fields: ['slug'], populate: { seo: { fields: ['metaTitle'] } } } } });
      expect(home['localizations']).toEqual([{ id: expect.any(Number), documentId: seeded.doc['page-home'], slug: 'accueil', seo: { id: expect.any(Number), metaTitle: 'Accueil' } }]);
    });
  });

  it('leaves attributes that were not populated out', async () => {
    const hello = await one(ARTICLE, 'article-hello', {});
    for (const key of ['author', 'tags', 'cover', 'seo', 'blocks', 'category', 'featuredProduct']) expect(hello).not.toHaveProperty(key);
    const home = await one(PAGE, 'page-home', { locale: 'en', populate: {} as PopulateTree });
    expect(home).not.toHaveProperty('localizations');
    expect(home['locale']).toBe('en');
  });
});
