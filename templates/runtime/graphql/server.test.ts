/**
 * The GraphQL HTTP layer through HTTP: a real server (startServer, SQLite, port 0) serving
 * Strapi's own schema for the conformance model (test/fixtures/conformance/golden/_schema.graphql)
 * with stub resolvers, so that the golden error cases can be replayed byte for byte.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The ESM copy of graphql-js under vitest (see graphql-js.ts): resolvers written against plain
// 'graphql' must still have their GraphQLErrors treated as such.
import { GraphQLError as PlainGraphQLError } from 'graphql';
import { GraphQLError } from './graphql-js.ts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApplicationError, ForbiddenError, InternalServerError, NotFoundError, PaginationError, UnauthorizedError, ValidationError } from '../errors.ts';
import { conformanceDir } from '../../../test/support/fixtures.ts';
import { createLogger, type Logger } from '../logger.ts';
import type { ModelSchema } from '../schema.ts';
import { startServer, type RunningServer } from '../server.ts';
import { upperSnakeCase } from './errors.ts';
import { graphqlMount, graphqlPost, type GraphqlResolvers, type GraphqlSetup } from './server.ts';
import { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';

const conformance = conformanceDir;
const strapiSdl = readFileSync(join(conformance, 'golden', '_schema.graphql'), 'utf8');

interface Case {
  readonly name: string;
  readonly body: { readonly query: string; readonly variables?: Record<string, unknown> };
}
interface Golden {
  readonly status: number;
  readonly body: unknown;
}
const cases = new Map((JSON.parse(readFileSync(join(conformance, 'cases.json'), 'utf8')) as Case[]).map((c) => [c.name, c]));
const golden = (name: string): Golden => JSON.parse(readFileSync(join(conformance, 'golden', `${name}.json`), 'utf8')) as Golden;

/** Resolver-only fields for the error families; everything else is Strapi's schema as is. */
const testSdl = /* GraphQL */ `
  extend type Query {
    hello(name: String): String
    failure(kind: String!): String
    forbiddenList: [String]!
  }
`;

interface TestContext {
  readonly caller: string;
}

const author = { documentId: 'author-1', name: 'Ada' };
const articles = [
  { documentId: 'article-1', title: 'Hello', slug: 'hello-world' },
  { documentId: 'article-2', title: 'Second', slug: 'second-steps' },
];

const failures: Record<string, () => Error> = {
  validation: () => new ValidationError('title must be a string', { errors: [{ path: ['title'], message: 'title must be a string', name: 'ValidationError' }] }),
  forbidden: () => new ForbiddenError(),
  forbiddenCustom: () => new ForbiddenError('Not your document'),
  unauthorized: () => new UnauthorizedError(),
  pagination: () => new PaginationError('Cannot use both page & start', { page: 1, start: 0 }),
  notFound: () => new NotFoundError('Document not found'),
  application: () => new ApplicationError('Cannot publish twice'),
  internal: () => new InternalServerError(),
  graphql: () => new GraphQLError('Custom refusal', { extensions: { code: 'CUSTOM_CODE' } }),
  plainGraphql: () => new PlainGraphQLError('Plain refusal', { extensions: { code: 'PLAIN_CODE' } }),
  unexpected: () => new Error('connection to /srv/db.sqlite failed: password=hunter2'),
};

const resolvers: GraphqlResolvers<TestContext> = {
  Query: {
    articles: (_parent: unknown, args: { sort?: readonly string[] }) => {
      const bad = args.sort?.map((entry) => entry.split(':')[0] ?? '').find((key) => !['slug', 'title'].includes(key));
      if (bad !== undefined) throw new ValidationError(`Invalid key ${bad}`, { key: bad, path: null, source: 'query', param: 'sort' });
      return articles;
    },
    articles_connection: () => ({ nodes: articles, pageInfo: { total: 2, page: 1, pageSize: 10, pageCount: 1 } }),
    article: (_parent: unknown, args: { documentId: string }) => articles.find((article) => article.documentId === args.documentId) ?? null,
    hello: (_parent: unknown, args: { name?: string | null }, context: TestContext) => `Hello ${args.name ?? 'world'} from ${context.caller}`,
    failure: (_parent: unknown, args: { kind: string }) => {
      throw (failures[args.kind] ?? failures.unexpected!)();
    },
    forbiddenList: () => {
      throw new ForbiddenError();
    },
  },
  Mutation: {
    deleteArticle: (_parent: unknown, args: { documentId: string }) => ({ documentId: args.documentId }),
  },
  Article: { author: () => author },
  Author: { articles: () => articles },
};

