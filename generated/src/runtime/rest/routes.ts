/**
 * REST controllers of one content type, Strapi 5's routes and shapes:
 *   collection type  GET|POST /api/<plural>   GET|PUT|DELETE /api/<plural>/:documentId
 *   single type      GET|PUT|DELETE /api/<singular>
 * Each route runs the extensions pipeline (extensions/pipeline.ts) in front of the type's core
 * action (core-actions.ts).
 */
import { Router, type RequestHandler } from 'express';
import { routeHandlers } from '../extensions/pipeline.ts';
import type { ContentTypeSchema } from '../schema.ts';
import type { RestContext } from './context.ts';

/** A content type's routes: its Express router, and the reads the direct path may answer (direct.ts). */
export interface TypeRoutes {
  readonly router: Router;
  /** GET routes by path below /api (`/articles`, `/articles/:documentId`), with their handler. */
  readonly reads: readonly { readonly path: string; readonly handler: RequestHandler }[];
}

/** Builds a content type's routes; `segment` is the first path segment under /api it answers. */
export type RoutesFactory = ((context: RestContext) => TypeRoutes) & { readonly segment: string; readonly uid: string };

export function collectionTypeRoutes(schema: ContentTypeSchema): RoutesFactory {
  return withSegment(schema, schema.pluralName, (context) => {
    const handlers = routeHandlers(schema, context);
    const base = `/${schema.pluralName}`;
    const router = Router()
      .get(base, handlers.find)
      .post(base, handlers.create)
      .get(`${base}/:documentId`, handlers.findOne)
      .put(`${base}/:documentId`, handlers.update)
      .delete(`${base}/:documentId`, handlers.delete);
    return {
      router,
      reads: [
        { path: base, handler: handlers.find },
        { path: `${base}/:documentId`, handler: handlers.findOne },
      ],
    };
  });
}

export function singleTypeRoutes(schema: ContentTypeSchema): RoutesFactory {
  return withSegment(schema, schema.singularName, (context) => {
    const handlers = routeHandlers(schema, context);
    const base = `/${schema.singularName}`;
    const router = Router().get(base, handlers.find).put(base, handlers.update).delete(base, handlers.delete);
    return { router, reads: [{ path: base, handler: handlers.find }] };
  });
}

function withSegment(schema: ContentTypeSchema, segment: string, build: (context: RestContext) => TypeRoutes): RoutesFactory {
  return Object.assign(build, { segment, uid: schema.uid });
}

/** Every content type's routes, built once: one dispatcher for Express, and the reads for the direct path. */
export interface ContentTypeRoutes {
  /**
   * One handler for every content type's routes: the first path segment picks the type's router
   * from a map, instead of Express trying each type's routes in turn.
   */
  readonly dispatcher: RequestHandler;
  /** The types' GET routes below /api, by segment (the content API decides which go direct). */
  readonly reads: readonly { readonly segment: string; readonly uid: string; readonly path: string; readonly handler: RequestHandler }[];
}

export function contentTypeRoutes(routes: readonly RoutesFactory[], context: RestContext): ContentTypeRoutes {
  const built = routes.map((factory) => ({ factory, routes: factory(context) }));
  const routers = new Map(built.map(({ factory, routes: typeRoutes }) => [factory.segment, typeRoutes.router]));
  const dispatcher: RequestHandler = (req, res, next) => {
    const segment = req.path.split('/', 2)[1] ?? '';
    const router = routers.get(segment);
    if (router === undefined) return next();
    router(req, res, next);
  };
  const reads = built.flatMap(({ factory, routes: typeRoutes }) => typeRoutes.reads.map((read) => ({ segment: factory.segment, uid: factory.uid, ...read })));
  return { dispatcher, reads };
}
