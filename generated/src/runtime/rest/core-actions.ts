/**
 * The core actions of a content type (Strapi's find, findOne, create, update, delete): parse and
 * validate the query string against the type's static table, call the document service, wrap the
 * result in Strapi's envelope. extensions/pipeline.ts runs them behind policies and middlewares;
 * routes.ts mounts the pipeline's handlers.
 */
import type { Request, Response } from 'express';
import { hasNul } from '../column-domains.ts';
import { canRead, type Access } from '../access.ts';
import type { CoreActions, RouteContext } from '../extensions/types.ts';
import type { ContentTypeSchema } from '../schema.ts';
import { NotFoundError, ValidationError } from '../errors.ts';
import { assertWithinBudget } from '../engine/budget.ts';
import type { Entity, RenderedReads, WriteOptions } from '../engine/types.ts';
import { assertCallerInput } from '../engine/write-documents.ts';
import { JsonText } from '../send.ts';
import { parseListQuery, parseQueryString, parseReadQuery, type QueryContext } from '../query/params.ts';
import type { ListQuery, ReadQuery } from '../query/types.ts';
import { documentEnvelope, listEnvelope, paginationMeta } from './envelope.ts';
import type { RestContext } from './context.ts';
import { QueryPlans } from './query-plans.ts';
import { RESPONSE_FORMAT_HEADER, V4Format, wantsV4 } from './v4-format.ts';

/** The core actions of a type: Strapi's find, findOne, create, update and delete (on a single type, of its one document). */
export function coreActions(schema: ContentTypeSchema, context: RestContext): CoreActions {
  const { uid } = schema;
  const { documents } = context;
  const queryContext = (access: Access) => ({ schema, model: context.model, rest: context.rest, i18n: context.i18n, canRead: (target: string) => canRead(access, target) });
  const listPlans = new QueryPlans<ListQuery>();
  const readPlans = new QueryPlans<ReadQuery>();
  /**
   * The request's query, parsed and validated; from the plans by raw query string when nothing
   * but this action has seen the request (`UntouchedContext`), since policies, route middlewares, a
   * default query or the project's controller may have changed `ctx.query`.
   */
  const planned =
    <T>(plans: QueryPlans<T>, parse: (raw: Record<string, unknown>, context: QueryContext) => T) =>
    (ctx: RouteContext): T => {
      const access = ctx.state.access;
      if (!(ctx instanceof UntouchedContext)) {
        context.unknownParams?.note(ctx.query);
        return parse(ctx.query, queryContext(access));
      }
      const base = queryContext(access);
      const raw = search(ctx.req);
      return plans.plan(raw, base.canRead, (allowed) => {
        const query = parseQueryString(raw);
        context.unknownParams?.note(query);
        return parse(query, { ...base, canRead: allowed });
      });
    };
  const readQuery = planned(readPlans, parseReadQuery);
  const listQuery = planned(listPlans, parseListQuery);
  /** The query a write answers with, measured before the write (budget.ts). */
  const readBackQuery = (ctx: RouteContext): ReadQuery => {
    const query = readQuery(ctx);
    assertWithinBudget(query, context.queryBudget);
    return query;
  };
  /** The body's `data`, refused as Strapi's validateInput refuses it: a relation to a type the caller may not read is a 400. */
  const input = (ctx: RouteContext): unknown => {
    const data = bodyData(ctx);
    assertCallerInput(context.model, schema, data, (target) => canRead(ctx.state.access, target));
    return data;
  };
  const v4 = new V4Format(context.model);
  /** The entity as the request asked for it: Strapi 5's shape, or v4's with `Strapi-Response-Format: v4`. */
  const shaped = (req: Request) => (wantsV4(req.headers[RESPONSE_FORMAT_HEADER]) ? (entity: Entity) => v4.entry(entity, uid) : (entity: Entity) => entity);
  /** The version a write touched, read back with the populate and fields the request asked for. */
  const respond = async (req: Request, query: ReadQuery, ref: { documentId: string; locale?: string }, options: WriteOptions) => {
    const entity = await documents.findOne(uid, ref.documentId, { ...query, status: options.status, ...(ref.locale === undefined ? {} : { locale: ref.locale }) });
    if (entity === null) throw new NotFoundError();
    return documentEnvelope(shaped(req)(entity));
  };
  /**
   * The database's JSON text of the read, where nothing but this action sees the request or its
   * answer (no policy, middleware, project controller, document middleware, v4 format).
   */
  const rendered = (ctx: RouteContext) => (ctx instanceof UntouchedContext && !wantsV4(ctx.req.headers[RESPONSE_FORMAT_HEADER]) ? documents.rendered : undefined);
  const renderedDocument = async (ctx: RouteContext, read: (reads: RenderedReads) => Promise<string | undefined>): Promise<JsonText | undefined> => {
    const reads = rendered(ctx);
    const json = reads === undefined ? undefined : await read(reads);
    if (json === 'null') throw new NotFoundError();
    return json === undefined ? undefined : new JsonText(`{"data":${json},"meta":{}}`);
  };
  const found = (ctx: RouteContext, entity: Entity | null) => {
    if (entity === null) throw new NotFoundError();
    return documentEnvelope(shaped(ctx.req)(entity));
  };
  const deleted = (ctx: RouteContext) => {
    // Strapi answers 204 whether or not the document existed.
    ctx.status = 204;
    return undefined;
  };

  if (schema.kind === 'singleType') {
    const findSingle = async (ctx: RouteContext) => {
      const query = readQuery(ctx);
      return (await renderedDocument(ctx, (reads) => reads.findSingle(uid, query))) ?? found(ctx, await documents.findSingle(uid, query));
    };
    return {
      find: findSingle,
      findOne: findSingle,
      create: async (ctx) => {
        const query = readBackQuery(ctx);
        const options = writeOptions(query);
        return respond(ctx.req, query, await documents.putSingle(uid, input(ctx), options), options);
      },
      update: async (ctx) => {
        const query = readBackQuery(ctx);
        const options = writeOptions(query);
        return respond(ctx.req, query, await documents.putSingle(uid, input(ctx), options), options);
      },
      delete: async (ctx) => {
        await documents.deleteSingle(uid, deleteOptions(readQuery(ctx)));
        return deleted(ctx);
      },
    };
  }
  return {
    find: async (ctx) => {
      const query = listQuery(ctx);
      const page = await rendered(ctx)?.findMany(uid, query);
      if (page !== undefined) return new JsonText(`{"data":${page.json},"meta":${JSON.stringify({ pagination: paginationMeta(query.pagination, page.total) })}}`);
      const { results, total } = await documents.findMany(uid, query);
      return listEnvelope(results.map(shaped(ctx.req)), paginationMeta(query.pagination, total));
    },
    findOne: async (ctx) => {
      const documentId = documentIdParam(ctx);
      const query = readQuery(ctx);
      return (await renderedDocument(ctx, (reads) => reads.findOne(uid, documentId, query))) ?? found(ctx, await documents.findOne(uid, documentId, query));
    },
    create: async (ctx) => {
      const query = readBackQuery(ctx);
      const options = writeOptions(query);
      const ref = await documents.create(uid, input(ctx), options);
      ctx.status = 201;
      return respond(ctx.req, query, ref, options);
    },
    update: async (ctx) => {
      const query = readBackQuery(ctx);
      const options = writeOptions(query);
      const ref = await documents.update(uid, documentIdParam(ctx), input(ctx), options);
      if (ref === null) throw new NotFoundError();
      return respond(ctx.req, query, ref, options);
    },
    delete: async (ctx) => {
      await documents.delete(uid, documentIdParam(ctx), deleteOptions(readQuery(ctx)));
      return deleted(ctx);
    },
  };
}

