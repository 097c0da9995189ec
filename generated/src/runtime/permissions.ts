/**
 * Action names, as Strapi spells them (`api::article.article.find`,
 * `plugin::upload.content-api.upload`), and the permissions a new project starts with.
 */

export interface ContentTypeRef {
  readonly uid: string;
  readonly kind: 'collectionType' | 'singleType';
}

/** The part of the model that permissions depend on; `ModelSchema` and the generator's IR both fit. */
export interface PermissionModel {
  readonly contentTypes: readonly ContentTypeRef[] | Readonly<Record<string, ContentTypeRef>>;
}

/** Role name to the actions it may perform. Always has `public` and `authenticated`. */
export interface Permissions {
  readonly public: readonly string[];
  readonly authenticated: readonly string[];
  readonly [role: string]: readonly string[];
}

export const collectionTypeActions = ['find', 'findOne', 'create', 'update', 'delete'] as const;
/** A single type has one document: no findOne by id and no create (update creates it). */
export const singleTypeActions = ['find', 'update', 'delete'] as const;
export const uploadActions = ['find', 'findOne', 'upload', 'destroy'] as const;
export const listLocalesAction = 'plugin::i18n.locales.listLocales';

const readActions: ReadonlySet<string> = new Set(['find', 'findOne']);

export function contentTypeActions(type: ContentTypeRef): readonly string[] {
  const actions = type.kind === 'singleType' ? singleTypeActions : collectionTypeActions;
  return actions.map((action) => `${type.uid}.${action}`);
}

export function pluginActions(): readonly string[] {
  return [...uploadActions.map((action) => `plugin::upload.content-api.${action}`), listLocalesAction];
}

/** Every action that exists for this model, content types sorted by uid, then plugin actions. */
export function knownActions(model: PermissionModel): readonly string[] {
  return [...sortedTypes(model).flatMap(contentTypeActions), ...pluginActions()];
}

/**
 * What a freshly generated project allows: anyone may read every content type, list and read
 * media and list locales; an authenticated caller may do everything.
 */
export function defaultPermissions(model: PermissionModel): Permissions {
  const isRead = (action: string): boolean => readActions.has(action.slice(action.lastIndexOf('.') + 1));
  return {
    public: [...sortedTypes(model).flatMap((type) => contentTypeActions(type).filter(isRead)), ...pluginActions().filter(isRead), listLocalesAction],
    authenticated: [...knownActions(model)],
  };
}

function sortedTypes(model: PermissionModel): ContentTypeRef[] {
  return Object.values(model.contentTypes).sort((a, b) => (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0));
}

/** `api::<api>.<name>.<action>` or `plugin::<plugin>.<controller>.<action>`. */
export const actionPattern = /^(api::[a-z0-9-]+\.[a-z0-9-]+|plugin::[a-z0-9-]+\.[a-z0-9-]+)\.[A-Za-z]+$/;
