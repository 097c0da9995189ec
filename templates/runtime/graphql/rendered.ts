/**
 * Queries answered with JSON the database writes: each root field of a plain query is one engine
 * read in its selection's layout (rendered-layout.ts, engine/layout.ts), so neither graphql-js'
 * executor nor a resolver nor an entity object runs, and the answer is the text graphql-js and
 * JSON.stringify would have produced (test/http/direct.test.ts compares the two).
 *
 * It answers only what it can mirror exactly; anything else is left to graphql-js (lean.ts):
 * root fields other than the content types' queries, lists derived in memory
 * (selection-plan.ts), fields with resolvers of their own, a forbidden root field, arguments that
 * fail, a read the database could not write (a value only JavaScript prints right, MariaDB), a
 * document service wrapped by document middlewares (which `rendered` reads would bypass).
 *
 * The plan of a request (root reads, layouts) depends on the document, the operation, the
 * variables and the caller's permissions; plans are kept per document, then per (operation, variables), and
 * reused for callers whose permissions answer the same (rest/query-plans.ts), so a repeated query
 * costs a lookup, and the engine keeps its statements per plan.
 */
import {
  getArgumentValues,
  getNamedType,
  getVariableValues,
  GraphQLError,
  isObjectType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from './graphql-js.ts';
import { canRead, type Access } from '../access.ts';
import { HttpError } from '../errors.ts';
import { UPLOAD_FILE_UID } from '../upload/file-schema.ts';
import type { EntityLayout } from '../engine/layout.ts';
import type { RenderedReads } from '../engine/types.ts';
import { contentTypeTarget, type Target } from '../query/targets.ts';
import type { ListQuery, ReadQuery } from '../query/types.ts';
import { QueryPlans } from '../rest/query-plans.ts';
import { pageInfo, type PageInfo, type Window } from './args-pagination.ts';
import { NotRenderable, entityLayout, type LayoutContext } from './rendered-layout.ts';
import type { GraphqlRuntime } from './resolvers-context.ts';
import { readAction, rootDocumentQuery, rootListQuery } from './resolvers-query.ts';
import { readerArgsContext, selectionPlanContext } from './resolvers-read.ts';
import type { ContentTypeBinding } from './schema-binding.ts';
import { collectRootFields, collectSubfields, fieldsNamed, type SelectionScope } from './selection.ts';
import { derivesLists, planSelection } from './selection-plan.ts';

/** One root field of the answer, by response key. */
type RootRead =
  | { readonly kind: 'typename'; readonly key: string; readonly value: string }
  | { readonly kind: 'list'; readonly key: string; readonly action: string; readonly uid: string; readonly query: ListQuery; readonly layout: EntityLayout }
  | {
      readonly kind: 'connection';
      readonly key: string;
      readonly action: string;
      readonly uid: string;
      readonly query: ListQuery;
      readonly layout: EntityLayout | undefined;
      readonly window: Window;
      readonly parts: readonly ConnectionPart[];
    }
  | {
      readonly kind: 'document';
      readonly key: string;
      readonly action: string;
      readonly uid: string;
      readonly documentId: string | undefined;
      readonly query: ReadQuery;
      readonly layout: EntityLayout;
    };

/** A key of `<plural>_connection`: its nodes, its pageInfo's keys, or a `__typename`. */
type ConnectionPart =
  | { readonly kind: 'nodes'; readonly key: string }
  | { readonly kind: 'typename'; readonly key: string; readonly value: string }
  | { readonly kind: 'pageInfo'; readonly key: string; readonly fields: readonly PageInfoField[] };

/** A key of `pageInfo`: one of its numbers, or its type's name. */
type PageInfoField = readonly [key: string, value: keyof PageInfo | { readonly typename: string }];

/** A compiled operation, or null where graphql-js answers it. */
type RenderedOperation = readonly RootRead[] | null;

export interface RenderRequest {
  readonly schema: GraphQLSchema;
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode;
  readonly variables: Readonly<Record<string, unknown>> | undefined;
  readonly access: Access;
}

/** Operations and variable sets kept planned per document (lean.ts keeps at most 500 documents). */
const PLANS_PER_DOCUMENT = 50;

/** Root query fields of the content types (and UploadFile): which binding, which read. */
interface RootQuery {
  readonly binding: ContentTypeBinding;
  readonly read: 'one' | 'many' | 'connection';
}

export class RenderedQueries {
  /**
   * Plans per document, then per operation and variables: a remembered document is the same
   * object on every request (lean.ts), so the per-request key is the variables' text, not the
   * whole query's.
   */
  readonly #plans = new WeakMap<DocumentNode, QueryPlans<RenderedOperation>>();
  readonly #roots = new Map<string, RootQuery>();

  constructor(private readonly runtime: GraphqlRuntime) {
    for (const binding of [runtime.bindings.contentType(UPLOAD_FILE_UID), ...runtime.bindings.contentTypes]) {
      const { one, many, connection } = binding.queries;
      this.#roots.set(one, { binding, read: 'one' });
      if (many !== undefined) this.#roots.set(many, { binding, read: 'many' });
      if (connection !== undefined) this.#roots.set(connection, { binding, read: 'connection' });
    }
  }

  /** The response body (`{"data":...}` and a newline), or undefined where graphql-js must answer. */
  async answer(request: RenderRequest): Promise<string | undefined> {
    const reads = this.runtime.documents.rendered;
    if (reads === undefined) return undefined;
    let plans = this.#plans.get(request.document);
    if (plans === undefined) this.#plans.set(request.document, (plans = new QueryPlans<RenderedOperation>(PLANS_PER_DOCUMENT)));
    const variables = request.variables === undefined ? '' : JSON.stringify(request.variables);
    const key = request.operation.name === undefined ? variables : `${request.operation.name.value}\u0000${variables}`;
    const plan = plans.plan(
      key,
      (uid) => canRead(request.access, uid),
      (readable) => this.#compile(request, readable),
    );
    if (plan === null) return undefined;
    // A forbidden root field is an error in the answer: graphql-js writes it.
    for (const root of plan) if (root.kind !== 'typename' && !request.access.can(root.action)) return undefined;
    const values = await Promise.all(plan.map((root) => rootValue(reads, root)));
    if (values.some((value) => value === undefined)) return undefined;
    return `{"data":{${plan.map((root, i) => `${JSON.stringify(root.key)}:${values[i]!}`).join(',')}}}\n`;
  }

  #compile(request: RenderRequest, readable: (uid: string) => boolean): RenderedOperation {
    const { schema, operation } = request;
    const queryType = schema.getQueryType();
    if (operation.operation !== 'query' || queryType === undefined || queryType === null) return null;
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], request.variables ?? {});
    if (coerced.errors !== undefined) return null;
    const selection: SelectionScope = { schema, fragments: fragmentsOf(request.document), variableValues: coerced.coerced };
    const ctx: LayoutContext = { ...selectionPlanContext(this.runtime, readerArgsContext(this.runtime, readable), selection), limits: this.runtime.graphql };
    try {
      return [...collectRootFields(selection, queryType, operation.selectionSet)].map(([key, nodes]) => this.#root(ctx, queryType, key, nodes));
    } catch (error) {
      // What graphql-js reports as an error of the answer (a bad filter, mixed pagination, a bad argument).
      if (error instanceof NotRenderable || error instanceof HttpError || error instanceof GraphQLError) return null;
      throw error;
    }
  }

  #root(ctx: LayoutContext, queryType: GraphQLObjectType, key: string, nodes: readonly FieldNode[]): RootRead {
    const first = nodes[0]!;
    const name = first.name.value;
    if (name === '__typename') return { kind: 'typename', key, value: queryType.name };
    const root = this.#roots.get(name);
    const field = queryType.getFields()[name];
    if (root === undefined || field === undefined) throw new NotRenderable(`${name} is not a content type's query`);
    const { binding } = root;
    const uid = binding.schema.uid;
    const target = contentTypeTarget(binding.schema);
    const args = getArgumentValues(field, first, ctx.selection.variableValues as Record<string, unknown>);
    const type = getNamedType(field.type);
    if (!isObjectType(type)) throw new NotRenderable(`${name} returns no object type`);
    if (root.read === 'one') {
      const plan = readablePlan(ctx, target, type, nodes);
      const single = binding.schema.kind === 'singleType';
      return {
        kind: 'document',
        key,
        action: readAction(uid, single ? 'find' : 'findOne'),
        uid,
        documentId: single ? undefined : String(args['documentId']),
        query: rootDocumentQuery(this.runtime, binding, args, plan),
        layout: entityLayout(ctx, target, type, nodes),
      };
    }
    if (root.read === 'many') {
      const plan = readablePlan(ctx, target, type, nodes);
      const { query } = rootListQuery(this.runtime, binding, args, ctx, { plan, pageInfo: false });
      return { kind: 'list', key, action: readAction(uid, 'find'), uid, query, layout: entityLayout(ctx, target, type, nodes) };
    }
    return this.#connection(ctx, key, root.binding, target, type, nodes, args);
  }

  #connection(
    ctx: LayoutContext,
    key: string,
    binding: ContentTypeBinding,
    target: Target,
    collection: GraphQLObjectType,
    nodes: readonly FieldNode[],
    args: Readonly<Record<string, unknown>>,
  ): RootRead {
    const fields = collectSubfields(ctx.selection, collection, nodes);
    const nodesField = collection.getFields()['nodes'];
    const type = nodesField === undefined ? undefined : getNamedType(nodesField.type);
    if (!isObjectType(type)) throw new NotRenderable(`${collection.name}.nodes is no object type`);
    const nodeSelections = fieldsNamed(fields, 'nodes');
    const parts: ConnectionPart[] = [];
    let layout: EntityLayout | undefined;
    for (const [partKey, partNodes] of fields) {
      const name = partNodes[0]!.name.value;
      if (name === '__typename') parts.push({ kind: 'typename', key: partKey, value: collection.name });
      else if (name === 'pageInfo') parts.push({ kind: 'pageInfo', key: partKey, fields: pageInfoFields(ctx.selection, collection, partNodes) });
      else if (name === 'nodes' && layout === undefined) {
        layout = entityLayout(ctx, target, type, partNodes);
        parts.push({ kind: 'nodes', key: partKey });
      } else throw new NotRenderable(`${collection.name}.${name} under two keys, or unknown`);
    }
    const plan = readablePlan(ctx, target, type, nodeSelections);
    const withCount = parts.some((part) => part.kind === 'pageInfo');
    const { query, window } = rootListQuery(this.runtime, binding, args, ctx, { plan, pageInfo: withCount });
    return { kind: 'connection', key, action: readAction(binding.schema.uid, 'find'), uid: binding.schema.uid, query, layout, window, parts };
  }
}

