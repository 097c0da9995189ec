/** Relations: targets, and the two sides of a bidirectional relation agreeing. */
import { describe, expect, it } from 'vitest';
import { component, contentType, problems, single, type Json } from './helpers.ts';

function rel(relation: string, target: string, extra: { [key: string]: Json } = {}): { [key: string]: Json } {
  return { type: 'relation', relation, target, ...extra };
}

/** post.author ↔ author.posts with the given sides. */
function pair(author: { [key: string]: Json }, posts: { [key: string]: Json }): Record<string, Json> {
  return { ...single('post', { author }), ...single('author', { posts }) };
}

describe('semantic: relation targets', () => {
  it('requires the target to exist', () => {
    expect(problems({ ...single('post', { author: rel('manyToOne', 'api::autor.autor') }), ...single('author', {}) })).toEqual([
      'post.json #/attributes/author/target: relation target "api::autor.autor" does not exist\n    fix: did you mean "api::author.author"? use one of: plugin::users-permissions.role, plugin::users-permissions.user, api::author.author, api::post.post',
    ]);
  });

  it('leaves relations to plugin and admin types out instead of failing (the model builder never sees them)', () => {
    expect(problems(single('post', { user: rel('manyToOne', 'plugin::users-permissions.user'), editor: rel('oneToOne', 'admin::user') }))).toEqual([]);
  });

  it('rejects a component as a relation target', () => {
    expect(problems({ ...single('post', { seo: rel('oneToOne', 'shared.seo') }), 'components/shared/seo.json': component('Seo', {}) })).toEqual([
      'post.json #/attributes/seo/target: relation target "shared.seo" is a component, not a content type\n    fix: embed it with {"type": "component", "component": "shared.seo"}',
    ]);
  });
});

