/**
 * GraphQL arguments → the query AST REST builds: filters (operators, groups, nulls, relations,
 * components, enum names, refusals), sort, pagination with Strapi's GraphQL defaults, and the
 * version arguments.
 */
import { describe, expect, it } from 'vitest';
import { HttpError, PaginationError, ValidationError } from '../errors.ts';
import { listArgsKey } from './args.ts';
import { graphqlFilters } from './args-filters.ts';
import { pageInfo, paginationWindow, rootPagination, windowOf } from './args-pagination.ts';
import { graphqlSort } from './args-sort.ts';
import { statusArg, versionQuery, writeLocale } from './args-versions.ts';
import { argsContext, model, target } from './test-plan.ts';

const article = target('api::article.article');
const product = target('api::product.product');
const page = target('api::page.page');
const i18n = {
  defaultLocale: 'en',
  locales: [
    { code: 'en', name: 'English' },
    { code: 'fr', name: 'French' },
  ],
};

function errorOf(run: () => unknown): HttpError {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('expected an HttpError');
}

describe('filters', () => {
  const filters = (input: unknown, on = article, canRead?: (uid: string) => boolean) => graphqlFilters(input, on, argsContext(canRead));

  it('turns each operator into a condition, typed for its attribute', () => {
    expect(filters({ readingTime: { gte: 3, lt: 10 } })).toEqual({
      kind: 'and',
      filters: [
        { kind: 'condition', attribute: 'readingTime', operator: 'gte', value: 3 },
        { kind: 'condition', attribute: 'readingTime', operator: 'lt', value: 10 },
      ],
    });
    expect(filters({ title: { containsi: 'hello' } })).toEqual({ kind: 'condition', attribute: 'title', operator: 'containsi', value: 'hello' });
    expect(filters({ documentId: { in: ['a', 'b'] } })).toEqual({ kind: 'condition', attribute: 'documentId', operator: 'in', value: ['a', 'b'] });
    expect(filters({ serialNumber: { eq: 1234567890123 } }, product)).toEqual({ kind: 'condition', attribute: 'serialNumber', operator: 'eq', value: '1234567890123' });
    expect(filters({ availableAt: { gt: '2024-01-15T10:30:00+02:00' } }, product)).toEqual({
      kind: 'condition',
      attribute: 'availableAt',
      operator: 'gt',
      value: '2024-01-15T08:30:00.000Z',
    });
  });

  it('combines and/or/not at the root and not at the field level', () => {
    expect(filters({ or: [{ featured: { eq: true } }, { not: { readingTime: { lt: 5 } } }] })).toEqual({
      kind: 'or',
      filters: [
        { kind: 'condition', attribute: 'featured', operator: 'eq', value: true },
        { kind: 'not', filter: { kind: 'condition', attribute: 'readingTime', operator: 'lt', value: 5 } },
      ],
    });
    expect(filters({ title: { not: { contains: 'o' } } })).toEqual({ kind: 'not', filter: { kind: 'condition', attribute: 'title', operator: 'contains', value: 'o' } });
  });

  it('reads field-level or/and as alternatives of values (Strapi 5.54 fails on them)', () => {
    expect(filters({ readingTime: { or: [3, 12] } })).toEqual({
      kind: 'or',
      filters: [
        { kind: 'condition', attribute: 'readingTime', operator: 'eq', value: 3 },
        { kind: 'condition', attribute: 'readingTime', operator: 'eq', value: 12 },
      ],
    });
  });

  it('reads eq: null and ne: null as nullness tests, and ignores other nulls', () => {
    expect(filters({ description: { eq: null } })).toEqual({ kind: 'condition', attribute: 'description', operator: 'null', value: true });
    expect(filters({ description: { ne: null } })).toEqual({ kind: 'condition', attribute: 'description', operator: 'notNull', value: true });
    expect(filters({ description: { contains: null }, title: null, and: null })).toBeUndefined();
    expect(filters(null)).toBeUndefined();
  });

  it('walks relations, media-less components and nested components as nested filters', () => {
    expect(filters({ author: { articles: { slug: { eq: 'x' } } } })).toEqual({
      kind: 'nested',
      attribute: 'author',
      filter: { kind: 'nested', attribute: 'articles', filter: { kind: 'condition', attribute: 'slug', operator: 'eq', value: 'x' } },
    });
    expect(filters({ variants: { dimensions: { unit: { eq: 'in' } } } }, product)).toEqual({
      kind: 'nested',
      attribute: 'variants',
      filter: { kind: 'nested', attribute: 'dimensions', filter: { kind: 'condition', attribute: 'unit', operator: 'eq', value: 'in' } },
    });
  });

  it('maps enum names to stored values and leaves stored values alone', () => {
    const sizes = { ...argsContext(), enumsOf: () => ({ size: { typeName: 'ENUM_PRODUCT_SIZE', values: { x_large: 'x__large', small: 'small' } } }) };
    expect(graphqlFilters({ size: { in: ['x_large', 'small', 'x__large'] } }, product, sizes)).toEqual({
      kind: 'condition',
      attribute: 'size',
      operator: 'in',
      value: ['x__large', 'small', 'x__large'],
    });
  });

  it("refuses what REST refuses, with Strapi's messages", () => {
    expect(errorOf(() => filters({ nope: { eq: 1 } })).message).toBe('Invalid key nope');
    const forbidden = errorOf(() => filters({ author: { name: { eq: 'Ada' } } }, article, (uid) => uid !== 'api::author.author'));
    expect(forbidden.message).toBe('Invalid key author');
    expect(errorOf(() => filters({ readingTime: { eq: 'abc' } })).message).toBe('Invalid value "abc" for filter readingTime.$eq: expected a number');
    // Strapi's schema declares `localizations` in PageFiltersInput; the engine cannot filter on it.
    expect(errorOf(() => filters({ localizations: { locale: { eq: 'fr' } } }, page)).message).toBe('Invalid key localizations');
  });
});

