/**
 * A selection on documents → the layout their rendered JSON is written in (engine/layout.ts):
 * response keys in the order graphql-js executes them (fragments expanded, aliases, `@skip` and
 * `@include` applied), `__typename`, each scalar in its GraphQL type's form, each list paged per
 * parent as its resolver pages it (resolvers-fields.ts), relations the caller may not read as the
 * resolvers answer them (null, `[]`). It mirrors what the resolvers answer for the rows the plan
 * (selection-plan.ts) reads; what it cannot mirror throws NotRenderable, and graphql-js answers.
 */
import {
  isEnumType,
  isNonNullType,
  isObjectType,
  getArgumentValues,
  getNamedType,
  getNullableType,
  type FieldNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
} from './graphql-js.ts';
import type { EntityLayout, LayoutEntry, ListWindow, ScalarFormat } from '../engine/layout.ts';
import { keyInfo, mediaTarget, type KeyInfo, type Target } from '../query/targets.ts';
import type { ScalarType } from '../schema.ts';
import { paginationWindow, type PaginationLimits } from './args-pagination.ts';
import { collectSubfields } from './selection.ts';
import type { PlanContext } from './selection-plan.ts';

/** A selection graphql-js must answer: the layout cannot say what its resolvers would. */
export class NotRenderable extends Error {}

export interface LayoutContext extends PlanContext {
  readonly limits: PaginationLimits;
}

const CONNECTION_SUFFIX = '_connection';

type Edge = Exclude<KeyInfo, { kind: 'scalar' } | { kind: 'hidden' }>;

/** The layout of the entities of `target` that `nodes` select on `type`. */
export function entityLayout(ctx: LayoutContext, target: Target, type: GraphQLObjectType, nodes: readonly FieldNode[]): EntityLayout {
  const entries: LayoutEntry[] = [];
  for (const [key, fieldNodes] of collectSubfields(ctx.selection, type, nodes)) {
    const first = fieldNodes[0]!;
    const name = first.name.value;
    if (name === '__typename') {
      entries.push({ kind: 'string', key, value: type.name });
      continue;
    }
    const field = type.getFields()[name];
    if (field === undefined) throw new NotRenderable(`${type.name}.${name} is no field`);
    const connection = name.endsWith(CONNECTION_SUFFIX) && keyInfo(target, name, 'populate') === undefined;
    const attribute = connection ? name.slice(0, -CONNECTION_SUFFIX.length) : name;
    const info = keyInfo(target, attribute, 'populate');
    // Not an attribute (UploadFile.related), or one its resolver answers on its own (a password's null).
    if (info === undefined || info.kind === 'hidden') throw new NotRenderable(`${type.name}.${name} has a resolver of its own`);
    if (info.kind === 'scalar') entries.push(scalarEntry(key, attribute, info.type, field.type));
    else if (connection) entries.push(connectionEntry(ctx, key, attribute, target, info, field, fieldNodes));
    else entries.push(attributeEntry(ctx, key, attribute, target, info, field, field.type, fieldNodes, first));
  }
  return { entries };
}

function scalarEntry(key: string, attribute: string, type: ScalarType, graphqlType: GraphQLOutputType): LayoutEntry {
  return { kind: 'scalar', key, attribute, format: scalarFormat(type, getNullableType(graphqlType)), nonNull: isNonNullType(graphqlType) };
}

/** How graphql-js serializes a column's value for the field's type (schema-scalars.ts, graphql-js' own scalars). */
function scalarFormat(type: ScalarType, graphqlType: GraphQLOutputType): ScalarFormat {
  if (isEnumType(graphqlType)) return { kind: 'enum', names: new Map(graphqlType.getValues().map((value) => [String(value.value), value.name])) };
  switch (getNamedType(graphqlType).name) {
    case 'ID':
      // ID serializes an integer as its digits: a component's `id`.
      return type === 'integer' || type === 'biginteger' ? { kind: 'digits' } : { kind: 'stored' };
    case 'Long':
      return { kind: 'long' };
    case 'String':
    case 'Int':
    case 'Float':
    case 'Boolean':
    case 'DateTime':
    case 'Date':
    case 'Time':
    case 'JSON':
      return { kind: 'stored' };
    default:
      throw new NotRenderable(`no rendered form for the scalar ${getNamedType(graphqlType).name}`);
  }
}

