/**
 * Plain GraphQL queries answered by graphql-js' `execute` without Apollo's per-request pipeline
 * (its request parsing, the query's sha256, the plugin hooks, the cache-control plugin's hook on
 * every resolved field, content negotiation): about a tenth of a small GraphQL request's CPU
 * (docs/benchmarks.md). On every GraphQL POST (server.ts' graphqlPost, on the direct path and
 * through Express), only for what Apollo would answer with a 200 and no errors, so the answer is
 * the bytes Apollo would send:
 *
 * - the document must be one Apollo has parsed and validated before (this module's plugin
 *   remembers each document that reached `didResolveOperation`, by its text: parsing and
 *   validation, with the depth, alias, input and introspection rules, depend on the text alone);
 * - the request must be a plain JSON POST (`content-type: application/json`, an `Accept` that
 *   Apollo answers with application/json, a body of `query`, `variables`, `operationName` only)
 *   running a query (never a mutation: see the last point);
 * - the variables and the cost pass the same checks as Apollo's plugins (input-guard.ts,
 *   cost.ts), and the context is built without error;
 * - the result has no errors. Anything else, including a result with errors, is answered by
 *   Apollo as before: a query is a read, so running it again there changes nothing but the cost
 *   of that (failed) request.
 *
 * Apollo's answer to such a request is `{"data":...}` and a newline, with `cache-control: no-store`
 * (its cache-control plugin, with no hints in the schema) and `content-type: application/json;
 * charset=utf-8`; test/http/direct.test.ts compares the two paths.
 */
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { Request } from 'express';
import { costError } from './cost.ts';
import { execute, getOperationAST, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from './graphql-js.ts';
import { variablesError } from './input-guard.ts';
import type { GraphqlLimits } from './limits.ts';

/** Documents remembered, least recently used out first. */
export const LEAN_DOCUMENT_LIMIT = 500;

/** The headers the direct path sends with Apollo's successful single result, in its order and letter case (server.ts). */
export const LEAN_HEADERS: readonly (readonly [string, string])[] = [
  ['cache-control', 'no-store'],
  ['Content-Type', 'application/json; charset=utf-8'],
];

interface PlainBody {
  readonly query: string;
  readonly variables?: Readonly<Record<string, unknown>> | null;
  readonly operationName?: string | null;
}

/** What a renderer (rendered.ts) is given: a plain query that passed every check, and its context. */
export interface LeanRequest<TContext> {
  readonly schema: GraphQLSchema;
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode;
  readonly query: string;
  readonly variables: Readonly<Record<string, unknown>> | undefined;
  readonly context: TContext;
}

/** Answers a lean request without graphql-js' executor, or undefined to let it execute. */
export type LeanRenderer<TContext> = (request: LeanRequest<TContext>) => Promise<string | undefined>;

export class LeanQueries<TContext extends BaseContext> {
  readonly #documents = new Map<string, DocumentNode>();
  #schema: GraphQLSchema | undefined;

  constructor(
    private readonly limits: GraphqlLimits,
    private readonly render?: LeanRenderer<TContext>,
    private readonly limit: number = LEAN_DOCUMENT_LIMIT,
  ) {}

  get size(): number {
    return this.#documents.size;
  }

  /** For Apollo's plugin list: learns the schema Apollo executes and each document it accepted. */
  plugin(): ApolloServerPlugin<TContext> {
    return {
      requestDidStart: async () => ({
        didResolveOperation: async ({ schema, document, request }) => {
          this.#schema = schema;
          if (typeof request.query === 'string') this.#remember(request.query, document);
        },
      }),
    };
  }

  /** The body Apollo would answer `req` with, or undefined when Apollo must answer it. */
  async answer(req: Request, context: (req: Request) => TContext | Promise<TContext>): Promise<string | undefined> {
    const schema = this.#schema;
    const body = plainBody(req);
    if (schema === undefined || body === undefined) return undefined;
    const document = this.#documents.get(body.query);
    if (document === undefined) return undefined;
    // Most recently used last: Map keeps insertion order.
    this.#documents.delete(body.query);
    this.#documents.set(body.query, document);
    const operationName = body.operationName ?? undefined;
    const operation = getOperationAST(document, operationName);
    if (operation === null || operation === undefined || operation.operation !== 'query') return undefined;
    const variables = body.variables ?? undefined;
    if (variablesError(variables) !== undefined || costError(schema, document, operation, variables, this.limits) !== undefined) return undefined;
    let contextValue: TContext;
    try {
      contextValue = await context(req);
    } catch {
      return undefined;
    }
    const rendered = await this.render?.({ schema, document, operation, query: body.query, variables, context: contextValue });
    if (rendered !== undefined) return rendered;
    const result = await execute({ schema, document, contextValue, variableValues: variables, operationName });
    if (result.errors !== undefined && result.errors.length > 0) return undefined;
    return `${JSON.stringify({ data: result.data })}\n`;
  }

  #remember(query: string, document: DocumentNode): void {
    if (this.#documents.has(query)) return;
    if (this.#documents.size >= this.limit) {
      const oldest = this.#documents.keys().next().value;
      if (oldest !== undefined) this.#documents.delete(oldest);
    }
    this.#documents.set(query, document);
  }
}

const bodyKeys: ReadonlySet<string> = new Set(['query', 'variables', 'operationName']);

/** The body when the request is one Apollo answers as a plain JSON query; undefined otherwise. */
function plainBody(req: Request): PlainBody | undefined {
  const type = req.headers['content-type'];
  if (type === undefined || type.split(';', 1)[0]?.trim().toLowerCase() !== 'application/json') return undefined;
  const accept = req.headers.accept;
  if (accept !== undefined && accept !== '*/*' && accept !== 'application/json') return undefined;
  const body: unknown = req.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const record = body as Record<string, unknown>;
  for (const key of Object.keys(record)) if (!bodyKeys.has(key)) return undefined;
  const { query, variables, operationName } = record;
  if (typeof query !== 'string') return undefined;
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) return undefined;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return undefined;
  return record as unknown as PlainBody;
}
