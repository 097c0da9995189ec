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
    { name: 'updateUploadFile', type: `${file}!`, args: [{ name: 'id', type: 'ID!' }, { name: 'info', type: FILE_INFO_INPUT }] },
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
  if (!model.entities.some((e) => e.uid === USERS_PERMISSIONS_USER_UID)) return [];
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
  return [
    { name: 'login', type: 'UsersPermissionsLoginPayload!', args: [{ name: 'input', type: 'UsersPermissionsLoginInput!' }] },
    { name: 'register', type: 'UsersPermissionsLoginPayload!', args: [{ name: 'input', type: 'UsersPermissionsRegisterInput!' }] },
    { name: 'forgotPassword', type: 'UsersPermissionsPasswordPayload', args: strings('email') },
    { name: 'resetPassword', type: 'UsersPermissionsLoginPayload', args: strings('password', 'passwordConfirmation', 'code') },
    { name: 'changePassword', type: 'UsersPermissionsLoginPayload', args: strings('currentPassword', 'password', 'passwordConfirmation') },
    { name: 'emailConfirmation', type: 'UsersPermissionsLoginPayload', args: strings('confirmation') },
  ];
}
