/**
 * Writes a validated plan (body-types.ts) onto one row: its scalar columns, then what it owns.
 * A component or dynamic zone value replaces the stored instances (removed deeply first);
 * relations follow their set/patch operation; media lists are replaced. Attributes absent from
 * the plan are left as they are.
 */
import type { SqlValue } from '../database.ts';
import type { ParsedObject } from './body-types.ts';
import type { ColumnValue } from './body-scalars.ts';
import { deleteOwnedValues, insertComponentRow } from './write-components.ts';
import type { Owner, WriteContext } from './write-context.ts';
import { replaceMedia } from './write-media.ts';
import { writeRelation } from './write-relations.ts';
import { componentOf } from './write-schema.ts';
import { q } from './write-sql.ts';

/** The plan's scalar columns, as [column, value] pairs. */
export function scalarColumns(data: ParsedObject): [string, ColumnValue][] {
  const out: [string, ColumnValue][] = [];
  for (const value of data.values.values()) if (value.kind === 'scalar') out.push([value.field.column, value.value]);
  return out;
}

/** Sets columns of an existing row (plus extra system columns such as updated_at). */
export async function updateColumns(ctx: WriteContext, table: string, id: number, columns: readonly (readonly [string, SqlValue])[]): Promise<void> {
  if (columns.length === 0) return;
  await ctx.db.execute(`UPDATE ${q(table)} SET ${columns.map(([c]) => `${q(c)} = ?`).join(', ')} WHERE id = ?`, [...columns.map(([, v]) => v), id]);
}

/**
 * Writes the non-scalar values of `data` for `owner`. `fresh` says the row was just inserted and
 * owns nothing yet, which saves the reads and deletes of a replacement.
 */
export async function applyOwned(ctx: WriteContext, owner: Owner, data: ParsedObject, fresh: boolean): Promise<void> {
  for (const [name, value] of data.values) {
    switch (value.kind) {
      case 'scalar':
        break;
      case 'component':
      case 'dynamiczone': {
        if (!fresh) await deleteOwnedValues(ctx.db, ctx.model, owner.schema, [owner.id], name);
        for (const [ord, item] of value.items.entries()) {
          const component = componentOf(ctx.model, item.uid);
          const id = await insertComponentRow(ctx.db, component, { uid: owner.schema.uid, id: owner.id, field: name, ord }, scalarColumns(item));
          await applyOwned(ctx, { schema: component, id, version: owner.version }, item, true);
        }
        break;
      }
      case 'relation':
        await writeRelation(ctx, owner, value.field, value.input, fresh);
        break;
      case 'media':
        await replaceMedia(ctx.db, owner.schema.uid, owner.id, name, value.fileIds, fresh);
        break;
    }
  }
}
