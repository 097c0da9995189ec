/**
 * The REST query string of a content API read, validated against the type's static table and
 * normalized into the ListQuery / ReadQuery the engine takes (types.ts). Errors are the runtime's
 * ValidationError / PaginationError with Strapi 5's messages and details.
 *
 * Root parameters: `filters`, `sort`, `fields`, `populate`, `pagination`, `status`, `locale`,
 * `publicationFilter`, `hasPublishedVersion`. `page`/`pageSize` at the root are a PaginationError
 * on lists, as in Strapi; `_q` is the full-text search (root-params.ts); any other key (`foo=bar`, `start`,
 * `limit`, `count`) is ignored, as Strapi ignores it.
 */
import { parseScope, type ParseScope, type QueryContext } from './context.ts';
import { parseFields } from './fields.ts';
import { parseFilters } from './filters.ts';
import { parsePagination } from './pagination.ts';
import { parsePopulate } from './populate.ts';
import { own, type RawRecord } from './raw.ts';
import { parseHasPublishedVersion, parseLocale, parsePublicationFilter, parseSearch, parseStatus } from './root-params.ts';
import { parseSort } from './sort.ts';
import { contentTypeTarget } from './targets.ts';
import type { ListQuery, ReadQuery, SortItem } from './types.ts';

export type { QueryContext } from './context.ts';
export { parseQueryString, QUERY_LIMITS } from './query-string.ts';

/** The root parameters the content API reads; any other is ignored (and logged once, unknown-params.ts). */
export const ROOT_PARAMS = ['filters', 'sort', 'fields', 'populate', 'pagination', 'status', 'locale', 'publicationFilter', 'hasPublishedVersion', 'page', 'pageSize', '_q'] as const;

/** A list read (`GET /api/<plural>`): everything a ReadQuery has, plus sort and pagination. */
export function parseListQuery(raw: RawRecord, context: QueryContext): ListQuery {
  const scope = parseScope(context);
  const { read, sort } = parseRead(raw, context, scope);
  const pagination = parsePagination({ pagination: own(raw, 'pagination'), rootPage: own(raw, 'page'), rootPageSize: own(raw, 'pageSize') }, context.rest);
  return { ...read, sort, pagination };
}

/**
 * A read of one document or a single type. `sort` is validated (Strapi rejects a bad one there
 * too) but has nothing to order; pagination parameters are ignored, as Strapi ignores them.
 *
 * `locale`: the requested one, `*`, or the default locale; undefined when the type is not
 * localized, or when no `locale` is given but `filters` constrains the root's `locale`
 * (`filters[locale][$eq]=fr`): the filter then decides alone, as Strapi lets it.
 */
export function parseReadQuery(raw: RawRecord, context: QueryContext): ReadQuery {
  return parseRead(raw, context, parseScope(context)).read;
}

function parseRead(raw: RawRecord, context: QueryContext, scope: ParseScope): { read: ReadQuery; sort: SortItem[] } {
  const target = contentTypeTarget(context.schema);
  // Strapi validates filters, sort, fields and populate in this order: the first fault wins.
  const filters = parseFilters(own(raw, 'filters'), target, scope, 'filters');
  const sort = parseSort(own(raw, 'sort'), target, scope, 'sort');
  const fields = parseFields(own(raw, 'fields'), target, 'fields');
  const populate = parsePopulate(own(raw, 'populate'), target, scope);
  const search = parseSearch(own(raw, '_q'));
  const status = parseStatus(own(raw, 'status'));
  const locale = parseLocale(own(raw, 'locale'), context.schema, context.i18n, filters);
  const publicationFilter = parsePublicationFilter(own(raw, 'publicationFilter'));
  const hasPublishedVersion = parseHasPublishedVersion(own(raw, 'hasPublishedVersion'));
  const draftAndPublish = context.schema.draftAndPublish;
  const read: ReadQuery = {
    ...(fields === undefined ? {} : { fields }),
    ...(filters === undefined ? {} : { filters }),
    ...(search === undefined ? {} : { search }),
    populate,
    status,
    ...(locale === undefined ? {} : { locale }),
    // Meaningless without draft & publish: validated, then left out.
    ...(publicationFilter === undefined || !draftAndPublish ? {} : { publicationFilter }),
    ...(hasPublishedVersion === undefined || !draftAndPublish ? {} : { hasPublishedVersion }),
  };
  return { read, sort };
}
