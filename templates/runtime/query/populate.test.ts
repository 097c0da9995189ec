import { describe, expect, it } from 'vitest';
import { ARTICLE, failure, listQuery, PAGE, PRODUCT } from './test-fixtures.ts';
import type { PopulateTree } from './types.ts';

const populate = (uid: string, query: string, canRead?: (uid: string) => boolean): PopulateTree => listQuery(uid, query, canRead).populate;
const invalid = (message: string, details: Record<string, unknown>) => ({ status: 400, name: 'ValidationError', message, details });
const inQuery = (key: string, path: string | null) => ({ key, path, source: 'query', param: 'populate' });
const everyBlock = { 'shared.media': {}, 'shared.quote': {}, 'shared.rich-text': {}, 'shared.slider': {}, 'shared.article-card': {} };

describe('populate: absent and *', () => {
  it('absent populates nothing', () => {
    expect(populate(ARTICLE, '')).toEqual({});
  });

  it('an empty value populates nothing', () => {
    expect(populate(ARTICLE, 'populate=')).toEqual({});
  });

  it('* populates every relation, media, component and dynamic zone one level, in schema order', () => {
    const tree = populate(ARTICLE, 'populate=*');
    expect(tree).toEqual({ cover: {}, author: {}, category: {}, tags: {}, featuredProduct: {}, blocks: { on: everyBlock }, seo: {} });
    expect(Object.keys(tree)).toEqual(['cover', 'author', 'category', 'tags', 'featuredProduct', 'blocks', 'seo']);
  });

  it('* adds localizations on localized types', () => {
    expect(populate(PAGE, 'populate=*')).toEqual({ seo: {}, category: {}, localizations: {} });
  });

  it('* leaves out relations the reader cannot read, silently', () => {
    const tree = populate(ARTICLE, 'populate=*', (uid) => uid !== 'api::author.author');
    expect(Object.keys(tree)).toEqual(['cover', 'category', 'tags', 'featuredProduct', 'blocks', 'seo']);
  });

  it('* as a nested populate expands that level', () => {
    expect(populate(ARTICLE, 'populate[seo][populate]=*&populate[featuredProduct][populate]=*')).toEqual({
      seo: { populate: { shareImage: {}, metaSocial: {} } },
      featuredProduct: { populate: { gallery: {}, manual: {}, variants: {}, category: {}, relatedProducts: {}, reviewArticle: {} } },
    });
  });

  it('a * below the root is refused with the first attribute it stands for, without source/param', () => {
    expect(failure(() => populate(ARTICLE, 'populate[author]=*'))).toEqual(invalid('Invalid key avatar at author.avatar', { key: 'avatar', path: 'author.avatar' }));
    expect(failure(() => populate(ARTICLE, 'populate[seo]=*'))).toEqual(invalid('Invalid key shareImage at seo.shareImage', { key: 'shareImage', path: 'seo.shareImage' }));
  });

  it("a * as the value of a media or dynamic zone attribute reads as true, as in Strapi's API tests", () => {
    expect(populate(ARTICLE, 'populate[cover]=*')).toEqual(populate(ARTICLE, 'populate[cover]=true'));
    expect(populate(ARTICLE, 'populate[blocks]=*')).toEqual(populate(ARTICLE, 'populate[blocks]=true'));
  });

  it('a * standing for nothing (a component of scalars) reads as true', () => {
    expect(populate(PRODUCT, 'populate[variants][populate][dimensions]=*')).toEqual({ variants: { populate: { dimensions: {} } } });
  });
});