describe('sort', () => {
  const sort = (input: unknown) => graphqlSort(input, article, argsContext());

  it('reads field, field:direction and paths, in order; nothing is the natural order', () => {
    expect(sort(['featured:desc', 'author.name', 'title:ASC'])).toEqual([
      { path: ['featured'], direction: 'desc' },
      { path: ['author', 'name'], direction: 'asc' },
      { path: ['title'], direction: 'asc' },
    ]);
    expect(sort('slug')).toEqual([{ path: ['slug'], direction: 'asc' }]);
    expect(sort([])).toEqual([]);
    expect(sort(null)).toEqual([]);
  });

  it("refuses an unknown key as Strapi does: BAD_USER_INPUT 'Invalid key nope'", () => {
    const error = errorOf(() => sort('nope:asc'));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toBe('Invalid key nope');
    expect(error.details).toEqual({ key: 'nope', path: null, source: 'query', param: 'sort' });
  });

  it('keys list arguments by filters and sort only, whatever the order of keys', () => {
    expect(listArgsKey({ filters: { a: { eq: 1 }, b: { eq: 2 } }, sort: 'x', pagination: { limit: 1 } })).toBe(listArgsKey({ filters: { b: { eq: 2 }, a: { eq: 1 } }, sort: ['x'], pagination: {} }));
    expect(listArgsKey({})).toBe(listArgsKey({ filters: null, sort: [] }));
  });
});

describe('pagination', () => {
  const limits = { defaultLimit: 10, maxLimit: 20 };
  const window = (input: unknown, config: { defaultLimit: number; maxLimit: number | null } = limits) => paginationWindow(input, config);

  it('defaults to the first defaultLimit entries', () => {
    expect(window({})).toEqual({ start: 0, limit: 10 });
    expect(window(undefined)).toEqual({ start: 0, limit: 10 });
  });

  it('reads start/limit: -1 is maxLimit (everything without one), below 1 is 1, negative start is 0', () => {
    expect(window({ start: 5, limit: 4 })).toEqual({ start: 5, limit: 4 });
    expect(window({ limit: -1 })).toEqual({ start: 0, limit: 20 });
    expect(window({ limit: -1 }, { defaultLimit: 10, maxLimit: null })).toEqual({ start: 0, limit: -1 });
    expect(window({ limit: 0, start: -3 })).toEqual({ start: 0, limit: 1 });
    expect(window({ limit: 500 })).toEqual({ start: 0, limit: 20 });
  });

  it('reads page/pageSize as a window, capped, with pages and sizes below 1 read as 1', () => {
    expect(window({ page: 3, pageSize: 5 })).toEqual({ start: 10, limit: 5 });
    expect(window({ page: 2 })).toEqual({ start: 10, limit: 10 });
    expect(window({ page: 0, pageSize: 0 })).toEqual({ start: 0, limit: 1 });
    expect(window({ page: 2, pageSize: 100 })).toEqual({ start: 20, limit: 20 });
  });

  it('caps every size at amountLimit as at maxLimit, the smaller of the two applying, defaults included', () => {
    const amount = (input: unknown, maxLimit: number | null, amountLimit: number | null) => paginationWindow(input, { defaultLimit: 10, maxLimit, amountLimit });
    expect(amount({ limit: 50 }, null, 3)).toEqual({ start: 0, limit: 3 });
    expect(amount({ limit: -1, start: 2 }, null, 3)).toEqual({ start: 2, limit: 3 });
    expect(amount({}, null, 3)).toEqual({ start: 0, limit: 3 });
    expect(amount({ page: 2, pageSize: 50 }, null, 3)).toEqual({ start: 3, limit: 3 });
    expect(amount({ limit: 50 }, 5, 3)).toEqual({ start: 0, limit: 3 });
    expect(amount({ limit: 50 }, 2, 3)).toEqual({ start: 0, limit: 2 });
    expect(amount({ limit: 2 }, null, 3)).toEqual({ start: 0, limit: 2 });
    expect(amount({ limit: -1 }, null, null)).toEqual({ start: 0, limit: -1 });
  });

  it('caps a defaultLimit above maxLimit at maxLimit, as Strapi does', () => {
    expect(window({}, { defaultLimit: 50, maxLimit: 20 })).toEqual({ start: 0, limit: 20 });
    expect(window({ page: 2 }, { defaultLimit: 50, maxLimit: 20 })).toEqual({ start: 20, limit: 20 });
  });

  it('refuses mixing both styles with a PaginationError', () => {
    const error = errorOf(() => window({ page: 1, limit: 3 }));
    expect(error).toBeInstanceOf(PaginationError);
    expect(error.message).toBe('Cannot use both page & offset pagination in the same query');
  });

  it("reports pageInfo as Strapi's resolvePagination does", () => {
    expect(pageInfo({ start: 5, limit: 4 }, 30)).toEqual({ page: 2, pageSize: 4, pageCount: 8, total: 30 });
    expect(pageInfo({ start: 0, limit: 10 }, 6)).toEqual({ page: 1, pageSize: 10, pageCount: 1, total: 6 });
    expect(pageInfo({ start: 2, limit: -1 }, 6)).toEqual({ page: 1, pageSize: 4, pageCount: 1, total: 6 });
    expect(pageInfo({ start: 0, limit: 10 }, 0)).toEqual({ page: 1, pageSize: 10, pageCount: 0, total: 0 });
  });

  it('gives the engine an offset window and slices lists inside documents per parent', () => {
    expect(rootPagination({ start: 5, limit: 4 }, true)).toEqual({ kind: 'offset', start: 5, limit: 4, withCount: true });
    expect(windowOf([1, 2, 3, 4, 5], { start: 1, limit: 2 })).toEqual([2, 3]);
    expect(windowOf([1, 2, 3], { start: 1, limit: -1 })).toEqual([2, 3]);
  });
});

