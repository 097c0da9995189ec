/**
 * The checks of a body that need the database: relation targets exist (Strapi's first error,
 * thrown alone), rows given by id and files exist, files have an allowed type, unique values are
 * not taken by another document. Each runs one query per table involved, not one per value.
 */
import type { I18nConfig } from '../config.ts';
import { ValidationError } from '../errors.ts';
import type { Queryable } from '../database.ts';
import type { ContentTypeSchema, ModelSchema } from '../schema.ts';
import { uploadFileSchema } from '../upload/file-schema.ts';
import type { Issues } from './body-issues.ts';
import { messages } from './body-messages.ts';
import type { MediaUse, RelationUse, UniqueUse } from './body-types.ts';
import { contentTypeOf } from './write-schema.ts';
import { isRowId } from '../column-domains.ts';
import { fragment, inIds, joinFragments, keyShare, quote } from './sql.ts';

export interface Source {
  readonly schema: ContentTypeSchema;
  readonly locale: string | null;
}

/**
 * The locale a relation links in, as Strapi resolves it: the item's own locale, else the
 * source's, else the default; null for a target without i18n.
 */
export function targetLocale(target: ContentTypeSchema, itemLocale: string | undefined, source: Source, i18n: I18nConfig): string | null {
  if (!target.localized) return null;
  return itemLocale ?? (source.schema.localized && source.locale !== null ? source.locale : i18n.defaultLocale);
}

/**
 * Throws `Document with id "…", locale "…" not found` for the first document a relation names
 * that does not exist (in the locale, and for a draft & publish target linked from a type
 * without it with `status: 'published'`, with a published version). The rows found are locked
 * against deletion until the write ends (sql.ts keyShare): a concurrent delete of a target
 * either waits for this write, then removes its links, or makes this check fail.
 */
export async function assertRelationTargets(db: Queryable, model: ModelSchema, i18n: I18nConfig, source: Source, uses: readonly RelationUse[]): Promise<void> {
  const wanted: { uid: string; documentId: string; locale: string | null; published: boolean }[] = [];
  for (const use of uses) {
    const target = contentTypeOf(model, use.field.target);
    for (const ref of use.documents) {
      const published = target.draftAndPublish && !source.schema.draftAndPublish && ref.status === 'published';
      wanted.push({ uid: target.uid, documentId: ref.documentId, locale: targetLocale(target, ref.locale, source, i18n), published });
    }
  }
  const groups = new Map<string, { uid: string; locale: string | null; published: boolean; ids: Set<string> }>();
  const keyOf = (w: { uid: string; locale: string | null; published: boolean }): string => `${w.uid}\u0000${w.locale ?? ''}\u0000${w.published}`;
  for (const w of wanted) {
    const key = keyOf(w);
    const group = groups.get(key) ?? { uid: w.uid, locale: w.locale, published: w.published, ids: new Set<string>() };
    group.ids.add(w.documentId);
    groups.set(key, group);
  }
  const found = new Set<string>();
  for (const [key, group] of groups) {
    const table = contentTypeOf(model, group.uid).table;
    const ids = [...group.ids];
    const select = joinFragments(
      [
        fragment(`SELECT document_id FROM ${quote(table)} WHERE `),
        inIds(db.dialect, 'document_id', ids, 'text'),
        fragment(`${group.locale === null ? '' : ' AND locale = ?'}${group.published ? ' AND published_at IS NOT NULL' : ''}${keyShare(db)}`, group.locale === null ? [] : [group.locale]),
      ],
      '',
    );
    const rows = await db.query<{ document_id: string }>(select.sql, select.params);
    for (const row of rows) found.add(`${key}\u0000${row.document_id}`);
  }
  for (const w of wanted) {
    if (!found.has(`${keyOf(w)}\u0000${w.documentId}`)) throw new ValidationError(messages.documentNotFound(w.documentId, w.locale));
  }
}

/** What the row ids of a body stand for: target uid -> row id -> documentId. */
export type RowDocuments = ReadonlyMap<string, ReadonlyMap<number, string>>;

/**
 * Relations given by row id, and files, checked the way Strapi's entity validator does: per
 * target type, the rows connected or set are counted, and the first type with missing rows gives
 * one issue, `N relation(s) of type <uid> associated with this entity do not exist` (values that
 * cannot be a file id count as missing files). Rows found are locked like documents above.
 * Returns the documents of the rows, and the MIME type of each file.
 */