describe('populate: strings, comma lists and dotted paths', () => {
  it('a single attribute', () => {
    expect(populate(ARTICLE, 'populate=author')).toEqual({ author: {} });
  });

  it('a comma list, trimmed', () => {
    expect(populate(ARTICLE, 'populate=author, tags,,cover')).toEqual({ author: {}, tags: {}, cover: {} });
  });

  it('an array form', () => {
    expect(populate(ARTICLE, 'populate[0]=author&populate[1]=category')).toEqual({ author: {}, category: {} });
  });

  it('a dotted path populates every level it names', () => {
    expect(populate(ARTICLE, 'populate[0]=seo.shareImage')).toEqual({ seo: { populate: { shareImage: {} } } });
  });

  it('paths through the same attribute merge', () => {
    expect(populate(PRODUCT, 'populate[0]=variants.dimensions&populate[1]=variants.image')).toEqual({
      variants: { populate: { dimensions: {}, image: {} } },
    });
  });

  it('a component populates no deeper than named', () => {
    expect(populate(ARTICLE, 'populate=seo')).toEqual({ seo: {} });
  });

  it('a relation path goes as deep as named', () => {
    expect(populate(ARTICLE, 'populate=author.articles.tags')).toEqual({ author: { populate: { articles: { populate: { tags: {} } } } } });
  });

  it('a dynamic zone by name lists every component, scalars only', () => {
    expect(populate(ARTICLE, 'populate=blocks')).toEqual({ blocks: { on: everyBlock } });
  });

  it('a path through a dynamic zone populates the components that have that attribute', () => {
    expect(populate(ARTICLE, 'populate=blocks.file,blocks.article.author')).toEqual({
      blocks: {
        on: { ...everyBlock, 'shared.media': { populate: { file: {} } }, 'shared.article-card': { populate: { article: { populate: { author: {} } } } } },
      },
    });
  });

  it('localizations', () => {
    expect(populate(PAGE, 'populate=localizations')).toEqual({ localizations: {} });
  });

  it('unknown, scalar and creator keys are 400s naming the path', () => {
    expect(failure(() => populate(ARTICLE, 'populate=nope'))).toEqual(invalid('Invalid key nope', inQuery('nope', 'nope')));
    expect(failure(() => populate(ARTICLE, 'populate=title'))).toEqual(invalid('Invalid key title', inQuery('title', 'title')));
    expect(failure(() => populate(ARTICLE, 'populate=author.nope'))).toEqual(invalid('Invalid key nope at author.nope', inQuery('nope', 'author.nope')));
    expect(failure(() => populate(ARTICLE, 'populate=updatedBy'))).toEqual(invalid('Invalid key updatedBy', inQuery('updatedBy', 'updatedBy')));
    expect(failure(() => populate(ARTICLE, 'populate=localizations'))).toEqual(invalid('Invalid key localizations', inQuery('localizations', 'localizations')));
  });

  it('private and password attributes are 400s', () => {
    expect(failure(() => populate(PRODUCT, 'populate=internalCode'))).toEqual(invalid('Invalid key internalCode', inQuery('internalCode', 'internalCode')));
    expect(failure(() => populate(PRODUCT, 'populate=secret'))).toEqual(invalid('Invalid key secret', inQuery('secret', 'secret')));
  });

  it('media have nothing below them', () => {
    expect(failure(() => populate(ARTICLE, 'populate=cover.url'))).toEqual(invalid('Invalid key cover', inQuery('cover', 'cover')));
  });

  it('a zone path no component can follow is a 400', () => {
    expect(failure(() => populate(ARTICLE, 'populate=blocks.nope'))).toEqual(invalid('Invalid key nope at blocks.nope', inQuery('nope', 'blocks.nope')));
  });

  it('a * inside a list is no wildcard', () => {
    expect(failure(() => populate(ARTICLE, 'populate[0]=*'))).toEqual(invalid('Invalid key *', inQuery('*', '*')));
  });

  it('a list with an object in it is refused', () => {
    expect(failure(() => populate(ARTICLE, 'populate[0]=author&populate[1][x]=y'))).toEqual(invalid('Invalid populate parameter. Expected a string, an array of strings, a populate object', {}));
  });

  it('relations the reader cannot read are dropped, the rest of the path still checked', () => {
    const cannotReadAuthors = (uid: string) => uid !== 'api::author.author';
    expect(populate(ARTICLE, 'populate=author.articles,tags', cannotReadAuthors)).toEqual({ tags: {} });
    expect(failure(() => populate(ARTICLE, 'populate=author.nope', cannotReadAuthors))).toEqual(invalid('Invalid key nope at author.nope', inQuery('nope', 'author.nope')));
  });
});

