/**
 * Strapi's users-permissions plugin defines two content types that every Strapi project has, and
 * that other types relate to (authors, owners, members): `plugin::users-permissions.user` and
 * `plugin::users-permissions.role`. capi builds them into every model, with the attributes,
 * table names and options the plugin gives them (Strapi 5), so relations to them, populate,
 * filters and GraphQL work as for any other type.
 *
 * Roles keep their permissions in config/permissions.json, so the plugin's `permissions`
 * relation (to `plugin::users-permissions.permission`) is not part of the role here.
 *
 * A project extends the user type as Strapi does, with a complete schema of its own:
 * `src/extensions/users-permissions/content-types/user/schema.json` in a Strapi project,
 * `extensions/users-permissions/user.json` in a flat content-types folder. That file replaces
 * the built-in schema (it must keep the plugin's attributes; the validator says which are missing).
 */
export const USER_UID = 'plugin::users-permissions.user';
export const ROLE_UID = 'plugin::users-permissions.role';

/** Attributes the runtime's sign-in relies on; an extension must keep them as they are. */
export const REQUIRED_USER_ATTRIBUTES = ['username', 'email', 'provider', 'password', 'resetPasswordToken', 'confirmationToken', 'confirmed', 'blocked', 'role'] as const;

export const USER_SCHEMA = {
  kind: 'collectionType',
  collectionName: 'up_users',
  info: { name: 'user', description: '', singularName: 'user', pluralName: 'users', displayName: 'User' },
  options: { draftAndPublish: false, timestamps: true },
  attributes: {
    username: { type: 'string', minLength: 3, unique: true, configurable: false, required: true },
    email: { type: 'email', minLength: 6, configurable: false, required: true },
    provider: { type: 'string', configurable: false },
    password: { type: 'password', minLength: 6, configurable: false, private: true, searchable: false },
    resetPasswordToken: { type: 'string', configurable: false, private: true, searchable: false },
    confirmationToken: { type: 'string', configurable: false, private: true, searchable: false },
    confirmed: { type: 'boolean', default: false, configurable: false },
    blocked: { type: 'boolean', default: false, configurable: false },
    role: { type: 'relation', relation: 'manyToOne', target: ROLE_UID, inversedBy: 'users', configurable: false },
  },
} as const;

export const ROLE_SCHEMA = {
  kind: 'collectionType',
  collectionName: 'up_roles',
  info: { name: 'role', description: '', singularName: 'role', pluralName: 'roles', displayName: 'Role' },
  options: { draftAndPublish: false },
  attributes: {
    name: { type: 'string', minLength: 3, required: true, configurable: false },
    description: { type: 'string', configurable: false },
    type: { type: 'string', unique: true, configurable: false },
    users: { type: 'relation', relation: 'oneToMany', target: USER_UID, mappedBy: 'role', configurable: false },
  },
} as const;

/** Where a project's user extension lives, relative to the content-types root, by layout. */
export const USER_EXTENSION_PATH = {
  strapi: 'extensions/users-permissions/content-types/user/schema.json',
  flat: 'extensions/users-permissions/user.json',
} as const;

/** The path built-in schema files carry in diagnostics. */
export const BUILTIN_PATH = { user: '(built in) users-permissions/user', role: '(built in) users-permissions/role' } as const;
