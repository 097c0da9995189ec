/** The tables that hold a project's content, as the import clears and the export reads them. */
import type { ModelSchema } from '../schema.ts';
import { uploadFileSchema } from '../upload/file-schema.ts';

/** Row tables: content types (users and roles included), components, then `files`. */
export function contentTables(model: ModelSchema): string[] {
  return [...Object.values(model.contentTypes).map((t) => t.table), ...Object.values(model.components).map((c) => c.table), uploadFileSchema.table];
}

/** Every relation's link table, once (both sides of a relation name the same table). */
export function linkTables(model: ModelSchema): string[] {
  const tables = new Set<string>();
  for (const owner of [...Object.values(model.contentTypes), ...Object.values(model.components)]) {
    for (const field of Object.values(owner.attributes)) if (field.kind === 'relation') tables.add(field.linkTable);
  }
  return [...tables].sort();
}
