/**
 * REST controllers of one content type, Strapi 5's routes and shapes:
 *   collection type  GET|POST /api/<plural>   GET|PUT|DELETE /api/<plural>/:documentId
 *   single type      GET|PUT|DELETE /api/<singular>
 * Each handler: authorize the action, parse and validate the query string against the type's
 * static table, call the document service, wrap the result in Strapi's envelope.
 */
import { Router, type Request, type RequestHandler } from 'express';
import { hasNul } from '../column-domains.ts';
import { authorize, canRead, type Access } from '../access.ts';
import type { ContentTypeSchema } from '../schema.ts';
import { NotFoundError, ValidationError } from '../errors.ts';
import type { Entity, WriteOptions } from '../engine/types.ts';
import { parseListQuery, parseQueryString, parseReadQuery } from '../query/params.ts';
import type { ReadQuery } from '../query/types.ts';
import { sendJson } from '../send.ts';
import { documentEnvelope, listEnvelope, paginationMeta } from './envelope.ts';
import type { RestContext } from './context.ts';
import { RESPONSE_FORMAT_HEADER, V4Format, wantsV4 } from './v4-format.ts';

/** Builds a content type's router; `segment` is the first path segment under /api it answers. */
export type RoutesFactory = ((context: RestContext) => Router) & { readonly segment: string };

export function collectionTypeRoutes(schema: ContentTypeSchema): RoutesFactory {
  return withSegment(schema.pluralName, (context) => {
    const handlers = controller(schema, context);
    const base = `/${schema.pluralName}`;
    return Router()
      .get(base, handlers.find)
      .post(base, handlers.create)
      .get(`${base}/:documentId`, handlers.findOne)
      .put(`${base}/:documentId`, handlers.update)
      .delete(`${base}/:documentId`, handlers.delete);
  });
}

export function singleTypeRoutes(schema: ContentTypeSchema): RoutesFactory {
  return withSegment(schema.singularName, (context) => {
    const handlers = controller(schema, context);
    const base = `/${schema.singularName}`;
    return Router().get(base, handlers.findSingle).put(base, handlers.putSingle).delete(base, handlers.deleteSingle);
  });
}

function withSegment(segment: string, build: (context: RestContext) => Router): RoutesFactory {
  return Object.assign(build, { segment });
}

/**
 * One handler for every content type's routes: the first path segment picks the type's router
 * from a map, instead of Express trying each type's routes in turn.
 */
export function contentTypeDispatcher(routes: readonly RoutesFactory[], context: RestContext): RequestHandler {
  const routers = new Map(routes.map((factory) => [factory.segment, factory(context)]));
  return (req, res, next) => {
    const segment = req.path.split('/', 2)[1] ?? '';
    const router = routers.get(segment);
    if (router === undefined) return next();
    router(req, res, next);
  };
}

type Handlers = Record<'find' | 'findOne' | 'create' | 'update' | 'delete' | 'findSingle' | 'putSingle' | 'deleteSingle', RequestHandler>;

