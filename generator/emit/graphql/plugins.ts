/**
 * What the media library adds beyond its UploadFile document type (built like any content type,
 * see entities.ts): the file-info input, its two mutations, and the GenericMorph union that
 * `UploadFile.related` returns.
 */
import type { FieldDef, InputDef, UnionDef } from './definitions.ts';
import { GENERIC_MORPH, type GraphqlModel, UPLOAD_FILE_UID } from './entities.ts';

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
