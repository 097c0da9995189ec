/**
 * The content API of a generated project as mounts of the application: authentication (public
 * role, API token or signed-in user), uploads (`/api/upload`, `/upload`, `/uploads`), sign-in and
 * users (users-permissions' routes, users/), the REST routes of every content type under `/api` and, given the project's GraphQL bindings, the GraphQL API at
 * `/graphql`, all sharing one document service and one access resolver. Uploads come first so
 * that `/api/upload` is never taken for a content type.
 */
import { Router, type Request, type RequestHandler } from 'express';
import { accessControl, authorize, canRead } from './access.ts';
import type { GraphqlBindings } from './graphql/schema-binding.ts';
import { graphqlApiMount } from './graphql/schema-mount.ts';
import { parseListQuery, parseQueryString } from './query/params.ts';
import { UnknownQueryParams } from './query/unknown-params.ts';
import { localesRoutes, readLocaleIdentities } from './rest/locales.ts';
import { paginationMeta } from './rest/envelope.ts';
import type { RestContext } from './rest/context.ts';
import { contentTypeRoutes, type ContentTypeRoutes, type RoutesFactory } from './rest/routes.ts';
import type { DirectRoute } from './direct.ts';
import type { Mount, MountFactory } from './server.ts';
import { checkSecrets } from './secrets.ts';
import { tokenSalt } from './tokens.ts';
import { jwtSecret } from './user-jwt.ts';
import { uploadFileSchema, UPLOAD_FILE_UID } from './upload/file-schema.ts';
import { checkUploadStorage, uploadMount, type FileListQuery, type FindFile, type ListFiles, type PageFiles } from './upload/index.ts';
import { attachRelated, splitRelated, withPopulate } from './upload/related.ts';
import type { Entity } from './engine/types.ts';
import type { ListQuery } from './query/types.ts';
import { own } from './query/raw.ts';
import { startExtensions } from './extensions/start.ts';
import { customRoutes } from './extensions/pipeline.ts';
import type { Extensions } from './extensions/types.ts';
import { usersPlugin } from './users/index.ts';
import { openapiMount } from './openapi/index.ts';
import { accountStore } from './users/store.ts';
import { HttpCache } from './cache/http.ts';
import { roleActions } from './users/role-permissions.ts';

/** Bound of an unpaginated file listing, so that no request can ask the database for everything. */
const MAX_FILES_LISTED = 10_000;

