/**
 * Deleting versions leaves nothing behind: components (deeply) and media links of the rows go
 * first, the rows then take their own relation links with them (ON DELETE CASCADE), and once a
 * document has no version left, links that other rows hold to it are removed too.
 */
import type { Queryable } from '../database.ts';
import type { ContentTypeSchema, ModelSchema } from '../schema.ts';
import { deleteOwnedValues } from './write-components.ts';
import { linkTablesTargeting } from './write-schema.ts';
import { deleteRows, quote } from './sql.ts';

export async function deleteVersionRows(db: Queryable, model: ModelSchema, schema: ContentTypeSchema, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await deleteOwnedValues(db, model, schema, ids);
  await deleteRows(db, quote(schema.table), ids);
}

/** Removes links to a document that has no version left, from every link table that targets its type. */
export async function deleteLinksToDocument(db: Queryable, model: ModelSchema, schema: ContentTypeSchema, documentId: string): Promise<void> {
  const remaining = await db.query(`SELECT 1 AS one FROM ${quote(schema.table)} WHERE document_id = ? LIMIT 1`, [documentId]);
  if (remaining.length > 0) return;
  for (const table of linkTablesTargeting(model, schema.uid)) {
    await db.execute(`DELETE FROM ${quote(table)} WHERE target_document_id = ?`, [documentId]);
  }
}
