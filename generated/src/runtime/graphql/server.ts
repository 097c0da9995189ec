/**
 * GraphQL over HTTP: Apollo Server 5 on the Express app, at `/graphql` by default.
 *
 *   POST  application/json { query, variables, operationName }  any operation
 *   GET   ?query=...&variables=...                              queries only (mutations: 405);
 *                                                               needs an `apollo-require-preflight`
 *                                                               or `x-apollo-operation-name` header
 *                                                               (CSRF prevention)
 *   GET   from a browser (Accept: text/html)                    the GraphiQL IDE (ide.ts)
 *
 * What this layer adds to the schema it is given: the document limits of limits.ts and cost.ts,
 * Strapi's error shapes (errors.ts), no stack traces, no CDN landing page, no batching and no
 * automatic persisted queries (fewer ways around the limits), and nothing sent to Apollo's cloud
 * whatever the environment says.
 */
import { ApolloServer, HeaderMap, type BaseContext } from '@apollo/server';
import {
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
  ApolloServerPluginSchemaReportingDisabled,
  ApolloServerPluginUsageReportingDisabled,
} from '@apollo/server/plugin/disabled';
import type { ApolloServerOptionsWithTypeDefs } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { DocumentNode, GraphQLSchema } from './graphql-js.ts';
import type { GraphqlConfig } from '../config.ts';
import { ValidationError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { sendJson } from '../send.ts';
import { HttpCache, sendCached, type RouteCache } from '../cache/http.ts';
import { AnswerKeys } from '../cache/keys.ts';
import type { AppContext, Mount, MountFactory } from '../server.ts';
import { isWellEncoded, malformedQueryMessage, rawQueryString } from '../url-encoding.ts';
import { costLimitPlugin } from './cost.ts';
import { contextError, formatGraphqlError, strapiError } from './errors.ts';
import { ideRouter, type IdeOptions } from './ide.ts';
import { inputLiteralRule, inputVariablesPlugin } from './input-guard.ts';
import { LEAN_HEADERS, LeanQueries, type LeanRenderer } from './lean.ts';
import { pageSizeCap } from './args-pagination.ts';
import { aliasLimitRule, depthLimitRule, graphqlLimits, type GraphqlLimits } from './limits.ts';

/** Resolvers in the shape Apollo (graphql-tools) accepts: `{ Query: { articles: (parent, args, context, info) => ... } }`. */
export type GraphqlResolvers<TContext extends BaseContext> = NonNullable<ApolloServerOptionsWithTypeDefs<TContext>['resolvers']>;

/** Either SDL and resolvers, or a schema built elsewhere (e.g. with graphql-js and resolvers attached). */
export type GraphqlSchemaSource<TContext extends BaseContext> =
  | { readonly typeDefs: string | DocumentNode; readonly resolvers: GraphqlResolvers<TContext>; readonly schema?: undefined }
  | { readonly schema: GraphQLSchema; readonly typeDefs?: undefined; readonly resolvers?: undefined };

export type GraphqlSetup<TContext extends BaseContext> = GraphqlSchemaSource<TContext> & {
  /** Builds the per-request context resolvers receive. Throwing an HttpError answers with its Strapi code and status. */
  readonly context: (req: Request) => TContext | Promise<TContext>;
  /** Where to serve GraphQL. Default `/graphql`. */
  readonly path?: string;
  /** The browser IDE: config/plugins.json's `landingPage` by default (on unless NODE_ENV=production); `false` turns it off. */
  readonly ide?: boolean | IdeOptions;
  /** Overrides of the limits read from config/plugins.json, and of maxTokens/unboundedListSize. */
  readonly limits?: Partial<GraphqlLimits>;
  /**
   * Given, `POST <path>` is answered on the server's direct path (direct.ts) after these handlers,
   * which must be what Express runs between the app-wide middlewares and this mount.
   */
  readonly direct?: readonly RequestHandler[];
  /**
   * Neither `context` nor anything else given the request reads what only project code needs (a
   * session): the direct path may skip those handlers (DirectRoute.bare).
   */
  readonly bare?: boolean;
  /**
   * Answer plain queries Apollo has validated before with graphql-js alone (lean.ts), on the
   * direct path and through Express. Off when the project adds resolvers of its own, which could
   * rely on what Apollo's pipeline gives them (`info.cacheControl`) or write while a query runs.
   */
  readonly lean?: boolean;
  /** On the lean path, answers a query without graphql-js' executor where it can (rendered.ts). */
  readonly render?: LeanRenderer<TContext>;
  /**
   * The surrogate keys of a query's answer (cache/graphql-keys.ts), for config/cache.json's
   * `surrogateKeys`; without it a GET's answer carries none and is sent `no-store` when keys are on.
   */
  readonly cacheKeys?: (query: string) => AnswerKeys;
};

export const defaultGraphqlPath = '/graphql';

/**
 * The GraphQL mount of a generated project:
 *
 *   startServer({ ..., mounts: [restMount(...), graphqlMount((app) => ({ typeDefs, resolvers, context: (req) => ({ ... }) }))] })
 *
 * `setup` may depend on the AppContext (database, config, logger), hence the function form.
 */
export function graphqlMount<TContext extends BaseContext>(setup: GraphqlSetup<TContext> | ((app: AppContext) => GraphqlSetup<TContext> | Promise<GraphqlSetup<TContext>>)): MountFactory {
  return async (app) => createGraphqlMount(app, typeof setup === 'function' ? await setup(app) : setup);
}

/** Starts Apollo for `setup` and returns the mount. Exposed for embedding; most callers want graphqlMount. */
export async function createGraphqlMount<TContext extends BaseContext>(app: AppContext, setup: GraphqlSetup<TContext>): Promise<Mount> {
  const limits = graphqlLimits(app.config.plugins.graphql, setup.limits);
  const logger = app.logger.child({ component: 'graphql' });
  warnDefaultAboveMax(app.config.plugins.graphql, logger);
  const lean = setup.lean === true ? new LeanQueries<TContext>(limits, setup.render) : undefined;
  const server = new ApolloServer<TContext>({
    ...schemaOptions(setup),
    // Strapi's default: on, except in production (apolloServer.introspection decides).
    introspection: app.config.plugins.graphql.introspection,
    // A plain `content-type: application/json` POST passes; what a cross-site form could send does not.
    csrfPrevention: true,
    includeStacktraceInErrorResponses: false,
    // formatError leaves the hints out instead (errors.ts): Apollo's option only sees validation errors.
    hideSchemaDetailsFromClientErrors: false,
    allowBatchedHttpRequests: false,
    persistedQueries: false,
    stopOnTerminationSignals: false,
    parseOptions: { maxTokens: limits.maxTokens },
    validationRules: [depthLimitRule(limits.depthLimit), aliasLimitRule(limits.maxAliases), inputLiteralRule()],
    // A backstop for fragment fan-out; the cost limit normally refuses such documents first.
    maxRecursiveSelections: true,
    formatError: formatGraphqlError(logger, { hideSuggestions: app.config.plugins.graphql.hideSchemaDetailsFromClientErrors }),
    logger,
    plugins: [
      // First: the cost plugin reads the variables this one bounds.
      inputVariablesPlugin<TContext>(),
      ...(limits.maxCost === null ? [] : [costLimitPlugin<TContext>(limits)]),
      ApolloServerPluginLandingPageDisabled(),
      ApolloServerPluginUsageReportingDisabled(),
      ApolloServerPluginSchemaReportingDisabled(),
      ApolloServerPluginInlineTraceDisabled(),
      ...(lean === undefined ? [] : [lean.plugin()]),
    ],
  });
  await server.start();

  const router = Router();
  const ide = setup.ide ?? app.config.plugins.graphql.landingPage;
  if (ide !== false) router.use(ideRouter(ide === true ? {} : ide));
  const context = async ({ req }: { req: Request }): Promise<TContext> => {
    try {
      return await setup.context(req);
    } catch (error) {
      throw contextError(error, logger);
    }
  };
  // A POST is answered by one handler on both paths: through Express (after the project's
  // middlewares) as on the direct path, with the lean and rendered answers where they apply.
  const post = graphqlPost(server, context, lean && { queries: lean, context: setup.context });
  router.post('/', withBody, post);
  // A GET is a read a CDN may keep: with config/cache.json it gets the same headers as REST reads.
  // Apollo answers `application/graphql-response+json` to a client that accepts it.
  const cache = new HttpCache(app.config.cache).route(['graphql'], ['Accept']);
  if (cache !== undefined) router.get('/', wellEncodedQuery, graphqlGet(server, context, cache, setup.cacheKeys));
  router.all('/', withBody, wellEncodedQuery, expressMiddleware(server, { context }));
  const path = setup.path ?? defaultGraphqlPath;
  // The IDE and GET answer through Express; a POST needs neither, nor the query-string check.
  const direct = setup.direct === undefined ? {} : { direct: [{ method: 'POST' as const, path, handlers: [...setup.direct, withBody, post], bare: setup.bare === true }] };
  return { path, handler: router, ...direct };
}

/**
 * What @as-integrations/express5 does, without needing Express: the request handed to Apollo's
 * HTTP pipeline (the same parsing, limits, plugins, errors and status codes), its answer written
 * as Express' `res.send` writes a string (Content-Type with its charset, Content-Length). A plain
 * query Apollo has validated before is answered by `lean` (lean.ts) with the same bytes.
 */
export function graphqlPost<TContext extends BaseContext>(
  server: ApolloServer<TContext>,
  context: (args: { req: Request }) => Promise<TContext>,
  lean: { readonly queries: LeanQueries<TContext>; readonly context: (req: Request) => TContext | Promise<TContext> } | undefined,
): RequestHandler {
  return async (req, res) => {
    const leanBody = lean === undefined ? undefined : await lean.queries.answer(req, lean.context);
    if (leanBody !== undefined) {
      for (const [key, value] of LEAN_HEADERS) res.setHeader(key, value);
      res.statusCode = 200;
      res.setHeader('Content-Length', Buffer.byteLength(leanBody));
      res.end(leanBody);
      return;
    }
    const headers = new HeaderMap();
    for (const [key, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
    }
    const url = req.originalUrl;
    const question = url.indexOf('?');
    const answer = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: 'POST', headers, search: question === -1 ? '' : url.slice(question), body: req.body as unknown },
      context: () => context({ req }),
    });
    for (const [key, value] of answer.headers) res.setHeader(key, value);
    res.statusCode = answer.status ?? 200;
    if (answer.body.kind === 'chunked') {
      for await (const chunk of answer.body.asyncIterator) {
        res.write(chunk);
        // compression's, as the integration calls it: each part goes out when it is ready.
        (res as { flush?: () => void }).flush?.();
      }
      res.end();
      return;
    }
    const body = answer.body.string;
    const type = res.getHeader('content-type');
    res.setHeader('Content-Type', typeof type === 'string' ? withUtf8(type) : 'text/html; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.end(body);
  };
}

