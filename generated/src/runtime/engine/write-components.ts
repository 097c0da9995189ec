/**
 * Component rows carry their parent (entity_type = owner uid, entity_id = owner row, entity_field,
 * entity_ord). Nothing in the database cascades from a parent to them, so removing a value means
 * walking down: nested components first, their media links, then the rows (whose own relation
 * links go by ON DELETE CASCADE).
 */
import type { Queryable, SqlValue } from '../database.ts';
import type { ComponentSchema, ModelSchema } from '../schema.ts';
import type { ColumnValue } from './body-scalars.ts';
import { deleteFieldMedia, deleteMediaOf } from './write-media.ts';
import { componentOf, type Schema } from './write-schema.ts';
import { deleteRows, fragment, inIds, insertRow, joinFragments, quote } from './sql.ts';

export interface Parent {
  readonly uid: string;
  readonly id: number;
  readonly field: string;
  readonly ord: number;
}

export async function insertComponentRow(db: Queryable, component: ComponentSchema, parent: Parent, scalars: readonly (readonly [string, ColumnValue])[]): Promise<number> {
  const columns = ['entity_type', 'entity_id', 'entity_field', 'entity_ord', ...scalars.map(([column]) => column)];
  const values: SqlValue[] = [parent.uid, parent.id, parent.field, parent.ord, ...scalars.map(([, value]) => value)];
  return insertRow(db, component.table, columns, values);
}

/** Ids of the component rows that hold `field` of these owners, in position order. */
export async function componentRowIds(db: Queryable, component: ComponentSchema, ownerUid: string, ownerIds: readonly number[], field: string): Promise<number[]> {
  if (ownerIds.length === 0) return [];
  const select = joinFragments(
    [
      fragment(`SELECT id FROM ${quote(component.table)} WHERE entity_type = ? AND entity_field = ? AND `, [ownerUid, field]),
      inIds(db.dialect, 'entity_id', ownerIds, 'integer'),
      fragment(' ORDER BY entity_id, entity_ord, id'),
    ],
    '',
  );
  const rows = await db.query<{ id: number | string }>(select.sql, select.params);
  return rows.map((r) => Number(r.id));
}

/**
 * Removes what these owner rows hold besides their own columns: component instances (deeply)
 * and media links, of one attribute or of all. Relation links stay: they go with the owner row.
 */
export async function deleteOwnedValues(db: Queryable, model: ModelSchema, schema: Schema, ownerIds: readonly number[], only?: string): Promise<void> {
  if (ownerIds.length === 0) return;
  for (const [name, field] of Object.entries(schema.attributes)) {
    if (only !== undefined && name !== only) continue;
    if (field.kind === 'component' || field.kind === 'dynamiczone') {
      const uids = field.kind === 'component' ? [field.component] : field.components;
      for (const uid of uids) await deleteComponents(db, model, componentOf(model, uid), schema.uid, ownerIds, name);
    } else if (field.kind === 'media' && only !== undefined) {
      for (const id of ownerIds) await deleteFieldMedia(db, schema.uid, id, name);
    }
  }
  if (only === undefined) await deleteMediaOf(db, schema.uid, ownerIds);
}

async function deleteComponents(db: Queryable, model: ModelSchema, component: ComponentSchema, ownerUid: string, ownerIds: readonly number[], field: string): Promise<void> {
  await deleteComponentRows(db, model, component, await componentRowIds(db, component, ownerUid, ownerIds, field));
}

/** Removes these instances of a component, with everything they hold. */
export async function deleteComponentRows(db: Queryable, model: ModelSchema, component: ComponentSchema, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await deleteOwnedValues(db, model, component, ids);
  await deleteRows(db, quote(component.table), ids);
}
