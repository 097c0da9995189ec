/**
 * The root parameters that pick document versions: `status`, `locale`, `publicationFilter`,
 * `hasPublishedVersion`; and `_q`, the full-text search.
 */
import type { I18nConfig } from '../config.ts';
import { ValidationError } from '../errors.ts';
import type { ContentTypeSchema } from '../schema.ts';
import { constrainsRootAttribute } from './filters.ts';
import { booleanLike } from './raw.ts';
import type { Filter, PublicationFilter, Status } from './types.ts';

const PUBLICATION_FILTERS: readonly PublicationFilter[] = ['never-published', 'has-published-version', 'modified', 'unmodified', 'published-without-draft', 'published-with-draft'];

function invalid(param: string, message: string): ValidationError {
  return new ValidationError(message, { source: 'query', param });
}

/**
 * `published` (the default) or `draft`. Strapi 5 treats any other value as `draft`; capi refuses
 * it, as its GraphQL API refuses an unknown `PublicationStatus`, rather than guess. Types without
 * draft & publish accept the parameter and the engine ignores it, as Strapi does.
 */
export function parseStatus(raw: unknown): Status {
  if (raw === undefined || raw === 'published') return 'published';
  if (raw === 'draft') return 'draft';
  throw invalid('status', 'Invalid status parameter. Expected "draft" or "published"');
}

/**
 * The locale to read on a localized type: `locale=<code>` (a code no locale has is still a
 * locale: it matches nothing, as in Strapi), `*` for all, else the default locale. A filter on the
 * root's `locale` (`filters[locale][$eq]=fr`) replaces the default: then the locale is undefined
 * and the filter alone decides, as Strapi does. Non-localized types ignore `locale` entirely.
 */
export function parseLocale(raw: unknown, schema: ContentTypeSchema, i18n: I18nConfig, filters: Filter | undefined): string | undefined {
  if (!schema.localized) return undefined;
  if (raw !== undefined && raw !== '') {
    if (typeof raw !== 'string') throw invalid('locale', 'Invalid locale parameter. Expected a locale code or "*"');
    return raw;
  }
  return constrainsRootAttribute(filters, 'locale') ? undefined : i18n.defaultLocale;
}

export function parsePublicationFilter(raw: unknown): PublicationFilter | undefined {
  if (raw === undefined) return undefined;
  const known = PUBLICATION_FILTERS.find((value) => value === raw);
  if (known === undefined) throw invalid('publicationFilter', `Invalid publicationFilter parameter. Expected one of: ${PUBLICATION_FILTERS.join(', ')}`);
  return known;
}

export function parseHasPublishedVersion(raw: unknown): boolean | undefined {
  if (raw === undefined) return undefined;
  const flag = booleanLike(raw);
  if (flag === undefined) throw invalid('hasPublishedVersion', 'Invalid hasPublishedVersion parameter. Expected "true" or "false"');
  return flag;
}

/**
 * `_q`, the full-text search (engine/search.ts): undefined when absent or empty, which Strapi
 * reads as no search. A list or an object is a 400.
 */
export function parseSearch(raw: unknown): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string') throw invalid('_q', 'Invalid _q parameter. Expected a string');
  return raw;
}
