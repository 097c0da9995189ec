import { describe, expect, it } from 'vitest';
import { ARTICLE, failure, listQuery, PAGE, PRODUCT } from './test-fixtures.ts';
import type { Filter } from './types.ts';

const filters = (uid: string, query: string, canRead?: (uid: string) => boolean): Filter | undefined => listQuery(uid, query, canRead).filters;
const cond = (attribute: string, operator: string, value: unknown): Filter => ({ kind: 'condition', attribute, operator, value }) as Filter;
const invalidKey = (message: string, key: string, path: string | null) => ({
  status: 400,
  name: 'ValidationError',
  message,
  details: { key, path, source: 'query', param: 'filters' },
});
const invalidValue = (message: string, path: string) => ({ status: 400, name: 'ValidationError', message, details: { path, source: 'query', param: 'filters' } });

describe('filters: operators', () => {
  const cases: readonly [string, string, unknown][] = [
    ['$eq', 'eq', 'x'],
    ['$eqi', 'eqi', 'x'],
    ['$ne', 'ne', 'x'],
    ['$nei', 'nei', 'x'],
    ['$lt', 'lt', 'x'],
    ['$lte', 'lte', 'x'],
    ['$gt', 'gt', 'x'],
    ['$gte', 'gte', 'x'],
    ['$contains', 'contains', 'x'],
    ['$notContains', 'notContains', 'x'],
    ['$containsi', 'containsi', 'x'],
    ['$notContainsi', 'notContainsi', 'x'],
    ['$startsWith', 'startsWith', 'x'],
    ['$startsWithi', 'startsWithi', 'x'],
    ['$endsWith', 'endsWith', 'x'],
    ['$endsWithi', 'endsWithi', 'x'],
    ['$in', 'in', ['x']],
    ['$notIn', 'notIn', ['x']],
  ];
  for (const [rest, operator, value] of cases) {
    it(`${rest} on a string`, () => {
      expect(filters(ARTICLE, `filters[title][${rest}]=x`)).toEqual(cond('title', operator, value));
    });
  }

  it('$null / $notNull take any value, as Strapi reads it: false, f, 0 and empty are false', () => {
    for (const yes of ['true', 't', '1', 'anything', 'TRUE']) expect(filters(ARTICLE, `filters[title][$null]=${yes}`)).toEqual(cond('title', 'null', true));
    expect(filters(ARTICLE, 'filters[title][$null][0]=anything')).toEqual(cond('title', 'null', true));
    expect(filters(ARTICLE, 'filters[title][$notNull][anything]=anything')).toEqual(cond('title', 'notNull', true));
    for (const no of ['false', 'f', '0', '']) expect(filters(ARTICLE, `filters[title][$notNull]=${no}`)).toEqual(cond('title', 'notNull', false));
  });

  it('$not over a list negates each value, or-ed, as Strapi applies it', () => {
    expect(filters(ARTICLE, 'filters[title][$not][0]=a&filters[title][$not][1]=b')).toEqual({
      kind: 'or',
      filters: [
        { kind: 'not', filter: cond('title', 'eq', 'a') },
        { kind: 'not', filter: cond('title', 'eq', 'b') },
      ],
    });
  });

  it('a list given to a single-value operator means any of its values', () => {
    expect(filters(ARTICLE, 'filters[readingTime][$ne][0]=41&filters[readingTime][$ne][1]=43')).toEqual(cond('readingTime', 'ne', [41, 43]));
    expect(filters(ARTICLE, 'filters[title][$containsi][0]=Product&filters[title][$containsi][1]=1')).toEqual(cond('title', 'containsi', ['Product', '1']));
    expect(filters(ARTICLE, 'filters[readingTime][$gt][0]=1&filters[readingTime][$gt][1]=2')).toEqual(cond('readingTime', 'gt', [1, 2]));
    expect(filters(ARTICLE, 'filters[title][$notContains][0]=a&filters[title][$notContains][1]=b')).toEqual(cond('title', 'notContains', ['a', 'b']));
    expect(failure(() => filters(ARTICLE, 'filters[readingTime][$lt][0]=x'))).toEqual(invalidValue('Invalid value "x" for filter readingTime.$lt: expected a number', 'readingTime.$lt'));
  });

  it('$between takes exactly two values, coerced', () => {
    expect(filters(ARTICLE, 'filters[readingTime][$between][0]=3&filters[readingTime][$between][1]=7')).toEqual(cond('readingTime', 'between', [3, 7]));
    expect(failure(() => filters(ARTICLE, 'filters[readingTime][$between]=3'))).toEqual(
      invalidValue('Invalid value "3" for filter readingTime.$between: expected exactly 2 values', 'readingTime.$between'),
    );
    expect(failure(() => filters(ARTICLE, 'filters[readingTime][$between][0]=1&filters[readingTime][$between][1]=2&filters[readingTime][$between][2]=3'))).toMatchObject({
      message: 'Invalid value "[\\"1\\",\\"2\\",\\"3\\"]" for filter readingTime.$between: expected exactly 2 values',
    });
  });

  it('$in / $notIn accept one value or a list', () => {
    expect(filters(ARTICLE, 'filters[slug][$in]=hello-world')).toEqual(cond('slug', 'in', ['hello-world']));
    expect(filters(ARTICLE, 'filters[slug][$notIn][0]=a&filters[slug][$notIn][1]=b')).toEqual(cond('slug', 'notIn', ['a', 'b']));
  });

  it('implicit $eq, and implicit $in for a list', () => {
    expect(filters(ARTICLE, 'filters[slug]=hello-world')).toEqual(cond('slug', 'eq', 'hello-world'));
    expect(filters(ARTICLE, 'filters[slug][0]=a&filters[slug][1]=b')).toEqual(cond('slug', 'in', ['a', 'b']));
  });

  it('several operators on one attribute all hold', () => {
    expect(filters(ARTICLE, 'filters[readingTime][$gt]=3&filters[readingTime][$lt]=10')).toEqual({
      kind: 'and',
      filters: [cond('readingTime', 'gt', 3), cond('readingTime', 'lt', 10)],
    });
  });

  it("an unknown operator is Strapi's Invalid key at the attribute", () => {
    expect(failure(() => filters(ARTICLE, 'filters[title][$foo]=x'))).toEqual(invalidKey('Invalid key $foo at title', '$foo', 'title'));
    expect(failure(() => filters(ARTICLE, 'filters[$foo]=x'))).toEqual(invalidKey('Invalid key $foo', '$foo', null));
    expect(failure(() => filters(ARTICLE, 'filters[$eq]=x'))).toEqual(invalidKey('Invalid key $eq', '$eq', null));
    expect(failure(() => filters(ARTICLE, 'filters[title][slug]=x'))).toEqual(invalidKey('Invalid key slug at title', 'slug', 'title'));
  });

  it('an object where a value belongs is a 400', () => {
    expect(failure(() => filters(ARTICLE, 'filters[title][$eq][a]=x'))).toEqual(invalidValue('Invalid value "{\\"a\\":\\"x\\"}" for filter title.$eq: expected a single value', 'title.$eq'));
  });
});

