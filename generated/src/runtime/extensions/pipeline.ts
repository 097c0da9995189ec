/**
 * How a REST request reaches a controller action, Strapi's order: the caller's access (and the
 * action's permission unless the route has `auth: false`), the type's default query for keys the
 * request leaves out, policies, route middlewares, then the action (the project's or the core
 * one), whose return value is the response body.
 */
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { authorize } from '../access.ts';
import { HttpError, NotFoundError } from '../errors.ts';
import { parseQueryString } from '../query/params.ts';
import type { RestContext } from '../rest/context.ts';
import { coreActions, search, UntouchedContext } from '../rest/core-actions.ts';
import type { ContentTypeSchema } from '../schema.ts';
import { JsonText, sendJson } from '../send.ts';
import { sendCached, type RouteCache } from '../cache/http.ts';
import { reachableTypes, restAnswerKeys, type AnswerKeys } from '../cache/keys.ts';
import { RESPONSE_FORMAT_HEADER, wantsV4 } from '../rest/v4-format.ts';
import type { Action, BootstrapApp, ContentTypeExtension, CoreActionName, CoreActions, DefaultQuery, Extensions, RouteConfig, RouteContext } from './types.ts';

/** What the REST layer needs of the project's extensions. */
export interface RestExtensions {
  readonly extensions: Extensions;
  readonly app: BootstrapApp;
}

/** Strapi's answer when a policy says no. */
export class PolicyError extends HttpError {
  override readonly name = 'PolicyError';
  readonly status = 403;
  constructor(message = 'Policy Failed') {
    super(message, {});
  }
}

const coreActionNames: readonly CoreActionName[] = ['find', 'findOne', 'create', 'update', 'delete'];

/** Express handlers of a type's core routes, with the project's controller, policies, middlewares and default query. */
export function routeHandlers(schema: ContentTypeSchema, context: RestContext): Record<CoreActionName, RequestHandler> {
  const extension = extensionOf(context, schema.uid);
  const { actions, core } = controllerActions(schema, context);
  return Object.fromEntries(
    coreActionNames.map((name) => {
      const run = actions[name] ?? missing;
      const read = name === 'find' || name === 'findOne';
      return [name, handler(context, { uid: schema.uid, action: name, run, core: run === core[name], read, config: extension?.config?.[name], defaultQuery: extension?.defaultQuery, auth: true })];
    }),
  ) as Record<CoreActionName, RequestHandler>;
}

/** The project's extra routes of every type, under /api; answered before the core routes, as Strapi's custom route files are. */
export function customRoutes(context: RestContext): Router {
  const router = Router();
  for (const [uid, extension] of Object.entries(context.extensions?.extensions.contentTypes ?? {})) {
    const schema = context.model.contentTypes[uid];
    if (schema === undefined) continue; // refused at start-up (start.ts)
    const { actions } = controllerActions(schema, context);
    for (const route of extension.routes ?? []) {
      const run = actions[route.handler];
      if (run === undefined) throw new Error(`src/extensions: the route ${route.method} ${route.path} of ${uid} calls ${route.handler}, which its controller does not have`);
      const handle = handler(context, { uid, action: route.handler, run, core: false, read: false, config: route, defaultQuery: undefined, auth: route.auth !== false });
      router[methodOf(route.method)](route.path, handle);
    }
  }
  return router;
}

function extensionOf(context: RestContext, uid: string): ContentTypeExtension | undefined {
  return context.extensions?.extensions.contentTypes?.[uid] as ContentTypeExtension | undefined;
}

interface Controller {
  /** Core actions overlaid with the project's. */
  readonly actions: Readonly<Record<string, Action>>;
  readonly core: CoreActions;
}

const controllers = new WeakMap<RestContext, Map<string, Controller>>();

/** Core actions overlaid with the project's controller; built once per type. */
function controllerActions(schema: ContentTypeSchema, context: RestContext): Controller {
  const cache = controllers.get(context) ?? new Map<string, Controller>();
  controllers.set(context, cache);
  const cached = cache.get(schema.uid);
  if (cached !== undefined) return cached;
  const core: CoreActions = coreActions(schema, context);
  const factory = extensionOf(context, schema.uid)?.controller;
  const own = factory === undefined || context.extensions === undefined ? {} : factory({ core, documents: context.documents, app: context.extensions.app });
  const controller = { actions: { ...core, ...own }, core };
  cache.set(schema.uid, controller);
  return controller;
}

const missing: Action = () => Promise.reject(new NotFoundError());

