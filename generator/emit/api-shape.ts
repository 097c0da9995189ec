/**
 * The REST API's public shape of the model, shared by the emitters that describe it to front ends
 * (the typed client, client.ts, and the OpenAPI document, openapi.ts): which scalars an entry
 * carries, what can be populated and what a write accepts. Private attributes and passwords are
 * left out here, once, so that neither description can leak them.
 */
import type { Attribute, Component, ContentType, Model, ScalarType } from '../model/types.ts';

export const UPLOAD_FILE_UID = 'plugin::upload.file';
export const USER_UID = 'plugin::users-permissions.user';

export type Owner = ContentType | Component;

/** A scalar as answered: user attributes and the system fields of documents. */
export interface ResponseScalar {
  readonly name: string;
  readonly type: ScalarType;
  readonly enum?: readonly string[];
  /** Whether the answer may hold null (user attributes may always be unset). */
  readonly nullable: boolean;
}

export interface PopulatableLink {
  readonly name: string;
  /** Target uid: a content type, a component, or `plugin::upload.file` for media. */
  readonly target: string;
  readonly many: boolean;
}

export interface PopulatableZone {
  readonly name: string;
  readonly components: readonly string[];
}

export interface Populatables {
  readonly relations: readonly PopulatableLink[];
  readonly components: readonly PopulatableLink[];
  readonly zones: readonly PopulatableZone[];
}

export function isContentType(owner: Owner): owner is ContentType {
  return 'kind' in owner;
}

/** Attributes that may leave the server. */
export function publicAttributes(owner: Owner): Attribute[] {
  return owner.attributes.filter((a) => !a.private && !(a.kind === 'scalar' && a.type === 'password'));
}

/** Fields every entry carries whatever `fields` selects. */
export function idFields(owner: Owner | 'file'): readonly ResponseScalar[] {
  const id: ResponseScalar = { name: 'id', type: 'integer', nullable: false };
  if (owner !== 'file' && !isContentType(owner)) return [id];
  return [id, { name: 'documentId', type: 'string', nullable: false }];
}

const TIMESTAMPS: readonly ResponseScalar[] = [
  { name: 'createdAt', type: 'datetime', nullable: false },
  { name: 'updatedAt', type: 'datetime', nullable: false },
  { name: 'publishedAt', type: 'datetime', nullable: true },
];

/** Scalars answered by default, in the order the server writes them. */
export function responseScalars(owner: Owner): ResponseScalar[] {
  const own = publicAttributes(owner).flatMap((a): ResponseScalar[] =>
    a.kind === 'scalar' ? [{ name: a.name, type: a.type, nullable: true, ...(a.enum === undefined ? {} : { enum: a.enum }) }] : [],
  );
  if (!isContentType(owner)) return own;
  return [...own, ...TIMESTAMPS, ...(owner.localized ? [{ name: 'locale', type: 'string', nullable: false } as const] : [])];
}

/** The media library file as every populated media field and `/api/upload/files` answer it. */
export const FILE_SCALARS: readonly ResponseScalar[] = [
  { name: 'name', type: 'string', nullable: false },
  { name: 'alternativeText', type: 'string', nullable: true },
  { name: 'caption', type: 'string', nullable: true },
  { name: 'focalPoint', type: 'json', nullable: true },
  { name: 'width', type: 'integer', nullable: true },
  { name: 'height', type: 'integer', nullable: true },
  { name: 'formats', type: 'json', nullable: true },
  { name: 'hash', type: 'string', nullable: false },
  { name: 'ext', type: 'string', nullable: true },
  { name: 'mime', type: 'string', nullable: false },
  { name: 'size', type: 'decimal', nullable: false },
  { name: 'url', type: 'string', nullable: false },
  { name: 'previewUrl', type: 'string', nullable: true },
  { name: 'provider', type: 'string', nullable: false },
  { name: 'provider_metadata', type: 'json', nullable: true },
  ...TIMESTAMPS,
];

export function populatables(owner: Owner): Populatables {
  const relations: PopulatableLink[] = [];
  const components: PopulatableLink[] = [];
  const zones: PopulatableZone[] = [];
  for (const a of publicAttributes(owner)) {
    if (a.kind === 'relation') relations.push({ name: a.name, target: a.target, many: a.cardinality === 'many' });
    else if (a.kind === 'media') relations.push({ name: a.name, target: UPLOAD_FILE_UID, many: a.multiple });
    else if (a.kind === 'component') components.push({ name: a.name, target: a.component, many: a.repeatable });
    else if (a.kind === 'dynamiczone') zones.push({ name: a.name, components: a.components });
  }
  // The same document in the other locales, populated like a to-many relation.
  if (isContentType(owner) && owner.localized) relations.push({ name: 'localizations', target: owner.uid, many: true });
  return { relations, components, zones };
}

/** Types served by the generic REST routes; users-permissions' types have the plugin's own routes. */
export function routedTypes(model: Model): ContentType[] {
  return model.contentTypes.filter((type) => !type.uid.startsWith('plugin::'));
}

/**
 * Whether a create must carry the attribute: a create publishes unless `status=draft`, and the
 * server checks required attributes of what it publishes (and of every component instance).
 * Draft creates take the partial body (the client types them so).
 */
export function requiredOnCreate(attribute: Attribute): boolean {
  return attribute.required;
}