const setup: GraphqlSetup<TestContext> = {
  typeDefs: `${strapiSdl}\n${testSdl}`,
  resolvers,
  context: (req) => {
    const mode = req.get('x-test-context');
    if (mode === 'unauthorized') throw new UnauthorizedError();
    if (mode === 'unexpected') throw new Error('token table unreadable at /srv/db.sqlite');
    return { caller: 'public' };
  },
};

const model: ModelSchema = { contentTypes: {}, components: {} };
const root = mkdtempSync(join(tmpdir(), 'capi-graphql-'));
let projects = 0;

interface Started {
  readonly server: RunningServer;
  readonly logged: () => Array<Record<string, unknown>>;
}

async function start(options: { graphql?: Record<string, unknown>; limits?: GraphqlSetup<TestContext>['limits']; env?: Record<string, string> } = {}): Promise<Started> {
  const dir = join(root, `project-${++projects}`);
  mkdirSync(join(dir, 'prisma', 'migrations'), { recursive: true });
  mkdirSync(join(dir, 'config'));
  if (options.graphql !== undefined) writeFileSync(join(dir, 'config', 'plugins.json'), JSON.stringify({ graphql: { config: options.graphql } }));
  const lines: string[] = [];
  const logger: Logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(line) } });
  const server = await startServer({
    projectRoot: dir,
    model,
    env: { HOST: '127.0.0.1', PORT: '0', ...options.env },
    logger,
    handleSignals: false,
    mounts: [graphqlMount(options.limits === undefined ? setup : { ...setup, limits: options.limits })],
  });
  return { server, logged: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Record<string, unknown>;
}

async function reply(response: Response): Promise<Reply> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text) as Record<string, unknown> };
}

function post(server: RunningServer, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  }).then(reply);
}

function get(server: RunningServer, params: Record<string, string>, headers: Record<string, string> = { 'apollo-require-preflight': 'true' }): Promise<Reply> {
  return fetch(`${server.url}/graphql?${new URLSearchParams(params).toString()}`, { headers }).then(reply);
}

const running: RunningServer[] = [];
afterAll(async () => {
  for (const server of running) await server.close();
  rmSync(root, { recursive: true, force: true });
});

