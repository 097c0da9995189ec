/**
 * The cost model: an estimate of the work an operation asks for, computed from the document, the
 * schema's list types and the request's variables before anything runs.
 *
 *   - every selected field costs 1 (`__typename` and introspection fields cost nothing);
 *   - a list field multiplies the cost of its selection by the number of entries it may return:
 *     its `pagination.pageSize` or `pagination.limit` argument, else `defaultLimit`; capped at
 *     `maxLimit`; `-1` ("everything") counts as `maxLimit`, or `unboundedListSize` without one;
 *   - a field that is not a list but takes `pagination` (a `_connection`) hands its page size to
 *     the list fields directly inside it (`nodes`);
 *   - fragments count wherever they are spread.
 *
 * So `{ articles { title author { name } } }` costs 1 + 10 × (1 + 1 + 1) = 31 with defaultLimit 10.
 * The cost of the executed operation only is compared with maxCost, when one is configured.
 */
import {
  getNamedType,
  getNullableType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  valueFromASTUntyped,
  type ArgumentNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLError,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from './graphql-js.ts';
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { describeOperation, isIntrospectionField, limitError, type GraphqlLimits } from './limits.ts';

export type CostModel = Pick<GraphqlLimits, 'defaultLimit' | 'maxLimit' | 'unboundedListSize'>;

export type Variables = Readonly<Record<string, unknown>>;

/** The estimated cost of `operation` (see the model above). Never throws on invalid documents. */
export function operationCost(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variables: Variables | undefined, model: CostModel): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const values = variableValues(operation, variables);
  // A fragment's cost depends only on the page size handed down to it: memoizing on that keeps
  // documents that spread fragments exponentially often linear to price.
  const fragmentCosts = new Map<string, number>();
  const inProgress = new Set<string>();

  const selectionCost = (selectionSet: SelectionSetNode, parent: GraphQLNamedType | undefined, handedDown: number | undefined): number => {
    let total = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        if (isIntrospectionField(selection)) continue;
        const definition = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[selection.name.value] : undefined;
        const ownSize = pageSize(selection.arguments, values);
        const isList = definition !== undefined && isListType(getNullableType(definition.type));
        const type = definition === undefined ? undefined : getNamedType(definition.type);
        const inner = selection.selectionSet === undefined ? 0 : selectionCost(selection.selectionSet, type, isList ? undefined : ownSize);
        total += isList ? 1 + entries(ownSize ?? handedDown, model) * inner : 1 + inner;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition === undefined ? parent : schema.getType(selection.typeCondition.name.value);
        total += selectionCost(selection.selectionSet, type ?? undefined, handedDown);
      } else {
        total += fragmentCost(selection.name.value, handedDown);
      }
    }
    return total;
  };

  const fragmentCost = (name: string, handedDown: number | undefined): number => {
    const key = `${name}\u0000${handedDown ?? ''}`;
    const known = fragmentCosts.get(key);
    if (known !== undefined) return known;
    const fragment = fragments.get(name);
    if (fragment === undefined || inProgress.has(key)) return 0;
    inProgress.add(key);
    const cost = selectionCost(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value) ?? undefined, handedDown);
    inProgress.delete(key);
    fragmentCosts.set(key, cost);
    return cost;
  };

  return selectionCost(operation.selectionSet, schema.getRootType(operation.operation) ?? undefined, undefined);
}

/** How many entries a list field is counted for, given the page size it asked for (if any). */
export function entries(requested: number | undefined, model: CostModel): number {
  const cap = model.maxLimit ?? Number.POSITIVE_INFINITY;
  if (requested === undefined) return Math.min(model.defaultLimit, cap);
  if (requested < 0) return model.maxLimit ?? model.unboundedListSize;
  // A page of 0 still runs its queries; count at least one entry.
  return Math.min(Math.max(1, Math.floor(requested)), cap);
}

/** The page size a field's `pagination` argument asks for; undefined when it asks for none. */
function pageSize(args: readonly ArgumentNode[] | undefined, values: Variables): number | undefined {
  const pagination = args?.find((arg) => arg.name.value === 'pagination');
  if (pagination === undefined) return undefined;
  const value: unknown = valueFromASTUntyped(pagination.value, values);
  if (typeof value !== 'object' || value === null) return undefined;
  const { pageSize: size, limit } = value as { pageSize?: unknown; limit?: unknown };
  // Values of the wrong type are refused when the arguments are coerced; they price as the default.
  if (typeof size === 'number' && Number.isFinite(size)) return size;
  if (typeof limit === 'number' && Number.isFinite(limit)) return limit;
  return undefined;
}

/** The request's variables over the operation's declared defaults (coercion proper happens later). */
function variableValues(operation: OperationDefinitionNode, variables: Variables | undefined): Variables {
  const values: Record<string, unknown> = {};
  for (const definition of operation.variableDefinitions ?? []) {
    if (definition.defaultValue !== undefined) values[definition.variable.name.value] = valueFromASTUntyped(definition.defaultValue);
  }
  return { ...values, ...variables };
}

/**
 * Refuses the operation about to run when its cost is above `limits.maxCost`. A plugin rather
 * than a validation rule because the cost depends on the variables, which validation never sees.
 */
export function costLimitPlugin<TContext extends BaseContext>(limits: GraphqlLimits): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request }) {
          // No operation to run is Apollo's error to report, after this hook.
          if (operation === undefined) return;
          const refused = costError(schema, document, operation, request.variables, limits);
          if (refused !== undefined) throw refused;
        },
      };
    },
  };
}

/** Why the plugin above refuses the operation, or undefined when its cost is within the limit. */
export function costError(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variables: Variables | undefined, limits: GraphqlLimits): GraphQLError | undefined {
  if (limits.maxCost === null) return undefined;
  const cost = operationCost(schema, document, operation, variables, limits);
  if (cost <= limits.maxCost) return undefined;
  return limitError(`${describeOperation(operation)} has an estimated cost of ${cost}; the maximum cost is ${limits.maxCost} (maxCost).`, operation);
}
