/** The pure parts of the extension points: document middlewares, default queries, GraphQL schema changes. */
import { describe, expect, it } from 'vitest';
import type { DocumentService } from '../engine/types.ts';
import { parse, print } from '../graphql/graphql-js.ts';
import type { ResolverMap } from '../graphql/resolvers.ts';
import { withDocumentMiddlewares } from './documents.ts';
import { extendGraphql } from './graphql.ts';
import { withDefaults } from './pipeline.ts';

/** A document service that records its calls and answers with their arguments. */
function recordingService(calls: unknown[][]): DocumentService {
  const record =
    (name: string) =>
    async (...args: unknown[]) => {
      calls.push([name, ...args]);
      return { name, args };
    };
  return Object.fromEntries(['findMany', 'findOne', 'findSingle', 'create', 'update', 'putSingle', 'delete', 'deleteSingle'].map((n) => [n, record(n)])) as unknown as DocumentService;
}

describe('withDocumentMiddlewares', () => {
  it('runs middlewares in order around the call, with named arguments they may change', async () => {
    const calls: unknown[][] = [];
    const seen: string[] = [];
    const service = withDocumentMiddlewares(recordingService(calls), [
      async (context, next) => {
        seen.push(`first ${context.action} ${context.uid} ${Object.keys(context.params).join(',')}`);
        if (context.action === 'update') context.params.data = { title: 'changed' };
        return next();
      },
      async (context, next) => {
        seen.push(`second ${context.action}`);
        return next();
      },
    ]);
    await service.update('api::a.a', 'doc1', { title: 'given' }, { status: 'draft' });
    expect(calls).toEqual([['update', 'api::a.a', 'doc1', { title: 'changed' }, { status: 'draft' }]]);
    expect(seen).toEqual(['first update api::a.a documentId,data,options', 'second update']);
  });

  it('a middleware may answer without calling the service', async () => {
    const calls: unknown[][] = [];
    const service = withDocumentMiddlewares(recordingService(calls), [async () => null]);
    expect(await service.findOne('api::a.a', 'x', { populate: {}, status: 'published' })).toBeNull();
    expect(calls).toEqual([]);
  });
});

describe('withDefaults', () => {
  it('fills only the keys the request leaves out, with copies of the defaults', () => {
    const defaults = { populate: { cover: true }, sort: 'title:asc' };
    const merged = withDefaults({ sort: 'id:desc' }, defaults);
    expect(merged).toEqual({ sort: 'id:desc', populate: { cover: true } });
    (merged.populate as Record<string, unknown>).cover = false;
    expect(defaults.populate.cover).toBe(true);
  });
});

describe('extendGraphql', () => {
  const sdl = parse('type Query { articles: [String] article(id: ID): String } type Mutation { deleteArticle(id: ID): String createArticle: String }');
  const resolvers: ResolverMap = { Query: { articles: () => [], article: () => 'a' }, Mutation: { deleteArticle: () => 'd', createArticle: () => 'c' } };

  it('removes disabled operations from the schema and the resolvers, and adds type definitions and resolvers', () => {
    const extended = extendGraphql(sdl, resolvers, { disabled: ['deleteArticle'], typeDefs: 'extend type Query { hello: String }', resolvers: { Query: { hello: () => 'hi' } } });
    const printed = print(extended.typeDefs);
    expect(printed).not.toContain('deleteArticle');
    expect(printed).toContain('extend type Query');
    expect(Object.keys(extended.resolvers.Mutation as object)).toEqual(['createArticle']);
    expect(Object.keys(extended.resolvers.Query as object)).toEqual(['articles', 'article', 'hello']);
  });

  it('refuses names the schema does not have', () => {
    expect(() => extendGraphql(sdl, resolvers, { disabled: ['deleteArticel'] })).toThrow('src/extensions: graphql.disabled names deleteArticel, which the schema has no query or mutation of');
    expect(() => extendGraphql(sdl, resolvers, { resolversConfig: { 'Query.nope': { policies: [] } } })).toThrow('src/extensions: graphql.resolversConfig names Query.nope, which has no resolver');
  });
});
