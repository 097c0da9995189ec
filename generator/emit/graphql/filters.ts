/**
 * Filter inputs: one `<Scalar>FilterInput` per scalar (every operator on every scalar, as Strapi
 * declares them, even where an operator makes little sense, e.g. `gt` on a Boolean), and one
 * `<Type>FiltersInput` per content type and component.
 */
import type { Attribute } from '../../model/types.ts';
import type { InputDef, InputFieldDef } from './definitions.ts';
import { type GraphqlModel, type GraphqlOwner, ownerGroup } from './entities.ts';
import { filtersInputName, scalarFilterInputName } from './names.ts';
import { graphqlScalar } from './scalars.ts';

/** The scalars that have a filter input, in the order Strapi registers them. */
const FILTERABLE_SCALARS: readonly string[] = ['String', 'Int', 'Long', 'Float', 'Boolean', 'Date', 'DateTime', 'Time', 'JSON', 'ID'];

/** Operators in Strapi's order, and how each one's operand is typed for a scalar S. */
const OPERATORS: ReadonlyArray<readonly [string, (scalar: string) => string]> = [
  ['and', (s) => `[${s}]`],
  ['or', (s) => `[${s}]`],
  ['not', (s) => scalarFilterInputName(s)],
  ...['eq', 'eqi', 'ne', 'nei', 'startsWith', 'endsWith', 'contains', 'notContains', 'containsi', 'notContainsi', 'gt', 'gte', 'lt', 'lte'].map(
    (op) => [op, (s: string) => s] as const,
  ),
  ['null', () => 'Boolean'],
  ['notNull', () => 'Boolean'],
  ['in', (s) => `[${s}]`],
  ['notIn', (s) => `[${s}]`],
  ['between', (s) => `[${s}]`],
];

export function scalarFilterInputs(): InputDef[] {
  return FILTERABLE_SCALARS.map((scalar) => ({
    kind: 'input',
    group: 'common',
    name: scalarFilterInputName(scalar),
    fields: OPERATORS.map(([name, type]) => ({ name, type: type(scalar) })),
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
