/**
 * The SQL of the upload plugin: rows of `files` and their links in `files_related_mph`. Written
 * once for every database with `?` placeholders; new rows' ids come back as the database's
 * Dialect says (`insertReturningId`).
 */
import type { Queryable, SqlValue } from '../database.ts';
import { fragment, inIds, insertReturningId, joinFragments } from '../engine/sql.ts';
import { FILE_LINK_TABLE } from './file-schema.ts';
import type { FileRow } from './serialize.ts';

export const FILES_TABLE = 'files';

/** The largest id either database can hold in an INTEGER column; larger ones cannot exist. */
const maxId = 2_147_483_647;

/** A numeric id from a URL segment or query value, or undefined when it cannot name a file. */
export function parseFileId(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^\d{1,10}$/.test(value)) return undefined;
  const id = Number(value);
  return id >= 1 && id <= maxId ? id : undefined;
}

/** The columns the plugin writes when it creates a file. */
export interface NewFileRow {
  readonly documentId: string;
  readonly name: string;
  readonly alternativeText: string | null;
  readonly caption: string | null;
  readonly width: number | null;
  readonly height: number | null;
  /** JSON text, or null. */
  readonly formats: string | null;
  readonly hash: string;
  readonly ext: string | null;
  readonly mime: string;
  readonly size: number;
  readonly url: string;
  readonly provider: string;
  readonly folderPath: string;
  readonly now: Date;
}

export async function insertFile(db: Queryable, file: NewFileRow): Promise<number> {
  const params: SqlValue[] = [
    file.documentId,
    file.name,
    file.alternativeText,
    file.caption,
    file.width,
    file.height,
    file.formats,
    file.hash,
    file.ext,
    file.mime,
    file.size,
    file.url,
    file.provider,
    file.folderPath,
    file.now,
    file.now,
    file.now,
  ];
  return insertReturningId(
    db,
    fragment(
      `INSERT INTO ${FILES_TABLE} (document_id, name, alternative_text, caption, width, height, formats, hash, ext, mime, size, url, provider, folder_path, created_at, updated_at, published_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      params,
    ),
  );
}

export async function findFileRow(db: Queryable, id: number): Promise<FileRow | undefined> {
  const rows = await db.query<FileRow>(`SELECT * FROM ${FILES_TABLE} WHERE id = ?`, [id]);
  return rows[0];
}

/** Rows in the order of `ids`. */
export async function findFileRows(db: Queryable, ids: readonly number[]): Promise<FileRow[]> {
  if (ids.length === 0) return [];
  const select = joinFragments([fragment(`SELECT * FROM ${FILES_TABLE} WHERE `), inIds(db.dialect, 'id', ids, 'integer')], '');
  const rows = await db.query<FileRow>(select.sql, select.params);
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row === undefined ? [] : [row];
  });
}

/** Rows whose `hash` is one of `hashes`. */
export async function findFileRowsByHash(db: Queryable, hashes: readonly string[]): Promise<FileRow[]> {
  if (hashes.length === 0) return [];
  const select = joinFragments([fragment(`SELECT * FROM ${FILES_TABLE} WHERE `), inIds(db.dialect, 'hash', hashes, 'text')], '');
  return db.query<FileRow>(select.sql, select.params);
}

export async function listFileRows(db: Queryable): Promise<FileRow[]> {
  return db.query<FileRow>(`SELECT * FROM ${FILES_TABLE} ORDER BY id ASC`);
}

export interface FileInfoUpdate {
  readonly name: string;
  readonly alternativeText: string | null;
  readonly caption: string | null;
  readonly now: Date;
}

export async function updateFileInfoRow(db: Queryable, id: number, info: FileInfoUpdate): Promise<void> {
  await db.execute(`UPDATE ${FILES_TABLE} SET name = ?, alternative_text = ?, caption = ?, updated_at = ? WHERE id = ?`, [info.name, info.alternativeText, info.caption, info.now, id]);
}

/** What replacing a file's content changes; the hash and extension stay, so its URL does too. */
export interface FileContentUpdate extends FileInfoUpdate {
  readonly width: number | null;
  readonly height: number | null;
  readonly formats: string | null;
  readonly mime: string;
  readonly size: number;
  /** The replacement keeps its name, but a file another provider stored moves to this one. */
  readonly url: string;
  readonly provider: string;
}

export async function updateFileContentRow(db: Queryable, id: number, update: FileContentUpdate): Promise<void> {
  await db.execute(
    `UPDATE ${FILES_TABLE} SET name = ?, alternative_text = ?, caption = ?, width = ?, height = ?, formats = ?, mime = ?, size = ?, url = ?, provider = ?, updated_at = ? WHERE id = ?`,
    [update.name, update.alternativeText, update.caption, update.width, update.height, update.formats, update.mime, update.size, update.url, update.provider, update.now, id],
  );
}

/**
 * Deletes a file and every link to it. The links would go by ON DELETE CASCADE anyway; deleting
 * them first keeps that true on a SQLite connection that has foreign keys switched off.
 */
export async function deleteFileRow(db: Queryable, id: number): Promise<void> {
  await db.execute(`DELETE FROM ${FILE_LINK_TABLE} WHERE file_id = ?`, [id]);
  await db.execute(`DELETE FROM ${FILES_TABLE} WHERE id = ?`, [id]);
}
