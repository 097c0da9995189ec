/**
 * The resolver map against the example project's emitted schema, executed by Apollo (as in
 * production) over a recording document service: every root field is resolved, each makes one
 * engine call with the query its arguments and selection describe, values come out in GraphQL's
 * formats, and permissions are checked before anything is read.
 */
import { DEFAULT_QUERY_BUDGET } from '../engine/budget.ts';
import { ApolloServer } from '@apollo/server';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DocumentService, Entity } from '../engine/types.ts';
import type { ListQuery, ReadQuery } from '../query/types.ts';
import type { UploadService } from '../upload/service.ts';
import { createLogger } from '../logger.ts';
import { formatGraphqlError } from './errors.ts';
import { parse } from './graphql-js.ts';
import type { GraphqlContext, GraphqlRuntime } from './resolvers-context.ts';
import type { SignInLimiter } from '../users/rate-limit.ts';
import type { UsersService } from '../users/service.ts';
import type { AccountStore } from '../users/store.ts';
import { buildResolvers } from './resolvers.ts';
import { DerivedLists } from './selection-lists.ts';
import { bindings, model, schema, sdl, targets } from './test-plan.ts';

interface Call {
  readonly method: string;
  readonly uid: string;
  readonly args: readonly unknown[];
}

let calls: Call[] = [];
let rows: Record<string, Entity[]> = {};

const record =
  (method: string) =>
  async (uid: string, ...args: unknown[]) => {
    calls.push({ method, uid, args });
    const found = rows[uid] ?? [];
    switch (method) {
      case 'findMany':
        return { results: found, total: found.length };
      case 'findOne':
      case 'findSingle':
        return found[0] ?? null;
      case 'create':
      case 'putSingle':
        return { documentId: 'newdoc', ...((args[1] as { locale?: string }).locale === undefined ? {} : { locale: (args[1] as { locale: string }).locale }) };
      case 'update':
        return args[0] === 'missing' ? null : { documentId: String(args[0]) };
      default:
        return true;
    }
  };

const documents = Object.fromEntries(
  ['findMany', 'findOne', 'findSingle', 'create', 'update', 'putSingle', 'delete', 'deleteSingle'].map((method) => [method, record(method)]),
) as unknown as DocumentService;

const runtime: GraphqlRuntime = {
  model,
  documents,
  uploads: {} as UploadService,
  bindings,
  targets,
  graphql: { defaultLimit: 10, maxLimit: 20 },
  i18n: {
    defaultLocale: 'en',
    locales: [
      { code: 'en', name: 'English (en)' },
      { code: 'fr', name: 'French (fr)' },
    ],
  },
  queryBudget: DEFAULT_QUERY_BUDGET,
  localesSince: new Date('2024-01-01T00:00:00.000Z'),
  localeIdentities: new Map(),
  // Sign-in is tested over HTTP (test/http/sign-in.test.ts); here only the map's shape is checked.
  users: { service: {} as UsersService, accounts: {} as AccountStore, limiter: {} as SignInLimiter },
};

const resolvers = buildResolvers(runtime, parse(sdl));
const server = new ApolloServer<GraphqlContext>({ typeDefs: sdl, resolvers, formatError: formatGraphqlError(createLogger({ level: 'silent' })) });

async function run(query: string, can: (action: string) => boolean = () => true, variables?: Record<string, unknown>) {
  const response = await server.executeOperation({ query, ...(variables === undefined ? {} : { variables }) }, { contextValue: { access: { principal: 'test', can }, lists: new DerivedLists() } });
  if (response.body.kind !== 'single') throw new Error('incremental response');
  return response.body.singleResult as { data?: Record<string, unknown> | null; errors?: readonly { message: string; extensions?: Record<string, unknown> }[] };
}

beforeEach(() => {
  calls = [];
  rows = {};
});

describe('the resolver map', () => {
  it('resolves every root field the schema declares, and nothing it does not', () => {
    for (const root of ['Query', 'Mutation'] as const) {
      const declared = Object.keys(root === 'Query' ? (schema.getQueryType()?.getFields() ?? {}) : (schema.getMutationType()?.getFields() ?? {})).sort();
      expect(Object.keys(resolvers[root] ?? {}).sort(), root).toEqual(declared);
    }
  });

  it('maps every enum value name to its stored value', () => {
    expect(resolvers['ENUM_PRODUCT_SIZE']).toEqual({ small: 'small', medium: 'medium', large: 'large', x_large: 'x_large' });
  });
});

