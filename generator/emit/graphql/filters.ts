/**
 * Filter inputs: one `<Scalar>FilterInput` per GraphQL scalar of the contract (GRAPHQL_SCALARS),
 * with the operators of its OPERATORS table, and one `<Type>FiltersInput` per content type and
 * component.
 */
import { LOGICAL_OPERATORS, OPERATOR_NAMES, OPERATOR_SPECS, type Arity } from '../../../templates/contract/operators.ts';
import { GRAPHQL_SCALARS, type GraphqlScalar } from '../../../templates/contract/scalar-types.ts';
import type { Attribute } from '../../model/types.ts';
import type { InputDef, InputFieldDef } from './definitions.ts';
import { type GraphqlModel, type GraphqlOwner, ownerGroup } from './entities.ts';
import { filtersInputName, scalarFilterInputName } from '../../model/graphql-names.ts';
import { graphqlScalar } from './scalars.ts';

/** How an operator's operand is typed for a scalar S, by its arity (the contract's OPERATORS). */
const OPERAND_TYPES: Readonly<Record<Arity, (scalar: GraphqlScalar) => string>> = {
  unary: () => 'Boolean',
  binary: (s) => s,
  list: (s) => `[${s}]`,
  pair: (s) => `[${s}]`,
};

/** How a logical operator's operand is typed: a list of S, or the filter input itself. */
const LOGICAL_OPERAND_TYPES: Readonly<Record<'list' | 'single', (scalar: GraphqlScalar) => string>> = {
  list: (s) => `[${s}]`,
  single: (s) => scalarFilterInputName(s),
};

/**
 * The fields of `<Scalar>FilterInput`: `and`/`or`/`not`, then every operator Strapi's GraphQL has,
 * in its order (the table's), on every scalar as Strapi declares them, even where an operator
 * makes little sense (e.g. `gt` on a Boolean).
 */
function scalarFilterFields(scalar: GraphqlScalar): InputFieldDef[] {
  const logical = Object.values(LOGICAL_OPERATORS).map((op) => ({ name: op.graphql, type: LOGICAL_OPERAND_TYPES[op.operands](scalar) }));
  const operators = OPERATOR_NAMES.flatMap((name) => {
    const { graphql, arity } = OPERATOR_SPECS[name];
    return graphql === null ? [] : [{ name: graphql, type: OPERAND_TYPES[arity](scalar) }];
  });
  return [...logical, ...operators];
}

export function scalarFilterInputs(): InputDef[] {
  return (Object.keys(GRAPHQL_SCALARS) as GraphqlScalar[]).map((scalar) => ({
    kind: 'input',
    group: 'common',
    name: scalarFilterInputName(scalar),
    fields: scalarFilterFields(scalar),
  }));
}

/**
 * `<Type>FiltersInput`: `documentId` (collection types), every attribute a client may filter on,
 * the timestamps, `locale` and `localizations` on localized types, then `and`/`or`/`not`.
 */
export function filtersInput(owner: GraphqlOwner, model: GraphqlModel): InputDef {
  const name = filtersInputName(owner.typeName);
  const fields: InputFieldDef[] = [];
  if (owner.modelType === 'contentType' && owner.kind === 'collectionType') fields.push({ name: 'documentId', type: scalarFilterInputName('ID') });
  for (const attribute of owner.attributes) {
    const type = attributeFilterType(attribute, model);
    if (type !== undefined) fields.push({ name: attribute.name, type });
  }
  if (owner.modelType === 'contentType') {
    for (const timestamp of ['createdAt', 'updatedAt', 'publishedAt']) fields.push({ name: timestamp, type: scalarFilterInputName('DateTime') });
    if (owner.localized) {
      fields.push({ name: 'locale', type: scalarFilterInputName('String') });
      fields.push({ name: 'localizations', type: name });
    }
  }
  fields.push({ name: 'and', type: `[${name}]` }, { name: 'or', type: `[${name}]` }, { name: 'not', type: name });
  return { kind: 'input', group: ownerGroup(owner), name, fields };
}

/**
 * Media and dynamic zones are not filterable (as in Strapi). Private attributes are not either,
 * nor (unlike Strapi) passwords: a filter on a password hash would leak it a character at a time
 * (see docs/graphql-schema.md).
 */
function attributeFilterType(attribute: Attribute, model: GraphqlModel): string | undefined {
  if (attribute.private || (attribute.kind === 'scalar' && attribute.type === 'password')) return undefined;
  switch (attribute.kind) {
    case 'scalar':
      return scalarFilterInputName(graphqlScalar(attribute.type));
    case 'relation':
      return filtersInputName(model.entity(attribute.target).typeName);
    case 'component':
      return filtersInputName(model.component(attribute.component).typeName);
    case 'media':
    case 'dynamiczone':
      return undefined;
  }
}