describe('filters: logic', () => {
  it('several attributes all hold', () => {
    expect(filters(ARTICLE, 'filters[featured]=false&filters[readingTime][$gt]=3')).toEqual({
      kind: 'and',
      filters: [cond('featured', 'eq', false), cond('readingTime', 'gt', 3)],
    });
  });

  it('$or and $and nest at any level', () => {
    expect(filters(ARTICLE, 'filters[$or][0][$and][0][featured][$eq]=false&filters[$or][0][$and][1][readingTime][$gte]=7&filters[$or][1][slug][$eq]=lonely-article')).toEqual({
      kind: 'or',
      filters: [{ kind: 'and', filters: [cond('featured', 'eq', false), cond('readingTime', 'gte', 7)] }, cond('slug', 'eq', 'lonely-article')],
    });
  });

  it('$or inside a relation', () => {
    expect(filters(ARTICLE, 'filters[author][$or][0][name]=a&filters[author][$or][1][name]=b')).toEqual({
      kind: 'nested',
      attribute: 'author',
      filter: { kind: 'or', filters: [cond('name', 'eq', 'a'), cond('name', 'eq', 'b')] },
    });
  });

  it('$not of a clause', () => {
    expect(filters(ARTICLE, 'filters[$not][featured][$eq]=true')).toEqual({ kind: 'not', filter: cond('featured', 'eq', true) });
  });

  it('field-level $not', () => {
    expect(filters(ARTICLE, 'filters[title][$not][$eq]=x')).toEqual({ kind: 'not', filter: cond('title', 'eq', 'x') });
    expect(filters(ARTICLE, 'filters[title][$not]=x')).toEqual({ kind: 'not', filter: cond('title', 'eq', 'x') });
  });

  it('field-level $or (which Strapi 5 fails on)', () => {
    expect(filters(ARTICLE, 'filters[readingTime][$or][0][$eq]=3&filters[readingTime][$or][1][$eq]=12')).toEqual({
      kind: 'or',
      filters: [cond('readingTime', 'eq', 3), cond('readingTime', 'eq', 12)],
    });
  });

  it('$and / $or given as an object with numeric keys, or as a single clause', () => {
    expect(filters(ARTICLE, 'filters[$or][0][slug]=a&filters[$or][1][slug]=b')).toEqual(filters(ARTICLE, 'filters[$or][1][slug]=b&filters[$or][0][slug]=a'));
    expect(filters(ARTICLE, 'filters[$or][slug]=a')).toEqual(cond('slug', 'eq', 'a'));
  });

  it('a list at the root means all of its clauses', () => {
    expect(filters(ARTICLE, 'filters[0][slug]=a&filters[1][featured]=true')).toEqual({ kind: 'and', filters: [cond('slug', 'eq', 'a'), cond('featured', 'eq', true)] });
  });

  it('a clause that is no object is a 400', () => {
    expect(failure(() => filters(ARTICLE, 'filters[$or][0]=x'))).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid filters at $or.0: expected an object or an array of objects, got "x"',
      details: { source: 'query', param: 'filters' },
    });
    expect(failure(() => filters(ARTICLE, 'filters=abc'))).toEqual({ status: 400, name: 'ValidationError', message: 'The filters parameter must be an object or an array', details: {} });
  });
});