export function contentApiMount(routes: readonly RoutesFactory[], graphql?: GraphqlBindings, extensions: Extensions = {}): MountFactory {
  return async (app): Promise<Mount[]> => {
    const project = await startExtensions(app, extensions);
    const env = app.env ?? process.env;
    await checkSecrets({ env, db: app.db, model: app.model, logger: app.logger });
    const accounts = accountStore(app.db, app.model);
    const roles = roleActions(app.db, app.config.permissions, app.model);
    const access = accessControl({
      permissions: app.config.permissions,
      db: app.db,
      tokenSalt: tokenSalt(env),
      jwtSecret: jwtSecret(env),
      jwtMaxAge: app.config.plugins.usersPermissions.jwt.expiresIn,
      accounts,
      roles,
      logger: app.logger,
    });
    const rest: RestContext = {
      model: app.model,
      documents: project.documents,
      rest: app.config.api.rest,
      i18n: app.config.plugins.i18n,
      queryBudget: app.config.api.query,
      resolveAccess: access.resolveAccess,
      extensions: { extensions, app: project.app },
      unknownParams: new UnknownQueryParams(app.logger),
      cache: new HttpCache(app.config.cache),
    };
    // `/api/upload/files` takes the same filters, sort, fields and pagination as any content type,
    // but like Strapi's it lists every file when no pagination is asked for.
    // `populate=related` (the entries using each file) is served beside the engine (upload/related.ts).
    const fileQuery = (query: FileListQuery, req: Request) => {
      const access = rest.resolveAccess(req);
      const allowed = (uid: string) => canRead(access, uid);
      const context = { schema: uploadFileSchema, model: rest.model, rest: rest.rest, i18n: rest.i18n, canRead: allowed };
      const raw = parseQueryString(query.raw);
      const { related, rest: populate } = splitRelated(own(raw, 'populate'));
      const parsed = parseListQuery(withPopulate(raw, populate), context);
      const withRelated = async (files: Entity[]): Promise<Entity[]> => {
        if (related) await attachRelated({ db: app.db, documents: rest.documents, model: rest.model, canRead: allowed }, files);
        return files;
      };
      return { raw, parsed, related, withRelated };
    };
    const listFiles: ListFiles = async (query, req) => {
      const { raw, parsed, withRelated } = fileQuery(query, req);
      const all = { kind: 'offset', start: 0, limit: MAX_FILES_LISTED, withCount: false } as const;
      const { results } = await rest.documents.findMany(UPLOAD_FILE_UID, 'pagination' in raw ? parsed : { ...parsed, pagination: all });
      return withRelated(results);
    };
    // `/api/upload/files/page` is paginated as a content type's list: the default page, `meta.pagination`.
    const pageFiles: PageFiles = async (query, req) => {
      const { parsed, withRelated } = fileQuery(query, req);
      const { results, total } = await rest.documents.findMany(UPLOAD_FILE_UID, parsed);
      return { data: await withRelated(results), pagination: paginationMeta(parsed.pagination, total) };
    };
    const findFile: FindFile = async (id, query, req) => {
      const { parsed, withRelated } = fileQuery(query, req);
      // Like Strapi's findOne, the query is validated whole but only `populate` is applied.
      const byId: ListQuery = {
        populate: parsed.populate,
        status: parsed.status,
        filters: { kind: 'condition', attribute: 'id', operator: 'eq', value: id },
        sort: [],
        pagination: { kind: 'offset', start: 0, limit: 1, withCount: false },
      };
      const [file] = await withRelated((await rest.documents.findMany(UPLOAD_FILE_UID, byId)).results);
      return file;
    };
    await checkUploadStorage(app.config.plugins.upload.provider, (message) => app.logger.warn(message));
    const users = await usersPlugin(app, rest.documents, rest.resolveAccess, roles, accounts);
    const api = Router();
    api.use(localesRoutes(rest.i18n, rest.resolveAccess, await readLocaleIdentities(app.db)));
    // The project's own routes come first, so they may take over a plugin's or a core path.
    api.use(customRoutes(rest));
    api.use(users.routes);
    const types = contentTypeRoutes(routes, rest);
    api.use(types.dispatcher);
    await project.bootstrap();
    // The project's own middlewares run before everything, so they see every request through
    // Express: then nothing is answered on the direct path, GraphQL POSTs included (an empty list
    // of handlers would still be a direct route, one that skips those middlewares and access).
    const direct = project.before.length > 0 ? { rest: [] } : { rest: directReads(types, extensions, access.middleware), graphql: [access.middleware] };
    return [
      ...project.before,
      { path: '/', handler: access.middleware },
      ...(await uploadMount(app, { authorize: (action, req) => authorize(rest.resolveAccess(req), action), listFiles, pageFiles, findFile, media: project.media })),
      // Before the content types, so that `/api/docs` is never taken for one.
      ...openapiMount(app),
      { path: '/api', handler: api, direct: direct.rest },
      ...(graphql === undefined
        ? []
        : [
            await graphqlApiMount(app, {
              bindings: graphql,
              documents: rest.documents,
              resolveAccess: rest.resolveAccess,
              users,
              media: project.media,
              ...(direct.graphql === undefined ? {} : { direct: direct.graphql }),
              ...project.graphql,
            }),
          ]),
      ...project.after,
    ];
  };
}

/**
 * First segments below /api that belong to routes mounted before the content types (uploads,
 * OpenAPI, locales, users-permissions): a type with such a name is served by Express' order.
 */
const takenSegments: ReadonlySet<string> = new Set(['upload', 'docs', 'openapi.json', 'i18n', 'auth', 'users', 'users-permissions', 'connect']);

/**
 * The content types' reads the server may answer directly (direct.ts): access, then the type's
 * handler, as on Express. None when the project has custom routes (any of them may take a core
 * path first); none of a type whose controller or route config the project replaces, since
 * project code is written against Express' request and response.
 */
function directReads(types: ContentTypeRoutes, extensions: Extensions, access: RequestHandler): DirectRoute[] {
  const own = extensions.contentTypes ?? {};
  if (Object.values(own).some((extension) => (extension.routes ?? []).length > 0)) return [];
  return types.reads
    .filter((read) => !takenSegments.has(read.segment))
    .filter((read) => own[read.uid]?.controller === undefined && own[read.uid]?.config === undefined)
    .map((read) => ({ method: 'GET', path: `/api${read.path}`, handlers: [access, read.handler], bare: true }));
}
