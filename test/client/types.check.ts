/**
 * Type-level checks of the generated client (generated/client, from content-types/): compiled by
 * types.test.ts with tsc, never run. Each `expectTypeOf` fails compilation when the computed type
 * differs, and each `@ts-expect-error` fails it when the line it guards compiles.
 */
import { expectTypeOf } from 'vitest';
import { CapiError, createClient, type Article, type ArticleInput, type Entry, type TypedDocument, type Types } from '../../generated/client/src/index.ts';

const client = createClient({ baseURL: 'http://localhost:1337/api' });
const articles = client.collection('articles');

type Ids = 'id' | 'documentId';
type Timestamps = 'createdAt' | 'updatedAt' | 'publishedAt';
type ArticleScalars = 'title' | 'description' | 'slug' | 'readingTime' | 'featured' | Timestamps;
type ArticlePopulatables = 'cover' | 'author' | 'category' | 'tags' | 'featuredProduct' | 'blocks' | 'seo';

export async function withoutQuery(): Promise<void> {
  const { data, meta } = await articles.find();
  const entry = data[0]!;
  // Scalars only: nothing populatable is in the type until populated.
  expectTypeOf<keyof typeof entry>().toEqualTypeOf<Ids | ArticleScalars>();
  expectTypeOf(entry.title).toEqualTypeOf<string | null>();
  expectTypeOf(entry.readingTime).toEqualTypeOf<number | null>();
  expectTypeOf(meta.pagination.total).toEqualTypeOf<number>();
  expectTypeOf(entry).toEqualTypeOf<Article>();
}

export async function populateAList(): Promise<void> {
  const { data } = await articles.find({ populate: ['author', 'tags'] });
  const entry = data[0]!;
  expectTypeOf<keyof typeof entry>().toEqualTypeOf<Ids | ArticleScalars | 'author' | 'tags'>();
  expectTypeOf(entry.author).toEqualTypeOf<Entry<Types, 'api::author.author'> | null>();
  // The author's own relations are not populated one level down.
  expectTypeOf<keyof NonNullable<typeof entry.author>>().toEqualTypeOf<Ids | 'name' | 'email' | 'bio' | Timestamps>();
  expectTypeOf(entry.tags).toEqualTypeOf<Entry<Types, 'api::tag.tag'>[]>();
}

export async function populateOneName(): Promise<void> {
  const { data } = await articles.findOne('abc', { populate: 'cover' });
  expectTypeOf<keyof typeof data>().toEqualTypeOf<Ids | ArticleScalars | 'cover'>();
  expectTypeOf(data.cover?.url).toEqualTypeOf<string | undefined>();
  expectTypeOf(data.cover?.width).toEqualTypeOf<number | null | undefined>();
}

export async function populateEverything(): Promise<void> {
  const { data } = await articles.find({ populate: '*' });
  const entry = data[0]!;
  expectTypeOf<keyof typeof entry>().toEqualTypeOf<Ids | ArticleScalars | ArticlePopulatables>();
  // One level only: the SEO component's media is not populated by '*'.
  expectTypeOf<keyof NonNullable<typeof entry.seo>>().toEqualTypeOf<'id' | 'metaTitle' | 'metaDescription'>();
  // Every dynamic-zone entry carries its component uid.
  expectTypeOf(entry.blocks[0]!.__component).toEqualTypeOf<'shared.media' | 'shared.quote' | 'shared.rich-text' | 'shared.slider' | 'shared.article-card'>();
}

export async function dottedPaths(): Promise<void> {
  const { data } = await articles.find({ populate: ['author.avatar', 'seo.shareImage', 'category'] });
  const entry = data[0]!;
  expectTypeOf<keyof typeof entry>().toEqualTypeOf<Ids | ArticleScalars | 'author' | 'seo' | 'category'>();
  expectTypeOf<keyof NonNullable<typeof entry.author>>().toEqualTypeOf<Ids | 'name' | 'email' | 'bio' | Timestamps | 'avatar'>();
  expectTypeOf(entry.seo?.shareImage?.mime).toEqualTypeOf<string | undefined>();
  expectTypeOf<keyof NonNullable<typeof entry.category>>().toEqualTypeOf<Ids | 'name' | 'slug' | 'description' | Timestamps>();
}

export async function nestedObjects(): Promise<void> {
  const { data } = await articles.find({
    populate: { author: { fields: ['name'], populate: { avatar: { fields: ['url'] } } }, tags: true, seo: false },
    fields: ['title'],
  });
  const entry = data[0]!;
  // `fields` narrows the scalars; ids stay; `seo: false` is not populated.
  expectTypeOf<keyof typeof entry>().toEqualTypeOf<Ids | 'title' | 'author' | 'tags'>();
  expectTypeOf<keyof NonNullable<typeof entry.author>>().toEqualTypeOf<Ids | 'name' | 'avatar'>();
  expectTypeOf<keyof NonNullable<NonNullable<typeof entry.author>['avatar']>>().toEqualTypeOf<Ids | 'url'>();
}

