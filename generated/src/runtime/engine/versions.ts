/**
 * Which rows (document versions) a read selects: by status on draft & publish types, by locale
 * on localized types, and Strapi's publicationFilter / hasPublishedVersion refinements, which
 * look at the sibling versions of the same document and locale.
 */
import type { PublicationFilter, RelationPublication, Status } from '../query/types.ts';
import type { TypeInfo } from './registry.ts';
import { and, column, FALSE, fragment, not, quote, TRUE, type Fragment } from './sql.ts';

/**
 * Draft & publish types keep a draft (`published_at IS NULL`) and a published row per locale;
 * types without it have one row, which Strapi returns whatever the status asked.
 */
export function statusCondition(type: TypeInfo, alias: string, status: Status): Fragment {
  if (!type.draftAndPublish) return TRUE;
  return fragment(`${column(alias, 'published_at')} IS ${status === 'published' ? 'NOT ' : ''}NULL`);
}

/** A locale code selects that locale; `'*'` and undefined select every locale. */
export function localeCondition(type: TypeInfo, alias: string, locale: string | undefined): Fragment {
  if (!type.localized || locale === undefined || locale === '*') return TRUE;
  return fragment(`${column(alias, 'locale')} = ?`, [locale]);
}

/**
 * The rows of a root read already have the status asked, so each refinement reduces to whether
 * a sibling of the OTHER status exists (and how its updated_at compares, for modified/unmodified).
 */
export function publicationCondition(type: TypeInfo, alias: string, status: Status, publicationFilter: PublicationFilter | undefined, hasPublishedVersion: boolean | undefined): Fragment {
  if (!type.draftAndPublish) return TRUE;
  const parts: Fragment[] = [];
  const drafts = status === 'draft';
  // For a draft row: does a published sibling exist? For a published row: does a draft one?
  const otherExists = (extra?: string): Fragment => siblingExists(type, alias, drafts, extra);
  const updatedAt = column(alias, 'updated_at');
  switch (publicationFilter) {
    case undefined:
      break;
    case 'never-published':
      parts.push(drafts ? not(otherExists()) : FALSE);
      break;
    case 'has-published-version':
      parts.push(otherExists());
      break;
    case 'modified':
      parts.push(otherExists(`<> ${updatedAt}`));
      break;
    case 'unmodified':
      parts.push(otherExists(`= ${updatedAt}`));
      break;
    case 'published-without-draft':
      parts.push(drafts ? FALSE : not(otherExists()));
      break;
    case 'published-with-draft':
      parts.push(drafts ? FALSE : otherExists());
      break;
  }
  if (hasPublishedVersion !== undefined) {
    // A published row is its own published version.
    const has = drafts ? otherExists() : TRUE;
    parts.push(hasPublishedVersion ? has : not(has));
  }
  return and(parts);
}

/** The versions of a relation's target rows: the root's status and, from GraphQL, its publication refinements. */
export function targetVersionCondition(type: TypeInfo, alias: string, status: Status, publication: RelationPublication | undefined): Fragment {
  const byStatus = statusCondition(type, alias, status);
  if (publication === undefined) return byStatus;
  return and([byStatus, publicationCondition(type, alias, status, publication.publicationFilter, publication.hasPublishedVersion)]);
}

/** A cache key part for `publication`. */
export function publicationKey(publication: RelationPublication | undefined): string {
  return publication === undefined ? '' : `${publication.publicationFilter ?? ''}|${String(publication.hasPublishedVersion ?? '')}`;
}

/** EXISTS a version of the same document (and locale) with the given status; `updatedAtCompare` compares its updated_at. */
function siblingExists(type: TypeInfo, alias: string, published: boolean, updatedAtCompare?: string): Fragment {
  const s = `${alias}_v`;
  const conditions = [
    `${column(s, 'document_id')} = ${column(alias, 'document_id')}`,
    ...(type.localized ? [`${column(s, 'locale')} = ${column(alias, 'locale')}`] : []),
    `${column(s, 'published_at')} IS ${published ? 'NOT ' : ''}NULL`,
    ...(updatedAtCompare === undefined ? [] : [`${column(s, 'updated_at')} ${updatedAtCompare}`]),
  ];
  return fragment(`EXISTS (SELECT 1 FROM ${quote(type.table)} ${s} WHERE ${conditions.join(' AND ')})`);
}
