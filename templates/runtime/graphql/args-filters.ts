/**
 * `filters: ArticleFiltersInput` → Filter. The GraphQL form is REST's with `$` dropped from the
 * operators, so the input is respelled (`{ title: { eq: "x" }, or: [...] }` becomes
 * `{ title: { $eq: "x" }, $or: [...] }`) and handed to REST's filter parser, which validates
 * keys, permissions and values and builds the Filter.
 *
 * What only GraphQL needs:
 * - enumeration attributes are filtered with `StringFilterInput`; a value may be the GraphQL name
 *   of an enum value (`x_large`) or the stored value (`x__large`): names are mapped back;
 * - `eq: null` / `ne: null` mean "is null" / "is not null"; other nulls (an operator, an
 *   attribute or a group given as null) constrain nothing, as an absent key;
 * - field-level `and`/`or` (`readingTime: { or: [3, 12] }`) combine values; Strapi 5.54 fails on
 *   them ("Undefined attribute level operator $or"), REST's parser reads them as intended.
 */
import { LOGICAL_OPERATORS, OPERATOR_NAMES, OPERATOR_SPECS, OPERATORS } from '../../contract/operators.ts';
import { parseFilters } from '../query/filters.ts';
import { keyInfo, mediaTarget, type Target } from '../query/targets.ts';
import type { Filter } from '../query/types.ts';
import { isInputObject, type ArgsContext } from './args.ts';
import type { GraphqlEnum } from './schema-binding.ts';

/** `and`/`or`/`not` of a where-clause, by GraphQL name (the contract's LOGICAL_OPERATORS). */
const GROUPS: ReadonlyMap<string, string> = new Map(Object.values(LOGICAL_OPERATORS).map((op) => [op.graphql, op.rest]));

/** Every operator and logical operator of a `<Scalar>FilterInput`, GraphQL name to REST name. */
const REST_NAMES: ReadonlyMap<string, string> = new Map([
  ...GROUPS,
  ...OPERATOR_NAMES.flatMap((name): [string, string][] => {
    const { graphql, rest } = OPERATOR_SPECS[name];
    return graphql === null ? [] : [[graphql, rest]];
  }),
]);

export function graphqlFilters(input: unknown, target: Target, context: ArgsContext): Filter | undefined {
  if (input === undefined || input === null) return undefined;
  return parseFilters(respellWhere(input, target, context), target, context.scope, 'filters');
}

/** A where-clause: attributes, and `and`/`or`/`not` over where-clauses of the same target. */
function respellWhere(input: unknown, target: Target, context: ArgsContext): unknown {
  if (Array.isArray(input)) return input.filter((item) => item !== null).map((item) => respellWhere(item, target, context));
  if (!isInputObject(input)) return input;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === null || value === undefined) continue;
    const group = GROUPS.get(key);
    if (group !== undefined) {
      out[group] = respellWhere(value, target, context);
      continue;
    }
    out[key] = respellAttribute(key, value, target, context);
  }
  return out;
}

function respellAttribute(key: string, value: unknown, target: Target, context: ArgsContext): unknown {
  const info = keyInfo(target, key);
  switch (info?.kind) {
    case 'scalar':
      return respellOperators(value, enumOf(target, key, context));
    case 'relation':
      // The parser refuses relations the caller cannot read; only resolve readable targets here.
      return context.scope.canRead(info.target) ? respellWhere(value, context.scope.targets.relation(info.target), context) : value;
    case 'media':
      return respellWhere(value, mediaTarget, context);
    case 'component':
      return respellWhere(value, context.scope.targets.component(info.component), context);
    default:
      // Unknown or hidden keys: left for the parser to refuse with Strapi's message.
      return value;
  }
}

/** `{ eq: 1, not: { in: [2] }, or: [3, 4] }` → `{ $eq: 1, $not: { $in: [2] }, $or: [3, 4] }`. */
function respellOperators(value: unknown, enumeration: GraphqlEnum | undefined): unknown {
  if (!isInputObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [operator, operand] of Object.entries(value)) {
    if (operand === undefined) continue;
    if (operand === null) {
      if (operator === OPERATORS.eq.graphql) out[OPERATORS.null.rest] = true;
      else if (operator === OPERATORS.ne.graphql) out[OPERATORS.notNull.rest] = true;
      continue;
    }
    // Unknown names (GraphQL validation lets none through) are left for the parser to refuse.
    const rest = REST_NAMES.get(operator) ?? `$${operator}`;
    if (operator === LOGICAL_OPERATORS.not.graphql) out[rest] = respellOperators(operand, enumeration);
    else out[rest] = storedValues(operand, enumeration);
  }
  return out;
}

function storedValues(operand: unknown, enumeration: GraphqlEnum | undefined): unknown {
  if (enumeration === undefined) return operand;
  if (Array.isArray(operand)) return operand.map((item) => storedValue(item, enumeration));
  return storedValue(operand, enumeration);
}

/** A stored value stays itself; a GraphQL name of one becomes it. Names and values never collide (names.ts). */
function storedValue(value: unknown, enumeration: GraphqlEnum): unknown {
  if (typeof value !== 'string' || !Object.hasOwn(enumeration.values, value)) return value;
  const stored = Object.values(enumeration.values);
  return stored.includes(value) ? value : enumeration.values[value];
}

function enumOf(target: Target, attribute: string, context: ArgsContext): GraphqlEnum | undefined {
  const field = Object.hasOwn(target.attributes, attribute) ? target.attributes[attribute] : undefined;
  if (field?.kind !== 'scalar' || field.type !== 'enumeration') return undefined;
  const enums = context.enumsOf(target.uid);
  return Object.hasOwn(enums, attribute) ? enums[attribute] : undefined;
}