export async function nestedFiltersAndSorts(): Promise<void> {
  const { data } = await articles.find({ populate: { tags: { filters: { name: { $startsWith: 'a' } }, sort: ['name:desc'], fields: ['name'] } } });
  expectTypeOf<keyof (typeof data)[number]['tags'][number]>().toEqualTypeOf<Ids | 'name'>();
  // @ts-expect-error a nested filter is typed by the relation's target (a tag's weight is a number)
  await articles.find({ populate: { tags: { filters: { weight: { $gt: 'heavy' } } } } });
  // @ts-expect-error and so is a nested sort
  await articles.find({ populate: { tags: { sort: 'title' } } });
}

export async function fieldsForms(): Promise<void> {
  const list = await articles.find({ fields: 'title,slug' });
  expectTypeOf<keyof (typeof list.data)[number]>().toEqualTypeOf<Ids | 'title' | 'slug'>();
  const star = await articles.find({ fields: ['*'] });
  expectTypeOf<keyof (typeof star.data)[number]>().toEqualTypeOf<Ids | ArticleScalars>();
  const ids = await articles.find({ fields: ['id'] });
  expectTypeOf<keyof (typeof ids.data)[number]>().toEqualTypeOf<Ids>();
  // An empty list is not sent: everything is answered.
  const empty = await articles.find({ fields: [] });
  expectTypeOf<keyof (typeof empty.data)[number]>().toEqualTypeOf<Ids | ArticleScalars>();
}

export async function dynamicZoneFragments(): Promise<void> {
  const { data } = await articles.find({
    populate: { blocks: { on: { 'shared.quote': { fields: ['body'] }, 'shared.media': { populate: ['file'] } } } },
  });
  const block = data[0]!.blocks[0]!;
  if (block.__component === 'shared.quote') expectTypeOf<keyof typeof block>().toEqualTypeOf<'__component' | 'id' | 'body'>();
  if (block.__component === 'shared.media') {
    expectTypeOf<keyof typeof block>().toEqualTypeOf<'__component' | 'id' | 'file'>();
    expectTypeOf(block.file?.url).toEqualTypeOf<string | undefined>();
  }
  // Components not listed under `on` are not answered at all.
  expectTypeOf(block.__component).toEqualTypeOf<'shared.quote' | 'shared.media'>();
}

export async function localizedTypes(): Promise<void> {
  const { data } = await client.collection('pages').find({ populate: '*', locale: 'fr', status: 'draft' });
  const page = data[0]!;
  // A localized type carries its locale, and '*' populates the other locales' versions too.
  expectTypeOf(page.locale).toEqualTypeOf<string>();
  expectTypeOf<keyof (typeof page.localizations)[number]>().toEqualTypeOf<Ids | 'title' | 'slug' | 'body' | 'sortOrder' | 'theme' | Timestamps | 'locale'>();
  const plain = await client.collection('pages').find();
  expectTypeOf(plain.data[0]!).not.toHaveProperty('localizations');
}

export async function zonesPopulatedWhole(): Promise<void> {
  // `populate: { blocks: { populate: '*' } }` populates each entry's own media and relations...
  const deep = (await articles.findOne('doc', { populate: { blocks: { populate: '*' } }, fields: ['id'] })).data.blocks[0]!;
  if (deep.__component === 'shared.media') expectTypeOf<keyof typeof deep>().toEqualTypeOf<'__component' | 'id' | 'file'>();
  // ...`populate: ['blocks']` only their scalars.
  const shallow = (await articles.findOne('doc', { populate: ['blocks'], fields: ['id'] })).data.blocks[0]!;
  if (shallow.__component === 'shared.media') expectTypeOf<keyof typeof shallow>().toEqualTypeOf<'__component' | 'id'>();
  if (shallow.__component === 'shared.quote') expectTypeOf<keyof typeof shallow>().toEqualTypeOf<'__component' | 'id' | 'title' | 'body'>();
}

export async function privateAttributes(): Promise<void> {
  const { data } = await client.collection('products').find({ populate: '*' });
  const product = data[0]!;
  // internalCode is private and secret a password: neither is part of any answer.
  expectTypeOf(product).not.toHaveProperty('internalCode');
  expectTypeOf(product).not.toHaveProperty('secret');
  expectTypeOf(product.serialNumber).toEqualTypeOf<string | null>();
  expectTypeOf(product.size).toEqualTypeOf<'small' | 'medium' | 'large' | 'x_large' | null>();
  // @ts-expect-error a private attribute cannot be selected
  await client.collection('products').find({ fields: ['internalCode'] });
  // @ts-expect-error nor filtered on
  await client.collection('products').find({ filters: { internalCode: 'x' } });
}

