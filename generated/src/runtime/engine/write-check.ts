/**
 * The checks of a body that need the database: relation targets exist (Strapi's first error,
 * thrown alone), files exist and have an allowed type, unique values are not taken by another
 * document. Each runs one query per table involved, not one per value.
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
import { marks, q } from './write-sql.ts';

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

/** Throws `Document with id "…", locale "…" not found` for the first relation target that does not exist. */
export async function assertRelationTargets(db: Queryable, model: ModelSchema, i18n: I18nConfig, source: Source, uses: readonly RelationUse[]): Promise<void> {
  const wanted: { uid: string; documentId: string; locale: string | null }[] = [];
  for (const use of uses) {
    const target = contentTypeOf(model, use.field.target);
    for (const ref of use.refs) wanted.push({ uid: target.uid, documentId: ref.documentId, locale: targetLocale(target, ref.locale, source, i18n) });
  }
  const groups = new Map<string, { uid: string; locale: string | null; ids: Set<string> }>();
  for (const w of wanted) {
    const key = `${w.uid}\u0000${w.locale ?? ''}`;
    const group = groups.get(key) ?? { uid: w.uid, locale: w.locale, ids: new Set<string>() };
    group.ids.add(w.documentId);
    groups.set(key, group);
  }
  const found = new Set<string>();
  for (const [key, group] of groups) {
    const table = contentTypeOf(model, group.uid).table;
    const ids = [...group.ids];
    const rows = await db.query<{ document_id: string }>(
      `SELECT DISTINCT document_id FROM ${q(table)} WHERE document_id IN (${marks(ids.length)})${group.locale === null ? '' : ' AND locale = ?'}`,
      group.locale === null ? ids : [...ids, group.locale],
    );
    for (const row of rows) found.add(`${key}\u0000${row.document_id}`);
  }
  for (const w of wanted) {
    if (!found.has(`${w.uid}\u0000${w.locale ?? ''}\u0000${w.documentId}`)) throw new ValidationError(messages.documentNotFound(w.documentId, w.locale));
  }
}

/** Adds an issue for missing files (one, for the whole body, as Strapi counts them) and for disallowed types. */
export async function checkMedia(db: Queryable, uses: readonly MediaUse[], issues: Issues): Promise<void> {
  const ids = [...new Set(uses.flatMap((u) => u.fileIds))];
  const files = new Map<number, string>();
  if (ids.length > 0) {
    const rows = await db.query<{ id: number | string; mime: string }>(`SELECT id, mime FROM ${q(uploadFileSchema.table)} WHERE id IN (${marks(ids.length)})`, ids);
    for (const row of rows) files.set(Number(row.id), row.mime);
  }
  const unreadable = new Set(uses.flatMap((u) => u.unreadable.map((v) => JSON.stringify(v))));
  const missing = ids.filter((id) => !files.has(id)).length + unreadable.size;
  if (missing > 0) issues.add([], messages.missingFiles(missing));
  for (const use of uses) {
    const allowed = use.field.allowedTypes;
    if (allowed.length === 0) continue;
    for (const id of use.fileIds) {
      const mime = files.get(id);
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
  const table = q(source.schema.table);
  for (const use of uses) {
    const params = [use.value, documentId, ...(source.locale === null ? [] : [source.locale])];
    const rows = await db.query(
      `SELECT 1 AS taken FROM ${table} WHERE ${q(use.field.column)} = ? AND document_id <> ? AND published_at IS NOT NULL${source.locale === null ? '' : ' AND locale = ?'} LIMIT 1`,
      params,
    );
    if (rows.length > 0) issues.add(use.path, messages.unique(), use.value);
  }
}