describe('versions', () => {
  const articleSchema = model.contentTypes['api::article.article']!;
  const pageSchema = model.contentTypes['api::page.page']!;
  const tagSchema = model.contentTypes['api::tag.tag']!;

  it('reads status, PUBLISHED by default', () => {
    expect(statusArg('DRAFT')).toBe('draft');
    expect(statusArg('PUBLISHED')).toBe('published');
    expect(statusArg(undefined)).toBe('published');
  });

  it('reads the locale of localized types: the argument, the default, or none when filters pick it', () => {
    expect(versionQuery({ locale: 'fr' }, pageSchema, i18n, undefined)).toEqual({ status: 'published', locale: 'fr' });
    expect(versionQuery({}, pageSchema, i18n, undefined)).toEqual({ status: 'published', locale: 'en' });
    const byLocale = { kind: 'condition', attribute: 'locale', operator: 'eq', value: 'fr' } as const;
    expect(versionQuery({}, pageSchema, i18n, byLocale)).toEqual({ status: 'published' });
    expect(writeLocale({ locale: 'fr' }, pageSchema)).toBe('fr');
    expect(writeLocale({ locale: 'fr' }, articleSchema)).toBeUndefined();
  });

  it('maps publication cohorts and drops them on types without draft & publish', () => {
    expect(versionQuery({ status: 'DRAFT', publicationFilter: 'NEVER_PUBLISHED', hasPublishedVersion: true }, articleSchema, i18n, undefined)).toEqual({
      status: 'draft',
      publicationFilter: 'never-published',
      hasPublishedVersion: true,
      // Relations follow publicationFilter when given, as Strapi's association resolver does.
      relationPublication: { publicationFilter: 'never-published' },
    });
    expect(versionQuery({ status: 'DRAFT', hasPublishedVersion: false }, articleSchema, i18n, undefined)).toEqual({
      status: 'draft',
      hasPublishedVersion: false,
      relationPublication: { hasPublishedVersion: false },
    });
    expect(versionQuery({ publicationFilter: 'MODIFIED_DOCUMENT' }, articleSchema, i18n, undefined)).toEqual({ status: 'published' });
    expect(versionQuery({ publicationFilter: 'HAS_PUBLISHED_VERSION_DOCUMENT' }, articleSchema, i18n, undefined)).toEqual({
      status: 'published',
      publicationFilter: 'has-published-version',
      relationPublication: { publicationFilter: 'has-published-version' },
    });
    expect(versionQuery({ status: 'DRAFT', publicationFilter: 'MODIFIED' }, tagSchema, i18n, undefined)).toEqual({ status: 'draft' });
  });

  it('refuses a document-wide cohort on a localized type instead of answering a per-locale one', () => {
    const error = errorOf(() => versionQuery({ publicationFilter: 'NEVER_PUBLISHED_DOCUMENT' }, pageSchema, i18n, undefined));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.details).toEqual({ source: 'query', param: 'publicationFilter' });
  });
});
