import { describe, expect, it } from 'vitest';
import { model } from '../../../test/support/runtime-model.ts';
import type { RestConfig } from '../config.ts';
import { parseListQuery, parseQueryString, parseReadQuery, type QueryContext } from './params.ts';
import { ARTICLE, failure, PAGE, REST, TAG } from './test-fixtures.ts';
import type { ListQuery, ReadQuery } from './types.ts';

function context(uid: string, rest: RestConfig = REST): QueryContext {
  const schema = model.contentTypes[uid];
  if (schema === undefined) throw new Error(uid);
  return {
    schema,
    model,
    rest,
    i18n: {
      defaultLocale: 'en',
      locales: [
        { code: 'en', name: 'English (en)' },
        { code: 'fr', name: 'French (fr)' },
      ],
    },
  };
}

const list = (uid: string, query: string, rest?: RestConfig): ListQuery => parseListQuery(parseQueryString(query), context(uid, rest));
const read = (uid: string, query: string): ReadQuery => parseReadQuery(parseQueryString(query), context(uid));

const validation = (message: string, details: Record<string, unknown> = {}) => ({ status: 400, name: 'ValidationError', message, details });
const pagination = (message: string) => ({ status: 400, name: 'PaginationError', message, details: {} });

describe('a whole query, normalized', () => {
  it('defaults', () => {
    expect(list(ARTICLE, '')).toEqual({
      populate: {},
      status: 'published',
      sort: [],
      pagination: { kind: 'page', page: 1, pageSize: 25, withCount: true },
    });
  });

  it('everything at once', () => {
    expect(
      list(
        PAGE,
        'fields=title&filters[slug]=home&populate[category][fields][0]=name&sort=title:desc&pagination[page]=2&pagination[pageSize]=10&status=draft&locale=fr&publicationFilter=modified&hasPublishedVersion=true',
      ),
    ).toEqual({
      fields: ['title'],
      filters: { kind: 'condition', attribute: 'slug', operator: 'eq', value: 'home' },
      populate: { category: { fields: ['name'] } },
      status: 'draft',
      locale: 'fr',
      publicationFilter: 'modified',
      hasPublishedVersion: true,
      sort: [{ path: ['title'], direction: 'desc' }],
      pagination: { kind: 'page', page: 2, pageSize: 10, withCount: true },
    });
  });

  it('a read query has no sort or pagination, but still validates sort', () => {
    expect(read(ARTICLE, 'sort=title&pagination[page]=abc&page=3&fields=title')).toEqual({ fields: ['title'], populate: {}, status: 'published' });
    expect(failure(() => read(ARTICLE, 'sort=nope'))).toEqual(validation('Invalid key nope', { key: 'nope', path: null, source: 'query', param: 'sort' }));
  });

  it('unknown root parameters are ignored, as Strapi ignores them', () => {
    expect(list(ARTICLE, 'foo=bar&fields[0]=slug&sort=slug:asc&start=5&limit=1&count=true')).toEqual(list(ARTICLE, 'fields[0]=slug&sort=slug:asc'));
  });

  it('_q is the full-text search; empty is no search; a list or object is a 400', () => {
    expect(list(ARTICLE, '_q=hello%20world').search).toBe('hello world');
    expect(read(ARTICLE, '_q=42').search).toBe('42');
    expect(list(ARTICLE, '_q=')).toEqual(list(ARTICLE, ''));
    expect(failure(() => list(ARTICLE, '_q[0]=a'))).toEqual(validation('Invalid _q parameter. Expected a string', { source: 'query', param: '_q' }));
    expect(failure(() => list(ARTICLE, '_q[a]=b'))).toEqual(validation('Invalid _q parameter. Expected a string', { source: 'query', param: '_q' }));
    // NUL is refused for the whole query string, before any parameter is read (column-domains.ts).
    expect(failure(() => list(ARTICLE, '_q=a%00b'))).toEqual(validation('Invalid value for "_q": expected text without NUL (\\u0000) characters', { source: 'query', param: '_q', path: '_q' }));
  });
});

