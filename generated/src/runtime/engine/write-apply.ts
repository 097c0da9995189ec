/**
 * Writes a validated plan (body-types.ts) onto one row: its scalar columns, then what it owns.
 * A component or dynamic zone value replaces the stored instances (those it names by id are
 * updated in place); relations and media follow their set/patch operation. Attributes absent from
 * the plan are left as they are.
 */
import type { SqlValue } from '../database.ts';
import { ApplicationError } from '../errors.ts';
import { messages } from './body-messages.ts';
import type { ParsedObject, ParsedValue } from './body-types.ts';
import type { ColumnValue } from './body-scalars.ts';
import { componentRowIds, deleteComponentRows, insertComponentRow } from './write-components.ts';
import type { Owner, WriteContext } from './write-context.ts';
import { patchMedia, replaceMedia } from './write-media.ts';
import { writeRelation } from './write-relations.ts';
import { componentOf } from './write-schema.ts';
import { quote } from './sql.ts';

/** The plan's scalar columns, as [column, value] pairs. */
export function scalarColumns(data: ParsedObject): [string, ColumnValue][] {
  const out: [string, ColumnValue][] = [];
  for (const value of data.values.values()) if (value.kind === 'scalar') out.push([value.field.column, value.value]);
  return out;
}

/** Sets columns of an existing row (plus extra system columns such as updated_at). */
export async function updateColumns(ctx: WriteContext, table: string, id: number, columns: readonly (readonly [string, SqlValue])[]): Promise<void> {
  if (columns.length === 0) return;
  await ctx.db.execute(`UPDATE ${quote(table)} SET ${columns.map(([c]) => `${quote(c)} = ?`).join(', ')} WHERE id = ?`, [...columns.map(([, v]) => v), id]);
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
      case 'dynamiczone':
        await writeInstances(ctx, owner, name, value, fresh);
        break;
      case 'relation':
        await writeRelation(ctx, owner, value.field, value.input, fresh);
        break;
      case 'media':
        if (value.input.kind === 'set') await replaceMedia(ctx.db, owner.schema.uid, owner.id, name, value.input.fileIds, fresh);
        else await patchMedia(ctx.db, owner.schema.uid, owner.id, name, value.input.connect, value.input.disconnect);
        break;
    }
  }
}

/**
 * A component or dynamic zone value replaces the stored instances: an instance given with its
 * id is updated in place (it must be one of the owner's, in this attribute), the others are
 * inserted, and stored instances the value leaves out are removed deeply.
 */
async function writeInstances(ctx: WriteContext, owner: Owner, name: string, value: Extract<ParsedValue, { kind: 'component' | 'dynamiczone' }>, fresh: boolean): Promise<void> {
  if (!fresh) await keepNamedInstances(ctx, owner, name, value);
  for (const [ord, item] of value.items.entries()) {
    const component = componentOf(ctx.model, item.uid);
    if (!fresh && item.id !== undefined) {
      await updateColumns(ctx, component.table, item.id, [...scalarColumns(item), ['entity_ord', ord]]);
      await applyOwned(ctx, { schema: component, id: item.id, version: owner.version }, item, false);
      continue;
    }
    const id = await insertComponentRow(ctx.db, component, { uid: owner.schema.uid, id: owner.id, field: name, ord }, scalarColumns(item));
    await applyOwned(ctx, { schema: component, id, version: owner.version }, item, true);
  }
}

/** Refuses ids the owner does not hold in this attribute (Strapi's 400), and removes the instances not named. */
async function keepNamedInstances(ctx: WriteContext, owner: Owner, name: string, value: Extract<ParsedValue, { kind: 'component' | 'dynamiczone' }>): Promise<void> {
  const uids = value.kind === 'component' ? [value.field.component] : value.field.components;
  const stored = new Map<string, Set<number>>();
  for (const uid of uids) stored.set(uid, new Set(await componentRowIds(ctx.db, componentOf(ctx.model, uid), owner.schema.uid, [owner.id], name)));
  const kept = new Set<string>();
  for (const item of value.items) {
    if (item.id === undefined) continue;
    const key = `${item.uid}\u0000${item.id}`;
    if (stored.get(item.uid)?.has(item.id) !== true || kept.has(key)) throw new ApplicationError(messages.foreignComponent(name));
    kept.add(key);
  }
  for (const [uid, ids] of stored) {
    const gone = [...ids].filter((id) => !kept.has(`${uid}\u0000${id}`));
    await deleteComponentRows(ctx.db, ctx.model, componentOf(ctx.model, uid), gone);
  }
}