describe('semantic: inverse sides', () => {
  it('accepts the example pairs and self relations', () => {
    expect(problems(pair(rel('manyToOne', 'api::author.author', { inversedBy: 'posts' }), rel('oneToMany', 'api::post.post', { mappedBy: 'author' })))).toEqual([]);
    expect(problems(single('post', { parent: rel('manyToOne', 'api::post.post', { inversedBy: 'children' }), children: rel('oneToMany', 'api::post.post', { mappedBy: 'parent' }) }))).toEqual([]);
  });

  it('accepts a single type on the mappedBy side of a collection type relation', () => {
    const files = {
      'home.json': { ...(contentType('home', { featured: rel('oneToOne', 'api::post.post', { mappedBy: 'home' }) }) as Record<string, Json>), kind: 'singleType' },
      ...single('post', { home: rel('oneToOne', 'api::home.home', { inversedBy: 'featured' }) }),
    };
    expect(problems(files)).toEqual([]);
  });

  it('rejects both inversedBy and mappedBy on one attribute, once', () => {
    expect(problems(pair(rel('manyToOne', 'api::author.author', { inversedBy: 'posts', mappedBy: 'posts' }), rel('oneToMany', 'api::post.post', { mappedBy: 'author' })))).toEqual([
      'post.json #/attributes/author/mappedBy: a relation cannot have both "inversedBy" and "mappedBy"\n    fix: keep "inversedBy" on the owning side and "mappedBy" on the other side only',
    ]);
  });

  it('rejects an inverse on one-way relations', () => {
    expect(problems({ ...single('post', { author: rel('oneWay', 'api::author.author', { inversedBy: 'posts' }) }), ...single('author', {}) })).toEqual([
      'post.json #/attributes/author/inversedBy: oneWay relations have no inverse side, so "inversedBy" is not allowed\n    fix: remove "inversedBy", or make the relation oneToOne or manyToOne',
    ]);
  });

  it('requires inversedBy to name an attribute of the target, once for a typo', () => {
    expect(problems(pair(rel('manyToOne', 'api::author.author', { inversedBy: 'post' }), rel('oneToMany', 'api::post.post', { mappedBy: 'author' })))).toEqual([
      'post.json #/attributes/author/inversedBy: inversedBy "post" is not an attribute of api::author.author\n    fix: did you mean "posts"? add a relation "post" to api::author.author with "mappedBy": "author"',
    ]);
  });

  it('requires the inverse to be a relation', () => {
    expect(problems({ ...single('post', { author: rel('manyToOne', 'api::author.author', { inversedBy: 'name' }) }), ...single('author', { name: { type: 'string' } }) })).toEqual([
      'post.json #/attributes/author/inversedBy: inversedBy "name" names a string attribute of api::author.author, not a relation\n    fix: point "inversedBy" at a relation attribute of api::author.author',
    ]);
  });

  it('requires the inverse to point back with the counterpart key', () => {
    expect(problems(pair(rel('manyToOne', 'api::author.author', { inversedBy: 'posts' }), rel('oneToMany', 'api::post.post')))).toEqual([
      'post.json #/attributes/author/inversedBy: "posts" of api::author.author does not point back with "mappedBy": "author"\n    fix: set "mappedBy": "author" on "posts" of api::author.author',
    ]);
  });

  it('requires the inverse to target this type', () => {
    const files = { ...pair(rel('manyToOne', 'api::author.author', { inversedBy: 'posts' }), rel('oneToMany', 'api::tag.tag', { mappedBy: 'author' })), ...single('tag', {}) };
    expect(problems(files)).toEqual([
      'author.json #/attributes/posts/mappedBy: mappedBy "author" is not an attribute of api::tag.tag\n    fix: add a relation "author" to api::tag.tag with "inversedBy": "posts"',
      'post.json #/attributes/author/inversedBy: "posts" of api::author.author targets "api::tag.tag", not api::post.post\n    fix: set "target": "api::post.post" on "posts", or point "inversedBy" at another attribute',
    ]);
  });

  it('reports two owning sides once', () => {
    expect(problems(pair(rel('manyToOne', 'api::author.author', { inversedBy: 'posts' }), rel('oneToMany', 'api::post.post', { inversedBy: 'author' })))).toEqual([
      'author.json #/attributes/posts/inversedBy: both sides of the relation use "inversedBy" ("author" of api::post.post too)\n    fix: change one side to "mappedBy"; the "inversedBy" side owns the relation',
    ]);
  });

  it('requires compatible kinds', () => {
    expect(problems(pair(rel('manyToOne', 'api::author.author', { inversedBy: 'posts' }), rel('manyToMany', 'api::post.post', { mappedBy: 'author' })))).toEqual([
      'post.json #/attributes/author/relation: relation kinds do not match: "author" is manyToOne but "posts" of api::author.author is manyToMany\n    fix: make "posts" oneToMany, the counterpart of manyToOne',
    ]);
  });

  it('does not guess about a target whose attributes are unreadable', () => {
    const files = {
      ...single('post', { author: rel('manyToOne', 'api::author.author', { inversedBy: 'posts' }) }),
      'author.json': { ...(contentType('author', {}) as Record<string, Json>), attributes: [] },
    };
    expect(problems(files)).toEqual(['author.json #/attributes: "attributes" must be an object\n    fix: set "attributes" to an object']);
  });

  it('rejects a relation that is its own inverse', () => {
    expect(problems(single('post', { parent: rel('manyToOne', 'api::post.post', { inversedBy: 'parent' }) }))).toEqual([
      'post.json #/attributes/parent/inversedBy: a relation cannot be its own inverse\n    fix: point "inversedBy" at another relation attribute of api::post.post',
    ]);
  });

  it('rejects inverse sides on relations inside components', () => {
    expect(problems({ ...single('post', {}), 'components/shared/link.json': component('Link', { post: rel('oneToOne', 'api::post.post', { inversedBy: 'link' }) }) })).toEqual([
      'components/shared/link.json #/attributes/post/inversedBy: a relation in a component cannot have an inverse side ("inversedBy")\n    fix: remove "inversedBy"; components hold one-way relations only',
    ]);
  });
});
