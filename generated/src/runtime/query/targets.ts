/**
 * What the query parser needs to know of a content type, component or the media files: which keys
 * exist and what they are. Besides a type's own attributes this knows the fields every Strapi 5
 * entry has (`id`, `documentId`, timestamps, `locale` and `localizations` on localized types) and
 * the ones that exist but are never exposed (`createdBy`, `updatedBy`, private and password
 * attributes), which Strapi rejects with the attribute's own path rather than as unknown keys.
 */
import type { ComponentSchema, ContentTypeSchema, Field, ModelSchema, ScalarType } from '../schema.ts';
import { UPLOAD_FILE_UID, uploadFileSchema } from '../upload/file-schema.ts';

export type TargetKind = 'contentType' | 'component' | 'media';

/** A type rows can be read of: its kind and its static table. */
export interface Target {
  readonly kind: TargetKind;
  readonly uid: string;
  readonly attributes: Readonly<Record<string, Field>>;
  /** Content types only: i18n adds `locale` and `localizations`. */
  readonly localized: boolean;
}

export type KeyInfo =
  | { readonly kind: 'scalar'; readonly type: ScalarType }
  | { readonly kind: 'relation'; readonly target: string }
  | { readonly kind: 'media' }
  | { readonly kind: 'component'; readonly component: string }
  | { readonly kind: 'dynamiczone'; readonly components: readonly string[] }
  /** Exists but never leaves the server: private and password attributes, creator fields. */
  | { readonly kind: 'hidden' };

/** Where a key is used: `localizations` can be populated but the engine cannot filter or sort on it. */
export type KeyUse = 'populate' | 'filter';

const SYSTEM_SCALARS: Readonly<Record<string, ScalarType>> = {
  id: 'integer',
  documentId: 'string',
  createdAt: 'datetime',
  updatedAt: 'datetime',
  publishedAt: 'datetime',
};

const CREATOR_FIELDS: readonly string[] = ['createdBy', 'updatedBy'];

export const mediaTarget: Target = {
  kind: 'media',
  uid: UPLOAD_FILE_UID,
  attributes: uploadFileSchema.attributes,
  localized: false,
};

export function contentTypeTarget(schema: ContentTypeSchema): Target {
  // The files listing (/api/upload/files) reads the file schema as a content type.
  return { kind: schema.uid === UPLOAD_FILE_UID ? 'media' : 'contentType', uid: schema.uid, attributes: schema.attributes, localized: schema.localized };
}

export function componentTarget(schema: ComponentSchema): Target {
  return { kind: 'component', uid: schema.uid, attributes: schema.attributes, localized: false };
}

/** What `key` is on `target`, or undefined when it is no key of it. */
export function keyInfo(target: Target, key: string, use: KeyUse = 'filter'): KeyInfo | undefined {
  if (Object.hasOwn(target.attributes, key)) {
    const field = target.attributes[key];
    if (field !== undefined) return fieldInfo(field);
  }
  if (key === 'id') return { kind: 'scalar', type: 'integer' };
  if (target.kind === 'component') return undefined;
  if (Object.hasOwn(SYSTEM_SCALARS, key)) {
    const type = SYSTEM_SCALARS[key];
    if (type !== undefined) return { kind: 'scalar', type };
  }
  if (CREATOR_FIELDS.includes(key)) return { kind: 'hidden' };
  if (target.localized && key === 'locale') return { kind: 'scalar', type: 'string' };
  if (target.localized && key === 'localizations' && use === 'populate') return { kind: 'relation', target: target.uid };
  return undefined;
}

function fieldInfo(field: Field): KeyInfo {
  if (field.private) return { kind: 'hidden' };
  switch (field.kind) {
    case 'scalar':
      return field.type === 'password' ? { kind: 'hidden' } : { kind: 'scalar', type: field.type };
    case 'relation':
      return { kind: 'relation', target: field.target };
    case 'media':
      return { kind: 'media' };
    case 'component':
      return { kind: 'component', component: field.component };
    case 'dynamiczone':
      return { kind: 'dynamiczone', components: field.components };
  }
}

/**
 * The keys `populate=*` expands to, in schema order: every relation, media, component and dynamic
 * zone that is not private, then `localizations` on localized types.
 */
export function populatableKeys(target: Target): string[] {
  const keys = Object.keys(target.attributes).filter((key) => {
    const info = keyInfo(target, key, 'populate');
    return info !== undefined && info.kind !== 'scalar' && info.kind !== 'hidden';
  });
  if (target.kind === 'contentType' && target.localized) keys.push('localizations');
  return keys;
}

/**
 * The key Strapi names when a `*` appears below the root of `populate` (`populate[author]=*`):
 * it expands the `*` into the target's populatable attributes and rejects the first one, since
 * attributes must sit under `populate` there. Every content type has the creator relations, so
 * one always exists; Strapi's file type starts with its `related` relation. A component without
 * any populatable attribute expands to nothing, which Strapi reads as `true`: undefined here.
 */
export function firstKeyOfStar(target: Target): string | undefined {
  if (target.kind === 'media') return 'related';
  const first = populatableKeys(target)[0];
  if (first !== undefined) return first;
  return target.kind === 'contentType' ? 'createdBy' : undefined;
}

/** Resolves the UIDs a schema refers to. A dangling UID is a generation bug, not a bad query. */
export class Targets {
  constructor(private readonly model: ModelSchema) {}

  relation(uid: string): Target {
    if (uid === UPLOAD_FILE_UID) return mediaTarget;
    const schema = Object.hasOwn(this.model.contentTypes, uid) ? this.model.contentTypes[uid] : undefined;
    if (schema === undefined) throw new Error(`query parser: unknown content type ${uid}`);
    return contentTypeTarget(schema);
  }

  component(uid: string): Target {
    const schema = this.componentSchema(uid);
    if (schema === undefined) throw new Error(`query parser: unknown component ${uid}`);
    return componentTarget(schema);
  }

  hasComponent(uid: string): boolean {
    return this.componentSchema(uid) !== undefined;
  }

  private componentSchema(uid: string): ComponentSchema | undefined {
    return Object.hasOwn(this.model.components, uid) ? this.model.components[uid] : undefined;
  }
}