describe('pagination', () => {
  it('defaults to page 1 of defaultLimit, counted as configured', () => {
    expect(list(TAG, '').pagination).toEqual({ kind: 'page', page: 1, pageSize: 25, withCount: true });
    expect(list(TAG, '', { defaultLimit: 10, maxLimit: 50, withCount: false }).pagination).toEqual({ kind: 'page', page: 1, pageSize: 10, withCount: false });
  });

  it('page and pageSize', () => {
    expect(list(TAG, 'pagination[page]=99&pagination[pageSize]=10').pagination).toEqual({ kind: 'page', page: 99, pageSize: 10, withCount: true });
  });

  it('page 0 and pageSize 0 become 1; negative ones too', () => {
    expect(list(TAG, 'pagination[page]=0&pagination[pageSize]=3').pagination).toEqual({ kind: 'page', page: 1, pageSize: 3, withCount: true });
    expect(list(TAG, 'pagination[page]=-2&pagination[pageSize]=0').pagination).toEqual({ kind: 'page', page: 1, pageSize: 1, withCount: true });
  });

  it('pageSize above maxLimit is capped silently', () => {
    expect(list(TAG, 'pagination[pageSize]=200').pagination).toEqual({ kind: 'page', page: 1, pageSize: 100, withCount: true });
  });

  it('start and limit', () => {
    expect(list(TAG, 'pagination[start]=5&pagination[limit]=5').pagination).toEqual({ kind: 'offset', start: 5, limit: 5, withCount: true });
    expect(list(TAG, 'pagination[start]=5').pagination).toEqual({ kind: 'offset', start: 5, limit: 25, withCount: true });
  });

  it('a negative start becomes 0, a limit below 1 becomes 1, above maxLimit maxLimit', () => {
    expect(list(TAG, 'pagination[start]=-4&pagination[limit]=0').pagination).toEqual({ kind: 'offset', start: 0, limit: 1, withCount: true });
    expect(list(TAG, 'pagination[limit]=500').pagination).toEqual({ kind: 'offset', start: 0, limit: 100, withCount: true });
  });

  it('limit=-1 means maxLimit (Strapi 5 REST answers one entry: a defect)', () => {
    expect(list(TAG, 'pagination[limit]=-1').pagination).toEqual({ kind: 'offset', start: 0, limit: 100, withCount: true });
  });

  it('withCount', () => {
    expect(list(TAG, 'pagination[pageSize]=3&pagination[withCount]=false').pagination).toEqual({ kind: 'page', page: 1, pageSize: 3, withCount: false });
    expect(list(TAG, 'pagination[withCount]=t', { ...REST, withCount: false }).pagination).toMatchObject({ withCount: true });
    expect(failure(() => list(TAG, 'pagination[withCount]=maybe'))).toEqual(validation('Invalid withCount parameter. Expected "t","1","true","false","0","f"'));
  });

  it('mixing page and offset is a PaginationError', () => {
    expect(failure(() => list(TAG, 'pagination[page]=1&pagination[limit]=5'))).toEqual(pagination('Cannot use both page & offset pagination in the same query'));
    expect(failure(() => list(TAG, 'pagination[pageSize]=1&pagination[start]=5'))).toEqual(pagination('Cannot use both page & offset pagination in the same query'));
  });

  it('page or pageSize at the root is a PaginationError', () => {
    const message = 'Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object';
    expect(failure(() => list(TAG, 'page=2'))).toEqual(pagination(message));
    expect(failure(() => list(TAG, 'pageSize=5&pagination[page]=1'))).toEqual(pagination(message));
  });

  it("values that are no integers get Strapi's messages", () => {
    expect(failure(() => list(TAG, 'pagination[page]=abc'))).toEqual(validation('convertStartQueryParams expected a positive integer got NaN'));
    expect(failure(() => list(TAG, 'pagination[pageSize]=abc'))).toEqual(validation('convertStartQueryParams expected a positive integer got NaN'));
    expect(failure(() => list(TAG, 'pagination[page]=1.5'))).toEqual(validation('convertStartQueryParams expected a positive integer got 1.5'));
    expect(failure(() => list(TAG, 'pagination[pageSize]=2.5'))).toEqual(validation('convertLimitQueryParams expected a positive integer got 2.5'));
    expect(failure(() => list(TAG, 'pagination[start]=x'))).toEqual(validation('convertStartQueryParams expected a positive integer got NaN'));
    expect(failure(() => list(TAG, 'pagination[limit]=x'))).toEqual(validation('convertLimitQueryParams expected a positive integer got NaN'));
    expect(failure(() => list(TAG, 'pagination[page]=1e300'))).toEqual(validation('convertStartQueryParams expected a positive integer got 1e+300'));
  });

  it('pagination must be an object', () => {
    expect(failure(() => list(TAG, 'pagination=5'))).toEqual(validation('Invalid pagination parameter. Expected an object', { source: 'query', param: 'pagination' }));
  });
});

