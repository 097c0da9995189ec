/**
 * What the media library adds beyond its UploadFile document type (built like any content type,
 * see entities.ts): the file-info input, its two mutations, and the GenericMorph union that
 * `UploadFile.related` returns.
 */
import type { FieldDef, InputDef, ObjectDef, TypeDef, UnionDef } from './definitions.ts';
import { GENERIC_MORPH, type GraphqlModel, UPLOAD_FILE_UID } from './entities.ts';

const USERS_PERMISSIONS_USER_UID = 'plugin::users-permissions.user';

export const FILE_INFO_INPUT = 'FileInfoInput';

export function fileInfoInput(): InputDef {
  return {
    kind: 'input',
    group: 'plugin',
    name: FILE_INFO_INPUT,
    fields: ['name', 'alternativeText', 'caption'].map((name) => ({ name, type: 'String' })),
  };
}

/**
 * Both take the numeric file id (Strapi 5 kept v4's identifier for media mutations). Updating
 * answers the file or fails; deleting an unknown id answers null.
 */
export function uploadMutations(model: GraphqlModel): FieldDef[] {
  const file = model.entity(UPLOAD_FILE_UID).typeName;
  return [
    {
      name: 'updateUploadFile',
      type: `${file}!`,
      args: [
        { name: 'id', type: 'ID!' },
        { name: 'info', type: FILE_INFO_INPUT },
      ],
    },
    { name: 'deleteUploadFile', type: file, args: [{ name: 'id', type: 'ID!' }] },
  ];
}

/** Every document and component type capi serves: what a file can be related to. */
export function genericMorph(model: GraphqlModel): UnionDef {
  const members = [...model.entities, ...model.components].map((o) => o.typeName).sort();
  return { kind: 'union', group: 'plugin', name: GENERIC_MORPH, members };
}

/**
 * users-permissions' own GraphQL API beyond its two document types, as Strapi 5's plugin
 * declares it: `me`, `login`, `register` and the password flows, and their payload types.
 * Only when the model has the plugin's user type (every generated model has).
 */
export function usersPermissionsTypes(model: GraphqlModel): TypeDef[] {
  return model.entities.some((e) => e.uid === USERS_PERMISSIONS_USER_UID) ? usersPermissionsTypeDefs() : [];
}

/** The definitions themselves, whatever the model (the validator reserves their names). */
export function usersPermissionsTypeDefs(): TypeDef[] {
  const object = (name: string, fields: FieldDef[]): ObjectDef => ({ kind: 'object', group: 'plugin', name, fields });
  const ok = [{ name: 'ok', type: 'Boolean!' }];
  return [
    object('UsersPermissionsMe', [
      { name: 'id', type: 'ID!' },
      { name: 'documentId', type: 'ID!' },
      { name: 'username', type: 'String!' },
      { name: 'email', type: 'String' },
      { name: 'confirmed', type: 'Boolean' },
      { name: 'blocked', type: 'Boolean' },
      { name: 'role', type: 'UsersPermissionsMeRole' },
    ]),
    object('UsersPermissionsMeRole', [
      { name: 'id', type: 'ID!' },
      { name: 'name', type: 'String!' },
      { name: 'description', type: 'String' },
      { name: 'type', type: 'String' },
    ]),
    object('UsersPermissionsLoginPayload', [
      { name: 'jwt', type: 'String' },
      { name: 'user', type: 'UsersPermissionsMe!' },
    ]),
    object('UsersPermissionsPasswordPayload', ok),
    object('UsersPermissionsCreateRolePayload', ok),
    object('UsersPermissionsUpdateRolePayload', ok),
    object('UsersPermissionsDeleteRolePayload', ok),
    object('UsersPermissionsUserEntityResponse', [{ name: 'data', type: 'UsersPermissionsUser' }]),
    {
      kind: 'input',
      group: 'plugin',
      name: 'UsersPermissionsLoginInput',
      fields: [
        { name: 'identifier', type: 'String!' },
        { name: 'password', type: 'String!' },
        // Strapi declares a default of "local", the only provider capi serves.
        { name: 'provider', type: 'String!', defaultValue: '"local"' },
      ],
    },
    {
      kind: 'input',
      group: 'plugin',
      name: 'UsersPermissionsRegisterInput',
      fields: ['username', 'email', 'password'].map((name) => ({ name, type: 'String!' })),
    },
  ];
}

export function usersPermissionsQueries(model: GraphqlModel): FieldDef[] {
  if (!model.entities.some((e) => e.uid === USERS_PERMISSIONS_USER_UID)) return [];
  return [{ name: 'me', type: 'UsersPermissionsMe' }];
}

export function usersPermissionsMutations(model: GraphqlModel): FieldDef[] {
  if (!model.entities.some((e) => e.uid === USERS_PERMISSIONS_USER_UID)) return [];
  const strings = (...names: string[]) => names.map((name) => ({ name, type: 'String!' }));
  const id = { name: 'id', type: 'ID!' };
  const data = (type: string) => ({ name: 'data', type: `${type}!` });
  const user = 'UsersPermissionsUserEntityResponse!';
  // The plugin's own CRUD: by numeric id, answering `{ ok }` for roles and `{ data }` for users.
  return [
    { name: 'createUsersPermissionsRole', type: 'UsersPermissionsCreateRolePayload', args: [data('UsersPermissionsRoleInput')], description: 'Create a new role' },
    { name: 'updateUsersPermissionsRole', type: 'UsersPermissionsUpdateRolePayload', args: [id, data('UsersPermissionsRoleInput')], description: 'Update an existing role' },
    { name: 'deleteUsersPermissionsRole', type: 'UsersPermissionsDeleteRolePayload', args: [id], description: 'Delete an existing role' },
    { name: 'createUsersPermissionsUser', type: user, args: [data('UsersPermissionsUserInput')], description: 'Create a new user' },
    { name: 'updateUsersPermissionsUser', type: user, args: [id, data('UsersPermissionsUserInput')], description: 'Update an existing user' },
    { name: 'deleteUsersPermissionsUser', type: user, args: [id], description: 'Delete an existing user' },
    { name: 'login', type: 'UsersPermissionsLoginPayload!', args: [{ name: 'input', type: 'UsersPermissionsLoginInput!' }] },
    { name: 'register', type: 'UsersPermissionsLoginPayload!', args: [{ name: 'input', type: 'UsersPermissionsRegisterInput!' }], description: 'Register a user' },
    { name: 'forgotPassword', type: 'UsersPermissionsPasswordPayload', args: strings('email'), description: 'Request a reset password token' },
    {
      name: 'resetPassword',
      type: 'UsersPermissionsLoginPayload',
      args: strings('password', 'passwordConfirmation', 'code'),
      description: 'Reset user password. Confirm with a code (resetToken from forgotPassword)',
    },
    {
      name: 'changePassword',
      type: 'UsersPermissionsLoginPayload',
      args: strings('currentPassword', 'password', 'passwordConfirmation'),
      description: 'Change user password. Confirm with the current password.',
    },
    { name: 'emailConfirmation', type: 'UsersPermissionsLoginPayload', args: strings('confirmation'), description: 'Confirm an email users email address' },
  ];
}
