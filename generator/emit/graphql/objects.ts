/**
 * Output types: the object type of every content type and component, the enums and dynamic-zone
 * unions their attributes declare, and the two response collections of a content type.
 */
import type { Attribute, DynamicZoneAttribute, ScalarAttribute } from '../../model/types.ts';
import { ERROR_TYPE, nestedListArgs, PAGINATION } from './common.ts';
import { type FieldDef, nonNull, type ObjectDef, type TypeDef } from './definitions.ts';
import { type GraphqlEntity, type GraphqlModel, type GraphqlOwner, ownerGroup, UPLOAD_FILE_UID } from './entities.ts';
import {
  connectionFieldName,
  dynamicZoneInputName,
  dynamicZoneTypeName,
  entityResponseCollectionName,
  enumTypeName,
  graphqlEnumValues,
  relationResponseCollectionName,
} from '../../model/graphql-names.ts';
import { graphqlScalar } from './scalars.ts';

const TIMESTAMPS: readonly FieldDef[] = ['createdAt', 'updatedAt', 'publishedAt'].map((name) => ({ name, type: 'DateTime' }));

/**
 * `documentId` (content types) or `id` (components), the readable attributes, the timestamps,
 * and on localized types `locale` and the other locales as a relation to the same type.
 * Timestamps are nullable: `publishedAt` is null on drafts.
 */
export function objectType(owner: GraphqlOwner, model: GraphqlModel): ObjectDef {
  const fields: FieldDef[] = [owner.modelType === 'component' ? { name: 'id', type: 'ID!' } : { name: 'documentId', type: 'ID!' }];
  for (const attribute of owner.attributes) fields.push(...attributeFields(owner, attribute, model));
  if (owner.modelType === 'contentType') {
    fields.push(...owner.extraOutputFields, ...TIMESTAMPS);
    if (owner.localized) fields.push({ name: 'locale', type: 'String' }, ...toManyFields('localizations', owner, false));
  }
  return { kind: 'object', group: ownerGroup(owner), name: owner.typeName, fields };
}

/**
 * The field(s) of one attribute. Private attributes have none, as in Strapi. A password keeps its
 * field, so that queries written against Strapi still validate, but it always resolves to null
 * (runtime/graphql/resolvers-fields.ts): capi never serves the hash. A required attribute is non-null only
 * where it is a list (always answered, `[]` when empty): a single value may be missing from
 * stored data, since required is enforced on publish (drafts, and components inside drafts, may
 * lack it) and an attribute made required later leaves existing rows without it. Strapi 5 marks
 * those non-null too, and a read of such a draft fails with an internal error; a non-null
 * violation in a connection's `nodes: [T!]!` would even make the whole list unreadable. Strapi 4
 * made them nullable for the same reason (strapi/strapi#14168).
 */
function attributeFields(owner: GraphqlOwner, attribute: Attribute, model: GraphqlModel): FieldDef[] {
  if (attribute.private) return [];
  const { name, required } = attribute;
  switch (attribute.kind) {
    case 'scalar': {
      const type = attribute.type === 'enumeration' ? enumTypeName(owner.typeName, attribute) : graphqlScalar(attribute.type);
      // Plugin types (files, users, roles) are written whole, never as drafts: their required
      // columns are set, so they keep Strapi's non-null types.
      return [{ name, type: nonNull(type, required && isPluginType(owner.uid)) }];
    }
    case 'component': {
      const component = model.component(attribute.component);
      if (!attribute.repeatable) return [{ name, type: component.typeName }];
      // Repeatable components are a plain list: no `_connection`, and nullable unless required.
      return [{ name, type: nonNull(`[${component.typeName}]`, required), args: nestedListArgs(component) }];
    }
    case 'dynamiczone':
      return [{ name, type: nonNull(`[${dynamicZoneTypeName(owner.typeName, name)}]`, required) }];
    case 'media': {
      const file = model.entity(UPLOAD_FILE_UID);
      return attribute.multiple ? toManyFields(name, file, required) : [{ name, type: file.typeName }];
    }
    case 'relation': {
      const target = model.entity(attribute.target);
      return attribute.cardinality === 'many' ? toManyFields(name, target, required) : [{ name, type: target.typeName }];
    }
  }
}

/** `<name>_connection` ({ nodes }) then `<name>` (the nodes as a non-null list), same arguments. */
function toManyFields(name: string, target: GraphqlEntity, required: boolean): FieldDef[] {
  const args = nestedListArgs(target);
  return [
    { name: connectionFieldName(name), type: nonNull(relationResponseCollectionName(target.typeName), required), args },
    { name, type: `[${target.typeName}]!`, args },
  ];
}

export function enumTypes(owner: GraphqlOwner): TypeDef[] {
  return owner.attributes
    .filter((a): a is ScalarAttribute => a.kind === 'scalar' && a.type === 'enumeration')
    .map((a) => ({
      kind: 'enum',
      group: ownerGroup(owner),
      name: enumTypeName(owner.typeName, a),
      values: graphqlEnumValues(a.enum ?? []).map((v) => v.name),
    }));
}

/**
 * Per dynamic zone: the union of its components (plus Error) that clients query with fragments,
 * and the scalar its entries are written with. Entries are JSON objects naming their component
 * by `__typename`; a scalar, because GraphQL has no input unions.
 */
export function dynamicZoneTypes(owner: GraphqlOwner, model: GraphqlModel): TypeDef[] {
  return owner.attributes
    .filter((a): a is DynamicZoneAttribute => a.kind === 'dynamiczone')
    .flatMap((a): TypeDef[] => [
      {
        kind: 'union',
        group: ownerGroup(owner),
        name: dynamicZoneTypeName(owner.typeName, a.name),
        members: [...a.components.map((uid) => model.component(uid).typeName).sort(), ERROR_TYPE],
      },
      { kind: 'scalar', group: ownerGroup(owner), name: dynamicZoneInputName(owner.typeName, a.name) },
    ]);
}

/** `{ nodes, pageInfo }` for `<plural>_connection`, and `{ nodes }` for relation connections. */
export function responseCollections(entity: GraphqlEntity): ObjectDef[] {
  const nodes: FieldDef = { name: 'nodes', type: `[${entity.typeName}!]!` };
  const group = ownerGroup(entity);
  const relation: ObjectDef = { kind: 'object', group, name: relationResponseCollectionName(entity.typeName), fields: [nodes] };
  if (entity.kind === 'singleType') return [relation];
  return [{ kind: 'object', group, name: entityResponseCollectionName(entity.typeName), fields: [nodes, { name: 'pageInfo', type: `${PAGINATION}!` }] }, relation];
}

function isPluginType(uid: string): boolean {
  return uid.startsWith('plugin::');
}
