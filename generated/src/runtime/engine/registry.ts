/**
 * uid → what the planner needs to know about a type, computed once per engine: content types,
 * components and the media library's files (read as a content type, upload/file-schema.ts), with
 * the system columns every content-type table has.
 */
import type { ComponentSchema, ContentTypeSchema, Field, ModelSchema, ScalarType } from '../schema.ts';
import { uploadFileSchema } from '../upload/file-schema.ts';

/** A column the API can return, filter or sort on. */
export interface ScalarColumn {
  /** Key in the API (attribute name or system field name). */
  readonly name: string;
  readonly column: string;
  readonly type: ScalarType;
  readonly system: boolean;
  /** Private attributes and passwords: filterable by the engine, never returned. */
  readonly hidden: boolean;
}

export interface TypeInfo {
  readonly uid: string;
  readonly table: string;
  readonly isComponent: boolean;
  readonly draftAndPublish: boolean;
  readonly localized: boolean;
  readonly attributes: Readonly<Record<string, Field>>;
  /** Attributes the API returns by default: scalars that are neither private nor passwords, in schema order. */
  readonly publicScalars: readonly ScalarColumn[];
  /** System fields returned after the attributes: createdAt, updatedAt, publishedAt, locale (content types only). */
  readonly trailingSystem: readonly ScalarColumn[];
  /** Every scalar column by API name, system fields included (id, documentId, ...). */
  readonly columns: ReadonlyMap<string, ScalarColumn>;
}

export interface Registry {
  /** A content type, a component or `plugin::upload.file`; throws on an unknown uid (a caller bug). */
  type(uid: string): TypeInfo;
}

function system(name: string, column: string, type: ScalarType): ScalarColumn {
  return { name, column, type, system: true, hidden: false };
}

export const ID = system('id', 'id', 'integer');
export const DOCUMENT_ID = system('documentId', 'document_id', 'string');
export const LOCALE = system('locale', 'locale', 'string');
const TIMESTAMPS: readonly ScalarColumn[] = [system('createdAt', 'created_at', 'datetime'), system('updatedAt', 'updated_at', 'datetime'), system('publishedAt', 'published_at', 'datetime')];

export function createRegistry(model: ModelSchema): Registry {
  const types = new Map<string, TypeInfo>();
  for (const schema of Object.values(model.contentTypes)) types.set(schema.uid, contentTypeInfo(schema));
  for (const schema of Object.values(model.components)) types.set(schema.uid, componentInfo(schema));
  if (!types.has(uploadFileSchema.uid)) types.set(uploadFileSchema.uid, contentTypeInfo(uploadFileSchema));
  return {
    type(uid) {
      const info = types.get(uid);
      if (info === undefined) throw new Error(`read engine: unknown type ${uid}`);
      return info;
    },
  };
}

function contentTypeInfo(schema: ContentTypeSchema): TypeInfo {
  const publicScalars = scalarsOf(schema.attributes).filter(isPublic);
  const trailingSystem = schema.localized ? [...TIMESTAMPS, LOCALE] : TIMESTAMPS;
  return {
    uid: schema.uid,
    table: schema.table,
    isComponent: false,
    draftAndPublish: schema.draftAndPublish,
    localized: schema.localized,
    attributes: schema.attributes,
    publicScalars,
    trailingSystem,
    columns: byName([ID, DOCUMENT_ID, ...scalarsOf(schema.attributes), ...trailingSystem]),
  };
}

function componentInfo(schema: ComponentSchema): TypeInfo {
  return {
    uid: schema.uid,
    table: schema.table,
    isComponent: true,
    draftAndPublish: false,
    localized: false,
    attributes: schema.attributes,
    publicScalars: scalarsOf(schema.attributes).filter(isPublic),
    trailingSystem: [],
    columns: byName([ID, ...scalarsOf(schema.attributes)]),
  };
}

function scalarsOf(attributes: Readonly<Record<string, Field>>): ScalarColumn[] {
  const out: ScalarColumn[] = [];
  for (const [name, field] of Object.entries(attributes)) {
    if (field.kind !== 'scalar') continue;
    out.push({ name, column: field.column, type: field.type, system: false, hidden: field.private || field.type === 'password' });
  }
  return out;
}

function isPublic(scalar: ScalarColumn): boolean {
  return !scalar.hidden;
}

function byName(columns: readonly ScalarColumn[]): ReadonlyMap<string, ScalarColumn> {
  return new Map(columns.map((c) => [c.name, c]));
}
