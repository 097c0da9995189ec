/**
 * Test support (not copied into generated projects): the example project's schema, bindings and
 * static tables (emitted from content-types/ into a scratch folder), and plans of query
 * documents against them, as the resolvers build them.
 */
import { emitExample } from '../../../test/support/example-project.ts';
import { Targets, contentTypeTarget, type Target } from '../query/targets.ts';
import type { ArgsContext } from './args.ts';
import {
  buildSchema,
  getNamedType,
  isObjectType,
  Kind,
  parse,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type OperationDefinitionNode,
} from './graphql-js.ts';
import type { ModelSchema } from '../schema.ts';
import type { GraphqlBindings } from './schema-binding.ts';
import { bindingIndex } from './schema-index.ts';
import { planSelection, type PlanContext, type ReadPlan } from './selection-plan.ts';

// Emitted from content-types/ now, not read from the committed generated/.
const example = await emitExample();
const { graphqlBindings } = await example.load<{ graphqlBindings: GraphqlBindings }>('src/graphql/bindings.ts');
// The bindings refer to the emitted tables, so the model is the emitted one too.
const { model } = await example.load<{ model: ModelSchema }>('src/model.ts');

export { model };
export const bindings = bindingIndex(graphqlBindings);
export const targets = new Targets(model);
export const sdl = example.sdl;
export const schema = buildSchema(sdl);

export function target(uid: string): Target {
  const type = model.contentTypes[uid];
  if (type === undefined) throw new Error(`no content type ${uid}`);
  return contentTypeTarget(type);
}

export function argsContext(canRead: (uid: string) => boolean = () => true): ArgsContext {
  return { scope: { targets, canRead }, enumsOf: (uid) => bindings.enumsOf(uid) };
}

/** What a resolver of the document's first root field sees: its field node and the operation's fragments. */
export function resolveInfo(document: string, variables: Record<string, unknown> = {}): GraphQLResolveInfo {
  const parsed = parse(document);
  const operation = parsed.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const fragments = Object.fromEntries(parsed.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  const root = operation?.selectionSet.selections.find((s): s is FieldNode => s.kind === Kind.FIELD);
  if (operation === undefined || root === undefined) throw new Error('no root field');
  const rootType = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  const field = rootType?.getFields()[root.name.value];
  if (field === undefined) throw new Error(`no root field ${root.name.value}`);
  return {
    schema,
    fragments,
    variableValues: variables,
    fieldNodes: [root],
    fieldName: root.name.value,
    returnType: field.type,
    parentType: rootType,
    operation,
  } as unknown as GraphQLResolveInfo;
}

export function planContext(info: GraphQLResolveInfo, canRead: (uid: string) => boolean = () => true): PlanContext {
  return {
    ...argsContext(canRead),
    selection: { schema: info.schema, fragments: info.fragments, variableValues: info.variableValues },
    componentType: (uid) => objectType(bindings.componentTypeName(uid) ?? ''),
  };
}

export function objectType(name: string): GraphQLObjectType {
  const type = schema.getType(name);
  if (!isObjectType(type)) throw new Error(`no object type ${name}`);
  return type;
}

/** The plan of the first root field of `document`, which returns documents of `uid`. */
export function planOf(document: string, uid: string, options: { variables?: Record<string, unknown>; canRead?: (uid: string) => boolean } = {}): ReadPlan {
  const info = resolveInfo(document, options.variables);
  const type = getNamedType(info.returnType);
  if (!isObjectType(type)) throw new Error('not an object type');
  return planSelection(planContext(info, options.canRead), target(uid), type, info.fieldNodes);
}