/**
 * The context of a route that no code besides the core action sees before it runs (no policy,
 * route middleware, default query or project controller): its `query` is the raw query string's
 * parse, so the action may take its plan by the raw string, and the query is parsed only if
 * something reads it (extensions/pipeline.ts makes them). A class, so that a request costs one
 * object of fixed shape and no property defined on it at run time.
 */
export class UntouchedContext implements RouteContext {
  #query: Record<string, unknown> | undefined;
  status = 200;

  constructor(
    readonly req: Request,
    readonly res: Response,
    readonly uid: string,
    readonly action: string,
    readonly params: Readonly<Record<string, string>>,
    readonly request: { readonly body: unknown },
    readonly state: RouteContext['state'],
  ) {}

  get query(): Record<string, unknown> {
    return (this.#query ??= { ...parseQueryString(search(this.req)) });
  }

  set query(value: Record<string, unknown>) {
    this.#query = value;
  }
}

/** The raw query string: parsed by our own qs settings, not Express' parser. */
export function search(req: Request): string {
  const url = req.originalUrl;
  const at = url.indexOf('?');
  return at === -1 ? '' : url.slice(at + 1);
}

function documentIdParam(ctx: RouteContext): string {
  const documentId = ctx.params.documentId ?? '';
  // No row can hold a NUL (column-domains.ts); PostgreSQL would fail on comparing one.
  if (hasNul(documentId)) throw new ValidationError('Invalid documentId: expected text without NUL (\\u0000) characters', { param: 'documentId' });
  return documentId;
}

/** Strapi's `{ data: {...} }` request body. */
function bodyData(ctx: RouteContext): unknown {
  const body: unknown = ctx.request.body;
  if (body === null || typeof body !== 'object' || !('data' in body)) throw new ValidationError('Missing "data" payload in the request body');
  return (body as { data: unknown }).data;
}

function writeOptions(query: ReadQuery): WriteOptions {
  return query.locale === undefined || query.locale === '*' ? { status: query.status } : { status: query.status, locale: query.locale };
}

function deleteOptions(query: ReadQuery): { locale?: string } {
  return query.locale === undefined ? {} : { locale: query.locale };
}