/** A relation, media, component, dynamic zone or `localizations`, as its resolver answers it. */
function attributeEntry(
  ctx: LayoutContext,
  key: string,
  attribute: string,
  owner: Target,
  info: Edge,
  field: GraphQLField<unknown, unknown>,
  graphqlType: GraphQLOutputType,
  fieldNodes: readonly FieldNode[],
  first: FieldNode,
): LayoutEntry {
  if (info.kind === 'dynamiczone') {
    const layouts = new Map(info.components.map((uid) => [uid, entityLayout(ctx, ctx.scope.targets.component(uid), ctx.componentType(uid), fieldNodes)]));
    return { kind: 'zone', key, attribute, layouts };
  }
  const many = isMany(owner, attribute);
  // A relation the caller may not read was not read: its resolver answers null or [].
  if (info.kind === 'relation' && !ctx.scope.canRead(info.target)) return many ? { kind: 'emptyList', key } : { kind: 'null', key };
  if (!many && isNonNullType(graphqlType)) throw new NotRenderable(`${attribute} is a non-null single value`);
  const childType = getNamedType(graphqlType);
  if (!isObjectType(childType)) throw new NotRenderable(`${attribute} is no object type`);
  return { kind: 'edge', key, attribute, window: many ? listWindow(ctx, field, first) : undefined, layout: entityLayout(ctx, childTarget(ctx, info), childType, fieldNodes) };
}

/** `<attr>_connection { nodes }`: an object around the list, which its resolver pages. */
function connectionEntry(ctx: LayoutContext, key: string, attribute: string, owner: Target, info: Edge, field: GraphQLField<unknown, unknown>, fieldNodes: readonly FieldNode[]): LayoutEntry {
  const collection = getNamedType(field.type);
  if (!isObjectType(collection)) throw new NotRenderable(`${field.name} is no object type`);
  const entries: LayoutEntry[] = [];
  for (const [innerKey, innerNodes] of collectSubfields(ctx.selection, collection, fieldNodes)) {
    const name = innerNodes[0]!.name.value;
    if (name === '__typename') entries.push({ kind: 'string', key: innerKey, value: collection.name });
    else if (name === 'nodes') {
      const nodesField = collection.getFields()['nodes']!;
      // The connection's arguments page the list.
      entries.push(attributeEntry(ctx, innerKey, attribute, owner, info, field, nodesField.type, innerNodes, fieldNodes[0]!));
    } else throw new NotRenderable(`${collection.name}.${name} is not rendered`);
  }
  return { kind: 'object', key, entries };
}

function listWindow(ctx: LayoutContext, field: GraphQLField<unknown, unknown>, node: FieldNode): ListWindow {
  const args = getArgumentValues(field, node, ctx.selection.variableValues as Record<string, unknown>);
  return paginationWindow(args['pagination'], ctx.limits);
}

/** Lists: to-many relations, multiple media, repeatable components, `localizations` (no attribute). */
function isMany(owner: Target, attribute: string): boolean {
  const field = Object.hasOwn(owner.attributes, attribute) ? owner.attributes[attribute] : undefined;
  switch (field?.kind) {
    case undefined:
      return true;
    case 'relation':
      return field.cardinality === 'many';
    case 'media':
      return field.multiple;
    case 'component':
      return field.repeatable;
    default:
      return false;
  }
}

function childTarget(ctx: LayoutContext, info: Exclude<Edge, { kind: 'dynamiczone' }>): Target {
  switch (info.kind) {
    case 'relation':
      return ctx.scope.targets.relation(info.target);
    case 'media':
      return mediaTarget;
    case 'component':
      return ctx.scope.targets.component(info.component);
  }
}