/**
 * A GET through Apollo's HTTP pipeline (the same checks, CSRF prevention included, and answers as
 * the Express integration's), whose 200 answers get the route's cache headers (cache/http.ts).
 */
function graphqlGet<TContext extends BaseContext>(
  server: ApolloServer<TContext>,
  context: (args: { req: Request }) => Promise<TContext>,
  cache: RouteCache,
  cacheKeys: ((query: string) => AnswerKeys) | undefined,
): RequestHandler {
  return async (req, res) => {
    const headers = new HeaderMap();
    for (const [key, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
    }
    const url = req.originalUrl;
    const question = url.indexOf('?');
    const search = question === -1 ? '' : url.slice(question);
    const answer = await server.executeHTTPGraphQLRequest({ httpGraphQLRequest: { method: 'GET', headers, search, body: undefined }, context: () => context({ req }) });
    for (const [key, value] of answer.headers) res.setHeader(key, value);
    const type = res.getHeader('content-type');
    const contentType = typeof type === 'string' ? withUtf8(type) : 'text/html; charset=utf-8';
    if (answer.body.kind === 'chunked' || (answer.status ?? 200) !== 200 || answer.body.string.includes('"errors":')) {
      // Not a plain successful read (errors, partial data): sent as the Express integration would, without cache headers.
      await sendAnswer(res, answer.status ?? 200, contentType, answer.body);
      return;
    }
    const query = new URLSearchParams(search).get('query') ?? '';
    sendCached(req, res, cache, contentType, answer.body.string, () => cacheKeys?.(query) ?? new AnswerKeys());
  };
}

async function sendAnswer(
  res: Response,
  status: number,
  contentType: string,
  body: { kind: 'complete'; string: string } | { kind: 'chunked'; asyncIterator: AsyncIterableIterator<string> },
): Promise<void> {
  res.statusCode = status;
  if (body.kind === 'chunked') {
    for await (const chunk of body.asyncIterator) res.write(chunk);
    res.end();
    return;
  }
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', Buffer.byteLength(body.string));
  res.end(body.string);
}

/** Express' `setCharset(type, 'utf-8')` for the types Apollo sends (`application/json; charset=utf-8`). */
function withUtf8(type: string): string {
  const [essence = '', ...parameters] = type.split(';').map((part) => part.trim());
  const kept = parameters.filter((parameter) => parameter !== '' && !parameter.toLowerCase().startsWith('charset='));
  // content-type's format(), which Express uses, writes the parameters sorted by name.
  const sorted = [...kept, 'charset=utf-8'].sort((a, b) => (a.split('=')[0] ?? '').localeCompare(b.split('=')[0] ?? ''));
  return [essence.toLowerCase(), ...sorted].join('; ');
}

function schemaOptions<TContext extends BaseContext>(source: GraphqlSchemaSource<TContext>): { schema: GraphQLSchema } | { typeDefs: string | DocumentNode; resolvers: GraphqlResolvers<TContext> } {
  return source.schema === undefined ? { typeDefs: source.typeDefs, resolvers: source.resolvers } : { schema: source.schema };
}

/**
 * Express 5 leaves `req.body` unset when no parser ran (a POST without a JSON content type), and
 * the integration then answers 500. Unset means "no body": let Apollo answer that with its 400.
 */
const withBody: RequestHandler = (req, _res, next) => {
  if (!('body' in req)) (req as { body?: unknown }).body = undefined;
  next();
};

/**
 * A GET carries the operation and its variables in the query string, which Apollo decodes with
 * URLSearchParams: a malformed sequence would silently become U+FFFD inside a query or a
 * variable. Refused instead, as a request-level ValidationError in Strapi's GraphQL shape.
 */
const wellEncodedQuery: RequestHandler = (req, res, next) => {
  if (req.method !== 'GET' || isWellEncoded(rawQueryString(req.originalUrl))) return next();
  const { message, extensions } = strapiError(new ValidationError(malformedQueryMessage, { source: 'query' }));
  sendJson(res, 400, { errors: [{ message, extensions }] });
};

/** Strapi starts with a defaultLimit above maxLimit and caps every page at maxLimit; so does capi, but says so once. */
function warnDefaultAboveMax(config: GraphqlConfig, logger: Logger): void {
  const cap = pageSizeCap(config);
  if (cap === null || config.defaultLimit <= cap) return;
  logger.warn(`graphql.config.defaultLimit (${config.defaultLimit}) is above the largest page size (${cap}, from maxLimit/amountLimit): lists without a page size get ${cap} entries`);
}