describe('filters: relations, components, media', () => {
  it('a relation filter is a nested filter over the related rows', () => {
    expect(filters(ARTICLE, 'filters[author][name][$eq]=Alan Turing')).toEqual({ kind: 'nested', attribute: 'author', filter: cond('name', 'eq', 'Alan Turing') });
  });

  it('at any depth', () => {
    expect(filters(ARTICLE, 'filters[author][articles][tags][name]=tag-01')).toEqual({
      kind: 'nested',
      attribute: 'author',
      filter: { kind: 'nested', attribute: 'articles', filter: { kind: 'nested', attribute: 'tags', filter: cond('name', 'eq', 'tag-01') } },
    });
  });

  it('several keys under one relation must hold for the same related row', () => {
    expect(filters(ARTICLE, 'filters[author][name]=a&filters[author][email]=b')).toEqual({
      kind: 'nested',
      attribute: 'author',
      filter: { kind: 'and', filters: [cond('name', 'eq', 'a'), cond('email', 'eq', 'b')] },
    });
  });

  it('components, nested components and media', () => {
    expect(filters(PRODUCT, 'filters[variants][dimensions][unit][$eq]=in')).toEqual({
      kind: 'nested',
      attribute: 'variants',
      filter: { kind: 'nested', attribute: 'dimensions', filter: cond('unit', 'eq', 'in') },
    });
    expect(filters(ARTICLE, 'filters[cover][mime][$startsWith]=image/')).toEqual({ kind: 'nested', attribute: 'cover', filter: cond('mime', 'startsWith', 'image/') });
  });

  it('operators and values directly on a relation apply to the related id', () => {
    expect(filters(ARTICLE, 'filters[author]=3')).toEqual({ kind: 'nested', attribute: 'author', filter: cond('id', 'eq', 3) });
    expect(filters(ARTICLE, 'filters[tags][$in][0]=1&filters[tags][$in][1]=2')).toEqual({ kind: 'nested', attribute: 'tags', filter: cond('id', 'in', [1, 2]) });
  });

  it('$null / $notNull on a relation ask whether a related row exists', () => {
    const exists: Filter = { kind: 'nested', attribute: 'author', filter: cond('id', 'notNull', true) };
    expect(filters(ARTICLE, 'filters[author][$null]=true')).toEqual({ kind: 'not', filter: exists });
    expect(filters(ARTICLE, 'filters[author][$notNull]=true')).toEqual(exists);
    expect(filters(ARTICLE, 'filters[author][$null]=false')).toEqual(exists);
    expect(filters(ARTICLE, 'filters[author][$null]=')).toEqual(exists);
    expect(filters(ARTICLE, 'filters[author][$notNull]=yes')).toEqual(exists);
  });

  it('$not inside a relation negates the condition on the related row', () => {
    expect(filters(ARTICLE, 'filters[author][$not][name]=x')).toEqual({ kind: 'nested', attribute: 'author', filter: { kind: 'not', filter: cond('name', 'eq', 'x') } });
  });

  it('a relation to a type the reader cannot read is a 400', () => {
    expect(failure(() => filters(ARTICLE, 'filters[author][name]=x', (uid) => uid !== 'api::author.author'))).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid key author',
      details: { key: 'author', source: 'query', param: 'filters' },
    });
  });

  it('unknown keys below a relation name the relation', () => {
    expect(failure(() => filters(ARTICLE, 'filters[author][nope][$eq]=x'))).toEqual(invalidKey('Invalid key nope at author', 'nope', 'author'));
  });

  it('a private attribute below a relation or media', () => {
    expect(failure(() => filters(ARTICLE, 'filters[featuredProduct][internalCode]=x'))).toEqual(
      invalidKey('Invalid key internalCode at featuredProduct.internalCode', 'internalCode', 'featuredProduct.internalCode'),
    );
    expect(failure(() => filters(ARTICLE, 'filters[cover][folderPath]=x'))).toEqual(invalidKey('Invalid key folderPath at cover.folderPath', 'folderPath', 'cover.folderPath'));
  });
});

