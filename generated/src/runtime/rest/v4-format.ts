/**
 * `Strapi-Response-Format: v4`: Strapi 5's migration aid for front ends written for Strapi 4. With
 * that request header, Strapi 5 reshapes each entry of a find, findOne, create or update answer
 * (delete still answers 204) as Strapi 4 did:
 * - an entry is `{ id, documentId, attributes: { ...every other key } }`;
 * - a relation (`localizations` included) and a media attribute become `{ data: <entry, list of
 *   entries, or null> }`, their entries reshaped in turn (a populated count `{ count }` becomes
 *   `{ data: { attributes: { count } } }`, as Strapi 5 answers it);
 * - components and dynamic zone entries stay flat (`id`, `__component` and their fields next to
 *   each other), their relations and media wrapped as above.
 * The envelope (`data`, `meta`) does not change. Entities may share subtrees, so this builds new
 * objects and never changes its input.
 */
import type { Entity } from '../engine/types.ts';
import type { Field, ModelSchema } from '../schema.ts';
import { UPLOAD_FILE_UID, uploadFileSchema } from '../upload/file-schema.ts';

/** The request header and value that ask for the v4 shape. */
export const RESPONSE_FORMAT_HEADER = 'strapi-response-format';

export function wantsV4(header: string | string[] | undefined): boolean {
  return header === 'v4';
}

type Attributes = Readonly<Record<string, Field>>;

export class V4Format {
  constructor(private readonly model: ModelSchema) {}

  /** An entry of content type `uid`. */
  entry(entity: Entity, uid: string): Entity {
    const { id, documentId, ...properties } = entity;
    const attributes = this.properties(properties, this.attributesOf(uid), uid);
    return { ...(id === undefined ? {} : { id }), ...(documentId === undefined ? {} : { documentId }), attributes };
  }

  private attributesOf(uid: string): Attributes {
    if (uid === UPLOAD_FILE_UID) return uploadFileSchema.attributes;
    return this.model.contentTypes[uid]?.attributes ?? this.model.components[uid]?.attributes ?? {};
  }

  private properties(properties: Entity, attributes: Attributes, uid: string): Entity {
    const out: Entity = {};
    for (const [key, value] of Object.entries(properties)) out[key] = this.value(key, value, attributes[key], uid);
    return out;
  }

  private value(key: string, value: unknown, field: Field | undefined, owner: string): unknown {
    // `localizations` is a relation to the type itself in Strapi's schema; capi has no attribute for it.
    if (field === undefined) return key === 'localizations' && Array.isArray(value) ? { data: this.entries(value, owner) } : value;
    switch (field.kind) {
      case 'relation':
        return { data: this.entries(value, field.target) };
      case 'media':
        return { data: this.entries(value, UPLOAD_FILE_UID) };
      case 'component':
        return Array.isArray(value) ? value.map((item: Entity) => this.component(item, field.component)) : isEntity(value) ? this.component(value, field.component) : value;
      case 'dynamiczone':
        return Array.isArray(value) ? value.map((item: Entity) => this.component(item, String(item['__component']))) : value;
      case 'scalar':
        return value;
    }
  }

  private entries(value: unknown, uid: string): unknown {
    if (Array.isArray(value)) return value.map((item: Entity) => this.entry(item, uid));
    return isEntity(value) ? this.entry(value, uid) : value;
  }

  private component(entity: Entity, uid: string): Entity {
    return this.properties(entity, this.attributesOf(uid), uid);
  }
}

function isEntity(value: unknown): value is Entity {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
