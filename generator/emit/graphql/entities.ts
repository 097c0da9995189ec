/**
 * What the builders read: every document type served through GraphQL (the model's content types
 * plus the two plugin types capi serves, UploadFile and I18NLocale) and every component, in one
 * shape, so that a plugin type is built by exactly the rules that build an Article.
 */
import { pascalCase, pluginPrefix } from '../../model/names.ts';
import type { Attribute, Component, ContentType, Model, ScalarAttribute, ScalarType } from '../../model/types.ts';
import type { FieldDef, TypeGroup } from './definitions.ts';
import { lowerFirst } from '../../model/graphql-names.ts';

export const GENERIC_MORPH = 'GenericMorph';
export const UPLOAD_FILE_UID = 'plugin::upload.file';
export const LOCALE_UID = 'plugin::i18n.locale';

export interface GraphqlEntity {
  readonly modelType: 'contentType';
  readonly uid: string;
  readonly kind: 'collectionType' | 'singleType';
  /** Object type name: `Article`, `UploadFile`, `I18NLocale`. */
  readonly typeName: string;
  /** Query returning one document: `article`, `uploadFile`. */
  readonly singularField: string;
  /** Queries returning many: `articles`, `articles_connection`. */
  readonly pluralField: string;
  readonly localized: boolean;
  readonly attributes: readonly Attribute[];
  /** create/update/delete mutations; the plugin types have none (upload has its own). */
  readonly crudMutations: boolean;
  /** Output fields that are not attributes of the IR, printed after the attributes. */
  readonly extraOutputFields: readonly FieldDef[];
}

export interface GraphqlComponent {
  readonly modelType: 'component';
  readonly uid: string;
  readonly typeName: string;
  readonly attributes: readonly Attribute[];
}

export type GraphqlOwner = GraphqlEntity | GraphqlComponent;

/** Lookups shared by every builder. */
export interface GraphqlModel {
  /** Plugin types first, then the model's content types in uid order (the order of Query fields). */
  readonly entities: readonly GraphqlEntity[];
  readonly components: readonly GraphqlComponent[];
  entity(uid: string): GraphqlEntity;
  component(uid: string): GraphqlComponent;
}

export function graphqlModel(model: Model): GraphqlModel {
  // Strapi lists plugins' types (upload, i18n, users-permissions) before the project's own.
  const isPlugin = (type: { uid: string }): boolean => type.uid.startsWith('plugin::');
  const entities = [uploadFileEntity(), localeEntity(), ...model.contentTypes.filter(isPlugin).map(contentTypeEntity), ...model.contentTypes.filter((t) => !isPlugin(t)).map(contentTypeEntity)];
  const components = model.components.map(componentOwner);
  const entityIndex = new Map(entities.map((e) => [e.uid, e]));
  const componentIndex = new Map(components.map((c) => [c.uid, c]));
  return {
    entities,
    components,
    entity: (uid) => found(entityIndex.get(uid), uid),
    component: (uid) => found(componentIndex.get(uid), uid),
  };
}

/** The IR is validated: a dangling reference here is a bug in capi, not in the schema files. */
function found<T>(value: T | undefined, uid: string): T {
  if (value === undefined) throw new Error(`GraphQL emitter: ${uid} is referenced but not in the model`);
  return value;
}

function contentTypeEntity(type: ContentType): GraphqlEntity {
  return {
    modelType: 'contentType',
    uid: type.uid,
    kind: type.kind,
    typeName: type.names.graphqlType,
    singularField: lowerFirst(type.names.graphqlType),
    pluralField: lowerFirst(`${pluginPrefix(type.uid)}${pascalCase(type.pluralName)}`),
    localized: type.localized,
    attributes: type.attributes,
    // users-permissions' user and role have the plugin's own mutations (plugins.ts).
    crudMutations: !type.uid.startsWith('plugin::users-permissions.'),
    extraOutputFields: [],
  };
}

function componentOwner(component: Component): GraphqlComponent {
  return { modelType: 'component', uid: component.uid, typeName: component.names.graphqlType, attributes: component.attributes };
}

/**
 * plugin::upload.file as Strapi 5.54 exposes it. `folderPath` is private and the folder relation
 * is not served, so neither appears; `related` is a polymorphic relation (any type or component
 * holding the file), which the IR cannot express, hence an extra output field.
 */
function uploadFileEntity(): GraphqlEntity {
  return {
    modelType: 'contentType',
    uid: UPLOAD_FILE_UID,
    kind: 'collectionType',
    typeName: 'UploadFile',
    singularField: 'uploadFile',
    pluralField: 'uploadFiles',
    localized: false,
    attributes: [
      pluginScalar('name', 'string', true),
      pluginScalar('alternativeText', 'string'),
      pluginScalar('caption', 'string'),
      pluginScalar('focalPoint', 'json'),
      pluginScalar('width', 'integer'),
      pluginScalar('height', 'integer'),
      pluginScalar('formats', 'json'),
      pluginScalar('hash', 'string', true),
      pluginScalar('ext', 'string'),
      pluginScalar('mime', 'string', true),
      pluginScalar('size', 'decimal', true),
      pluginScalar('url', 'string', true),
      pluginScalar('previewUrl', 'string'),
      pluginScalar('provider', 'string', true),
      pluginScalar('provider_metadata', 'json'),
    ],
    crudMutations: false,
    extraOutputFields: [{ name: 'related', type: `[${GENERIC_MORPH}]` }],
  };
}

/** plugin::i18n.locale: read-only through GraphQL (Strapi disables its mutations). */
function localeEntity(): GraphqlEntity {
  return {
    modelType: 'contentType',
    uid: LOCALE_UID,
    kind: 'collectionType',
    typeName: 'I18NLocale',
    singularField: 'i18NLocale',
    pluralField: 'i18NLocales',
    localized: false,
    attributes: [pluginScalar('name', 'string'), pluginScalar('code', 'string')],
    crudMutations: false,
    extraOutputFields: [],
  };
}

function pluginScalar(name: string, type: ScalarType, required = false): ScalarAttribute {
  return {
    kind: 'scalar',
    name,
    type,
    required,
    private: false,
    configurable: false,
    localized: false,
    pointer: `/attributes/${name}`,
    column: name,
    unique: false,
  };
}

/** Where an owner's types are listed in the printed schema. */
export function ownerGroup(owner: GraphqlOwner): TypeGroup {
  if (owner.modelType === 'component') return 'component';
  return owner.uid.startsWith('plugin::') ? 'plugin' : 'content-type';
}
