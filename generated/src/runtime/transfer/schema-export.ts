/**
 * The `schemas/` lines of an exported archive: each content type and component described the way
 * Strapi describes it (uid, kind, collectionName, options, attributes with their types, targets
 * and components), rebuilt from the project's static tables, so that `capi import` and Strapi's
 * own import can compare them with theirs.
 */
import type { ComponentSchema, ContentTypeSchema, Field, ModelSchema } from '../schema.ts';

type Json = Record<string, unknown>;

export function archiveSchemas(model: ModelSchema): Json[] {
  return [...Object.values(model.contentTypes).map((type) => contentTypeSchema(model, type)), ...Object.values(model.components).map((component) => componentSchema(model, component))];
}

function contentTypeSchema(model: ModelSchema, type: ContentTypeSchema): Json {
  const [namespace = '', name = ''] = type.uid.split('::');
  return {
    uid: type.uid,
    modelType: 'contentType',
    kind: type.kind,
    collectionName: type.table,
    info: { singularName: type.singularName, pluralName: type.pluralName, displayName: type.singularName },
    options: { draftAndPublish: type.draftAndPublish },
    pluginOptions: type.localized ? { i18n: { localized: true } } : {},
    modelName: type.singularName,
    ...(namespace === 'plugin' ? { plugin: name.split('.')[0] } : {}),
    attributes: {
      ...attributes(model, type.attributes),
      createdAt: { type: 'datetime' },
      updatedAt: { type: 'datetime' },
      publishedAt: { type: 'datetime', configurable: false, writable: true, visible: false },
    },
  };
}

function componentSchema(model: ModelSchema, component: ComponentSchema): Json {
  const [category = '', name = ''] = component.uid.split('.');
  return {
    uid: component.uid,
    modelType: 'component',
    collectionName: component.table,
    category,
    modelName: name,
    info: { displayName: name },
    options: {},
    attributes: attributes(model, component.attributes),
  };
}

function attributes(model: ModelSchema, fields: Readonly<Record<string, Field>>): Json {
  const out: Json = {};
  for (const [name, field] of Object.entries(fields)) out[name] = attribute(model, field);
  return out;
}

function attribute(model: ModelSchema, field: Field): Json {
  const common = { ...(field.required ? { required: true } : {}), ...(field.private ? { private: true } : {}), ...(field.localized ? { pluginOptions: { i18n: { localized: true } } } : {}) };
  switch (field.kind) {
    case 'scalar':
      return {
        type: field.type,
        ...common,
        ...(field.unique ? { unique: true } : {}),
        ...(field.enum === undefined ? {} : { enum: field.enum }),
        ...(field.default === undefined ? {} : { default: field.default }),
        ...(field.min === undefined ? {} : { min: field.min }),
        ...(field.max === undefined ? {} : { max: field.max }),
        ...(field.minLength === undefined ? {} : { minLength: field.minLength }),
        ...(field.maxLength === undefined ? {} : { maxLength: field.maxLength }),
        ...(field.regex === undefined ? {} : { regex: field.regex }),
        ...(field.targetField === undefined ? {} : { targetField: field.targetField }),
      };
    case 'media':
      return { type: 'media', multiple: field.multiple, allowedTypes: field.allowedTypes, ...common };
    case 'component':
      return { type: 'component', component: field.component, repeatable: field.repeatable, ...common };
    case 'dynamiczone':
      return { type: 'dynamiczone', components: field.components, ...common };
    case 'relation': {
      const inverse = field.inverse === undefined ? undefined : model.contentTypes[field.target]?.attributes[field.inverse];
      const inverseMany = inverse?.kind === 'relation' && inverse.cardinality === 'many';
      const relation = field.cardinality === 'one' ? (inverseMany ? 'manyToOne' : 'oneToOne') : inverseMany ? 'manyToMany' : 'oneToMany';
      const side = field.inverse === undefined ? {} : field.owner ? { inversedBy: field.inverse } : { mappedBy: field.inverse };
      return { type: 'relation', relation, target: field.target, ...side, ...common };
    }
  }
}