describe('filters: refused keys', () => {
  it('dynamic zones, private, password, creator and unknown keys', () => {
    expect(failure(() => filters(ARTICLE, 'filters[blocks][id]=1'))).toEqual(invalidKey('Invalid key blocks', 'blocks', 'blocks'));
    expect(failure(() => filters(PRODUCT, 'filters[internalCode]=x'))).toEqual(invalidKey('Invalid key internalCode', 'internalCode', 'internalCode'));
    expect(failure(() => filters(PRODUCT, 'filters[secret][$eq]=x'))).toEqual(invalidKey('Invalid key secret', 'secret', 'secret'));
    expect(failure(() => filters(ARTICLE, 'filters[createdBy][id]=1'))).toEqual(invalidKey('Invalid key createdBy', 'createdBy', 'createdBy'));
    expect(failure(() => filters(ARTICLE, 'filters[nope]=1'))).toEqual(invalidKey('Invalid key nope', 'nope', null));
    expect(failure(() => filters(ARTICLE, 'filters[$and][0][nope]=1'))).toEqual(invalidKey('Invalid key nope', 'nope', null));
  });

  it('locale exists on localized types only; localizations cannot be filtered', () => {
    expect(failure(() => filters(ARTICLE, 'filters[locale]=fr'))).toEqual(invalidKey('Invalid key locale', 'locale', null));
    expect(failure(() => filters(PAGE, 'filters[localizations][title]=x'))).toEqual(invalidKey('Invalid key localizations', 'localizations', null));
  });

  it('prototype keys are unknown keys', () => {
    expect(failure(() => filters(ARTICLE, 'filters[constructor]=x'))).toEqual(invalidKey('Invalid key constructor', 'constructor', null));
    expect(failure(() => filters(ARTICLE, 'filters[title][toString]=x'))).toEqual(invalidKey('Invalid key toString at title', 'toString', 'title'));
    expect(failure(() => filters(ARTICLE, 'filters[hasOwnProperty][$eq]=x'))).toEqual(invalidKey('Invalid key hasOwnProperty', 'hasOwnProperty', null));
  });
});

