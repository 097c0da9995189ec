/**
 * The GraphQL API through HTTP against a generated server, on SQLite and PostgreSQL: mutations
 * (relations, components, zones, status, locales, single types, the fr-only delete), upload
 * mutations, what a selection costs in SQL statements, lists answered in memory against the same
 * lists answered in SQL, and permissions. (Reads are covered case by case by the conformance
 * suite in test/conformance/graphql.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients } from '../support/databases.ts';
import { request, startSeededServer, type JsonResponse, type TestServer } from './support.ts';

const DOCUMENT_ID = /^[a-z][a-z0-9]{23}$/;

describe.each(clients)('GraphQL API on %s', (database) => {
  let server: TestServer;
  const doc = (label: string): string => server.seedMap.documents[label]?.documentId ?? '';
  const media = (label: string): number => server.seedMap.media[label]?.id ?? 0;
  const gql = (query: string, variables?: Record<string, unknown>): Promise<JsonResponse> => request(server.url, 'POST', '/graphql', { query, ...(variables === undefined ? {} : { variables }) });
  /** The data of a request that must succeed. */
  const data = async (query: string, variables?: Record<string, unknown>): Promise<any> => {
    const response = await gql(query, variables);
    expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
    expect(response.status).toBe(200);
    return response.body.data;
  };

  beforeAll(async () => {
    server = await startSeededServer(database, 'graphql');
  });
  afterAll(() => server.stop());

  describe('mutations', () => {
    const ARTICLE_FIELDS = `documentId title publishedAt author { name } tags { name } cover { name }
      seo { metaTitle metaSocial { socialNetwork title } }
      blocks { __typename ... on ComponentSharedQuote { title body } ... on ComponentSharedMedia { file { name } } }`;

    it('create a document with relations, media, components and a dynamic zone, published by default', async () => {
      const { createArticle } = await data(`mutation ($data: ArticleInput!) { createArticle(data: $data) { ${ARTICLE_FIELDS} } }`, {
        data: {
          title: 'Written through GraphQL',
          slug: 'written-through-graphql',
          author: doc('author-ada'),
          tags: [doc('tag-01'), doc('tag-02')],
          cover: String(media('img-red')),
          seo: { metaTitle: 'Meta', metaDescription: 'Description', metaSocial: [{ socialNetwork: 'Twitter', title: 'tw' }] },
          blocks: [
            { __typename: 'ComponentSharedQuote', title: 'Q', body: 'B' },
            { __typename: 'ComponentSharedMedia', file: media('img-green') },
          ],
        },
      });
      expect(createArticle).toMatchObject({
        title: 'Written through GraphQL',
        author: { name: 'Ada Lovelace' },
        tags: [{ name: 'tag-01' }, { name: 'tag-02' }],
        cover: { name: 'red.png' },
        seo: { metaTitle: 'Meta', metaSocial: [{ socialNetwork: 'Twitter', title: 'tw' }] },
        blocks: [
          { __typename: 'ComponentSharedQuote', title: 'Q', body: 'B' },
          { __typename: 'ComponentSharedMedia', file: { name: 'green.png' } },
        ],
      });
      expect(createArticle.documentId).toMatch(DOCUMENT_ID);
      expect(createArticle.publishedAt).not.toBeNull();
      // REST serves the same document: both APIs write through one engine.
      const rest = await request(server.url, 'GET', `/api/articles/${createArticle.documentId}?populate[0]=author`);
      expect(rest.body.data).toMatchObject({ title: 'Written through GraphQL', author: { name: 'Ada Lovelace' } });
    });

    it('keep a draft a draft with status: DRAFT, leaving the published version as it was', async () => {
      const { createTag } = await data('mutation { createTag(data: { name: "graphql-status" }) { documentId } }');
      const { createArticle } = await data(`mutation { createArticle(data: { title: "Published title", tags: ["${createTag.documentId}"] }) { documentId } }`);
      const id = createArticle.documentId as string;
      const { updateArticle } = await data(`mutation { updateArticle(documentId: "${id}", status: DRAFT, data: { title: "Draft title" }) { title publishedAt } }`);
      expect(updateArticle).toEqual({ title: 'Draft title', publishedAt: null });
      const read = await data(`{ published: article(documentId: "${id}") { title } draft: article(documentId: "${id}", status: DRAFT) { title publishedAt } }`);
      expect(read).toEqual({ published: { title: 'Published title' }, draft: { title: 'Draft title', publishedAt: null } });
      // Relations follow the root's status: the tag's published articles show the published title.
      const tag = await data(`{ tag(documentId: "${createTag.documentId}") { articles { title } } }`);
      expect(tag.tag.articles).toEqual([{ title: 'Published title' }]);
    });

    it("refuse an invalid body with Strapi's BAD_USER_INPUT and write nothing", async () => {
      const before = (await data('{ tags_connection { pageInfo { total } } }')).tags_connection.pageInfo.total;
      const response = await gql('mutation { createTag(data: { name: "tag-01" }) { documentId } }');
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ createTag: null });
      expect(response.body.errors[0].extensions).toEqual({
        code: 'BAD_USER_INPUT',
        error: {
          name: 'ValidationError',
          message: 'This attribute must be unique',
          details: { errors: [{ path: ['name'], message: 'This attribute must be unique', name: 'ValidationError', value: 'tag-01' }] },
        },
      });
      expect((await data('{ tags_connection { pageInfo { total } } }')).tags_connection.pageInfo.total).toBe(before);
    });

    it('refuse zone entries of an unknown type or named by __component alone, and take __component beside __typename', async () => {
      const unknown = await gql('mutation { updateAbout(data: { blocks: [{ __typename: "ComponentSharedNope" }] }) { title } }');
      expect(unknown.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(unknown.body.errors[0].message).toMatch(/^Component not found\. expected one of: /);
      const spelled = await gql('mutation { updateAbout(data: { blocks: [{ __component: "shared.quote", title: "x" }] }) { title } }');
      expect(spelled.body.errors[0].message).toMatch(/^Component not found\. expected one of: /);
      const echoed = await gql('mutation { updateAbout(data: { blocks: [{ __typename: "ComponentSharedQuote", __component: "shared.quote", title: "echoed" }] }) { blocks { __typename } } }');
      expect(echoed.body).toEqual({ data: { updateAbout: { blocks: [{ __typename: 'ComponentSharedQuote' }] } } });
    });

    it('update and delete, answering null for an unknown update and the documentId for any delete', async () => {
      const { createTag } = await data('mutation { createTag(data: { name: "graphql-delete", weight: 1 }) { documentId weight } }');
      const id = createTag.documentId as string;
      expect((await data(`mutation { updateTag(documentId: "${id}", data: { weight: 2 }) { weight } }`)).updateTag).toEqual({ weight: 2 });
      expect((await data(`mutation { deleteTag(documentId: "${id}") { documentId } }`)).deleteTag).toEqual({ documentId: id });
      expect((await data(`{ tag(documentId: "${id}") { name } }`)).tag).toBeNull();
      // As Strapi: deleting a document that does not exist answers its documentId, without error.
      expect((await data(`mutation { deleteTag(documentId: "${id}") { documentId } }`)).deleteTag).toEqual({ documentId: id });
      expect((await data(`mutation { updateTag(documentId: "${id}", data: { weight: 3 }) { weight } }`)).updateTag).toBeNull();
    });

    it('write and delete locales: deletePage(locale: "fr") deletes the fr version only (Strapi deletes en)', async () => {
      const { createPage } = await data('mutation { createPage(locale: "fr", data: { title: "Bonjour", slug: "bonjour-gql", theme: dark }) { documentId locale theme } }');
      expect(createPage).toMatchObject({ locale: 'fr', theme: 'dark' });
      const id = createPage.documentId as string;
      const { updatePage } = await data(
        `mutation { updatePage(documentId: "${id}", locale: "en", data: { title: "Hello", slug: "hello-gql" }) { locale title theme localizations { locale title } } }`,
      );
      // The en version is new; the non-localized theme is shared by every locale.
      expect(updatePage).toEqual({ locale: 'en', title: 'Hello', theme: 'dark', localizations: [{ locale: 'fr', title: 'Bonjour' }] });
      expect((await data(`mutation { deletePage(documentId: "${id}", locale: "fr") { documentId } }`)).deletePage).toEqual({ documentId: id });
      const after = await data(`{ en: page(documentId: "${id}") { title } fr: page(documentId: "${id}", locale: "fr") { title } }`);
      expect(after).toEqual({ en: { title: 'Hello' }, fr: null });
    });

    it('update single types (created on the first update) and delete them', async () => {
      const { updateAbout } = await data('mutation { updateAbout(data: { title: "About GraphQL", blocks: [{ __typename: "ComponentSharedRichText", body: "x" }] }) { title blocks { __typename } } }');
      expect(updateAbout).toEqual({ title: 'About GraphQL', blocks: [{ __typename: 'ComponentSharedRichText' }] });
      const { deleteAbout } = await data('mutation { deleteAbout { documentId } }');
      expect(deleteAbout.documentId).toBe(doc('about'));
      expect((await data('{ about { title } }')).about).toBeNull();
      const again = await gql('mutation { deleteAbout { documentId } }');
      expect(again.body.errors[0].extensions).toMatchObject({ code: 'STRAPI_NOT_FOUND_ERROR', error: { name: 'NotFoundError', message: 'Document not found' } });
    });

    it('update file info and delete files by numeric id; an unknown id deletes nothing and answers null', async () => {
      const { updateUploadFile } = await data(
        `mutation { updateUploadFile(id: "${media('img-blue')}", info: { alternativeText: "A blue square", caption: "blue" }) { documentId name alternativeText caption } }`,
      );
      expect(updateUploadFile).toMatchObject({ name: 'blue.png', alternativeText: 'A blue square', caption: 'blue' });
      expect((await request(server.url, 'GET', `/api/upload/files/${media('img-blue')}`)).body.alternativeText).toBe('A blue square');
      expect((await data('mutation { deleteUploadFile(id: "999999") { documentId } }')).deleteUploadFile).toBeNull();
      const unknownUpdate = await gql('mutation { updateUploadFile(id: "999999", info: { caption: "x" }) { name } }');
      expect(unknownUpdate.body.errors[0].extensions).toMatchObject({ code: 'STRAPI_NOT_FOUND_ERROR', error: { message: 'file.notFound' } });
      const { deleteUploadFile } = await data(`mutation { deleteUploadFile(id: "${media('doc-manual')}") { name mime } }`);
      expect(deleteUploadFile).toEqual({ name: 'manual.pdf', mime: 'application/pdf' });
      expect((await request(server.url, 'GET', `/api/upload/files/${media('doc-manual')}`)).status).toBe(404);
    });

    it('refuse a DateTime without a time (BAD_USER_INPUT, as Strapi), and take one with it', async () => {
      const create = (availableAt: string) =>
        gql('mutation ($data: ProductInput!) { createProduct(data: $data) { availableAt } }', { data: { name: `At ${availableAt}`, slug: `at-${availableAt.slice(0, 10)}`, availableAt } });
      const bare = await create('2024-01-15');
      expect(bare.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(bare.body.errors[0].message).toContain('DateTime cannot represent "2024-01-15"');
      expect((await data('{ products(filters: { slug: { eq: "at-2024-01-15" } }) { name } }')).products).toEqual([]);
      const full = await create('2024-01-16T10:30:00.000Z');
      expect(full.body).toEqual({ data: { createProduct: { availableAt: '2024-01-16T10:30:00.000Z' } } });
    });
  });

  describe('queries', () => {
    it('keep a password field in the output type, always null: written through a mutation, never read back', async () => {
      const { createProduct } = await data('mutation ($data: ProductInput!) { createProduct(data: $data) { documentId name secret } }', {
        data: { name: 'Password holder', slug: 'password-holder', secret: 'hunter2' },
      });
      expect(createProduct).toMatchObject({ name: 'Password holder', secret: null });
      const { products } = await data('{ products(filters: { slug: { eq: "password-holder" } }) { name secret } }');
      expect(products).toEqual([{ name: 'Password holder', secret: null }]);
      // Stored, hashed: the hash never comes back, and cannot be probed through a filter.
      const probe = await gql('{ products(filters: { secret: { startsWith: "$2" } }) { name } }');
      expect(probe.status).toBe(400);
      expect(probe.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    });

    it('refuse pageInfo inside a relation connection (400 GRAPHQL_VALIDATION_FAILED)', async () => {
      const response = await gql('{ articles { tags_connection { nodes { name } pageInfo { total } } } }');
      expect(response.status).toBe(400);
      expect(response.body.errors[0]).toMatchObject({
        message: 'Cannot query field "pageInfo" on type "TagRelationResponseCollection".',
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      });
    });

    it('answer a forbidden list with FORBIDDEN and null data, while the permitted findOne works', async () => {
      const list = await gql('{ internalNotes { title } }');
      expect(list.status).toBe(200);
      expect(list.body).toEqual({
        data: null,
        errors: [{ message: 'Forbidden access', path: ['internalNotes'], extensions: { code: 'FORBIDDEN', error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} } } }],
      });
      expect(list.queries).toBe(0);
      expect((await data(`{ internalNote(documentId: "${doc('note-plan')}") { title } }`)).internalNote).toEqual({ title: 'Secret plan' });
    });

    it('cost a number of SQL statements set by the selection, not by the rows: 3 or 120 nested articles', async () => {
      const tags = await data('mutation { a: createTag(data: { name: "count-a" }) { documentId } b: createTag(data: { name: "count-b" }) { documentId } }');
      const tagIds = [tags.a.documentId, tags.b.documentId];
      const createArticles = async (from: number, count: number) => {
        const fields = Array.from({ length: count }, (_, i) => {
          const n = from + i;
          return `a${n}: createArticle(data: { title: "Counted ${n}", slug: "counted-${n}", author: "${doc('author-ada')}", tags: ${JSON.stringify(tagIds)},
            seo: { metaTitle: "m${n}", metaDescription: "d", metaSocial: [{ socialNetwork: Facebook, title: "f${n}" }] },
            blocks: [{ __typename: "ComponentSharedMedia", file: ${media('img-red')} }, { __typename: "ComponentSharedQuote", title: "q${n}" }] }) { documentId }`;
        });
        await data(`mutation { ${fields.join('\n')} }`);
      };
      const query = `{ tags(filters: { name: { startsWith: "count-" } }, sort: "name") {
        name
        articles(sort: "slug", pagination: { limit: 5 }) {
          slug author { name avatar { url } } category { name }
          seo { metaTitle metaSocial { title } }
          blocks { __typename ... on ComponentSharedMedia { file { url } } ... on ComponentSharedQuote { title } }
        }
        articles_connection(filters: { seo: { metaTitle: { startsWith: "m1" } } }) { nodes { slug } }
      } }`;
      await createArticles(0, 3);
      const few = await gql(query);
      expect(few.body.data.tags.map((t: { articles: unknown[] }) => t.articles.length)).toEqual([3, 3]);
      for (let from = 3; from < 120; from += 25) await createArticles(from, Math.min(25, 120 - from));
      const many = await gql(query);
      expect(many.body.errors).toBeUndefined();
      expect(many.body.data.tags[0].articles).toHaveLength(5);
      expect(many.body.data.tags[0].articles[0]).toEqual({
        slug: 'counted-0',
        author: { name: 'Ada Lovelace', avatar: { url: expect.stringMatching(/^\/uploads\//) } },
        category: null,
        seo: { metaTitle: 'm0', metaSocial: [{ title: 'f0' }] },
        blocks: [
          { __typename: 'ComponentSharedMedia', file: { url: expect.stringMatching(/^\/uploads\//) } },
          { __typename: 'ComponentSharedQuote', title: 'q0' },
        ],
      });
      // m1, m10-m19 and m100-m119 match (31 of 120): two argument sets, so all 120 rows are read once and
      // each list is derived in memory, then paginated per parent (defaultLimit 10).
      expect(many.body.data.tags[0].articles_connection.nodes.map((n: { slug: string }) => n.slug)).toEqual(['counted-1', ...Array.from({ length: 9 }, (_, i) => `counted-${10 + i}`)]);
      expect(many.queries).toBe(few.queries);
      // One statement: tags with articles (once for both fields), author, avatar, category, seo, metaSocial and the zone inside
      // (on MariaDB the zone is one aggregate per component kind, still in that statement).
      expect(many.queries).toBe(1);
    });

    it('answer a list selected twice with different arguments (in memory) as SQL answers each alone', async () => {
      const variants: readonly string[] = [
        '(sort: "slug:desc")',
        '(filters: { title: { containsi: "COUNTED 1" } }, sort: "slug")',
        '(filters: { or: [{ readingTime: { null: true } }, { slug: { endsWith: "7" } }] }, sort: ["readingTime:desc", "slug"])',
        '(filters: { not: { title: { contains: "2" } } }, pagination: { start: 3, limit: 4 })',
        '(filters: { seo: { metaSocial: { title: { in: ["f3", "f33", "f113"] } } } }, sort: "seo.metaTitle:desc")',
        '(filters: { author: { name: { eq: "Ada Lovelace" } }, tags: { name: { eq: "count-b" } } }, sort: "author.name", pagination: { limit: 7 })',
      ];
      for (const args of variants) {
        const alone = await data(`{ tags(filters: { name: { eq: "count-a" } }) { articles${args} { slug } } }`);
        const twice = await data(`{ tags(filters: { name: { eq: "count-a" } }) { x: articles${args} { slug } y: articles(sort: "title") { slug } } }`);
        expect(twice.tags[0].x, args).toEqual(alone.tags[0].articles);
        expect(alone.tags[0].articles.length, args).toBeGreaterThan(0);
      }
    });

    it('apply the root publicationFilter / hasPublishedVersion to populated relations too, as Strapi does', async () => {
      // A tag with three articles: one never published (a draft only), one published unchanged, one published then edited.
      const { createTag } = await data('mutation { createTag(data: { name: "graphql-cohorts" }) { documentId } }');
      const tag = createTag.documentId as string;
      await data(`mutation { createArticle(status: DRAFT, data: { title: "Cohort draft only", tags: ["${tag}"] }) { documentId } }`);
      await data(`mutation { createArticle(data: { title: "Cohort published", tags: ["${tag}"] }) { documentId } }`);
      const { createArticle } = await data(`mutation { createArticle(data: { title: "Cohort edited", tags: ["${tag}"] }) { documentId } }`);
      await data(`mutation { updateArticle(documentId: "${createArticle.documentId}", status: DRAFT, data: { title: "Cohort edited (draft)" }) { title } }`);
      // From each draft article of the tag, back to the tag and its draft articles: the nested list is filtered like the root.
      const nested = async (args: string): Promise<string[][]> => {
        const { articles } = await data(
          `{ articles(status: DRAFT, ${args}, filters: { tags: { documentId: { eq: "${tag}" } } }, sort: "title") { title tags { articles(sort: "title") { title } } } }`,
        );
        return (articles as { title: string; tags: { articles: { title: string }[] }[] }[]).map((a) => [a.title, ...a.tags[0]!.articles.map((x) => x.title)]);
      };
      expect(await nested('hasPublishedVersion: false')).toEqual([['Cohort draft only', 'Cohort draft only']]);
      expect(await nested('publicationFilter: HAS_PUBLISHED_VERSION')).toEqual([
        ['Cohort edited (draft)', 'Cohort edited (draft)', 'Cohort published'],
        ['Cohort published', 'Cohort edited (draft)', 'Cohort published'],
      ]);
      expect(await nested('publicationFilter: MODIFIED')).toEqual([['Cohort edited (draft)', 'Cohort edited (draft)']]);
      // Without a refinement the nested list has every draft of the tag, as before.
      const { articles } = await data(`{ articles(status: DRAFT, filters: { tags: { documentId: { eq: "${tag}" } } }, sort: "title") { tags { articles(sort: "title") { title } } } }`);
      expect(articles[0].tags[0].articles.map((a: { title: string }) => a.title)).toEqual(['Cohort draft only', 'Cohort edited (draft)', 'Cohort published']);
    });

    it('filter and sort repeatable components, paginated per parent', async () => {
      const { products } = await data(`{ products(filters: { slug: { eq: "alpha-widget" } }) {
        all: variants(sort: "sku") { sku } blue: variants(filters: { color: { eqi: "BLUE" } }) { sku } first: variants(sort: "price:desc", pagination: { limit: 1 }) { sku price }
      } }`);
      expect(products).toEqual([{ all: [{ sku: 'ALPHA-BLUE' }, { sku: 'ALPHA-RED' }], blue: [{ sku: 'ALPHA-BLUE' }], first: [{ sku: 'ALPHA-BLUE', price: 21.5 }] }]);
    });
  });

  describe('permissions', () => {
    it('hide relations to types the caller may not find, refuse filters on them, and refuse their queries', async () => {
      await server.restart(['api::author.author.find']);
      const { article } = await data(`{ article(documentId: "${doc('article-hello')}") { title author { name } } }`);
      expect(article).toEqual({ title: 'Hello World', author: null });
      const { category } = await data(`{ category(documentId: "${doc('cat-tech')}") { name articles { title author { name } } } }`);
      expect(category.articles.length).toBeGreaterThan(0);
      for (const entry of category.articles) expect(entry.author).toBeNull();
      const filtered = await gql('{ articles(filters: { author: { name: { eq: "Ada Lovelace" } } }) { title } }');
      expect(filtered.body.errors[0]).toMatchObject({ message: 'Invalid key author', extensions: { code: 'BAD_USER_INPUT' } });
      const listed = await gql('{ authors { name } }');
      expect(listed.body.errors[0].extensions.code).toBe('FORBIDDEN');
      // findOne is its own action.
      expect((await data(`{ author(documentId: "${doc('author-ada')}") { name } }`)).author).toEqual({ name: 'Ada Lovelace' });
    });

    it('refuse upload mutations and locale queries without their actions, changing nothing', async () => {
      await server.restart(['plugin::upload.content-api.upload', 'plugin::upload.content-api.destroy', 'plugin::i18n.locales.listLocales']);
      const update = await gql(`mutation { updateUploadFile(id: "${media('img-red')}", info: { caption: "nope" }) { caption } }`);
      expect(update.body.errors[0]).toMatchObject({ message: 'Forbidden access', extensions: { code: 'FORBIDDEN' } });
      const remove = await gql(`mutation { deleteUploadFile(id: "${media('img-red')}") { name } }`);
      expect(remove.body).toMatchObject({ data: { deleteUploadFile: null }, errors: [{ extensions: { code: 'FORBIDDEN' } }] });
      const file = await request(server.url, 'GET', `/api/upload/files/${media('img-red')}`);
      expect(file.status).toBe(200);
      expect(file.body.caption).not.toBe('nope');
      expect((await gql('{ i18NLocales { code } }')).body.errors[0].extensions.code).toBe('FORBIDDEN');
      // Reading files needs find/findOne only.
      expect((await data(`{ uploadFiles(filters: { name: { eq: "red.png" } }) { name } }`)).uploadFiles).toEqual([{ name: 'red.png' }]);
    });

    it('refuse writes without their action', async () => {
      await server.restart(['api::tag.tag.create', 'api::tag.tag.update', 'api::tag.tag.delete']);
      for (const mutation of [
        'createTag(data: { name: "x" }) { name }',
        `updateTag(documentId: "${doc('tag-01')}", data: { weight: 9 }) { name }`,
        `deleteTag(documentId: "${doc('tag-01')}") { documentId }`,
      ]) {
        const response = await gql(`mutation { ${mutation} }`);
        expect(response.body.errors[0].extensions.code, mutation).toBe('FORBIDDEN');
      }
      expect((await data(`{ tag(documentId: "${doc('tag-01')}") { name weight } }`)).tag.name).toBe('tag-01');
    });
  });
});