describe('GraphQL over HTTP', () => {
  let app: Started;
  beforeAll(async () => {
    app = await start();
    running.push(app.server);
  });

  it('answers a POST with a JSON body', async () => {
    const response = await post(app.server, { query: '{ hello(name: "Ada") articles { slug author { name } } }' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({
      data: {
        hello: 'Hello Ada from public',
        articles: [
          { slug: 'hello-world', author: { name: 'Ada' } },
          { slug: 'second-steps', author: { name: 'Ada' } },
        ],
      },
    });
  });

  it('passes variables and picks the operation by name', async () => {
    const response = await post(app.server, {
      query: 'query One($id: ID!) { article(documentId: $id) { slug } } query Two { hello }',
      variables: { id: 'article-2' },
      operationName: 'One',
    });
    expect(response).toMatchObject({ status: 200, body: { data: { article: { slug: 'second-steps' } } } });
  });

  it('answers queries over GET', async () => {
    const response = await get(app.server, { query: 'query Greet($n: String) { hello(name: $n) }', variables: JSON.stringify({ n: 'GET' }) });
    expect(response).toMatchObject({ status: 200, body: { data: { hello: 'Hello GET from public' } } });
  });

  it('refuses mutations over GET with a 405', async () => {
    const response = await get(app.server, { query: 'mutation { deleteArticle(documentId: "x") { documentId } }' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(response.body).toEqual({
      errors: [{ message: 'GET requests only support query operations, not mutation operations', extensions: { code: 'BAD_REQUEST' } }],
    });
  });

  it('runs mutations over POST', async () => {
    const response = await post(app.server, { query: 'mutation { deleteArticle(documentId: "x") { documentId } }' });
    expect(response).toMatchObject({ status: 200, body: { data: { deleteArticle: { documentId: 'x' } } } });
  });

  it('refuses a GET without a preflight-forcing header (CSRF prevention)', async () => {
    const response = await get(app.server, { query: '{ hello }' }, {});
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ errors: [{ extensions: { code: 'BAD_REQUEST' } }] });
    expect(JSON.stringify(response.body)).toContain('Cross-Site Request Forgery');
  });

  it('refuses a POST a cross-site form could send (CSRF prevention)', async () => {
    const response = await fetch(`${app.server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"query":"{ hello }"}' }).then(reply);
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toContain('Cross-Site Request Forgery');
  });

  it('answers BAD_REQUEST for a POST without a body', async () => {
    const response = await fetch(`${app.server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' } }).then(reply);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      errors: [{ message: 'POST body missing, invalid Content-Type, or JSON object has no keys.', extensions: { code: 'BAD_REQUEST' } }],
    });
  });

  it('answers BAD_REQUEST for an empty query', async () => {
    for (const body of [{ query: '' }, { variables: {} }]) {
      const response = await post(app.server, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        errors: [{ message: 'GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension.', extensions: { code: 'BAD_REQUEST' } }],
      });
    }
  });

  it('answers GRAPHQL_PARSE_FAILED for a syntax error', async () => {
    const response = await post(app.server, { query: '{ articles { slug }' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      errors: [{ message: 'Syntax Error: Expected Name, found <EOF>.', locations: [{ line: 1, column: 20 }], extensions: { code: 'GRAPHQL_PARSE_FAILED' } }],
    });
  });

  it('answers BAD_USER_INPUT with a 400 for variables of the wrong type or missing', async () => {
    const wrong = await post(app.server, { query: 'query ($p: PaginationArg) { articles(pagination: $p) { slug } }', variables: { p: { pageSize: 'ten' } } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ errors: [{ extensions: { code: 'BAD_USER_INPUT' } }] });
    expect((wrong.body.errors as Array<{ message: string }>)[0]?.message).toContain('Int cannot represent non-integer value: "ten"');

    const missing = await post(app.server, { query: 'query ($id: ID!) { article(documentId: $id) { slug } }' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      errors: [{ message: 'Variable "$id" of required type "ID!" was not provided.', locations: [{ line: 1, column: 8 }], extensions: { code: 'BAD_USER_INPUT' } }],
    });
  });

  it('does not batch: an array body is refused', async () => {
    const response = await post(app.server, [{ query: '{ hello }' }, { query: '{ hello }' }]);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ errors: [{ extensions: { code: 'BAD_REQUEST' } }] });
  });

  it('answers introspection, with the default limits', async () => {
    const { getIntrospectionQuery } = await import('./graphql-js.ts');
    const response = await post(app.server, { query: getIntrospectionQuery() });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ data: { __schema: { queryType: { name: 'Query' } } } });
    expect(response.body.errors).toBeUndefined();
  });

  it('serves GraphQL at /graphql only, with the app 404 elsewhere below it', async () => {
    const response = await fetch(`${app.server.url}/graphql/nope`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(404);
  });
});

describe('a defaultLimit above maxLimit', () => {
  it('starts, and warns once that lists without a page size get maxLimit entries', async () => {
    const app = await start({ graphql: { defaultLimit: 50, maxLimit: 20 } });
    running.push(app.server);
    const warnings = app.logged().filter((line) => line['level'] === 40);
    expect(warnings.map((line) => line['msg'])).toEqual(['graphql.config.defaultLimit (50) is above the largest page size (20, from maxLimit/amountLimit): lists without a page size get 20 entries']);
  });
});