/** What the engine reads for a selection: the resolvers' plan, unless it derives lists in memory. */
function readablePlan(ctx: LayoutContext, target: Target, type: GraphQLObjectType, nodes: readonly FieldNode[]) {
  const plan = planSelection(ctx, target, type, nodes);
  if (derivesLists(plan)) throw new NotRenderable('lists derived in memory');
  return plan;
}

function pageInfoFields(selection: SelectionScope, collection: GraphQLObjectType, nodes: readonly FieldNode[]): PageInfoField[] {
  const type = getNamedType(collection.getFields()['pageInfo']?.type);
  if (!isObjectType(type)) throw new NotRenderable(`${collection.name}.pageInfo is no object type`);
  return [...collectSubfields(selection, type, nodes)].map(([key, fieldNodes]): PageInfoField => {
    const name = fieldNodes[0]!.name.value;
    if (name === '__typename') return [key, { typename: type.name }];
    if (name === 'total' || name === 'page' || name === 'pageSize' || name === 'pageCount') return [key, name];
    throw new NotRenderable(`Pagination.${name} is unknown`);
  });
}

function fragmentsOf(document: DocumentNode): Record<string, FragmentDefinitionNode> {
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  return fragments;
}

/** A root field's JSON text, or undefined where the database could not write it. */
async function rootValue(reads: RenderedReads, root: RootRead): Promise<string | undefined> {
  switch (root.kind) {
    case 'typename':
      return JSON.stringify(root.value);
    case 'list':
      return (await reads.findMany(root.uid, root.query, root.layout))?.json;
    case 'document':
      return root.documentId === undefined ? reads.findSingle(root.uid, root.query, root.layout) : reads.findOne(root.uid, root.documentId, root.query, root.layout);
    case 'connection': {
      const page = await reads.findMany(root.uid, root.query, root.layout ?? { entries: [] });
      if (page === undefined) return undefined;
      const info = page.total === undefined ? undefined : pageInfo(root.window, page.total);
      return `{${root.parts.map((part) => `${JSON.stringify(part.key)}:${connectionPart(part, page.json, info)}`).join(',')}}`;
    }
  }
}

function connectionPart(part: ConnectionPart, nodes: string, info: PageInfo | undefined): string {
  switch (part.kind) {
    case 'nodes':
      return nodes;
    case 'typename':
      return JSON.stringify(part.value);
    case 'pageInfo':
      return `{${part.fields.map(([key, value]) => `${JSON.stringify(key)}:${typeof value === 'object' ? JSON.stringify(value.typename) : String(info?.[value] ?? null)}`).join(',')}}`;
  }
}