describe('filters: system fields', () => {
  it('id, documentId, timestamps, and locale on localized types', () => {
    expect(filters(ARTICLE, 'filters[id]=5')).toEqual(cond('id', 'eq', 5));
    expect(filters(ARTICLE, 'filters[documentId][$eq]=abc')).toEqual(cond('documentId', 'eq', 'abc'));
    expect(filters(ARTICLE, 'filters[createdAt][$gt]=2024-01-15T10:30:00%2B02:00')).toEqual(cond('createdAt', 'gt', '2024-01-15T08:30:00.000Z'));
    // An unencoded + arrives as a space.
    expect(filters(ARTICLE, 'filters[createdAt][$gt]=2024-01-15T10:30:00+02:00')).toEqual(cond('createdAt', 'gt', '2024-01-15T08:30:00.000Z'));
    expect(filters(ARTICLE, 'filters[updatedAt][$lt]=2024-01-15')).toEqual(cond('updatedAt', 'lt', '2024-01-15T00:00:00.000Z'));
    expect(filters(ARTICLE, 'filters[publishedAt][$null]=true')).toEqual(cond('publishedAt', 'null', true));
    expect(filters(PAGE, 'filters[locale][$eq]=fr')).toEqual(cond('locale', 'eq', 'fr'));
  });
});

