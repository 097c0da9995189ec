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

/**
 * users-permissions' actions as Strapi names them. Its user and role types are content types of
 * the model, but their actions are the plugin's (`user.destroy`, not `delete`).
 */
export const usersPermissionsActions = {
  auth: ['callback', 'changePassword', 'connect', 'emailConfirmation', 'forgotPassword', 'register', 'resetPassword', 'sendEmailConfirmation'],
  user: ['count', 'create', 'destroy', 'find', 'findOne', 'me', 'update'],
  role: ['createRole', 'deleteRole', 'find', 'findOne', 'updateRole'],
} as const;

const USERS_PERMISSIONS = 'plugin::users-permissions';

/**
 * What Strapi 5 grants a new project (users-permissions' `DEFAULT_PERMISSIONS`): the public role
 * may sign in and up and run the password and confirmation flows; the authenticated role may read
 * its own account and change its password.
 */
const publicUsersPermissions = ['callback', 'connect', 'emailConfirmation', 'forgotPassword', 'register', 'resetPassword', 'sendEmailConfirmation'].map((a) => `${USERS_PERMISSIONS}.auth.${a}`);
const authenticatedUsersPermissions = [`${USERS_PERMISSIONS}.auth.changePassword`, `${USERS_PERMISSIONS}.user.me`];

/** `plugin::users-permissions.user.destroy` for `delete` on the plugin's types, `<uid>.<action>` for every other type. */
export function typeAction(uid: string, action: string): string {
  return uid.startsWith(`${USERS_PERMISSIONS}.`) && action === 'delete' ? `${uid}.${uid.endsWith('.role') ? 'deleteRole' : 'destroy'}` : `${uid}.${action}`;
}

export function contentTypeActions(type: ContentTypeRef): readonly string[] {
  if (type.uid.startsWith(`${USERS_PERMISSIONS}.`)) return [];
  const actions = type.kind === 'singleType' ? singleTypeActions : collectionTypeActions;
  return actions.map((action) => `${type.uid}.${action}`);
}

export function pluginActions(): readonly string[] {
  const usersPermissions = Object.entries(usersPermissionsActions).flatMap(([controller, actions]) => actions.map((a) => `${USERS_PERMISSIONS}.${controller}.${a}`));
  return [...uploadActions.map((action) => `plugin::upload.content-api.${action}`), listLocalesAction, ...usersPermissions];
}

/** Every action that exists for this model, content types sorted by uid, then plugin actions. */
export function knownActions(model: PermissionModel): readonly string[] {
  return [...sortedTypes(model).flatMap(contentTypeActions), ...pluginActions()];
}

/**
 * What a new project allows, as a new Strapi project does: no content, media or locales for
 * anyone until config/permissions.json grants them (`capi permissions grant`), so that a type
 * is never public by accident.
 */
export function defaultPermissions(): Permissions {
  return { public: [...publicUsersPermissions], authenticated: [...authenticatedUsersPermissions] };
}

function sortedTypes(model: PermissionModel): ContentTypeRef[] {
  return Object.values(model.contentTypes).sort((a, b) => (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0));
}

/** `api::<api>.<name>.<action>` or `plugin::<plugin>.<controller>.<action>`. */
export const actionPattern = /^(api::[a-z0-9-]+\.[a-z0-9-]+|plugin::[a-z0-9-]+\.[a-z0-9-]+)\.[A-Za-z]+$/;
