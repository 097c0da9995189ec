/**
 * `strapi.documents.use` for capi: the document service every caller (REST, GraphQL, hooks,
 * bootstrap code) uses, with the project's middlewares around each call. A middleware sees the
 * call's uid, action and named arguments, may change the arguments, and calls `next()` (or not).
 */
import type { DocumentService } from '../engine/types.ts';
import type { DocumentAction, DocumentMiddleware, DocumentMiddlewareContext } from './types.ts';

/** Each method's argument names after the uid, in order. */
const parameterNames: Readonly<Record<DocumentAction, readonly string[]>> = {
  findMany: ['query'],
  findOne: ['documentId', 'query'],
  findSingle: ['query'],
  create: ['data', 'options'],
  update: ['documentId', 'data', 'options'],
  putSingle: ['data', 'options'],
  delete: ['documentId', 'options'],
  deleteSingle: ['options'],
};

export function withDocumentMiddlewares(service: DocumentService, middlewares: readonly DocumentMiddleware[]): DocumentService {
  if (middlewares.length === 0) return service;
  const wrap =
    (action: DocumentAction) =>
    (uid: string, ...args: unknown[]) => {
      const names = parameterNames[action];
      const context: DocumentMiddlewareContext = { uid, action, params: Object.fromEntries(names.map((name, i) => [name, args[i]])) };
      const call = (index: number): Promise<unknown> => {
        const middleware = middlewares[index];
        if (middleware !== undefined) return middleware(context, () => call(index + 1));
        const method = service[action] as (uid: string, ...args: unknown[]) => Promise<unknown>;
        return method(context.uid, ...names.map((name) => context.params[name]));
      };
      return call(0);
    };
  const wrapped = Object.fromEntries(Object.keys(parameterNames).map((action) => [action, wrap(action as DocumentAction)]));
  return wrapped as unknown as DocumentService;
}