describe('queries', () => {
  it('make one engine call per root field, with the arguments and the selection as the query', async () => {
    rows['api::article.article'] = [{ id: 1, documentId: 'a1', title: 'Hello', tags: [{ id: 5, documentId: 't5', name: 'tag-05' }] }];
    const result = await run('{ articles(filters: { featured: { eq: true } }, sort: "title:desc", pagination: { start: 2, limit: 3 }, status: DRAFT) { title tags(sort: "name") { name } } }');
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ articles: [{ title: 'Hello', tags: [{ name: 'tag-05' }] }] });
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call?.method).toBe('findMany');
    expect(call?.args[0] as ListQuery).toEqual({
      fields: ['title'],
      filters: { kind: 'condition', attribute: 'featured', operator: 'eq', value: true },
      populate: { tags: { fields: ['name'], sort: [{ path: ['name'], direction: 'asc' }] } },
      status: 'draft',
      sort: [{ path: ['title'], direction: 'desc' }],
      pagination: { kind: 'offset', start: 2, limit: 3, withCount: false },
    });
  });

  it('count only when pageInfo is selected, and report Strapi pageInfo', async () => {
    rows['api::tag.tag'] = Array.from({ length: 4 }, (_, i) => ({ id: i, documentId: `t${i}`, name: `tag-${i}` }));
    const result = await run('{ tags_connection(pagination: { page: 2, pageSize: 3 }) { nodes { name } pageInfo { page pageSize pageCount total } } }');
    expect(result.data?.['tags_connection']).toMatchObject({ pageInfo: { page: 2, pageSize: 3, pageCount: 2, total: 4 } });
    expect((calls[0]?.args[0] as ListQuery).pagination).toEqual({ kind: 'offset', start: 3, limit: 3, withCount: true });
  });

  it('read one document by documentId, in the asked locale, and single types', async () => {
    await run('{ page(documentId: "p1", locale: "fr") { title } about { title } }');
    expect(calls.map((c) => [c.method, c.uid, c.args[0]])).toEqual([
      ['findOne', 'api::page.page', 'p1'],
      ['findSingle', 'api::about.about', { fields: ['title'], populate: {}, status: 'published' }],
    ]);
    expect((calls[0]?.args[1] as ReadQuery).locale).toBe('fr');
  });

  it('serve values in GraphQL formats: Long as a number (digits beyond 2^53), enums by name, component ids as strings', async () => {
    rows['api::product.product'] = [
      { id: 1, documentId: 'p1', serialNumber: '1234567890123', size: 'x_large', variants: [{ id: 7, sku: 'A' }] },
      { id: 2, documentId: 'p2', serialNumber: '9007199254740993', size: null, variants: [] },
    ];
    const result = await run('{ products { serialNumber size variants { id sku } } }');
    expect(result.data).toEqual({
      products: [
        { serialNumber: 1234567890123, size: 'x_large', variants: [{ id: '7', sku: 'A' }] },
        { serialNumber: '9007199254740993', size: null, variants: [] },
      ],
    });
  });

  it('type zone entries by their component', async () => {
    rows['api::about.about'] = [
      {
        id: 1,
        documentId: 'ab',
        blocks: [
          { __component: 'shared.quote', id: 1, title: 'Q' },
          { __component: 'shared.rich-text', id: 2, body: 'B' },
        ],
      },
    ];
    const result = await run('{ about { blocks { __typename ... on ComponentSharedQuote { title } } } }');
    expect(result.data).toEqual({ about: { blocks: [{ __typename: 'ComponentSharedQuote', title: 'Q' }, { __typename: 'ComponentSharedRichText' }] } });
  });

  it('are refused before anything is read when the action is not granted', async () => {
    const result = await run('{ articles { title } }', (action) => action !== 'api::article.article.find');
    expect(result.data).toBeNull();
    expect(result.errors?.[0]?.extensions?.['code']).toBe('FORBIDDEN');
    expect(result.errors?.[0]?.message).toBe('Forbidden access');
    expect(calls).toEqual([]);
  });

  it('list the configured locales, filtered, sorted and paginated', async () => {
    const result = await run('{ i18NLocales(sort: "code:desc") { code name } one: i18NLocales(filters: { code: { eq: "en" } }) { name } }');
    expect(result.data).toEqual({
      i18NLocales: [
        { code: 'fr', name: 'French (fr)' },
        { code: 'en', name: 'English (en)' },
      ],
      one: [{ name: 'English (en)' }],
    });
  });
});

describe('mutations', () => {
  it('write through the write engine, then read back what the selection asks in the written status and locale', async () => {
    rows['api::page.page'] = [{ id: 3, documentId: 'newdoc', title: 'Bonjour' }];
    const result = await run('mutation { createPage(status: DRAFT, locale: "fr", data: { title: "Bonjour", theme: dark }) { title } }');
    expect(result.errors).toBeUndefined();
    expect(calls.map((c) => c.method)).toEqual(['create', 'findOne']);
    expect(calls[0]?.args).toEqual([
      { title: 'Bonjour', theme: 'dark' },
      { status: 'draft', locale: 'fr' },
    ]);
    expect(calls[1]?.args).toEqual(['newdoc', { fields: ['title'], populate: {}, status: 'draft', locale: 'fr' }]);
  });

  it('answer null when updating an unknown document, and the documentId when deleting one', async () => {
    const result = await run('mutation { updateTag(documentId: "missing", data: { name: "x" }) { name } deleteTag(documentId: "missing") { documentId } }');
    expect(result.data).toEqual({ updateTag: null, deleteTag: { documentId: 'missing' } });
  });

  it('delete only the asked locale', async () => {
    await run('mutation { deletePage(documentId: "p1", locale: "fr") { documentId } }');
    expect(calls).toEqual([{ method: 'delete', uid: 'api::page.page', args: ['p1', { locale: 'fr' }] }]);
  });

  it('check the write action of each mutation', async () => {
    const result = await run('mutation { createTag(data: { name: "x" }) { name } }', (action) => action !== 'api::tag.tag.create');
    expect(result.errors?.[0]?.extensions?.['code']).toBe('FORBIDDEN');
    expect(calls).toEqual([]);
  });
});
