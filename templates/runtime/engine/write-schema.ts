/**
 * What the write side asks of the model: a type by uid, the tables that hold its rows, and which
 * link tables point at a type's documents (to clean them up when its last version goes).
 */
import type { ComponentSchema, ContentTypeSchema, ModelSchema, RelationField } from '../schema.ts';
import { FILE_LINK_TABLE, uploadFileSchema } from '../upload/file-schema.ts';

export type Schema = ContentTypeSchema | ComponentSchema;

export function contentTypeOf(model: ModelSchema, uid: string): ContentTypeSchema {
  const schema = model.contentTypes[uid];
  if (schema === undefined) throw new Error(`write engine: unknown content type ${uid}`);
  return schema;
}

export function componentOf(model: ModelSchema, uid: string): ComponentSchema {
  const schema = model.components[uid];
  if (schema === undefined) throw new Error(`write engine: unknown component ${uid}`);
  return schema;
}

export function schemaOf(model: ModelSchema, uid: string): Schema {
  return model.contentTypes[uid] ?? componentOf(model, uid);
}

export function isContentType(schema: Schema): schema is ContentTypeSchema {
  return 'kind' in schema;
}

/** Owning relations of every type (content types and components): where link tables come from. */
export function owningRelations(model: ModelSchema): { readonly owner: Schema; readonly name: string; readonly field: RelationField }[] {
  const out: { owner: Schema; name: string; field: RelationField }[] = [];
  for (const owner of [...Object.values(model.contentTypes), ...Object.values(model.components)]) {
    for (const [name, field] of Object.entries(owner.attributes)) {
      if (field.kind === 'relation' && field.owner) out.push({ owner, name, field });
    }
  }
  return out;
}

/** Link tables whose `target_document_id` holds documents of `uid`. */
export function linkTablesTargeting(model: ModelSchema, uid: string): string[] {
  return [
    ...new Set(
      owningRelations(model)
        .filter((r) => r.field.target === uid)
        .map((r) => r.field.linkTable),
    ),
  ];
}

/** Every table the model's data lives in: types, components, link tables, files and their links. */
export function modelTables(model: ModelSchema): string[] {
  const tables = [
    ...Object.values(model.contentTypes).map((s) => s.table),
    ...Object.values(model.components).map((s) => s.table),
    ...owningRelations(model).map((r) => r.field.linkTable),
    uploadFileSchema.table,
    FILE_LINK_TABLE,
  ];
  return [...new Set(tables)];
}
