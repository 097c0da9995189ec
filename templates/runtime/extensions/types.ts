/**
 * What a project's own code (src/extensions/, never written by `capi generate`) can add to the
 * generated server, in the spirit of Strapi 5's factories, `strapi.documents.use` and
 * lifecycles, so that Strapi code ports with small edits. docs/extending.md has examples.
 */
import type { Request, RequestHandler, Response } from 'express';
import type { Access } from '../access.ts';
import type { AppConfig } from '../config.ts';
import type { Database, Queryable } from '../database.ts';
import type { DocumentService, Entity } from '../engine/types.ts';
import type { WriteAction } from '../engine/write-hooks.ts';
import type { Logger } from '../logger.ts';
import type { ModelSchema } from '../schema.ts';
import type { TypeQuery } from './query.ts';

/** What register, bootstrap, policies, services and custom actions get to work with. */
export interface ExtensionApp {
  readonly config: AppConfig;
  readonly logger: Logger;
  readonly db: Database;
  readonly model: ModelSchema;
}

/** bootstrap also gets the document service (with every middleware and hook in place). */
export interface BootstrapApp extends ExtensionApp {
  readonly documents: DocumentService;
  /** The extra service methods a type's extension declares (`service`). */
  service(uid: string): Readonly<Record<string, (...args: never[]) => unknown>>;
  /** The document service in Strapi's query language (`strapi.documents(uid).findMany({ filters, populate })`). */
  query(uid: string): TypeQuery;
}

/**
 * A REST request as route middlewares, policies and controller actions see it, shaped like
 * Strapi's Koa `ctx`: `ctx.query` is the parsed query string (change it before the core action
 * reads it), an action's return value is the response body, `ctx.status` its status.
 */
export interface RouteContext {
  readonly req: Request;
  readonly res: Response;
  /** `api::article.article` */
  readonly uid: string;
  /** The action the route calls: `find`, `findOne`, `create`, `update`, `delete` or a custom one. */
  readonly action: string;
  query: Record<string, unknown>;
  readonly params: Readonly<Record<string, string>>;
  readonly request: { readonly body: unknown };
  readonly state: { readonly access: Access; [key: string]: unknown };
  status: number;
}

/** A controller action: returns the response body (undefined for an empty answer). */
export type Action = (ctx: RouteContext) => Promise<unknown>;
export type CoreActionName = 'find' | 'findOne' | 'create' | 'update' | 'delete';
export type CoreActions = Readonly<Record<CoreActionName, Action>>;

/** Runs around the action (and the middlewares after it); call `next()` to go on. */
export type RouteMiddleware = (ctx: RouteContext, next: () => Promise<void>) => Promise<void>;
/** False refuses the request with Strapi's 403 `PolicyError` (throw an HttpError for another answer). */
export type Policy = (ctx: RouteContext, app: BootstrapApp) => boolean | Promise<boolean>;

export interface RouteConfig {
  readonly policies?: readonly Policy[];
  readonly middlewares?: readonly RouteMiddleware[];
}

/** An extra route under /api. `handler` names an action of the type's controller (core or added). */
export interface CustomRoute extends RouteConfig {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Express path under /api, e.g. `/articles/by-slug/:slug`. */
  readonly path: string;
  readonly handler: string;
  /** false: no permission needed (the public can call it); otherwise `<uid>.<handler>` must be granted. */
  readonly auth?: boolean;
}

/** Applied to a core route's query when the request does not give that key itself. */
export interface DefaultQuery {
  readonly populate?: unknown;
  readonly fields?: readonly string[];
  readonly filters?: Record<string, unknown>;
  readonly sort?: string | readonly string[];
}

export interface ControllerFactoryArgs {
  /** The core actions, to call from a wrapper (Strapi's `super.find(ctx)`). */
  readonly core: CoreActions;
  readonly documents: DocumentService;
  readonly app: BootstrapApp;
}

/** Everything a project adds to one content type. `E` is its generated entity type. */
export interface ContentTypeExtension<E extends object = Entity> {
  /** Replaces or wraps core actions, and adds actions for custom routes. */
  readonly controller?: (args: ControllerFactoryArgs) => Readonly<Record<string, Action>>;
  readonly routes?: readonly CustomRoute[];
  /** Per core action: policies and middlewares (Strapi's `createCoreRouter(uid, { config })`). */
  readonly config?: Partial<Readonly<Record<CoreActionName, RouteConfig>>>;
  readonly defaultQuery?: DefaultQuery;
  /** Extra service methods beside the document service's, reachable from actions and hooks. */
  readonly service?: (args: { readonly documents: DocumentService; readonly app: BootstrapApp }) => Readonly<Record<string, (...args: never[]) => unknown>>;
  /** Lifecycle hooks of this type. */
  readonly lifecycles?: Lifecycles<E>;
}

