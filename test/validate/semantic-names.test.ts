/** Names of types: file location, API names, tables and GraphQL types, across all files. */
import { describe, expect, it } from 'vitest';
import { component, contentType, problems, single } from './helpers.ts';

describe('semantic: type names', () => {
  it('requires the flat file name to be the singularName', () => {
    expect(problems({ 'posts.json': contentType('post', {}) })).toEqual([
      'posts.json #/info/singularName: file name "posts.json" does not match singularName "post"\n    fix: rename the file to post.json, or set "singularName" to "posts"',
    ]);
  });

  it('requires the Strapi content-types folder to be the singularName', () => {
    expect(problems({ 'src/api/blog/content-types/posts/schema.json': contentType('post', {}) })).toEqual([
      'api/blog/content-types/posts/schema.json #/info/singularName: folder "posts" does not match singularName "post"\n    fix: rename the folder to content-types/post, or set "singularName" to "posts"',
    ]);
  });

  it('requires singular and plural names to differ', () => {
    const files = { 'news.json': { kind: 'collectionType', collectionName: 'news', info: { singularName: 'news', pluralName: 'news', displayName: 'News' }, attributes: {} } };
    expect(problems(files)).toEqual(['news.json #/info/pluralName: pluralName "news" is the same as singularName\n    fix: use a distinct pluralName, e.g. "news-items"']);
  });

  it('rejects names capi uses for its own routes and types', () => {
    expect(problems(single('upload', {}))).toEqual([
      'upload.json #/info/pluralName: pluralName "uploads" is reserved: the media library (POST /upload, /api/upload/files, UploadFile) uses it\n    fix: choose another pluralName, e.g. "my-uploads"',
      'upload.json #/info/singularName: singularName "upload" is reserved: the media library (POST /upload, /api/upload/files, UploadFile) uses it\n    fix: choose another singularName, e.g. "my-upload"',
    ]);
    expect(problems(single('health', {}))).toEqual([
      'health.json #/info/singularName: singularName "health" is reserved: the health-check route /health uses it\n    fix: choose another singularName, e.g. "my-health"',
    ]);
  });

  it('rejects a plural name already used by another type', () => {
    const files = { ...single('a', {}), 'b.json': { ...obj(contentType('b', {})), info: { singularName: 'b', pluralName: 'as', displayName: 'B' } } };
    expect(problems(files)).toEqual([
      'b.json #/info/pluralName: pluralName "as" is already the pluralName of api::a.a (a.json)\n    fix: singular and plural names must be unique across all content types; choose another name',
    ]);
  });

  it('rejects a singular name that is the plural of another type', () => {
    const files = {
      'new.json': { ...obj(contentType('new', {})), info: { singularName: 'new', pluralName: 'news', displayName: 'New' } },
      'news.json': { ...obj(contentType('news', {})), info: { singularName: 'news', pluralName: 'news-items', displayName: 'News' } },
    };
    expect(problems(files)).toEqual([
      'news.json #/info/singularName: singularName "news" is already the pluralName of api::new.new (new.json)\n    fix: singular and plural names must be unique across all content types; choose another name',
    ]);
  });

  it('rejects names that differ but give one GraphQL name (item-2 and item2)', () => {
    expect(problems({ ...single('item-2', {}), ...single('item2', {}) })).toEqual([
      'item2.json #/info/pluralName: pluralName "item2s" and the pluralName "item-2s" of api::item-2.item-2 (item-2.json) both become the GraphQL name "item2S"\n    fix: rename one of them so that their GraphQL names differ',
      'item2.json #/info/singularName: singularName "item2" and the singularName "item-2" of api::item-2.item-2 (item-2.json) both become the GraphQL name "item2"\n    fix: rename one of them so that their GraphQL names differ',
    ]);
  });

  it('reports blog-post and blogPost as both a case error and a GraphQL clash', () => {
    expect(problems({ 'blogPost.json': contentType('blogPost', {}), ...single('blog-post', {}) })).toEqual([
      'blogPost.json #/info/pluralName: "info.pluralName" must be a kebab-case name like "blog-posts"\n    fix: use "blog-posts"',
      'blogPost.json #/info/pluralName: pluralName "blogPosts" and the pluralName "blog-posts" of api::blog-post.blog-post (blog-post.json) both become the GraphQL name "blogPosts"\n    fix: rename one of them so that their GraphQL names differ',
      'blogPost.json #/info/singularName: "info.singularName" must be a kebab-case name like "blog-post"\n    fix: use "blog-post"',
      'blogPost.json #/info/singularName: singularName "blogPost" and the singularName "blog-post" of api::blog-post.blog-post (blog-post.json) both become the GraphQL name "blogPost"\n    fix: rename one of them so that their GraphQL names differ',
    ]);
  });

  it('rejects a content type whose GraphQL type is a component type', () => {
    expect(problems({ ...single('component-shared-seo', {}), 'components/shared/seo.json': component('Seo', {}) })).toEqual([
      'components/shared/seo.json #: component shared.seo becomes the GraphQL type "ComponentSharedSeo", which is already the GraphQL type of singularName "component-shared-seo" (component-shared-seo.json)\n    fix: rename the component file or its category folder',
    ]);
  });

  it('rejects GraphQL types capi defines, and companions of other types', () => {
    expect(problems(single('pagination', {}))).toEqual([
      'pagination.json #/info/singularName: singularName "pagination" becomes the GraphQL type "Pagination", which capi already uses\n    fix: choose another singularName',
    ]);
    expect(problems({ ...single('article', {}), ...single('article-input', {}) })).toEqual([
      'article-input.json #/info/singularName: singularName "article-input" becomes the GraphQL type "ArticleInput", which is already the input type of singularName "article" (article.json)\n    fix: choose another singularName',
    ]);
  });

  it('rejects duplicate tables across content types and components, case-insensitively', () => {
    const files = { ...single('a', {}), 'b.json': contentType('b', {}, { collectionName: 'as' }), 'components/x/y.json': { collectionName: 'AS', info: { displayName: 'Y' }, attributes: {} } };
    expect(problems(files)).toEqual([
      'b.json #/collectionName: collectionName "as" is already the table of api::a.a (a.json)\n    fix: give every content type and component its own "collectionName"',
      'components/x/y.json #/collectionName: collectionName "AS" is already the table of api::a.a (a.json)\n    fix: give every content type and component its own "collectionName"',
    ]);
  });

  it('counts the default table of a component without collectionName', () => {
    const files = { ...single('a', {}, { collectionName: 'components_shared_seos' }), 'components/shared/seo.json': component('Seo', {}) };
    expect(problems(files)).toEqual([
      'components/shared/seo.json #: the default table "components_shared_seos" of this component is already the table of api::a.a (a.json)\n    fix: give every content type and component its own "collectionName"',
    ]);
  });

  it('rejects tables reserved for the runtime', () => {
    expect(problems(single('a', {}, { collectionName: 'strapi_things' }))).toEqual([
      'a.json #/collectionName: collectionName "strapi_things" is reserved: tables starting with "strapi_" belong to Strapi internals\n    fix: choose another collectionName',
    ]);
  });

  it("rejects the databases' own table names, on every database (a project may move to another)", () => {
    const files = { ...single('a', {}, { collectionName: 'sqlite_master' }), ...single('b', {}, { collectionName: 'SQLite_Things' }), ...single('c', {}, { collectionName: 'pg_class' }) };
    expect(problems(files)).toEqual([
      'a.json #/collectionName: collectionName "sqlite_master" is reserved: SQLite reserves names starting with "sqlite_" for its own tables (sqlite_master, sqlite_sequence), and refuses to create them\n    fix: choose another collectionName',
      'b.json #/collectionName: collectionName "SQLite_Things" is reserved: SQLite reserves names starting with "sqlite_" for its own tables (sqlite_master, sqlite_sequence), and refuses to create them\n    fix: choose another collectionName',
      'c.json #/collectionName: collectionName "pg_class" is reserved: PostgreSQL finds its system catalogs (pg_class, pg_user...) before a table of the same name, and may add more "pg_" names in any release\n    fix: choose another collectionName',
    ]);
    // Names of other databases' schemas are tables like any other on both servers.
    expect(problems({ ...single('d', {}, { collectionName: 'information_schema' }), ...single('e', {}, { collectionName: 'mysql' }) })).toEqual([]);
  });

  it('rejects a table that a relation needs for its links', () => {
    const files = {
      ...single('article', { author: { type: 'relation', relation: 'oneWay', target: 'api::author.author' } }),
      ...single('author', {}),
      ...single('x', {}, { collectionName: 'articles_author_lnk' }),
    };
    expect(problems(files)).toEqual([
      'article.json #/attributes/author: relation "author" stores its links in the table "articles_author_lnk", which is already the table of api::x.x (x.json)\n    fix: rename the relation, or the other collectionName',
    ]);
  });

  it('rejects a type whose Prisma model is the link model of a relation', () => {
    const files = { ...single('article', { author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author' } }), ...single('author', {}), ...single('article-author-link', {}) };
    expect(problems(files)).toEqual([
      'article.json #/attributes/author: relation "author" gets the Prisma model "ArticleAuthorLink", which is already the model of api::article-author-link.article-author-link (article-author-link.json)\n    fix: rename the relation, or the other type',
    ]);
  });

  it('requires component folders and files to be usable names', () => {
    expect(problems({ ...single('post', {}), 'components/My Cat/1st.json': component('X', {}) })).toEqual([
      'components/My Cat/1st.json #: component category "My Cat" must start with a letter and use only letters, digits, "-" or "_"\n    fix: rename the category folder under components/',
      'components/My Cat/1st.json #: component name "1st" must start with a letter and use only letters, digits, "-" or "_"\n    fix: rename the component file',
    ]);
  });
});

function obj(json: unknown): Record<string, unknown> {
  return json as Record<string, unknown>;
}