describe('the golden error cases of the conformance suite', () => {
  let app: Started;
  beforeAll(async () => {
    app = await start();
    running.push(app.server);
  });

  for (const name of ['gql-malformed-missing-required-arg', 'gql-malformed-unknown-fragment-type', 'gql-status-invalid-enum', 'gql-filter-invalid-operator', 'gql-sort-invalid-field']) {
    it(`reproduces ${name}`, async () => {
      const request = cases.get(name);
      expect(request, `${name} in cases.json`).toBeDefined();
      const expected = golden(name);
      const response = await post(app.server, request!.body);
      expect(response.status).toBe(expected.status);
      expect(response.body).toEqual(expected.body);
    });
  }

  it('reports an unknown field on a relation connection as Strapi does (item 14)', async () => {
    const response = await post(app.server, { query: '{ articles { tags_connection { pageInfo { total } } } }' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      errors: [
        {
          message: 'Cannot query field "pageInfo" on type "TagRelationResponseCollection".',
          locations: [{ line: 1, column: 32 }],
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
        },
      ],
    });
  });
});

describe('errors thrown by resolvers', () => {
  let app: Started;
  beforeAll(async () => {
    app = await start();
    running.push(app.server);
  });

  const failure = async (kind: string): Promise<Reply> => post(app.server, { query: `{ failure(kind: "${kind}") }` });

  it('ValidationError: BAD_USER_INPUT with extensions.error, HTTP 200, no locations', async () => {
    const response = await failure('validation');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: { failure: null },
      errors: [
        {
          message: 'title must be a string',
          path: ['failure'],
          extensions: {
            code: 'BAD_USER_INPUT',
            error: {
              name: 'ValidationError',
              message: 'title must be a string',
              details: { errors: [{ path: ['title'], message: 'title must be a string', name: 'ValidationError' }] },
            },
          },
        },
      ],
    });
  });

  it('ForbiddenError: FORBIDDEN "Forbidden access"', async () => {
    const response = await failure('forbidden');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: { failure: null },
      errors: [
        {
          message: 'Forbidden access',
          path: ['failure'],
          extensions: { code: 'FORBIDDEN', error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} } },
        },
      ],
    });
  });

  it('ForbiddenError with a message of its own keeps it', async () => {
    const response = await failure('forbiddenCustom');
    expect(response.body.errors).toEqual([
      {
        message: 'Not your document',
        path: ['failure'],
        extensions: { code: 'FORBIDDEN', error: { name: 'ForbiddenError', message: 'Not your document', details: {} } },
      },
    ]);
  });

  it('a forbidden non-null list makes the whole data null', async () => {
    const response = await post(app.server, { query: '{ hello forbiddenList }' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: null,
      errors: [
        {
          message: 'Forbidden access',
          path: ['forbiddenList'],
          extensions: { code: 'FORBIDDEN', error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} } },
        },
      ],
    });
  });

  it('UnauthorizedError: FORBIDDEN with its message', async () => {
    const response = await failure('unauthorized');
    expect(response.body.errors).toEqual([
      {
        message: 'Missing or invalid credentials',
        path: ['failure'],
        extensions: { code: 'FORBIDDEN', error: { name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } },
      },
    ]);
  });

  it('PaginationError: STRAPI_PAGINATION_ERROR', async () => {
    const response = await failure('pagination');
    expect(response.status).toBe(200);
    expect(response.body.errors).toEqual([
      {
        message: 'Cannot use both page & start',
        path: ['failure'],
        extensions: { code: 'STRAPI_PAGINATION_ERROR', error: { name: 'PaginationError', message: 'Cannot use both page & start', details: { page: 1, start: 0 } } },
      },
    ]);
  });

  it('NotFoundError and ApplicationError: STRAPI_<NAME>', async () => {
    expect((await failure('notFound')).body.errors).toEqual([
      {
        message: 'Document not found',
        path: ['failure'],
        extensions: { code: 'STRAPI_NOT_FOUND_ERROR', error: { name: 'NotFoundError', message: 'Document not found', details: {} } },
      },
    ]);
    expect((await failure('application')).body.errors).toEqual([
      {
        message: 'Cannot publish twice',
        path: ['failure'],
        extensions: { code: 'STRAPI_APPLICATION_ERROR', error: { name: 'ApplicationError', message: 'Cannot publish twice', details: {} } },
      },
    ]);
  });

  it('a GraphQLError keeps its own code and locations', async () => {
    const response = await failure('graphql');
    expect(response.body.errors).toEqual([{ message: 'Custom refusal', locations: [{ line: 1, column: 3 }], path: ['failure'], extensions: { code: 'CUSTOM_CODE' } }]);
  });

  it('a GraphQLError from the other copy of graphql-js is not mistaken for an internal error', async () => {
    const response = await failure('plainGraphql');
    expect(response.body.errors).toEqual([{ message: 'Plain refusal', locations: [{ line: 1, column: 3 }], path: ['failure'], extensions: { code: 'PLAIN_CODE' } }]);
  });

  it('anything else: INTERNAL_SERVER_ERROR with a generic message, logged in full, HTTP 200', async () => {
    const response = await failure('unexpected');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: { failure: null },
      errors: [{ message: 'Internal Server Error', path: ['failure'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }],
    });
    expect(JSON.stringify(response.body)).not.toContain('hunter2');
    const logged = app.logged().find((line) => line.msg === 'GraphQL resolver failed' && JSON.stringify(line).includes('hunter2'));
    expect(logged).toBeDefined();
  });

  it('InternalServerError: INTERNAL_SERVER_ERROR without extensions.error', async () => {
    expect((await failure('internal')).body.errors).toEqual([{ message: 'Internal Server Error', path: ['failure'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }]);
  });

  it('a context that refuses the caller answers with the error status and Strapi code', async () => {
    const response = await post(app.server, { query: '{ hello }' }, { 'x-test-context': 'unauthorized' });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({
      errors: [
        {
          message: 'Missing or invalid credentials',
          extensions: { code: 'FORBIDDEN', error: { name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } },
        },
      ],
    });
  });

  it('a context that fails unexpectedly answers 500 without its message', async () => {
    const response = await post(app.server, { query: '{ hello }' }, { 'x-test-context': 'unexpected' });
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ errors: [{ message: 'Internal Server Error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] });
    expect(app.logged().some((line) => line.msg === 'GraphQL context creation failed' && JSON.stringify(line).includes('token table'))).toBe(true);
  });
});

describe('stack traces', () => {
  for (const nodeEnv of ['production', 'development']) {
    it(`are never sent (NODE_ENV=${nodeEnv})`, async () => {
      vi.stubEnv('NODE_ENV', nodeEnv);
      let app: Started | undefined;
      try {
        app = await start();
        const responses = [
          await post(app.server, { query: '{ failure(kind: "unexpected") }' }),
          await post(app.server, { query: '{ failure(kind: "validation") }' }),
          await post(app.server, { query: '{ failure(kind: "graphql") }' }),
          await post(app.server, { query: '{ articles { nope } }' }),
          await post(app.server, { query: '{ articles {' }),
          await post(app.server, { query: 'query ($id: ID!) { article(documentId: $id) { slug } }' }),
          await post(app.server, { query: '' }),
        ];
        for (const response of responses) {
          const text = JSON.stringify(response.body);
          expect(text).not.toContain('stacktrace');
          expect(text).not.toMatch(/\bat .*\.(?:ts|js):\d+/);
          expect(text).not.toContain('hunter2');
        }
      } finally {
        await app?.server.close();
        vi.unstubAllEnvs();
      }
    });
  }
});

describe('document limits', () => {
  let app: Started;
  beforeAll(async () => {
    app = await start({
      graphql: { defaultLimit: 10, maxLimit: 20, depthLimit: 3, maxAliases: 3, maxCost: 200 },
      limits: { maxTokens: 400 },
    });
    running.push(app.server);
  });

  const refused = (message: string, locations?: Array<{ line: number; column: number }>): unknown => ({
    errors: [{ message, ...(locations === undefined ? {} : { locations }), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }],
  });

  it('accepts a query at the depth limit', async () => {
    const response = await post(app.server, { query: '{ articles { author { articles { slug } } } }' });
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
  });

  it('refuses a query past the depth limit, naming the path and the limit', async () => {
    const response = await post(app.server, { query: '{ articles { author { articles { author { name } } } } }' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(refused("'' exceeds maximum operation depth of 3", [{ line: 1, column: 43 }]));
  });

  it('counts depth through fragments', async () => {
    const query = `query Deep { ...Root }
fragment Root on Query { articles { ...Nested } }
fragment Nested on Article { author { articles { author { name } } } }`;
    const response = await post(app.server, { query });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(refused("'Deep' exceeds maximum operation depth of 3", [{ line: 3, column: 59 }]));
  });

  it('leaves introspection fields out of the depth', async () => {
    const response = await post(app.server, { query: '{ __schema { types { fields { type { ofType { name } } } } } }' });
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
  });

  it('refuses more aliases than allowed', async () => {
    const response = await post(app.server, { query: '{ a: hello b: hello c: hello d: hello }' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(refused('The query uses 4 aliases; the maximum is 3 (maxAliases).', [{ line: 1, column: 1 }]));
  });

  it('counts the aliases of a fragment each time it is spread', async () => {
    const query = 'query Spread { x: articles { ...Names } y: articles { ...Names } } fragment Names on Article { s: slug t: title }';
    const response = await post(app.server, { query });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(refused('The query "Spread" uses 6 aliases; the maximum is 3 (maxAliases).', [{ line: 1, column: 1 }]));
  });

  it('accepts an operation within the cost limit', async () => {
    // 1 + 20 (maxLimit caps 100) × (slug 1 + author 1 + name 1) = 61
    const response = await post(app.server, { query: '{ articles(pagination: { pageSize: 100 }) { slug author { name } } }' });
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
  });

  it('refuses an operation above the cost limit', async () => {
    // 1 + 10 × (author 1 + (articles 1 + 10 × 2)) = 221
    const response = await post(app.server, { query: '{ articles { author { articles { slug title } } } }' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(refused('The query has an estimated cost of 221; the maximum cost is 200 (maxCost).', [{ line: 1, column: 1 }]));
  });

  it('prices page sizes given in variables', async () => {
    const query = 'query Sized($n: Int) { articles(pagination: { pageSize: $n }) { author { articles(pagination: { pageSize: $n }) { slug } } } }';
    // n = 2: 1 + 2 × (1 + 1 + 2 × 1) = 9
    expect((await post(app.server, { query, variables: { n: 2 } })).status).toBe(200);
    // n = 20: 1 + 20 × (1 + 1 + 20 × 1) = 441
    const response = await post(app.server, { query, variables: { n: 20 } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(refused('The query "Sized" has an estimated cost of 441; the maximum cost is 200 (maxCost).', [{ line: 1, column: 1 }]));
  });

  it('prices the same document differently by operation', async () => {
    const query = 'query Cheap { hello } query Costly { articles { author { articles { slug title } } } }';
    expect((await post(app.server, { query, operationName: 'Cheap' })).status).toBe(200);
    expect((await post(app.server, { query, operationName: 'Costly' })).status).toBe(400);
  });

  it('refuses documents with too many tokens before parsing them through', async () => {
    const query = `{ ${Array.from({ length: 500 }, () => 'hello').join(' ')} }`;
    const response = await post(app.server, { query });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      errors: [
        {
          message: 'Syntax Error: The document has more than 400 tokens; the maximum is 400 (maxTokens). Parsing aborted.',
          locations: [{ line: 1, column: 2397 }],
          extensions: { code: 'GRAPHQL_PARSE_FAILED' },
        },
      ],
    });
  });

  it('refuses exponential fragment fan-out quickly, by its cost', async () => {
    // F0 spreads F1 twice, F1 spreads F2 twice...: 2^20 fields once expanded, from 200 tokens.
    const levels = 20;
    const fragments = Array.from({ length: levels }, (_, i) => `fragment F${i} on Article { ...F${i + 1} ...F${i + 1} }`).join('\n');
    const query = `query Fan { article(documentId: "article-1") { ...F0 } }\n${fragments}\nfragment F${levels} on Article { slug }`;
    const response = await post(app.server, { query });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(refused(`The query "Fan" has an estimated cost of ${1 + 2 ** levels}; the maximum cost is 200 (maxCost).`, [{ line: 1, column: 1 }]));
  });

  it('applies the limits to GET requests too', async () => {
    const response = await get(app.server, { query: '{ articles { author { articles { author { name } } } } }' });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ errors: [{ extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] });
  });
});

describe("Strapi's production defaults", () => {
  const ide = (server: RunningServer) => fetch(`${server.url}/graphql`, { headers: { accept: 'text/html' } });
  const introspect = (server: RunningServer) => post(server, { query: '{ __schema { queryType { name } } }' });

  it('serves no IDE and answers no introspection when NODE_ENV=production', async () => {
    const app = await start({ env: { NODE_ENV: 'production' } });
    running.push(app.server);
    const page = await ide(app.server);
    expect(page.headers.get('content-type') ?? '').not.toContain('text/html');
    const response = await introspect(app.server);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ errors: [{ extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] });
    expect(JSON.stringify(response.body)).toContain('introspection');
    // Ordinary queries are unaffected.
    expect((await post(app.server, { query: '{ hello }' })).status).toBe(200);
  });

  it('serves both in development', async () => {
    const app = await start({ env: { NODE_ENV: 'development' } });
    running.push(app.server);
    const page = await ide(app.server);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const response = await introspect(app.server);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
  });

  it('lets landingPage and apolloServer.introspection turn them on in production', async () => {
    const app = await start({ env: { NODE_ENV: 'production' }, graphql: { landingPage: true, apolloServer: { introspection: true } } });
    running.push(app.server);
    expect((await ide(app.server)).headers.get('content-type')).toContain('text/html');
    expect((await introspect(app.server)).status).toBe(200);
  });

  it('names no fields in "Did you mean" hints where introspection is off, unless told to', async () => {
    const mistakes = async (server: RunningServer): Promise<string[]> => {
      const field = await post(server, { query: '{ articles { slugg } }' });
      const enumValue = await post(server, { query: 'query($s: PublicationStatus) { articles(status: $s) { slug } }', variables: { s: 'PUBLISHD' } });
      return [field, enumValue].map((response) => {
        expect(response.status).toBe(400);
        return (response.body.errors as Array<{ message: string }>)[0]!.message;
      });
    };
    const production = await start({ env: { NODE_ENV: 'production' } });
    const development = await start({ env: { NODE_ENV: 'development' } });
    const enabled = await start({ env: { NODE_ENV: 'production' }, graphql: { apolloServer: { hideSchemaDetailsFromClientErrors: false } } });
    running.push(production.server, development.server, enabled.server);
    expect(await mistakes(production.server)).toEqual([
      'Cannot query field "slugg" on type "Article".',
      'Variable "$s" got invalid value "PUBLISHD"; Value "PUBLISHD" does not exist in "PublicationStatus" enum.',
    ]);
    for (const server of [development.server, enabled.server]) {
      expect(await mistakes(server)).toEqual([
        'Cannot query field "slugg" on type "Article". Did you mean "slug"?',
        'Variable "$s" got invalid value "PUBLISHD"; Value "PUBLISHD" does not exist in "PublicationStatus" enum. Did you mean the enum value "PUBLISHED"?',
      ]);
    }
  });

  it('has no cost limit by default: a query Strapi serves (estimated cost over a million) runs', async () => {
    const app = await start();
    running.push(app.server);
    // 100 × 100 × 100 entries at three levels: far above the 50,000 the old default refused.
    const query = '{ articles(pagination: { pageSize: 100 }) { slug author { articles(pagination: { pageSize: 100 }) { slug author { articles(pagination: { pageSize: 100 }) { slug title } } } } } }';
    const response = await post(app.server, { query });
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
  });
});

describe('Strapi error codes', () => {
  it('spells names the way lodash snakeCase + toUpper do', () => {
    expect(upperSnakeCase('PaginationError')).toBe('PAGINATION_ERROR');
    expect(upperSnakeCase('NotFoundError')).toBe('NOT_FOUND_ERROR');
    expect(upperSnakeCase('PayloadTooLargeError')).toBe('PAYLOAD_TOO_LARGE_ERROR');
    expect(upperSnakeCase('HTTPError')).toBe('HTTP_ERROR');
  });
});

/**
 * capi answers every GraphQL POST with graphqlPost, on the direct path and through Express alike;
 * Apollo's own Express integration, which capi used before and which the GET route still uses,
 * is the reference: the same Apollo server behind both, the same status, headers and bytes.
 */
describe('a POST answered as @as-integrations/express5 answers it', () => {
  const servers: Server[] = [];
  let apollo: ApolloServer<TestContext>;
  const urls = { integration: '', capi: '' };

  beforeAll(async () => {
    apollo = new ApolloServer<TestContext>({ typeDefs: setup.typeDefs!, resolvers: setup.resolvers!, csrfPrevention: true, allowBatchedHttpRequests: false });
    await apollo.start();
    const context = async ({ req }: { req: express.Request }): Promise<TestContext> => setup.context(req);
    const listen = async (handler: express.RequestHandler): Promise<string> => {
      const app = express();
      app.set('etag', false);
      app.use(express.json(), express.text());
      app.post('/graphql', handler);
      const server = app.listen(0, '127.0.0.1');
      servers.push(server);
      await new Promise<void>((resolve) => server.once('listening', () => resolve()));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
    };
    urls.integration = await listen(expressMiddleware(apollo, { context }));
    urls.capi = await listen(graphqlPost(apollo, context, undefined));
  });
  afterAll(async () => {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
    await apollo.stop();
  });

  const json = { 'content-type': 'application/json' };
  const requests: ReadonlyArray<{ readonly name: string; readonly headers: Record<string, string>; readonly body: string }> = [
    { name: 'a query', headers: json, body: JSON.stringify({ query: '{ hello(name: "Ada") articles { slug } }' }) },
    { name: 'variables and an operation name', headers: json, body: JSON.stringify({ query: 'query A($n: String) { hello(name: $n) } query B { hello }', variables: { n: 'x' }, operationName: 'A' }) },
    { name: 'a mutation', headers: json, body: JSON.stringify({ query: 'mutation { deleteArticle(documentId: "x") { documentId } }' }) },
    { name: 'a syntax error', headers: json, body: JSON.stringify({ query: '{ hello(' }) },
    { name: 'an unknown field', headers: json, body: JSON.stringify({ query: '{ nope }' }) },
    { name: 'variables of the wrong type', headers: json, body: JSON.stringify({ query: 'query($n: String) { hello(name: $n) }', variables: { n: 1 } }) },
    { name: 'a resolver error', headers: json, body: JSON.stringify({ query: '{ failure(kind: "notFound") }' }) },
    { name: 'a context that refuses', headers: { ...json, 'x-test-context': 'unauthorized' }, body: JSON.stringify({ query: '{ hello }' }) },
    { name: 'no query', headers: json, body: JSON.stringify({}) },
    { name: 'a batch', headers: json, body: JSON.stringify([{ query: '{ hello }' }]) },
    { name: 'text/plain (CSRF prevention)', headers: { 'content-type': 'text/plain' }, body: '{ hello }' },
    { name: 'the GraphQL response media type', headers: { ...json, accept: 'application/graphql-response+json' }, body: JSON.stringify({ query: '{ nope }' }) },
    { name: 'an Accept Apollo cannot answer', headers: { ...json, accept: 'text/csv' }, body: JSON.stringify({ query: '{ hello }' }) },
  ];

  it.each(requests)('$name', async ({ headers, body }) => {
    const answers = await Promise.all(
      [urls.integration, urls.capi].map(async (url) => {
        const response = await fetch(url, { method: 'POST', headers, body });
        const sent = [...response.headers].filter(([name]) => name !== 'date' && name !== 'keep-alive' && name !== 'connection');
        return { status: response.status, headers: sent, body: await response.text() };
      }),
    );
    expect(answers[1]).toEqual(answers[0]);
  });
});