export async function filtersAreTyped(): Promise<void> {
  await articles.find({
    filters: {
      title: { $containsi: 'capi' },
      readingTime: { $gte: 3, $lt: 10 },
      featured: true,
      id: { $in: [1, 2] },
      author: { name: { $startsWith: 'A' } },
      seo: { metaTitle: { $null: false } },
      $or: [{ slug: 'a' }, { slug: { $in: ['b', 'c'] } }],
      $not: { publishedAt: { $null: true } },
    },
    sort: ['title:asc', 'createdAt:desc'],
    pagination: { page: 1, pageSize: 10 },
    status: 'draft',
    _q: 'search',
  });
  // @ts-expect-error no such attribute
  await articles.find({ filters: { nope: 'x' } });
  // @ts-expect-error text operators only on text attributes
  await articles.find({ filters: { readingTime: { $contains: '3' } } });
  // @ts-expect-error a number attribute compares with numbers
  await articles.find({ filters: { readingTime: { $gt: 'three' } } });
  // @ts-expect-error not an operator
  await articles.find({ filters: { title: { $like: 'x' } } });
  // @ts-expect-error no such attribute to sort by
  await articles.find({ sort: 'nope:asc' });
  // @ts-expect-error no such relation to populate
  await articles.find({ populate: ['nope'] });
  // @ts-expect-error `fields` takes scalars only
  await articles.find({ fields: ['author'] });
  // @ts-expect-error status is draft or published
  await articles.find({ status: 'archived' });
}

export async function inputsAreTyped(): Promise<void> {
  const created = await articles.create(
    {
      title: 'Hello',
      author: 'author-document-id',
      tags: { connect: ['t1'], disconnect: ['t2'] },
      seo: { metaTitle: 'x', metaDescription: 'y' },
      blocks: [{ __component: 'shared.quote', body: 'q' }],
    },
    { populate: ['author'] },
  );
  expectTypeOf<keyof typeof created.data>().toEqualTypeOf<Ids | ArticleScalars | 'author'>();
  await articles.update('doc', { tags: ['t1', 't2'], cover: 5, featuredProduct: null });
  await articles.update('doc', { tags: { set: [{ documentId: 't1' }] } });
  expectTypeOf<ArticleInput['title']>().toEqualTypeOf<string>();
  expectTypeOf<ArticleInput['readingTime']>().toEqualTypeOf<number | null | undefined>();
  // @ts-expect-error title is text
  await articles.create({ title: 5 });
  // @ts-expect-error no such attribute
  await articles.update('doc', { nope: 1 });
  // @ts-expect-error a component instance carries its required attributes (metaDescription)
  await articles.update('doc', { seo: { metaTitle: 'x' } });
  // @ts-expect-error a dynamic-zone entry names an allowed component
  await articles.update('doc', { blocks: [{ __component: 'product.variant' }] });
  // Required attributes are required on create, except in a draft.
  // @ts-expect-error a tag needs its name
  await client.collection('tags').create({ weight: 1 });
  await client.collection('tags').create({ name: 'ok' });
  // @ts-expect-error a published article needs its title
  await articles.create({ readingTime: 1 });
  await articles.create({ readingTime: 1 }, { status: 'draft' });
}

export async function singleTypesFilesAndAuth(): Promise<void> {
  const global = await client.single('global').find({ populate: ['favicon'] });
  expectTypeOf<keyof typeof global.data>().toEqualTypeOf<Ids | 'siteName' | 'siteDescription' | Timestamps | 'favicon'>();
  await client.single('global').update({ siteName: 'x' });
  // @ts-expect-error a single type is not a collection
  client.collection('global');
  // @ts-expect-error no such collection
  client.collection('nopes');
  const files = await client.files.find({ fields: ['name', 'url'] });
  expectTypeOf<keyof (typeof files)[number]>().toEqualTypeOf<Ids | 'name' | 'url' | 'isUrlSigned'>();
  const signedIn = await client.auth.login({ identifier: 'ada', password: 'secret' });
  expectTypeOf(signedIn.jwt).toEqualTypeOf<string>();
  expectTypeOf(signedIn.user).not.toHaveProperty('password');
  expectTypeOf(signedIn.user.username).toEqualTypeOf<string | null>();
  const me = await client.auth.me({ populate: ['role'] });
  expectTypeOf(me.role?.name).toEqualTypeOf<string | null | undefined>();
}

export function errorsAreValues(error: unknown): void {
  if (error instanceof CapiError) {
    expectTypeOf(error.envelope.error.status).toEqualTypeOf<number>();
    expectTypeOf(error.envelope.data).toEqualTypeOf<null>();
    expectTypeOf(error.errorName).toEqualTypeOf<string>();
  }
}

export async function graphqlOperations(): Promise<void> {
  // What graphql-codegen's client preset generates for `query Tags($limit: Int) { tags(...) { name } }`.
  const Tags = '' as unknown as TypedDocument<{ tags: { name: string }[] }, { limit?: number | null }>;
  const typed = await client.graphql(Tags, { limit: 2 });
  expectTypeOf(typed.tags[0]!.name).toEqualTypeOf<string>();
  // @ts-expect-error variables are typed too
  await client.graphql(Tags, { limit: 'two' });
  expectTypeOf(await client.graphql('{ tags { name } }')).toEqualTypeOf<unknown>();
}
