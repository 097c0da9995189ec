/**
 * Where each Strapi type of an archive goes in a capi project: a content type's table, a
 * component's table, the media library's `files`, or nowhere, for the types whose data capi keeps
 * elsewhere or does not serve (with the reason, which the report prints).
 */
import type { ComponentSchema, ContentTypeSchema, ModelSchema } from '../schema.ts';
import { UPLOAD_FILE_UID, uploadFileSchema } from '../upload/file-schema.ts';

export type TypeTarget =
  | { readonly kind: 'contentType'; readonly schema: ContentTypeSchema }
  | { readonly kind: 'file'; readonly schema: ContentTypeSchema }
  | { readonly kind: 'component'; readonly schema: ComponentSchema }
  | { readonly kind: 'skipped'; readonly reason: string };

/** Types a Strapi project always has whose content capi keeps elsewhere or has no use for. */
const skippedTypes: ReadonlyArray<readonly [RegExp, string]> = [
  [/^plugin::users-permissions\.permission$/, 'capi keeps role permissions in config/permissions.json'],
  [/^plugin::i18n\.locale$/, 'capi keeps locales in config/plugins.json (i18n.locales)'],
  [/^plugin::upload\.folder$/, 'capi has no media folders (files keep their folderPath)'],
  [/^admin::/, "the admin panel's users, roles, tokens and sessions have no place in capi"],
  [/^plugin::content-releases\./, 'capi does not serve content releases'],
  [/^plugin::review-workflows\./, 'capi does not serve review workflows'],
  [/^strapi::/, "Strapi's internal data"],
];

/** Attributes the archive has that capi derives, stores elsewhere or does not serve, per owner. */
const skippedAttributes: Readonly<Record<string, readonly string[]>> = {
  'plugin::users-permissions.role': ['permissions'],
};

/** Keys every Strapi row has that are columns of their own (or derived) rather than attributes. */
export const systemAttributes: ReadonlySet<string> = new Set(['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'createdBy', 'updatedBy', 'locale', 'localizations']);

export function isSkippedAttribute(uid: string, name: string): boolean {
  return systemAttributes.has(name) || (own(skippedAttributes, uid)?.includes(name) ?? false);
}

/**
 * `record[key]` when the record has it as its own: names in an archive are the archive's, and a
 * type or attribute named `constructor` or `__proto__` must not find what every object inherits.
 */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** The target of `uid`, or undefined when the project lacks it (a problem to report). */
export function targetOf(model: ModelSchema, uid: string): TypeTarget | undefined {
  if (uid === UPLOAD_FILE_UID) return { kind: 'file', schema: uploadFileSchema };
  const contentType = own(model.contentTypes, uid);
  if (contentType !== undefined) return { kind: 'contentType', schema: contentType };
  const component = own(model.components, uid);
  if (component !== undefined) return { kind: 'component', schema: component };
  const skipped = skippedTypes.find(([pattern]) => pattern.test(uid));
  return skipped === undefined ? undefined : { kind: 'skipped', reason: skipped[1] };
}

/** Whether `uid` is something a project describes in its own schemas (its types and components). */
export function isProjectType(uid: string): boolean {
  return uid.startsWith('api::') || uid.startsWith('plugin::users-permissions.user') || uid.startsWith('plugin::users-permissions.role') || !uid.includes('::');
}
