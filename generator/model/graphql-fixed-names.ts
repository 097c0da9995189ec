/**
 * The GraphQL types capi's schema defines whatever the model: Strapi's custom scalars, the
 * publication and pagination types, the scalar filter inputs (the contract's GRAPHQL_SCALARS),
 * the media library's and users-permissions' types, the roots, and the plugin document types
 * served like content types. The validator checks derived names against these without importing
 * the emitter (the layers: contract <- model <- validate, emit); test/emit/graphql-fixed-names.test.ts
 * checks that the emitter defines exactly these.
 */
import { GRAPHQL_SCALARS } from '../../templates/contract/scalar-types.ts';

export const FIXED_GRAPHQL_TYPE_NAMES: readonly string[] = [
  'JSON',
  'DateTime',
  'Date',
  'Time',
  'Long',
  'I18NLocaleCode',
  'PublicationStatus',
  'PublicationFilter',
  'Pagination',
  'PaginationArg',
  'Error',
  'DeleteMutationResponse',
  ...Object.values(GRAPHQL_SCALARS).map((scalar) => scalar.filterInput),
  'FileInfoInput',
  'GenericMorph',
  'UsersPermissionsMe',
  'UsersPermissionsMeRole',
  'UsersPermissionsLoginPayload',
  'UsersPermissionsPasswordPayload',
  'UsersPermissionsCreateRolePayload',
  'UsersPermissionsUpdateRolePayload',
  'UsersPermissionsDeleteRolePayload',
  'UsersPermissionsUserEntityResponse',
  'UsersPermissionsLoginInput',
  'UsersPermissionsRegisterInput',
  'Query',
  'Mutation',
];

/** Plugin document types the schema serves like collection types, with their companions. */
export const PLUGIN_DOCUMENT_TYPE_NAMES: readonly string[] = ['UploadFile', 'I18NLocale'];