describe('populate: the object form', () => {
  it('true and its spellings read scalars only; false populates nothing', () => {
    expect(populate(ARTICLE, 'populate[author]=true&populate[seo]=1&populate[cover]=t&populate[tags]=false&populate[category]=0')).toEqual({
      author: {},
      seo: {},
      cover: {},
    });
  });

  it('a dynamic zone set to true lists every component', () => {
    expect(populate(ARTICLE, 'populate[blocks]=true')).toEqual({ blocks: { on: everyBlock } });
  });

  it('nested populate, fields, filters and sort of a relation', () => {
    expect(populate(ARTICLE, 'populate[author][populate][articles][fields][0]=title&populate[author][fields]=name,email&populate[tags][filters][name][$eq]=x&populate[tags][sort]=name:desc')).toEqual({
      author: { populate: { articles: { fields: ['title'] } }, fields: ['name', 'email'] },
      tags: { filters: { kind: 'condition', attribute: 'name', operator: 'eq', value: 'x' }, sort: [{ path: ['name'], direction: 'desc' }] },
    });
  });

  it('a nested populate list', () => {
    expect(populate(ARTICLE, 'populate[author][populate][0]=avatar&populate[author][populate][1]=articles')).toEqual({
      author: { populate: { avatar: {}, articles: {} } },
    });
  });

  it('a sort inside a populate adds its field to the selected fields, as Strapi returns it', () => {
    expect(populate('api::author.author', 'populate[articles][fields][0]=title&populate[articles][sort]=slug:asc')).toEqual({
      articles: { fields: ['title', 'slug'], sort: [{ path: ['slug'], direction: 'asc' }] },
    });
  });

  it('media take fields, filters and sort', () => {
    expect(populate(PRODUCT, 'populate[gallery][fields][0]=url&populate[gallery][sort]=name:asc&populate[gallery][filters][mime][$startsWith]=image/')).toEqual({
      gallery: {
        fields: ['url', 'name'],
        sort: [{ path: ['name'], direction: 'asc' }],
        filters: { kind: 'condition', attribute: 'mime', operator: 'startsWith', value: 'image/' },
      },
    });
  });

  it('components take fields, populate, filters and sort', () => {
    expect(populate(PRODUCT, 'populate[variants][fields][0]=sku&populate[variants][populate][0]=image')).toEqual({
      variants: { fields: ['sku'], populate: { image: {} } },
    });
    expect(populate(PRODUCT, 'populate[variants][fields][0]=sku&populate[variants][sort]=price:desc&populate[variants][filters][color][$ne]=red')).toEqual({
      variants: {
        fields: ['sku', 'price'],
        sort: [{ path: ['price'], direction: 'desc' }],
        filters: { kind: 'condition', attribute: 'color', operator: 'ne', value: 'red' },
      },
    });
    expect(failure(() => populate(PRODUCT, 'populate[variants][filters][nope]=x'))).toEqual(invalid('Invalid key nope', { key: 'nope', path: null, source: 'query', param: 'populate' }));
  });

  it('dynamic zone fragments take fields, filters and sort', () => {
    expect(
      populate(ARTICLE, 'populate[blocks][on][shared.quote][fields][0]=title&populate[blocks][on][shared.quote][filters][title][$eq]=Grace&populate[blocks][on][shared.quote][sort]=title'),
    ).toEqual({
      blocks: {
        on: {
          'shared.quote': { fields: ['title'], filters: { kind: 'condition', attribute: 'title', operator: 'eq', value: 'Grace' }, sort: [{ path: ['title'], direction: 'asc' }] },
        },
      },
    });
  });

  it('count on a relation or component; on media it populates as usual; false is no count', () => {
    expect(populate(ARTICLE, 'populate[tags][count]=true')).toEqual({ tags: { count: true } });
    expect(populate(ARTICLE, 'populate[tags][count]=true&populate[tags][filters][name][$eq]=x')).toEqual({
      tags: { count: true, filters: { kind: 'condition', attribute: 'name', operator: 'eq', value: 'x' } },
    });
    expect(populate(ARTICLE, 'populate[tags][count]=false')).toEqual({ tags: {} });
    expect(populate(PRODUCT, 'populate[variants][count]=1')).toEqual({ variants: { count: true } });
    expect(populate(PRODUCT, 'populate[gallery][count]=true')).toEqual({ gallery: {} });
    expect(populate('api::author.author', 'populate[articles][populate][tags][count]=true')).toEqual({ articles: { populate: { tags: { count: true } } } });
    expect(populate(PAGE, 'populate[localizations][count]=true')).toEqual({ localizations: { count: true } });
    expect(failure(() => populate(ARTICLE, 'populate[tags][count]=maybe'))).toEqual(
      invalid('Invalid value for count at tags: expected a boolean ("true" or "false")', { source: 'query', param: 'populate' }),
    );
  });

  it('the array form and the object form mixed in one query', () => {
    expect(populate(ARTICLE, 'populate[0]=author&populate[1]=seo.shareImage&populate[tags][fields][0]=name')).toEqual({
      author: {},
      seo: { populate: { shareImage: {} } },
      tags: { fields: ['name'] },
    });
    expect(populate(ARTICLE, 'populate[0]=author.avatar&populate[author][fields][0]=name')).toEqual({ author: { populate: { avatar: {} }, fields: ['name'] } });
    expect(failure(() => populate(ARTICLE, 'populate[0]=nope&populate[tags]=true'))).toEqual(invalid('Invalid key nope', inQuery('nope', 'nope')));
  });

  it('an unknown key in a node is a 400 at the node', () => {
    expect(failure(() => populate(ARTICLE, 'populate[author][nope]=1'))).toEqual(invalid('Invalid key nope at author', inQuery('nope', 'author')));
  });

  it('an attribute directly in a node (not under populate) is refused like Strapi does, without source/param', () => {
    expect(failure(() => populate(ARTICLE, 'populate[author][avatar]=true'))).toEqual(invalid('Invalid key avatar at author.avatar', { key: 'avatar', path: 'author.avatar' }));
    expect(failure(() => populate(ARTICLE, 'populate[author]=avatar'))).toEqual(invalid('Invalid key avatar at author.avatar', { key: 'avatar', path: 'author.avatar' }));
  });

  it('unknown attributes, scalars and creator fields', () => {
    expect(failure(() => populate(ARTICLE, 'populate[nope]=true'))).toEqual(invalid('Invalid key nope', inQuery('nope', null)));
    expect(failure(() => populate(ARTICLE, 'populate[title]=true'))).toEqual(invalid('Invalid key title', inQuery('title', 'title')));
    expect(failure(() => populate(ARTICLE, 'populate[author][populate][name]=true'))).toEqual(invalid('Invalid key name at author.populate.name', inQuery('name', 'author.populate.name')));
    expect(failure(() => populate(ARTICLE, 'populate[author][populate][nope]=true'))).toEqual(invalid('Invalid key nope at author', inQuery('nope', 'author')));
    expect(failure(() => populate(ARTICLE, 'populate[createdBy]=true'))).toEqual(invalid('Invalid key createdBy', inQuery('createdBy', 'createdBy')));
  });

  it('invalid fields inside a populate name the populate param and a path relative to the node', () => {
    expect(failure(() => populate(ARTICLE, 'populate[author][fields][0]=articles'))).toEqual(invalid('Invalid key articles', inQuery('articles', 'articles')));
  });

  it('fragments (on) belong to dynamic zones only', () => {
    expect(failure(() => populate(ARTICLE, 'populate[author][on][shared.quote]=true'))).toEqual(invalid('Using fragments is not permitted to populate "author" in "api::article.article"', {}));
  });

  it('a relation the reader cannot read is dropped, silently', () => {
    expect(populate(ARTICLE, 'populate[author]=true&populate[tags]=true', (uid) => uid !== 'api::tag.tag')).toEqual({ author: {} });
    expect(populate(ARTICLE, 'populate[author][populate][articles]=true', (uid) => uid !== 'api::article.article')).toEqual({ author: {} });
  });

  it('a filter inside a populate still refuses a relation the reader cannot read', () => {
    expect(failure(() => populate('api::author.author', 'populate[articles][filters][tags][name]=x', (uid) => uid !== 'api::tag.tag'))).toEqual(
      invalid('Invalid key tags', { key: 'tags', source: 'query', param: 'populate' }),
    );
  });
});

