/**
 * Copies of document versions, in SQL only (no value goes through JavaScript, so nothing is
 * reformatted on the way): publishing inserts a new published row from the draft, and keeping
 * locales in sync copies non-localized attributes between versions. A copy is deep: component
 * instances are duplicated with their nested components, media links and relation links, so
 * that each version owns its own values.
 */
import type { Queryable } from '../database.ts';
import type { ContentTypeSchema, ModelSchema } from '../schema.ts';
import { componentRowIds, deleteOwnedValues } from './write-components.ts';
import { copyMedia, deleteFieldMedia } from './write-media.ts';
import { componentOf, contentTypeOf, type Schema } from './write-schema.ts';
import { fragment, insertReturningId, keyShare, quote } from './sql.ts';

function scalarColumns(schema: Schema, only?: ReadonlySet<string>): string[] {
  const columns: string[] = [];
  for (const [name, field] of Object.entries(schema.attributes)) {
    if (field.kind === 'scalar' && (only === undefined || only.has(name))) columns.push(field.column);
  }
  return columns;
}

/**
 * Inserts a new version row with the columns of `fromId` and the given timestamps, then copies
 * everything the row owns. Returns the new row's id.
 */
export async function copyVersion(db: Queryable, model: ModelSchema, schema: ContentTypeSchema, fromId: number, set: { readonly updatedAt: Date; readonly publishedAt: Date | null }): Promise<number> {
  const columns = ['document_id', ...scalarColumns(schema), 'created_at', ...(schema.localized ? ['locale'] : [])].map(quote);
  const toId = await insertReturningId(
    db,
    fragment(
      `INSERT INTO ${quote(schema.table)} (${columns.join(', ')}, updated_at, published_at)
     SELECT ${columns.join(', ')}, ?, ? FROM ${quote(schema.table)} WHERE id = ?`,
      [set.updatedAt, set.publishedAt, fromId],
    ),
  );
  await copyOwned(db, model, schema, fromId, toId);
  return toId;
}

/**
 * Makes `toId` hold the same values as `fromId` for these attributes (all when `only` is
 * undefined): scalar columns are assigned, components, media and owned relation links replaced.
 * Inverse relations are not copied: their links belong to the other side.
 */
export async function copyAttributes(db: Queryable, model: ModelSchema, schema: Schema, fromId: number, toId: number, only?: ReadonlySet<string>): Promise<void> {
  const columns = scalarColumns(schema, only).map(quote);
  if (columns.length > 0) {
    await db.execute(db.dialect.copyColumns(quote(schema.table), columns), [fromId, toId]);
  }
  for (const [name, field] of Object.entries(schema.attributes)) {
    if (only !== undefined && !only.has(name)) continue;
    if (field.kind === 'component' || field.kind === 'dynamiczone') await deleteOwnedValues(db, model, schema, [toId], name);
    else if (field.kind === 'media') await deleteFieldMedia(db, schema.uid, toId, name);
    else if (field.kind === 'relation' && field.owner) await db.execute(`DELETE FROM ${quote(field.linkTable)} WHERE entity_id = ?`, [toId]);
  }
  await copyOwned(db, model, schema, fromId, toId, only);
}

/** Copies what `fromId` owns onto `toId`, which owns nothing yet for these attributes. */
async function copyOwned(db: Queryable, model: ModelSchema, schema: Schema, fromId: number, toId: number, only?: ReadonlySet<string>): Promise<void> {
  for (const [name, field] of Object.entries(schema.attributes)) {
    if (only !== undefined && !only.has(name)) continue;
    switch (field.kind) {
      case 'component':
      case 'dynamiczone':
        for (const uid of field.kind === 'component' ? [field.component] : field.components) {
          const component = componentOf(model, uid);
          for (const id of await componentRowIds(db, component, schema.uid, [fromId], name)) {
            const copy = await copyComponentRow(db, component.table, scalarColumns(component).map(quote), id, toId);
            await copyOwned(db, model, component, id, copy);
          }
        }
        break;
      case 'media':
        await copyMedia(db, schema.uid, fromId, toId, name);
        break;
      case 'relation':
        if (field.owner) {
          // Only links to targets that still exist, locked against deletion (sql.ts keyShare):
          // a target deleted meanwhile has lost its links, and one deleted later removes the copies.
          await db.execute(
            `INSERT INTO ${quote(field.linkTable)} (entity_id, target_document_id, ord, inverse_ord)
             SELECT ?, l.target_document_id, l.ord, l.inverse_ord FROM ${quote(field.linkTable)} l
             WHERE l.entity_id = ? AND EXISTS (SELECT 1 FROM ${quote(contentTypeOf(model, field.target).table)} t WHERE t.document_id = l.target_document_id${keyShare(db)})
             ORDER BY l.ord, l.id`,
            [toId, fromId],
          );
        }
        break;
      case 'scalar':
        break;
    }
  }
}

async function copyComponentRow(db: Queryable, table: string, columns: readonly string[], fromId: number, parentId: number): Promise<number> {
  const list = ['entity_type', 'entity_field', 'entity_ord', ...columns].join(', ');
  return insertReturningId(db, fragment(`INSERT INTO ${quote(table)} (entity_id, ${list}) SELECT ?, ${list} FROM ${quote(table)} WHERE id = ?`, [parentId, fromId]));
}