function controller(schema: ContentTypeSchema, context: RestContext): Handlers {
  const { uid } = schema;
  const { documents } = context;
  const queryContext = (access: Access) => ({ schema, model: context.model, rest: context.rest, i18n: context.i18n, canRead: (target: string) => canRead(access, target) });
  const allowed = (req: Request, action: string): Access => {
    const access = context.resolveAccess(req);
    authorize(access, `${uid}.${action}`);
    return access;
  };
  const readQuery = (req: Request, access: Access): ReadQuery => parseReadQuery(parseQueryString(search(req)), queryContext(access));
  const v4 = new V4Format(context.model);
  /** The entity as the request asked for it: Strapi 5's shape, or v4's with `Strapi-Response-Format: v4`. */
  const shaped = (req: Request) => (wantsV4(req.headers[RESPONSE_FORMAT_HEADER]) ? (entity: Entity) => v4.entry(entity, uid) : (entity: Entity) => entity);
  /** The version a write touched, read back with the populate and fields the request asked for. */
  const respond = async (req: Request, query: ReadQuery, ref: { documentId: string; locale?: string }, options: WriteOptions) => {
    const entity = await documents.findOne(uid, ref.documentId, { ...query, status: options.status, ...(ref.locale === undefined ? {} : { locale: ref.locale }) });
    if (entity === null) throw new NotFoundError();
    return documentEnvelope(shaped(req)(entity));
  };

  return {
    find: async (req, res) => {
      const access = allowed(req, 'find');
      const query = parseListQuery(parseQueryString(search(req)), queryContext(access));
      const { results, total } = await documents.findMany(uid, query);
      sendJson(res, 200, listEnvelope(results.map(shaped(req)), paginationMeta(query.pagination, total)));
    },
    findOne: async (req, res) => {
      const access = allowed(req, 'findOne');
      const entity = await documents.findOne(uid, documentIdParam(req), readQuery(req, access));
      if (entity === null) throw new NotFoundError();
      sendJson(res, 200, documentEnvelope(shaped(req)(entity)));
    },
    create: async (req, res) => {
      const query = readQuery(req, allowed(req, 'create'));
      const options = writeOptions(query);
      const ref = await documents.create(uid, bodyData(req), options);
      sendJson(res, 201, await respond(req, query, ref, options));
    },
    update: async (req, res) => {
      const query = readQuery(req, allowed(req, 'update'));
      const options = writeOptions(query);
      const ref = await documents.update(uid, documentIdParam(req), bodyData(req), options);
      if (ref === null) throw new NotFoundError();
      sendJson(res, 200, await respond(req, query, ref, options));
    },
    delete: async (req, res) => {
      const access = allowed(req, 'delete');
      await documents.delete(uid, documentIdParam(req), deleteOptions(readQuery(req, access)));
      // Strapi answers 204 whether or not the document existed.
      res.status(204).end();
    },
    findSingle: async (req, res) => {
      const access = allowed(req, 'find');
      const entity = await documents.findSingle(uid, readQuery(req, access));
      if (entity === null) throw new NotFoundError();
      sendJson(res, 200, documentEnvelope(shaped(req)(entity)));
    },
    putSingle: async (req, res) => {
      const query = readQuery(req, allowed(req, 'update'));
      const options = writeOptions(query);
      const ref = await documents.putSingle(uid, bodyData(req), options);
      sendJson(res, 200, await respond(req, query, ref, options));
    },
    deleteSingle: async (req, res) => {
      const access = allowed(req, 'delete');
      await documents.deleteSingle(uid, deleteOptions(readQuery(req, access)));
      res.status(204).end();
    },
  };
}

/** The raw query string: parsed by our own qs settings, not Express' parser. */
function search(req: Request): string {
  const url = req.originalUrl;
  const at = url.indexOf('?');
  return at === -1 ? '' : url.slice(at + 1);
}

function documentIdParam(req: Request): string {
  const documentId = String(req.params.documentId ?? '');
  // No row can hold a NUL (column-domains.ts); PostgreSQL would fail on comparing one.
  if (hasNul(documentId)) throw new ValidationError('Invalid documentId: expected text without NUL (\\u0000) characters', { param: 'documentId' });
  return documentId;
}

/** Strapi's `{ data: {...} }` request body. */
function bodyData(req: Request): unknown {
  const body: unknown = req.body;
  if (body === null || typeof body !== 'object' || !('data' in body)) throw new ValidationError('Missing "data" payload in the request body');
  return (body as { data: unknown }).data;
}

function writeOptions(query: ReadQuery): WriteOptions {
  return query.locale === undefined || query.locale === '*' ? { status: query.status } : { status: query.status, locale: query.locale };
}

function deleteOptions(query: ReadQuery): { locale?: string } {
  return query.locale === undefined ? {} : { locale: query.locale };
}
