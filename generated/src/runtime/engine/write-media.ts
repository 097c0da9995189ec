/**
 * Media values are rows of `files_related_mph` (file, owner type, owner row, field, position), as
 * in Strapi. A write replaces a field's files; deleting or copying an owner row does the same to
 * its links.
 */
import type { Queryable } from '../database.ts';
import { FILE_LINK_TABLE, uploadFileSchema } from '../upload/file-schema.ts';
import { deleteRows, fragment, inIds, joinFragments, keyShare, quote } from './sql.ts';

const T = quote(FILE_LINK_TABLE);

export async function replaceMedia(db: Queryable, ownerUid: string, ownerId: number, field: string, fileIds: readonly number[], fresh: boolean): Promise<void> {
  if (!fresh) await db.execute(`DELETE FROM ${T} WHERE related_type = ? AND related_id = ? AND field = ?`, [ownerUid, ownerId, field]);
  for (const [index, fileId] of fileIds.entries()) {
    await db.execute(`INSERT INTO ${T} (file_id, related_type, related_id, field, ord) VALUES (?, ?, ?, ?, ?)`, [fileId, ownerUid, ownerId, field, index + 1]);
  }
}

/**
 * Disconnects then connects files of a multiple media field, as Strapi's `{ connect, disconnect }`
 * does: files to disconnect that are not linked are ignored, a connected file goes last (moved
 * there if it was linked already). Links that stay are renumbered in place, never inserted again:
 * a file deleted meanwhile takes its links with it instead of failing a re-insert.
 */
export async function patchMedia(db: Queryable, ownerUid: string, ownerId: number, field: string, connect: readonly number[], disconnect: readonly number[]): Promise<void> {
  const rows = await db.query<{ id: number | string; file_id: number | string }>(`SELECT id, file_id FROM ${T} WHERE related_type = ? AND related_id = ? AND field = ? ORDER BY ord, id`, [
    ownerUid,
    ownerId,
    field,
  ]);
  const removed = new Set([...disconnect, ...connect]);
  const gone = rows.filter((r) => removed.has(Number(r.file_id))).map((r) => Number(r.id));
  if (gone.length > 0) await deleteRows(db, T, gone);
  const kept = rows.filter((r) => !removed.has(Number(r.file_id)));
  for (const [index, row] of kept.entries()) await db.execute(`UPDATE ${T} SET ord = ? WHERE id = ?`, [index + 1, Number(row.id)]);
  for (const [index, fileId] of connect.entries()) {
    await db.execute(`INSERT INTO ${T} (file_id, related_type, related_id, field, ord) VALUES (?, ?, ?, ?, ?)`, [fileId, ownerUid, ownerId, field, kept.length + index + 1]);
  }
}

/** Removes every media link of these owner rows. */
export async function deleteMediaOf(db: Queryable, ownerUid: string, ownerIds: readonly number[]): Promise<void> {
  if (ownerIds.length === 0) return;
  const remove = joinFragments([fragment(`DELETE FROM ${T} WHERE related_type = ? AND `, [ownerUid]), inIds(db.dialect, 'related_id', ownerIds, 'integer')], '');
  await db.execute(remove.sql, remove.params);
}

/**
 * Gives `toId` the files `fromId` has in `field`, in the same order. The files are locked against
 * deletion (sql.ts keyShare); one deleted meanwhile is not copied, instead of failing the
 * file's foreign key.
 */
export async function copyMedia(db: Queryable, ownerUid: string, fromId: number, toId: number, field: string): Promise<void> {
  await db.execute(
    `INSERT INTO ${T} (file_id, related_type, related_id, field, ord)
     SELECT m.file_id, m.related_type, ?, m.field, m.ord FROM ${T} m
     WHERE m.related_type = ? AND m.related_id = ? AND m.field = ? AND EXISTS (SELECT 1 FROM ${quote(uploadFileSchema.table)} f WHERE f.id = m.file_id${keyShare(db)})
     ORDER BY m.ord, m.id`,
    [toId, ownerUid, fromId, field],
  );
}

export async function deleteFieldMedia(db: Queryable, ownerUid: string, ownerId: number, field: string): Promise<void> {
  await db.execute(`DELETE FROM ${T} WHERE related_type = ? AND related_id = ? AND field = ?`, [ownerUid, ownerId, field]);
}