/** A lifecycle event. `db` is the write's transaction: what a hook writes with it commits or rolls back with the write. */
export interface LifecycleEvent<E extends object = Entity> {
  readonly action: WriteAction;
  readonly uid: string;
  /** Unknown before a create. */
  readonly documentId: string | undefined;
  /** The request body of a create or update; `before` hooks may change it. */
  readonly data: Record<string, unknown> | undefined;
  readonly locale: string | undefined;
  readonly db: Queryable;
  /** The entry as written (after hooks; null after a delete), read inside the transaction. */
  entry(): Promise<E | null>;
}

/** An event after commit: no transaction any more. */
export type CommittedEvent<E extends object = Entity> = Omit<LifecycleEvent<E>, 'db' | 'entry'> & { readonly entry: E | null };

type Hook<E extends object> = (event: LifecycleEvent<E>) => void | Promise<void>;

export interface Lifecycles<E extends object = Entity> {
  readonly beforeCreate?: Hook<E>;
  readonly afterCreate?: Hook<E>;
  readonly beforeUpdate?: Hook<E>;
  readonly afterUpdate?: Hook<E>;
  readonly beforeDelete?: Hook<E>;
  readonly afterDelete?: Hook<E>;
  readonly afterPublish?: Hook<E>;
  /** After commit, for every action: revalidate a cache, notify a service. Errors are logged. */
  readonly afterCommit?: (event: CommittedEvent<E>) => void | Promise<void>;
}

/** The document service's methods, as `strapi.documents.use` middlewares see them. */
/** `rendered` is the engine's own shortcut, not an action: a wrapped service leaves it out. */
export type DocumentAction = Exclude<keyof DocumentService, 'rendered'>;

export interface DocumentMiddlewareContext {
  readonly uid: string;
  readonly action: DocumentAction;
  /** The call's arguments by name (`query`, `documentId`, `data`, `options`); change them before `next()`. */
  params: Record<string, unknown>;
}

export type DocumentMiddleware = (context: DocumentMiddlewareContext, next: () => Promise<unknown>) => Promise<unknown>;

/** What a GraphQL policy sees: the field's arguments and the caller. */
export interface GraphqlPolicyContext {
  readonly args: Readonly<Record<string, unknown>>;
  readonly access: Access;
}

export type GraphqlResolver = (parent: unknown, args: Readonly<Record<string, unknown>>, context: { readonly access: Access }) => unknown;

export interface GraphqlFieldConfig {
  /** Actions the caller must be granted (`api::article.article.find`); false or absent: no check beyond the field's own. */
  readonly auth?: false | { readonly scope: readonly string[] };
  /** Run before the resolver; false refuses with Strapi's `Policy Failed` error. */
  readonly policies?: readonly ((context: GraphqlPolicyContext) => boolean | Promise<boolean>)[];
}

export interface GraphqlExtension {
  /** SDL added to the emitted schema (new types, `extend type Query { ... }`). */
  readonly typeDefs?: string;
  /** Resolvers of the added fields, or replacing generated ones: `{ Query: { field: (parent, args, context) => ... } }`. */
  readonly resolvers?: Readonly<Record<string, Readonly<Record<string, GraphqlResolver>>>>;
  /** Per `Type.field` (`Query.articles`, `Mutation.createArticle`): permission scope and policies. */
  readonly resolversConfig?: Readonly<Record<string, GraphqlFieldConfig>>;
  /** Generated queries or mutations to remove, by field name (`deleteArticle`). */
  readonly disabled?: readonly string[];
}

export interface Extensions {
  /** At start-up, before anything is mounted. */
  readonly register?: (app: ExtensionApp) => void | Promise<void>;
  /** At start-up, once the document service exists, before the server listens. */
  readonly bootstrap?: (app: BootstrapApp) => void | Promise<void>;
  /** Express middlewares before the content API (every request) and after it (requests nothing answered). */
  readonly middlewares?: { readonly before?: readonly RequestHandler[]; readonly after?: readonly RequestHandler[] };
  /** `strapi.documents.use`: around every document service call, in order. */
  readonly documents?: readonly DocumentMiddleware[];
  /** Lifecycles of every type. */
  readonly lifecycles?: Lifecycles;
  readonly contentTypes?: Readonly<Record<string, ContentTypeExtension<never>>>;
  /** GraphQL additions; the function form gets the document service and the rest of the app. */
  readonly graphql?: GraphqlExtension | ((app: BootstrapApp) => GraphqlExtension);
}

/** Identity helpers: they only give the object its type (and the entity type to a type's hooks). */
export function defineExtensions(extensions: Extensions): Extensions {
  return extensions;
}

export function contentType<E extends object>(extension: ContentTypeExtension<E>): ContentTypeExtension<never> {
  return extension as ContentTypeExtension<never>;
}
