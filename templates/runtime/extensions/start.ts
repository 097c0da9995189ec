/**
 * A project's extensions at start-up: `register`, then the document service with the project's
 * lifecycle hooks (and the webhook outbox) inside its writes and its middlewares around every
 * call, then `bootstrap` once everything is built, before the server listens.
 */
import { createDocumentService } from '../engine/service.ts';
import type { DocumentService } from '../engine/types.ts';
import type { Mount } from '../server.ts';
import type { AppContext } from '../server.ts';
import type { MediaHooks } from '../upload/service.ts';
import { startWebhooks } from '../webhooks/index.ts';
import type { GraphqlApiOptions } from '../graphql/schema-mount.ts';
import { withDocumentMiddlewares } from './documents.ts';
import { extendGraphql } from './graphql.ts';
import { typeQuery } from './query.ts';
import { combineHooks, lifecycleHooks } from './lifecycles.ts';
import type { BootstrapApp, Extensions } from './types.ts';

export interface StartedExtensions {
  readonly documents: DocumentService;
  readonly app: BootstrapApp;
  readonly before: readonly Mount[];
  readonly after: readonly Mount[];
  /** The GraphQL mount's `extend` option, when the project extends GraphQL. */
  readonly graphql: Pick<GraphqlApiOptions, 'extend'>;
  /** Media changes, told to the webhook outbox. */
  readonly media: MediaHooks;
  bootstrap(): Promise<void>;
}

export async function startExtensions(context: AppContext, extensions: Extensions): Promise<StartedExtensions> {
  const unknown = Object.keys(extensions.contentTypes ?? {}).filter((uid) => context.model.contentTypes[uid] === undefined);
  if (unknown.length > 0) throw new Error(`src/extensions: contentTypes names ${unknown.join(', ')}, which the model has no content type of`);
  const base = { config: context.config, logger: context.logger, db: context.db, model: context.model };
  await extensions.register?.(base);
  const webhooks = startWebhooks(context, context.env ?? process.env);
  const hooks = combineHooks([lifecycleHooks(extensions, context), webhooks.writes]);
  const documents = withDocumentMiddlewares(createDocumentService(context, hooks), extensions.documents ?? []);
  const services = new Map<string, Readonly<Record<string, (...args: never[]) => unknown>>>();
  const app: BootstrapApp = {
    ...base,
    documents,
    query: (uid) => typeQuery(documents, context.model, context.config, uid),
    service: (uid) => {
      let made = services.get(uid);
      if (made === undefined) {
        made = extensions.contentTypes?.[uid]?.service?.({ documents, app }) ?? {};
        services.set(uid, made);
      }
      return made;
    },
  };
  const mountAll = (handlers: readonly Mount['handler'][] | undefined): Mount[] => (handlers ?? []).map((handler) => ({ path: '/', handler }));
  return {
    documents,
    app,
    before: mountAll(extensions.middlewares?.before),
    after: mountAll(extensions.middlewares?.after),
    graphql: graphqlOf(extensions, app),
    media: webhooks.media,
    bootstrap: async () => {
      await extensions.bootstrap?.(app);
    },
  };
}

function graphqlOf(extensions: Extensions, app: BootstrapApp): Pick<GraphqlApiOptions, 'extend'> {
  const graphql = extensions.graphql;
  if (graphql === undefined) return {};
  const extension = typeof graphql === 'function' ? graphql(app) : graphql;
  return { extend: (sdl, resolvers) => extendGraphql(sdl, resolvers, extension) };
}
