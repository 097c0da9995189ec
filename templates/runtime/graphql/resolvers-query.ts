/**
 * The root queries of a content type (and of UploadFile, served like one):
 *
 *   collection type   <singular>(documentId, status, locale, ...)   findOne
 *                     <plural>(filters, sort, pagination, ...)     find
 *                     <plural>_connection(...)                     find, + pageInfo
 *   single type       <singular>(status, locale, ...)             find
 *
 * Each checks the action REST checks (`api::article.article.find`, `findOne`; UploadFile:
 * `plugin::upload.content-api.find`, `findOne`), plans its whole selection and makes one engine
 * call. A forbidden action is Strapi's FORBIDDEN "Forbidden access"; list fields are non-null, so
 * the whole `data` is then null, as in Strapi.
 */
import { authorize } from '../access.ts';
import { contentTypeTarget } from '../query/targets.ts';
import type { ListQuery, ReadQuery } from '../query/types.ts';
import { UPLOAD_FILE_UID } from '../upload/file-schema.ts';
import { graphqlFilters } from './args-filters.ts';
import { pageInfo, paginationWindow, rootPagination, type Window } from './args-pagination.ts';
import { graphqlSort } from './args-sort.ts';
import { versionQuery } from './args-versions.ts';
import type { Args, GraphqlContext, GraphqlRuntime, ObjectResolvers } from './resolvers-context.ts';
import type { ArgsContext } from './args.ts';
import { argsContext, connectionSelection, documentSelection, finishRead, readParts, type RootSelection } from './resolvers-read.ts';
import type { ReadPlan } from './selection-plan.ts';
import type { ContentTypeBinding } from './schema-binding.ts';
import type { GraphQLResolveInfo } from './graphql-js.ts';

export type ReadAction = 'find' | 'findOne';

/** The permission a read of `uid` needs, named as REST names it. */
export function readAction(uid: string, action: ReadAction): string {
  return uid === UPLOAD_FILE_UID ? `plugin::upload.content-api.${action}` : `${uid}.${action}`;
}

export function queryResolvers(runtime: GraphqlRuntime, binding: ContentTypeBinding): ObjectResolvers {
  const { schema, queries } = binding;
  const target = contentTypeTarget(schema);
  const resolvers: ObjectResolvers = {};

  /** A root list read: filters, sort, pagination and versions from the arguments, the rest from the selection. */
  const list = async (args: Args, context: GraphqlContext, selection: RootSelection) => {
    const { query, window } = rootListQuery(runtime, binding, args, argsContext(runtime, context), selection);
    const { results, total } = await runtime.documents.findMany(schema.uid, query);
    finishRead(runtime, context, selection.plan, results);
    return { results, total, window };
  };

  const one = (documentId: string | undefined) => async (args: Args, context: GraphqlContext, info: GraphQLResolveInfo) => {
    const selection = documentSelection(runtime, context, info, target);
    const query = rootDocumentQuery(runtime, binding, args, selection.plan);
    const entity = documentId === undefined ? await runtime.documents.findSingle(schema.uid, query) : await runtime.documents.findOne(schema.uid, documentId, query);
    if (entity !== null) finishRead(runtime, context, selection.plan, [entity]);
    return entity;
  };

  if (schema.kind === 'singleType') {
    resolvers[queries.one] = (_source, args, context, info) => {
      authorize(context.access, readAction(schema.uid, 'find'));
      return one(undefined)(args, context, info);
    };
    return resolvers;
  }

  resolvers[queries.one] = (_source, args, context, info) => {
    authorize(context.access, readAction(schema.uid, 'findOne'));
    return one(String(args['documentId']))(args, context, info);
  };
  if (queries.many !== undefined) {
    resolvers[queries.many] = async (_source, args, context, info) => {
      authorize(context.access, readAction(schema.uid, 'find'));
      return (await list(args, context, documentSelection(runtime, context, info, target))).results;
    };
  }
  if (queries.connection !== undefined) {
    resolvers[queries.connection] = async (_source, args, context, info) => {
      authorize(context.access, readAction(schema.uid, 'find'));
      const selection = connectionSelection(runtime, context, info, target);
      const { results, total, window } = await list(args, context, selection);
      return { nodes: results, pageInfo: total === undefined ? null : pageInfo(window, total) };
    };
  }
  return resolvers;
}

/** The engine query of a root list (`<plural>`, `<plural>_connection`) and the page it shows. */
export function rootListQuery(
  runtime: GraphqlRuntime,
  binding: ContentTypeBinding,
  args: Args,
  argsCtx: ArgsContext,
  selection: RootSelection,
): { readonly query: ListQuery; readonly window: Window } {
  const target = contentTypeTarget(binding.schema);
  const filters = graphqlFilters(args['filters'], target, argsCtx);
  const sort = graphqlSort(args['sort'], target, argsCtx);
  const window = paginationWindow(args['pagination'], runtime.graphql);
  const query: ListQuery = {
    ...readParts(selection.plan),
    ...(filters === undefined ? {} : { filters }),
    ...versionQuery(args, binding.schema, runtime.i18n, filters),
    sort,
    pagination: rootPagination(window, selection.pageInfo),
  };
  return { query, window };
}

/** The engine query of a root document (`<singular>`, a single type). */
export function rootDocumentQuery(runtime: GraphqlRuntime, binding: ContentTypeBinding, args: Args, plan: ReadPlan): ReadQuery {
  return { ...readParts(plan), ...versionQuery(args, binding.schema, runtime.i18n, undefined) };
}
