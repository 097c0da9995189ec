import { describe, expect, it } from 'vitest';
import { uploadFileSchema } from '../upload/file-schema.ts';
import { ARTICLE, failure, listQuery as list, PAGE, PRODUCT } from './test-fixtures.ts';
const invalidKey = (message: string, key: string, path: string | null, param: string) => ({
  status: 400,
  name: 'ValidationError',
  message,
  details: { key, path, source: 'query', param },
});
const plain = (message: string) => ({ status: 400, name: 'ValidationError', message, details: {} });
const asc = (...path: string[]) => ({ path, direction: 'asc' });
const desc = (...path: string[]) => ({ path, direction: 'desc' });

describe('sort', () => {
  it('absent: no order', () => {
    expect(list(ARTICLE, '').sort).toEqual([]);
  });

  it('a field, ascending by default', () => {
    expect(list(ARTICLE, 'sort=title').sort).toEqual([asc('title')]);
  });

  it('field:direction in any case', () => {
    expect(list(ARTICLE, 'sort=title:DESC').sort).toEqual([desc('title')]);
    expect(list(ARTICLE, 'sort=title:Asc').sort).toEqual([asc('title')]);
  });

  it('comma lists and arrays, in order', () => {
    expect(list(PRODUCT, 'sort=inStock:asc, weight:desc').sort).toEqual([asc('inStock'), desc('weight')]);
    expect(list(PRODUCT, 'sort[0]=inStock:asc&sort[1]=weight:desc,name').sort).toEqual([asc('inStock'), desc('weight'), asc('name')]);
  });

  it('the object form, nested for relations', () => {
    expect(list(ARTICLE, 'sort[title]=desc&sort[author][name]=asc').sort).toEqual([desc('title'), asc('author', 'name')]);
    expect(list(ARTICLE, 'sort[0][title]=desc&sort[1]=slug').sort).toEqual([desc('title'), asc('slug')]);
  });

  it('paths through relations, components and media', () => {
    expect(list(ARTICLE, 'sort[0]=author.name:asc&sort[1]=slug:asc').sort).toEqual([asc('author', 'name'), asc('slug')]);
    expect(list(ARTICLE, 'sort=seo.metaTitle:desc').sort).toEqual([desc('seo', 'metaTitle')]);
    expect(list(PRODUCT, 'sort=variants.dimensions.width').sort).toEqual([asc('variants', 'dimensions', 'width')]);
    expect(list(ARTICLE, 'sort=cover.name').sort).toEqual([asc('cover', 'name')]);
  });

  it('system fields', () => {
    expect(list(ARTICLE, 'sort=id,documentId:desc,createdAt,updatedAt,publishedAt').sort).toEqual([asc('id'), desc('documentId'), asc('createdAt'), asc('updatedAt'), asc('publishedAt')]);
    expect(list(PAGE, 'sort=locale').sort).toEqual([asc('locale')]);
  });

  it('unknown keys: no path at the root, the relation below it', () => {
    expect(failure(() => list(ARTICLE, 'sort=nope:asc'))).toEqual(invalidKey('Invalid key nope', 'nope', null, 'sort'));
    expect(failure(() => list(ARTICLE, 'sort=author.nope'))).toEqual(invalidKey('Invalid key nope at author', 'nope', 'author', 'sort'));
    expect(failure(() => list(ARTICLE, 'sort=title.nope'))).toEqual(invalidKey('Invalid key nope at title', 'nope', 'title', 'sort'));
  });

  it('private, password, dynamic zones and relations without a scalar', () => {
    expect(failure(() => list(PRODUCT, 'sort=internalCode'))).toEqual(invalidKey('Invalid key internalCode', 'internalCode', 'internalCode', 'sort'));
    expect(failure(() => list(PRODUCT, 'sort=secret:desc'))).toEqual(invalidKey('Invalid key secret', 'secret', 'secret', 'sort'));
    expect(failure(() => list(ARTICLE, 'sort=blocks'))).toEqual(invalidKey('Invalid key blocks', 'blocks', 'blocks', 'sort'));
    expect(failure(() => list(ARTICLE, 'sort=author'))).toEqual(invalidKey('Invalid key author', 'author', 'author', 'sort'));
    expect(failure(() => list(ARTICLE, 'sort=createdBy.id'))).toEqual(invalidKey('Invalid key createdBy', 'createdBy', 'createdBy', 'sort'));
  });

  it('a relation to a type the reader cannot read', () => {
    expect(failure(() => list(ARTICLE, 'sort=author.name', (uid) => uid !== 'api::author.author'))).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid key author',
      details: { key: 'author', source: 'query', param: 'sort' },
    });
  });

  it('a bad direction, an empty field or a bad shape', () => {
    expect(failure(() => list(ARTICLE, 'sort=title:up'))).toEqual(plain('Invalid order. order can only be one of asc|desc|ASC|DESC'));
    expect(failure(() => list(ARTICLE, 'sort=title:'))).toEqual(plain('Invalid order. order can only be one of asc|desc|ASC|DESC'));
    expect(failure(() => list(ARTICLE, 'sort[title]=sideways'))).toEqual(plain('Invalid order. order can only be one of asc|desc|ASC|DESC'));
    expect(failure(() => list(ARTICLE, 'sort=:asc'))).toEqual(plain('Field cannot be empty'));
    expect(failure(() => list(ARTICLE, 'sort[title][0]=asc'))).toEqual(plain('Invalid sort type expected object or string got object'));
  });

  it('keys are checked before directions, as Strapi does', () => {
    expect(failure(() => list(ARTICLE, 'sort=title:up,nope'))).toEqual(invalidKey('Invalid key nope', 'nope', null, 'sort'));
  });

  it('empty segments are skipped', () => {
    expect(list(ARTICLE, 'sort=title,,slug,').sort).toEqual([asc('title'), asc('slug')]);
    expect(list(ARTICLE, 'sort[title]=').sort).toEqual([]);
  });
});