describe('populate: dynamic zones', () => {
  it('on lists the components to return, dropping the others', () => {
    expect(
      populate(
        ARTICLE,
        'populate[blocks][on][shared.article-card][populate][0]=image&populate[blocks][on][shared.article-card][populate][1]=article&populate[blocks][on][shared.slider][populate][0]=files&populate[blocks][on][shared.quote]=true',
      ),
    ).toEqual({
      blocks: { on: { 'shared.article-card': { populate: { image: {}, article: {} } }, 'shared.slider': { populate: { files: {} } }, 'shared.quote': {} } },
    });
  });

  it('on with fields, deep objects and populate=*', () => {
    expect(
      populate(
        ARTICLE,
        'populate[blocks][on][shared.quote][fields][0]=title&populate[blocks][on][shared.media][populate]=*&populate[blocks][on][shared.article-card][populate][article][populate][author][fields][0]=name',
      ),
    ).toEqual({
      blocks: {
        on: {
          'shared.quote': { fields: ['title'] },
          'shared.media': { populate: { file: {} } },
          'shared.article-card': { populate: { article: { populate: { author: { fields: ['name'] } } } } },
        },
      },
    });
  });

  it('on[uid]=false leaves that component out', () => {
    expect(populate(ARTICLE, 'populate[blocks][on][shared.quote]=true&populate[blocks][on][shared.media]=false')).toEqual({ blocks: { on: { 'shared.quote': {} } } });
  });

  it('populate=* populates every component one level deeper', () => {
    expect(populate(ARTICLE, 'populate[blocks][populate]=*')).toEqual({
      blocks: {
        on: {
          'shared.media': { populate: { file: {} } },
          'shared.quote': {},
          'shared.rich-text': {},
          'shared.slider': { populate: { files: {} } },
          'shared.article-card': { populate: { image: {}, article: {} } },
        },
      },
    });
  });

  it('on[uid]=* is refused with the first attribute of the component; a component of scalars reads it as true', () => {
    expect(failure(() => populate(ARTICLE, 'populate[blocks][on][shared.media]=*'))).toEqual(invalid('Invalid key file at blocks.file', { key: 'file', path: 'blocks.file' }));
    expect(populate(ARTICLE, 'populate[blocks][on][shared.quote]=*')).toEqual({ blocks: { on: { 'shared.quote': {} } } });
  });

  it('populate[zone][populate][field] without on is a 400', () => {
    expect(failure(() => populate(ARTICLE, 'populate[blocks][populate][file]=true'))).toEqual(invalid('Invalid key populate at blocks', inQuery('populate', 'blocks')));
    expect(failure(() => populate(ARTICLE, 'populate[blocks][populate][0]=file'))).toEqual(invalid('Invalid key populate at blocks', inQuery('populate', 'blocks')));
  });

  it('fields, filters or sort on the zone itself are 400s', () => {
    expect(failure(() => populate(ARTICLE, 'populate[blocks][fields][0]=title'))).toEqual(invalid('Invalid key fields at blocks', inQuery('fields', 'blocks')));
  });

  it('an unknown component, or one of another zone, is a 400', () => {
    expect(failure(() => populate(ARTICLE, 'populate[blocks][on][shared.nope]=true'))).toEqual(
      invalid('Invalid key shared.nope at blocks.on.shared.nope', inQuery('shared.nope', 'blocks.on.shared.nope')),
    );
    expect(failure(() => populate(ARTICLE, 'populate[blocks][on][shared.seo]=true'))).toEqual(invalid('Invalid key shared.seo at blocks.on.shared.seo', inQuery('shared.seo', 'blocks.on.shared.seo')));
  });

  it('on must be an object', () => {
    expect(failure(() => populate(ARTICLE, 'populate[blocks][on]=shared.quote'))).toEqual(invalid('Invalid key on at blocks.on', inQuery('on', 'blocks.on')));
  });

  it('errors inside a fragment carry its raw path', () => {
    expect(failure(() => populate(ARTICLE, 'populate[blocks][on][shared.quote][populate][title]=true'))).toEqual(
      invalid('Invalid key title at blocks.on[shared.quote].populate.title', inQuery('title', 'blocks.on[shared.quote].populate.title')),
    );
  });

  it('a zone of a single type', () => {
    expect(populate('api::about.about', 'populate[blocks][on][shared.media][populate]=*&populate[blocks][on][shared.rich-text]=true')).toEqual({
      blocks: { on: { 'shared.media': { populate: { file: {} } }, 'shared.rich-text': {} } },
    });
  });
});

describe('populate: fields=*', () => {
  it('leaves fields out of the node rather than undefined', () => {
    const tree = populate(ARTICLE, 'populate[author][fields]=*');
    expect(tree).toEqual({ author: {} });
    expect(Object.keys(tree.author ?? { missing: true })).toEqual([]);
  });
});