export async function checkLinkedRows(
  db: Queryable,
  model: ModelSchema,
  relations: readonly RelationUse[],
  media: readonly MediaUse[],
  issues: Issues,
): Promise<{ documents: RowDocuments; mimes: ReadonlyMap<number, string> }> {
  const documents = new Map<string, Map<number, string>>();
  const wanted = new Map<string, { required: Set<number>; all: Set<number> }>();
  for (const use of relations) {
    const entry = wanted.get(use.field.target) ?? { required: new Set<number>(), all: new Set<number>() };
    for (const ref of use.rows) entry.required.add(ref.id);
    for (const ref of [...use.rows, ...use.optionalRows]) entry.all.add(ref.id);
    wanted.set(use.field.target, entry);
  }
  let reported = false;
  for (const [uid, entry] of wanted) {
    const ids = [...entry.all].filter(isRowId);
    const byId = new Map<number, string>();
    if (ids.length > 0) {
      const select = joinFragments([fragment(`SELECT id, document_id FROM ${quote(contentTypeOf(model, uid).table)} WHERE `), inIds(db.dialect, 'id', ids, 'integer'), fragment(keyShare(db))], '');
      const rows = await db.query<{ id: number | string; document_id: string }>(select.sql, select.params);
      for (const row of rows) byId.set(Number(row.id), row.document_id);
    }
    documents.set(uid, byId);
    const missing = [...entry.required].filter((id) => !byId.has(id)).length;
    if (missing > 0 && !reported) {
      issues.add([], messages.missingRelations(missing, uid));
      reported = true;
    }
  }
  const mimes = await fileMimes(db, media);
  const fileIds = new Set(media.flatMap((u) => u.fileIds));
  const unreadable = new Set(media.flatMap((u) => u.unreadable.map((v) => JSON.stringify(v))));
  const missingFiles = [...fileIds].filter((id) => !mimes.has(id)).length + unreadable.size;
  if (missingFiles > 0 && !reported) issues.add([], messages.missingRelations(missingFiles, uploadFileSchema.uid));
  return { documents, mimes };
}

async function fileMimes(db: Queryable, uses: readonly MediaUse[]): Promise<Map<number, string>> {
  const ids = [...new Set(uses.flatMap((u) => u.fileIds))].filter(isRowId);
  const files = new Map<number, string>();
  if (ids.length === 0) return files;
  const select = joinFragments([fragment(`SELECT id, mime FROM ${quote(uploadFileSchema.table)} WHERE `), inIds(db.dialect, 'id', ids, 'integer'), fragment(keyShare(db))], '');
  const rows = await db.query<{ id: number | string; mime: string }>(select.sql, select.params);
  for (const row of rows) files.set(Number(row.id), row.mime);
  return files;
}

/** Adds an issue for each file of a type the field does not allow. */
export function checkFileTypes(uses: readonly MediaUse[], mimes: ReadonlyMap<number, string>, issues: Issues): void {
  for (const use of uses) {
    const allowed = use.field.allowedTypes;
    if (allowed.length === 0) continue;
    for (const id of use.fileIds) {
      const mime = mimes.get(id);
      if (mime !== undefined && !allowed.includes(fileCategory(mime))) issues.add(use.path, messages.fileType(use.path, allowed, mime), id);
    }
  }
}

/** Strapi's media categories: images, videos, audios by MIME type, files for everything else. */
export function fileCategory(mime: string): string {
  const kind = mime.split('/')[0]?.toLowerCase();
  if (kind === 'image') return 'images';
  if (kind === 'video') return 'videos';
  if (kind === 'audio') return 'audios';
  return 'files';
}

/**
 * `This attribute must be unique` when another document's published version in the same locale
 * holds the value (Strapi checks published versions only; a document's own versions share it).
 */
export async function checkUnique(db: Queryable, source: Source, documentId: string, uses: readonly UniqueUse[], issues: Issues): Promise<void> {
  const table = quote(source.schema.table);
  for (const use of uses) {
    const params = [use.value, documentId, ...(source.locale === null ? [] : [source.locale])];
    const rows = await db.query(
      `SELECT 1 AS taken FROM ${table} WHERE ${quote(use.field.column)} = ? AND document_id <> ? AND published_at IS NOT NULL${source.locale === null ? '' : ' AND locale = ?'} LIMIT 1`,
      params,
    );
    if (rows.length > 0) issues.add(use.path, messages.unique(), use.value);
  }
}