describe('status', () => {
  it('published by default, draft on request', () => {
    expect(list(ARTICLE, '').status).toBe('published');
    expect(list(ARTICLE, 'status=published').status).toBe('published');
    expect(list(ARTICLE, 'status=draft').status).toBe('draft');
  });

  it('passes through on types without draft & publish (the engine ignores it)', () => {
    expect(list(TAG, 'status=draft').status).toBe('draft');
  });

  it('another value is a 400 (Strapi 5 reads it as draft)', () => {
    expect(failure(() => list(ARTICLE, 'status=foo'))).toEqual(validation('Invalid status parameter. Expected "draft" or "published"', { source: 'query', param: 'status' }));
    expect(failure(() => list(ARTICLE, 'status[0]=draft'))).toMatchObject({ name: 'ValidationError' });
  });
});

describe('locale', () => {
  it('the default locale when absent or empty', () => {
    expect(list(PAGE, '').locale).toBe('en');
    expect(list(PAGE, 'locale=').locale).toBe('en');
    expect(read(PAGE, '').locale).toBe('en');
  });

  it('the one asked, known or not (an unknown one matches nothing), or *', () => {
    expect(list(PAGE, 'locale=fr').locale).toBe('fr');
    expect(list(PAGE, 'locale=de').locale).toBe('de');
    expect(list(PAGE, 'locale=*').locale).toBe('*');
  });

  it('ignored on types without i18n', () => {
    expect(list(ARTICLE, 'locale=fr').locale).toBeUndefined();
    expect('locale' in list(ARTICLE, 'locale=fr')).toBe(false);
  });

  it('a filter on locale replaces the default: the filter decides alone', () => {
    const query = list(PAGE, 'filters[locale][$eq]=fr&sort=slug:asc');
    expect(query.locale).toBeUndefined();
    expect(query.filters).toEqual({ kind: 'condition', attribute: 'locale', operator: 'eq', value: 'fr' });
    expect(list(PAGE, 'filters[$or][0][locale]=fr&filters[$or][1][title]=x').locale).toBeUndefined();
    expect(read(PAGE, 'filters[locale][$in][0]=fr').locale).toBeUndefined();
  });

  it('an explicit locale stays beside a locale filter', () => {
    expect(list(PAGE, 'locale=fr&filters[locale][$eq]=en').locale).toBe('fr');
  });

  it('filters on other attributes keep the default locale', () => {
    expect(list(PAGE, 'filters[category][name]=x&filters[title]=y').locale).toBe('en');
  });

  it('must be a single code', () => {
    expect(failure(() => list(PAGE, 'locale[0]=fr'))).toEqual(validation('Invalid locale parameter. Expected a locale code or "*"', { source: 'query', param: 'locale' }));
  });
});

describe('publicationFilter and hasPublishedVersion', () => {
  it('pass through on draft & publish types', () => {
    expect(list(ARTICLE, 'status=draft&publicationFilter=never-published&hasPublishedVersion=false')).toMatchObject({
      publicationFilter: 'never-published',
      hasPublishedVersion: false,
    });
  });

  it('are validated, then left out on other types', () => {
    const query = list(TAG, 'publicationFilter=modified&hasPublishedVersion=true');
    expect('publicationFilter' in query || 'hasPublishedVersion' in query).toBe(false);
  });

  it('reject unknown values', () => {
    expect(failure(() => list(ARTICLE, 'publicationFilter=sometimes'))).toEqual(
      validation('Invalid publicationFilter parameter. Expected one of: never-published, has-published-version, modified, unmodified, published-without-draft, published-with-draft', {
        source: 'query',
        param: 'publicationFilter',
      }),
    );
    expect(failure(() => list(ARTICLE, 'hasPublishedVersion=perhaps'))).toEqual(
      validation('Invalid hasPublishedVersion parameter. Expected "true" or "false"', { source: 'query', param: 'hasPublishedVersion' }),
    );
  });
});
