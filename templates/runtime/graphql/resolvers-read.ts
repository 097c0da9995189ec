/**
 * What a root field (a query, or a mutation reading back what it wrote) asks of the engine: the
 * plan of its whole selection, turned into `fields` and `populate`, and what is left to do once
 * the engine has answered (lists derived in memory). One engine call per root field.
 */
import { getNamedType, isObjectType, type FieldNode, type GraphQLObjectType, type GraphQLResolveInfo } from './graphql-js.ts';
import { canRead } from '../access.ts';
import type { Entity } from '../engine/types.ts';
import type { Target } from '../query/targets.ts';
import type { ReadQuery } from '../query/types.ts';
import type { ArgsContext } from './args.ts';
import type { GraphqlContext, GraphqlRuntime } from './resolvers-context.ts';
import { collectSubfields, fieldsNamed, selectionScope, type SelectionScope } from './selection.ts';
import { deriveLists } from './selection-lists.ts';
import { planSelection, type PlanContext, type ReadPlan } from './selection-plan.ts';
import { fieldsOf, populateOf } from './selection-populate.ts';

/** Converting arguments needs the caller's permissions: filters on unreadable relations are refused. */
export function argsContext(runtime: GraphqlRuntime, context: GraphqlContext): ArgsContext {
  return readerArgsContext(runtime, (uid) => canRead(context.access, uid));
}

/** The same for a caller whose permissions `readable` answers (rendered.ts records the answers). */
export function readerArgsContext(runtime: GraphqlRuntime, readable: (uid: string) => boolean): ArgsContext {
  return {
    scope: { targets: runtime.targets, canRead: readable },
    enumsOf: (uid) => runtime.bindings.enumsOf(uid),
  };
}

/** What planning a selection needs: the arguments' context, the operation's fragments and variables. */
export function selectionPlanContext(runtime: GraphqlRuntime, args: ArgsContext, selection: SelectionScope): PlanContext {
  return {
    ...args,
    selection,
    componentType: (uid) => {
      const name = runtime.bindings.componentTypeName(uid);
      const type = name === undefined ? undefined : selection.schema.getType(name);
      if (!isObjectType(type)) throw new Error(`GraphQL schema: component ${uid} has no object type ${String(name)}`);
      return type;
    },
  };
}

function planContext(runtime: GraphqlRuntime, context: GraphqlContext, info: GraphQLResolveInfo): PlanContext {
  return selectionPlanContext(runtime, argsContext(runtime, context), selectionScope(info));
}

export interface RootSelection {
  readonly plan: ReadPlan;
  /** `<plural>_connection` only: whether `pageInfo` is selected (its total costs a COUNT). */
  readonly pageInfo: boolean;
}

/** The plan of a field returning documents of `target` (a document, or a list of them). */
export function documentSelection(runtime: GraphqlRuntime, context: GraphqlContext, info: GraphQLResolveInfo, target: Target): RootSelection {
  const type = getNamedType(info.returnType);
  return { plan: plan(runtime, context, info, target, type, info.fieldNodes), pageInfo: false };
}

/** The plan of `<plural>_connection { nodes { ... } pageInfo { ... } }`. */
export function connectionSelection(runtime: GraphqlRuntime, context: GraphqlContext, info: GraphQLResolveInfo, target: Target): RootSelection {
  const collection = getNamedType(info.returnType);
  if (!isObjectType(collection)) throw new Error(`GraphQL schema: ${info.fieldName} does not return an object type`);
  const fields = collectSubfields(selectionScope(info), collection, info.fieldNodes);
  const nodesField = collection.getFields()['nodes'];
  const type = nodesField === undefined ? undefined : getNamedType(nodesField.type);
  return {
    plan: plan(runtime, context, info, target, type, fieldsNamed(fields, 'nodes')),
    pageInfo: fieldsNamed(fields, 'pageInfo').length > 0,
  };
}

/** The plan of a field answering `{ data { ... } }` (an entity response, as the users-permissions mutations do). */
export function dataSelection(runtime: GraphqlRuntime, context: GraphqlContext, info: GraphQLResolveInfo, target: Target): ReadPlan {
  const response = getNamedType(info.returnType);
  if (!isObjectType(response)) throw new Error(`GraphQL schema: ${info.fieldName} does not return an object type`);
  const fields = collectSubfields(selectionScope(info), response, info.fieldNodes);
  const dataField = response.getFields()['data'];
  return plan(runtime, context, info, target, dataField === undefined ? undefined : getNamedType(dataField.type), fieldsNamed(fields, 'data'));
}

function plan(runtime: GraphqlRuntime, context: GraphqlContext, info: GraphQLResolveInfo, target: Target, type: unknown, nodes: readonly FieldNode[]): ReadPlan {
  if (!isObjectType(type)) throw new Error(`GraphQL schema: ${info.fieldName} does not return documents of an object type`);
  return planSelection(planContext(runtime, context, info), target, type as GraphQLObjectType, nodes);
}

/** The `fields` and `populate` of a read answering `plan`. */
export function readParts(plan: ReadPlan): Pick<ReadQuery, 'fields' | 'populate'> {
  return { fields: fieldsOf(plan), populate: populateOf(plan) };
}

/** After the engine: derives the lists the plan answers in memory. */
export function finishRead(runtime: GraphqlRuntime, context: GraphqlContext, plan: ReadPlan, rows: readonly Entity[]): void {
  deriveLists({ targets: runtime.targets }, plan, rows, context.lists);
}