describe("filters: values take their attribute's type", () => {
  it('integer, float, decimal', () => {
    expect(filters(PRODUCT, 'filters[stock][$gte]=10')).toEqual(cond('stock', 'gte', 10));
    expect(filters(PRODUCT, 'filters[weight][$lt]=0.5')).toEqual(cond('weight', 'lt', 0.5));
    expect(filters(PRODUCT, 'filters[price][$gt]=-1e2')).toEqual(cond('price', 'gt', -100));
  });

  it('a non-numeric value for a number is a 400, not a database error', () => {
    expect(failure(() => filters(PRODUCT, 'filters[stock][$eq]=abc'))).toEqual(invalidValue('Invalid value "abc" for filter stock.$eq: expected a number', 'stock.$eq'));
    expect(failure(() => filters(PRODUCT, 'filters[stock]=abc'))).toEqual(invalidValue('Invalid value "abc" for filter stock.$eq: expected a number', 'stock.$eq'));
    expect(failure(() => filters(PRODUCT, 'filters[stock][$in][0]=1&filters[stock][$in][1]=x'))).toEqual(invalidValue('Invalid value "x" for filter stock.$in: expected a number', 'stock.$in'));
    for (const bad of ['', '0x10', 'Infinity', '1e400', '1,5']) {
      expect(failure(() => filters(PRODUCT, `filters[weight][$eq]=${encodeURIComponent(bad)}`))).toMatchObject({ name: 'ValidationError' });
    }
    expect(failure(() => filters(ARTICLE, 'filters[featuredProduct][price][$gt]=ten'))).toEqual(
      invalidValue('Invalid value "ten" for filter featuredProduct.price.$gt: expected a number', 'featuredProduct.price.$gt'),
    );
  });

  it('biginteger stays a validated digit string', () => {
    expect(filters(PRODUCT, 'filters[serialNumber][$gt]=+001234567890123456789')).toEqual(cond('serialNumber', 'gt', '1234567890123456789'));
    expect(failure(() => filters(PRODUCT, 'filters[serialNumber][$gt]=1.5'))).toEqual(invalidValue('Invalid value "1.5" for filter serialNumber.$gt: expected an integer', 'serialNumber.$gt'));
  });

  it('boolean spellings', () => {
    for (const [text, value] of [
      ['true', true],
      ['false', false],
      ['1', true],
      ['0', false],
      ['t', true],
      ['f', false],
    ] as const) {
      expect(filters(PRODUCT, `filters[inStock]=${text}`)).toEqual(cond('inStock', 'eq', value));
    }
    expect(failure(() => filters(PRODUCT, 'filters[inStock]=yes'))).toEqual(invalidValue('Invalid value "yes" for filter inStock.$eq: expected a boolean ("true" or "false")', 'inStock.$eq'));
  });

  it('date, datetime and time are validated and normalized', () => {
    expect(filters(PRODUCT, 'filters[releaseDate][$gte]=2024-02-29')).toEqual(cond('releaseDate', 'gte', '2024-02-29'));
    expect(filters(PRODUCT, 'filters[releaseDate][$gte]=2024-03-01T23:30:00-02:00')).toEqual(cond('releaseDate', 'gte', '2024-03-02'));
    expect(failure(() => filters(PRODUCT, 'filters[releaseDate][$gte]=2023-02-29'))).toEqual(
      invalidValue('Invalid value "2023-02-29" for filter releaseDate.$gte: expected a date (YYYY-MM-DD)', 'releaseDate.$gte'),
    );
    expect(filters(PRODUCT, 'filters[availableAt][$lt]=2024-01-15T10:30:00Z')).toEqual(cond('availableAt', 'lt', '2024-01-15T10:30:00.000Z'));
    expect(filters(PRODUCT, 'filters[availableAt][$lt]=1705314600000')).toEqual(cond('availableAt', 'lt', '2024-01-15T10:30:00.000Z'));
    expect(failure(() => filters(PRODUCT, 'filters[availableAt][$lt]=yesterday'))).toEqual(
      invalidValue('Invalid value "yesterday" for filter availableAt.$lt: expected a date-time (ISO 8601)', 'availableAt.$lt'),
    );
    expect(filters(PRODUCT, 'filters[openingTime][$gt]=08:00:00')).toEqual(cond('openingTime', 'gt', '08:00:00.000'));
    expect(filters(PRODUCT, 'filters[openingTime][$gt]=08:00')).toEqual(cond('openingTime', 'gt', '08:00:00.000'));
    expect(failure(() => filters(PRODUCT, 'filters[openingTime][$gt]=25:00'))).toEqual(invalidValue('Invalid value "25:00" for filter openingTime.$gt: expected a time (HH:mm:ss)', 'openingTime.$gt'));
  });

  it('text operators keep text whatever the type', () => {
    expect(filters(PRODUCT, 'filters[stock][$contains]=1')).toEqual(cond('stock', 'contains', '1'));
    expect(filters(PRODUCT, 'filters[releaseDate][$startsWith]=2024')).toEqual(cond('releaseDate', 'startsWith', '2024'));
  });

  it('text-like, enumeration and json values stay strings', () => {
    expect(filters(PRODUCT, 'filters[size]=large&filters[specs][$containsi]=silver&filters[contactEmail][$endsWith]=@example.com')).toEqual({
      kind: 'and',
      filters: [cond('size', 'eq', 'large'), cond('specs', 'containsi', 'silver'), cond('contactEmail', 'endsWith', '@example.com')],
    });
  });
});
