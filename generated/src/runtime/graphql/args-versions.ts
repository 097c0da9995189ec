/**
 * The arguments that pick document versions: `status: PublicationStatus = PUBLISHED`,
 * `publicationFilter`, `hasPublishedVersion` and, on localized types, `locale: I18NLocaleCode`.
 * Relations follow the root's status and locale inside the engine, as in Strapi.
 */
import type { I18nConfig } from '../config.ts';
import { ValidationError } from '../errors.ts';
import { parseLocale } from '../query/root-params.ts';
import type { Filter, PublicationFilter, ReadQuery, Status } from '../query/types.ts';
import type { ContentTypeSchema } from '../schema.ts';

export interface VersionArgs {
  readonly status?: unknown;
  readonly locale?: unknown;
  readonly publicationFilter?: unknown;
  readonly hasPublishedVersion?: unknown;
}

/** `DRAFT` or, by default, `PUBLISHED` (the schema's enum allows nothing else). */
export function statusArg(status: unknown): Status {
  return status === 'DRAFT' ? 'draft' : 'published';
}

/**
 * The `PublicationFilter` cohorts. The two `_DOCUMENT` ones look at every locale of a document;
 * on a type that is not localized a document has one locale, so they are the per-locale ones.
 */
const COHORTS: Readonly<Record<string, PublicationFilter>> = {
  NEVER_PUBLISHED: 'never-published',
  HAS_PUBLISHED_VERSION: 'has-published-version',
  MODIFIED: 'modified',
  UNMODIFIED: 'unmodified',
  PUBLISHED_WITHOUT_DRAFT: 'published-without-draft',
  PUBLISHED_WITH_DRAFT: 'published-with-draft',
  NEVER_PUBLISHED_DOCUMENT: 'never-published',
  HAS_PUBLISHED_VERSION_DOCUMENT: 'has-published-version',
};

function publicationFilterArg(value: unknown, schema: ContentTypeSchema): PublicationFilter | undefined {
  if (typeof value !== 'string' || !Object.hasOwn(COHORTS, value)) return undefined;
  if (schema.localized && value.endsWith('_DOCUMENT')) {
    // The engine selects cohorts per locale; answering a per-locale cohort here would be wrong silently.
    throw new ValidationError(`publicationFilter ${value} is not supported on localized types; use the per-locale cohort`, {
      source: 'query',
      param: 'publicationFilter',
    });
  }
  return COHORTS[value];
}

/** status, locale and the publication refinements of a read, as ReadQuery spells them. */
export function versionQuery(
  args: VersionArgs,
  schema: ContentTypeSchema,
  i18n: I18nConfig,
  filters: Filter | undefined,
): Pick<ReadQuery, 'status' | 'locale' | 'publicationFilter' | 'hasPublishedVersion' | 'relationPublication'> {
  const status = statusArg(args.status);
  const locale = parseLocale(typeof args.locale === 'string' ? args.locale : undefined, schema, i18n, filters);
  if (!schema.draftAndPublish) return { status, ...(locale === undefined ? {} : { locale }) };
  const publicationFilter = publicationFilterArg(args.publicationFilter, schema);
  const hasPublishedVersion = typeof args.hasPublishedVersion === 'boolean' ? args.hasPublishedVersion : undefined;
  return {
    status,
    ...(locale === undefined ? {} : { locale }),
    ...(publicationFilter === undefined ? {} : { publicationFilter }),
    ...(hasPublishedVersion === undefined ? {} : { hasPublishedVersion }),
    // Strapi's association resolver applies the root's refinement to every relation it loads,
    // publicationFilter when given, else hasPublishedVersion.
    ...(publicationFilter !== undefined ? { relationPublication: { publicationFilter } } : hasPublishedVersion !== undefined ? { relationPublication: { hasPublishedVersion } } : {}),
  };
}

/** The locale a write targets: the argument, else (undefined) the default locale. */
export function writeLocale(args: VersionArgs, schema: ContentTypeSchema): string | undefined {
  return schema.localized && typeof args.locale === 'string' && args.locale !== '' ? args.locale : undefined;
}
