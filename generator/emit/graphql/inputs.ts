/**
 * Write inputs: `<Type>Input` (the `data` of create and update) and `Component<...>Input`. Every
 * input field is optional, required attributes included: presence is checked by the server's
 * validation, which also accepts partial updates through the same type.
 */
import type { Attribute } from '../../model/types.ts';
import type { InputDef, InputFieldDef } from './definitions.ts';
import { type GraphqlModel, type GraphqlOwner, ownerGroup } from './entities.ts';
import { dynamicZoneInputName, enumTypeName, inputName } from '../../model/graphql-names.ts';
import { graphqlScalar } from './scalars.ts';

/**
 * Attributes appear whether private or not, as in Strapi: private means "never read back", not
 * "never written". Password attributes are writable too (the server stores their hash).
 * Component inputs start with `id`, which updates that component row in place.
 * Content types end with `publishedAt` and, unless localized, `locale` (Strapi declares both on
 * every type; on a localized type the locale is the mutation's `locale` argument instead).
 */
export function inputType(owner: GraphqlOwner, model: GraphqlModel): InputDef {
  const fields: InputFieldDef[] = [];
  if (owner.modelType === 'component') fields.push({ name: 'id', type: 'ID' });
  for (const attribute of owner.attributes) fields.push({ name: attribute.name, type: attributeInputType(owner, attribute, model) });
  if (owner.modelType === 'contentType') {
    fields.push({ name: 'publishedAt', type: 'DateTime' });
    if (!owner.localized) fields.push({ name: 'locale', type: 'String' });
  }
  return { kind: 'input', group: ownerGroup(owner), name: inputName(owner.typeName), fields };
}

/** Relations and media are written by reference: relations by documentId, media by numeric file id. */
function attributeInputType(owner: GraphqlOwner, attribute: Attribute, model: GraphqlModel): string {
  switch (attribute.kind) {
    case 'scalar':
      return attribute.type === 'enumeration' ? enumTypeName(owner.typeName, attribute) : graphqlScalar(attribute.type);
    case 'media':
      return attribute.multiple ? '[ID]' : 'ID';
    case 'relation':
      return attribute.cardinality === 'many' ? '[ID]' : 'ID';
    case 'component': {
      const type = inputName(model.component(attribute.component).typeName);
      return attribute.repeatable ? `[${type}]` : type;
    }
    case 'dynamiczone':
      return `[${dynamicZoneInputName(owner.typeName, attribute.name)}!]`;
  }
}