describe('fields', () => {
  it('absent or *: every scalar', () => {
    expect(list(ARTICLE, '').fields).toBeUndefined();
    expect(list(ARTICLE, 'fields=*').fields).toBeUndefined();
  });

  it('a string, a comma list, an array', () => {
    expect(list(ARTICLE, 'fields=title').fields).toEqual(['title']);
    expect(list(ARTICLE, 'fields=title, slug').fields).toEqual(['title', 'slug']);
    expect(list(ARTICLE, 'fields[0]=title&fields[1]=slug,readingTime&fields[2]=title').fields).toEqual(['title', 'slug', 'readingTime']);
  });

  it('id and documentId are always returned, so they are not listed', () => {
    expect(list(ARTICLE, 'fields[0]=id&fields[1]=documentId').fields).toEqual([]);
    expect(list(ARTICLE, 'fields=id,title').fields).toEqual(['title']);
  });

  it('system fields: timestamps everywhere, locale on localized types', () => {
    expect(list(ARTICLE, 'fields[0]=createdAt&fields[1]=publishedAt&fields[2]=updatedAt').fields).toEqual(['createdAt', 'publishedAt', 'updatedAt']);
    expect(list(PAGE, 'fields=locale').fields).toEqual(['locale']);
    expect(failure(() => list(ARTICLE, 'fields=locale'))).toEqual(invalidKey('Invalid key locale', 'locale', null, 'fields'));
  });

  it('relations, media, components, zones, private and password fields name their path; unknown ones none', () => {
    expect(failure(() => list(ARTICLE, 'fields=author'))).toEqual(invalidKey('Invalid key author', 'author', 'author', 'fields'));
    expect(failure(() => list(ARTICLE, 'fields=cover'))).toEqual(invalidKey('Invalid key cover', 'cover', 'cover', 'fields'));
    expect(failure(() => list(ARTICLE, 'fields=seo'))).toEqual(invalidKey('Invalid key seo', 'seo', 'seo', 'fields'));
    expect(failure(() => list(ARTICLE, 'fields=blocks'))).toEqual(invalidKey('Invalid key blocks', 'blocks', 'blocks', 'fields'));
    expect(failure(() => list(PRODUCT, 'fields[0]=secret'))).toEqual(invalidKey('Invalid key secret', 'secret', 'secret', 'fields'));
    expect(failure(() => list(PRODUCT, 'fields[0]=internalCode'))).toEqual(invalidKey('Invalid key internalCode', 'internalCode', 'internalCode', 'fields'));
    expect(failure(() => list(ARTICLE, 'fields=nope'))).toEqual(invalidKey('Invalid key nope', 'nope', null, 'fields'));
  });

  it('a bad shape', () => {
    expect(failure(() => list(ARTICLE, 'fields[title]=1'))).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid fields parameter. Expected a string or an array of strings',
      details: { source: 'query', param: 'fields' },
    });
  });

  it('the media files listing has its own fields, sort and filters', () => {
    const query = list(uploadFileSchema.uid, 'filters[mime][$eq]=image/png&sort=name:desc&fields[0]=name&fields[1]=mime');
    expect(query).toMatchObject({ fields: ['name', 'mime'], sort: [desc('name')], filters: { kind: 'condition', attribute: 'mime', operator: 'eq', value: 'image/png' } });
    expect(query.locale).toBeUndefined();
    expect(failure(() => list(uploadFileSchema.uid, 'fields=folderPath'))).toEqual(invalidKey('Invalid key folderPath', 'folderPath', 'folderPath', 'fields'));
  });
});
