/**
 * The fields a selection asks of an object type, the way graphql-js' executor collects them:
 * fragments expanded (named and inline, when their type condition applies to the type), `@skip`
 * and `@include` honoured, fields grouped by response key. The planner (selection-plan.ts) walks
 * these to know, before anything runs, every attribute a root field's answer will read.
 */
import {
  getDirectiveValues,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isAbstractType,
  Kind,
  typeFromAST,
  type FieldNode,
  type FragmentDefinitionNode,
  type FragmentSpreadNode,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type InlineFragmentNode,
  type SelectionSetNode,
} from './graphql-js.ts';

/** What collecting fields needs from the operation being executed. */
export interface SelectionScope {
  readonly schema: GraphQLSchema;
  readonly fragments: Readonly<Record<string, FragmentDefinitionNode>>;
  readonly variableValues: Readonly<Record<string, unknown>>;
}

export function selectionScope(info: Pick<GraphQLResolveInfo, 'schema' | 'fragments' | 'variableValues'>): SelectionScope {
  return { schema: info.schema, fragments: info.fragments, variableValues: info.variableValues };
}

/** Response key → the field nodes selected under it (several when a field is repeated or spread). */
export type CollectedFields = Map<string, FieldNode[]>;

/** The fields selected on `type` by the sub-selections of `nodes` (graphql-js' collectSubfields). */
export function collectSubfields(scope: SelectionScope, type: GraphQLObjectType, nodes: readonly FieldNode[]): CollectedFields {
  const fields: CollectedFields = new Map();
  const visited = new Set<string>();
  for (const node of nodes) {
    if (node.selectionSet !== undefined) collect(scope, type, node.selectionSet, fields, visited);
  }
  return fields;
}

/** The fields an operation's own selection set asks of its root type. */
export function collectRootFields(scope: SelectionScope, type: GraphQLObjectType, selectionSet: SelectionSetNode): CollectedFields {
  const fields: CollectedFields = new Map();
  collect(scope, type, selectionSet, fields, new Set());
  return fields;
}

function collect(scope: SelectionScope, type: GraphQLObjectType, selectionSet: SelectionSetNode, fields: CollectedFields, visited: Set<string>): void {
  for (const selection of selectionSet.selections) {
    if (!included(scope, selection)) continue;
    switch (selection.kind) {
      case Kind.FIELD: {
        const key = selection.alias?.value ?? selection.name.value;
        const list = fields.get(key);
        if (list === undefined) fields.set(key, [selection]);
        else list.push(selection);
        break;
      }
      case Kind.INLINE_FRAGMENT:
        if (applies(scope, selection, type)) collect(scope, type, selection.selectionSet, fields, visited);
        break;
      case Kind.FRAGMENT_SPREAD: {
        const name = selection.name.value;
        if (visited.has(name)) break;
        visited.add(name);
        const fragment = scope.fragments[name];
        if (fragment !== undefined && applies(scope, fragment, type)) collect(scope, type, fragment.selectionSet, fields, visited);
        break;
      }
    }
  }
}

function included(scope: SelectionScope, node: FieldNode | InlineFragmentNode | FragmentSpreadNode): boolean {
  const skip = getDirectiveValues(GraphQLSkipDirective, node, scope.variableValues as Record<string, unknown>);
  if (skip?.['if'] === true) return false;
  const include = getDirectiveValues(GraphQLIncludeDirective, node, scope.variableValues as Record<string, unknown>);
  return include?.['if'] !== false;
}

/** Whether a fragment's type condition covers `type`: no condition, the type itself, or a union/interface holding it. */
function applies(scope: SelectionScope, fragment: InlineFragmentNode | FragmentDefinitionNode, type: GraphQLObjectType): boolean {
  const condition = fragment.typeCondition;
  if (condition === undefined) return true;
  const conditionType = typeFromAST(scope.schema, condition);
  if (conditionType === undefined) return false;
  if (conditionType === type) return true;
  return isAbstractType(conditionType) && scope.schema.isSubType(conditionType, type);
}

/** The field nodes named `name` among `fields` (under any alias). */
export function fieldsNamed(fields: CollectedFields, name: string): FieldNode[] {
  const found: FieldNode[] = [];
  for (const nodes of fields.values()) {
    for (const node of nodes) if (node.name.value === name) found.push(node);
  }
  return found;
}