interface Route {
  readonly uid: string;
  readonly action: string;
  readonly run: Action;
  /** `run` is the type's core action itself, not the project's. */
  readonly core: boolean;
  /** A core read route (find, findOne): its answers get config/cache.json's headers. */
  readonly read: boolean;
  readonly config: RouteConfig | undefined;
  readonly defaultQuery: DefaultQuery | undefined;
  readonly auth: boolean;
}

function handler(context: RestContext, route: Route): RequestHandler {
  const policies = route.config?.policies ?? [];
  const middlewares = route.config?.middlewares ?? [];
  // Nothing but the core action will see the request's query: it may take its plan by the raw
  // query string (core-actions.ts), and the query is parsed only if something asks for it.
  const alone = route.core && policies.length === 0 && middlewares.length === 0 && route.defaultQuery === undefined;
  // The v4 format is another body for the same URL.
  const cache = route.read ? context.cache?.route([`${route.uid}.${route.action}`, route.uid], ['Strapi-Response-Format']) : undefined;
  const list = route.action === 'find' && context.model.contentTypes[route.uid]?.kind === 'collectionType';
  return async (req, res) => {
    const access = context.resolveAccess(req);
    if (route.auth) authorize(access, `${route.uid}.${route.action}`);
    const ctx = routeContext(req, res, route, access, alone);
    if (route.defaultQuery !== undefined) ctx.query = withDefaults(ctx.query, route.defaultQuery);
    const app = context.extensions?.app;
    for (const policy of policies) {
      if (app === undefined || !(await policy(ctx, app))) throw new PolicyError();
    }
    let body: unknown;
    const next = async (index: number): Promise<void> => {
      const middleware = middlewares[index];
      if (middleware === undefined) {
        body = await route.run(ctx);
        return;
      }
      await middleware(ctx, () => next(index + 1));
    };
    await next(0);
    if (body === undefined) res.status(ctx.status === 200 ? 204 : ctx.status).end();
    else if (cache !== undefined && ctx.status === 200 && (req.method === 'GET' || req.method === 'HEAD')) sendRead(req, res, cache, body, (sent) => readKeys(context, route, list, req, sent));
    else sendJson(res, ctx.status, body);
  };
}

/** A read's 200 answer with its cache headers (cache/http.ts). */
function sendRead(req: Request, res: Response, cache: RouteCache, body: unknown, keys: (sent: unknown) => AnswerKeys): void {
  const text = body instanceof JsonText ? body.text : JSON.stringify(body);
  sendCached(req, res, cache, 'application/json; charset=utf-8', text, () => keys(body instanceof JsonText ? JSON.parse(text) : body));
}

/**
 * The surrogate keys of a read's answer: read off the answer where it has Strapi 5's shape (the
 * core action's, `alone` or behind policies), else every type the route's type can reach (a
 * project's controller may answer anything about it; Strapi 4's format nests differently).
 */
function readKeys(context: RestContext, route: Route, list: boolean, req: Request, sent: unknown): AnswerKeys {
  if (!route.core || wantsV4(req.headers[RESPONSE_FORMAT_HEADER])) return reachableTypes(context.model, route.uid);
  return restAnswerKeys(context.model, route.uid, list, sent);
}

function routeContext(req: Request, res: Response, route: Route, access: RouteContext['state']['access'], alone: boolean): RouteContext {
  const params = paramsOf(req);
  const request = { body: req.body as unknown };
  if (alone) return new UntouchedContext(req, res, route.uid, route.action, params, request, { access });
  return { req, res, uid: route.uid, action: route.action, query: { ...parseQueryString(search(req)) }, params, request, state: { access }, status: 200 };
}

/** The route parameters as text. */
function paramsOf(req: Request): Record<string, string> {
  const params: Record<string, string> = {};
  for (const key in req.params) params[key] = String(req.params[key]);
  return params;
}

/** The default query's keys the request does not give itself. */
export function withDefaults(query: Record<string, unknown>, defaults: DefaultQuery): Record<string, unknown> {
  const merged = { ...query };
  for (const [key, value] of Object.entries(defaults)) if (value !== undefined && !Object.hasOwn(query, key)) merged[key] = structuredClone(value);
  return merged;
}

const methods = { GET: 'get', POST: 'post', PUT: 'put', PATCH: 'patch', DELETE: 'delete' } as const;
function methodOf(method: keyof typeof methods): (typeof methods)[keyof typeof methods] {
  return methods[method];
}
