/**
 * The root types. Queries: per collection type `<singular>(documentId)`, `<plural>` and
 * `<plural>_connection`; per single type `<singular>`. Mutations: create/update/delete per
 * content type, then the media library's own two.
 */
import { DELETE_MUTATION_RESPONSE, DOCUMENT_ID_ARG, listArgs, LOCALE_ARG, PUBLICATION_ARGS, STATUS_ARG } from './common.ts';
import type { ArgumentDef, FieldDef, ObjectDef } from './definitions.ts';
import type { GraphqlEntity, GraphqlModel } from './entities.ts';
import { connectionFieldName, entityResponseCollectionName, inputName } from '../../model/graphql-names.ts';
import { uploadMutations, usersPermissionsMutations, usersPermissionsQueries } from './plugins.ts';

export function queryType(model: GraphqlModel): ObjectDef {
  return { kind: 'object', group: 'root', name: 'Query', fields: [...model.entities.flatMap(queryFields), ...usersPermissionsQueries(model)] };
}

export function mutationType(model: GraphqlModel): ObjectDef {
  const fields = model.entities.filter((e) => e.crudMutations).flatMap(mutationFields);
  return { kind: 'object', group: 'root', name: 'Mutation', fields: [...fields, ...uploadMutations(model), ...usersPermissionsMutations(model)] };
}

function queryFields(entity: GraphqlEntity): FieldDef[] {
  const { typeName, singularField, pluralField } = entity;
  if (entity.kind === 'singleType') return [{ name: singularField, type: typeName, args: localized(entity, PUBLICATION_ARGS) }];
  const listArguments = localized(entity, [...listArgs(typeName), ...PUBLICATION_ARGS]);
  return [
    { name: singularField, type: typeName, args: localized(entity, [DOCUMENT_ID_ARG, ...PUBLICATION_ARGS]) },
    { name: connectionFieldName(pluralField), type: entityResponseCollectionName(typeName), args: listArguments },
    { name: pluralField, type: `[${typeName}]!`, args: listArguments },
  ];
}

/** Strapi's argument order: `documentId`, `status`, `data`, then `locale`. */
function mutationFields(entity: GraphqlEntity): FieldDef[] {
  const { typeName } = entity;
  const data: ArgumentDef = { name: 'data', type: `${inputName(typeName)}!` };
  const deleted = { name: `delete${typeName}`, type: DELETE_MUTATION_RESPONSE };
  if (entity.kind === 'singleType') {
    return [
      { name: `update${typeName}`, type: typeName, args: localized(entity, [STATUS_ARG, data]) },
      { ...deleted, args: localized(entity, []) },
    ];
  }
  return [
    { name: `create${typeName}`, type: typeName, args: localized(entity, [STATUS_ARG, data]) },
    { name: `update${typeName}`, type: typeName, args: localized(entity, [DOCUMENT_ID_ARG, STATUS_ARG, data]) },
    { ...deleted, args: localized(entity, [DOCUMENT_ID_ARG]) },
  ];
}

function localized(entity: GraphqlEntity, args: readonly ArgumentDef[]): ArgumentDef[] {
  return entity.localized ? [...args, LOCALE_ARG] : [...args];
}
