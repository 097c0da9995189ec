/**
 * The GraphQL API of a generated project, mounted by the content API next to REST
 * (content-api.ts) on the same document service and access resolver:
 *
 * - the schema served is exactly `src/graphql/schema.graphql`, the SDL `capi generate` emitted,
 *   read once at start-up;
 * - resolvers come from the project's bindings (`src/graphql/bindings.ts`) and the runtime;
 * - each request acts as the caller REST would see (`resolveAccess`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Request, RequestHandler } from 'express';
import type { Access, AccessResolver } from '../access.ts';
import type { DocumentService } from '../engine/types.ts';
import { Targets } from '../query/targets.ts';
import type { AppContext, Mount } from '../server.ts';
import { UploadService, type MediaHooks } from '../upload/service.ts';
import { UPLOAD_FILE_UID } from '../upload/file-schema.ts';
import { UploadFolder } from '../upload/storage.ts';
import { parse, type DocumentNode } from './graphql-js.ts';
import type { GraphqlContext, GraphqlRuntime } from './resolvers-context.ts';
import type { UsersGraphql } from './resolvers-users.ts';
import { RenderedQueries } from './rendered.ts';
import { buildResolvers, type ResolverMap } from './resolvers.ts';
import type { GraphqlBindings } from './schema-binding.ts';
import { bindingIndex } from './schema-index.ts';
import { DerivedLists } from './selection-lists.ts';
import { createGraphqlMount } from './server.ts';
import { graphqlKeys } from '../cache/graphql-keys.ts';
import { readLocaleIdentities } from '../rest/locales.ts';

/** Where `capi generate` writes the SDL, relative to the project root. */
export const SCHEMA_FILE = join('src', 'graphql', 'schema.graphql');

export interface GraphqlApiOptions {
  readonly bindings: GraphqlBindings;
  readonly documents: DocumentService;
  readonly resolveAccess: AccessResolver;
  /** Told about each media change (webhooks' media events). */
  readonly media?: MediaHooks;
  /** The project's additions (extensions/graphql.ts), applied to the emitted SDL and resolvers. */
  readonly extend?: (sdl: DocumentNode, resolvers: ResolverMap) => { typeDefs: DocumentNode; resolvers: ResolverMap };
  readonly users?: UsersGraphql;
  /** Given, POSTs are answered on the direct path (direct.ts) after these handlers (the access middleware). */
  readonly direct?: readonly RequestHandler[];
}

const REQUEST = Symbol('request');
const LISTS = Symbol('lists');

/**
 * A request's context. Resolvers, the project's included, see no request (so none sees a
 * session): the address is read from it on first use, by sign-in's attempt counter. The derived
 * lists are made on first use too: an answer the database writes whole (rendered.ts) needs
 * neither, and a WeakMap per request is work for the garbage collector. Symbol keys rather than
 * `#` fields, since Apollo runs each operation on a copy (`Object.assign` onto the prototype),
 * which carries own properties only.
 */
class RequestContext implements GraphqlContext {
  readonly [REQUEST]: Request;
  [LISTS]: DerivedLists | undefined;

  constructor(
    readonly access: Access,
    req: Request,
  ) {
    this[REQUEST] = req;
  }

  get address(): string {
    return this[REQUEST].ip ?? '';
  }

  get lists(): DerivedLists {
    return (this[LISTS] ??= new DerivedLists());
  }
}

export async function graphqlApiMount(app: AppContext, options: GraphqlApiOptions): Promise<Mount> {
  const sdl = readFileSync(join(app.config.projectRoot, SCHEMA_FILE), 'utf8');
  const runtime: GraphqlRuntime = {
    model: app.model,
    documents: options.documents,
    uploads: new UploadService(app.db, UploadFolder.openSync(join(app.config.projectRoot, 'public', 'uploads')), app.config.plugins.upload, app.logger, options.media),
    bindings: bindingIndex(options.bindings),
    targets: new Targets(app.model),
    graphql: app.config.plugins.graphql,
    i18n: app.config.plugins.i18n,
    queryBudget: app.config.api.query,
    localesSince: new Date(),
    localeIdentities: await readLocaleIdentities(app.db),
    ...(options.users === undefined ? {} : { users: options.users }),
  };
  const document = parse(sdl);
  const built = { typeDefs: document, resolvers: buildResolvers(runtime, document) };
  const { typeDefs, resolvers } = options.extend === undefined ? built : options.extend(built.typeDefs, built.resolvers);
  const rendered = new RenderedQueries(runtime);
  const typeNames = new Map([UPLOAD_FILE_UID, ...options.bindings.contentTypes.map((binding) => binding.schema.uid)].map((uid) => [uid, runtime.bindings.contentType(uid).typeName]));
  return createGraphqlMount<GraphqlContext>(app, {
    ...(app.config.cache.surrogateKeys === null ? {} : { cacheKeys: graphqlKeys(typeDefs, typeNames) }),
    typeDefs,
    resolvers,
    context: (req) => new RequestContext(options.resolveAccess(req), req),
    ...(options.direct === undefined ? {} : { direct: options.direct }),
    bare: true,
    lean: options.extend === undefined,
    render: (request) => rendered.answer({ ...request, access: request.context.access }),
  });
}
