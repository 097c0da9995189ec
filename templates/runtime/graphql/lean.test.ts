/**
 * The lean GraphQL path (lean.ts) beside Apollo: it answers only documents Apollo accepted before,
 * keyed by their text, with Apollo's bytes, per request's context; everything else is left to
 * Apollo (undefined). test/http/direct.test.ts compares the two through HTTP.
 */
import { ApolloServer } from '@apollo/server';
import type { Request } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LeanQueries } from './lean.ts';
import type { GraphqlLimits } from './limits.ts';

interface Caller {
  readonly name: string;
}

const typeDefs = /* GraphQL */ `
  type Query {
    whoami: String
    items(pagination: Page): [Item]
    fails: String
  }
  type Item {
    name: String
  }
  input Page {
    pageSize: Int
  }
  type Mutation {
    touch: String
  }
`;

let touched = 0;
const resolvers = {
  Query: {
    whoami: (_parent: unknown, _args: unknown, context: Caller) => context.name,
    // At most 5 items, whatever the page size: the cost limit is priced on the page size asked for.
    items: (_parent: unknown, args: { pagination?: { pageSize?: number } }) => Array.from({ length: Math.min(args.pagination?.pageSize ?? 2, 5) }, (_, i) => ({ name: `item-${i}` })),
    fails: () => {
      throw new Error('boom');
    },
  },
  Mutation: {
    touch: () => `touched ${++touched}`,
  },
};

const limits: GraphqlLimits = { depthLimit: 10, maxAliases: 30, maxCost: 50, maxTokens: 10_000, defaultLimit: 10, maxLimit: null, unboundedListSize: 100 };

function request(body: unknown, headers: Record<string, string> = {}): Request {
  return { headers: { 'content-type': 'application/json', ...headers }, body } as unknown as Request;
}

describe('the lean GraphQL path', () => {
  let lean: LeanQueries<Caller>;
  let apollo: ApolloServer<Caller>;
  /** What Apollo answers, as the HTTP body it would send. */
  const viaApollo = async (query: string, caller: Caller, variables?: Record<string, unknown>): Promise<string> => {
    const answer = await apollo.executeOperation({ query, ...(variables === undefined ? {} : { variables }) }, { contextValue: caller });
    if (answer.body.kind !== 'single') throw new Error('not a single result');
    return `${JSON.stringify({ errors: answer.body.singleResult.errors, data: answer.body.singleResult.data })}\n`;
  };

  beforeAll(async () => {
    lean = new LeanQueries<Caller>(limits, undefined, 3);
    apollo = new ApolloServer<Caller>({ typeDefs, resolvers, plugins: [lean.plugin()] });
    await apollo.start();
  });
  afterAll(async () => {
    await apollo.stop();
  });

  it('leaves a document to Apollo until Apollo has accepted it, then answers it with the same bytes', async () => {
    const query = '{ whoami items { name } }';
    expect(await lean.answer(request({ query }), () => ({ name: 'ada' }))).toBeUndefined();
    const apollos = await viaApollo(query, { name: 'ada' });
    expect(await lean.answer(request({ query }), () => ({ name: 'ada' }))).toBe(apollos);
    expect(apollos).toBe('{"data":{"whoami":"ada","items":[{"name":"item-0"},{"name":"item-1"}]}}\n');
  });

  it('runs each request with its own context: callers never share an answer', async () => {
    const query = '{ whoami }';
    await viaApollo(query, { name: 'ada' });
    expect(await lean.answer(request({ query }), () => ({ name: 'ada' }))).toBe('{"data":{"whoami":"ada"}}\n');
    expect(await lean.answer(request({ query }), () => ({ name: 'bob' }))).toBe('{"data":{"whoami":"bob"}}\n');
  });

  it('keys documents by their exact text, and takes variables per request', async () => {
    const query = 'query Q($n: Int) { items(pagination: { pageSize: $n }) { name } }';
    await viaApollo(query, { name: 'ada' }, { n: 1 });
    expect(await lean.answer(request({ query: `${query} ` }), () => ({ name: 'ada' }))).toBeUndefined();
    expect(await lean.answer(request({ query, variables: { n: 3 } }), () => ({ name: 'ada' }))).toBe(await viaApollo(query, { name: 'ada' }, { n: 3 }));
  });

  it('leaves to Apollo what it answers otherwise: errors, mutations, other media types, other body keys, bad variables, a context that fails', async () => {
    for (const query of ['{ fails }', 'mutation { touch }']) {
      await viaApollo(query, { name: 'ada' });
      expect(await lean.answer(request({ query }), () => ({ name: 'ada' })), query).toBeUndefined();
    }
    expect(touched).toBe(1);
    const query = 'query Q($n: Int) { items(pagination: { pageSize: $n }) { name } }';
    await viaApollo(query, { name: 'ada' });
    const ok = () => ({ name: 'ada' });
    expect(await lean.answer(request({ query }, { accept: 'application/graphql-response+json' }), ok)).toBeUndefined();
    expect(await lean.answer(request({ query }, { 'content-type': 'text/plain' }), ok)).toBeUndefined();
    expect(await lean.answer(request({ query, extensions: {} }), ok)).toBeUndefined();
    expect(await lean.answer(request({ query, variables: 'n=1' }), ok)).toBeUndefined();
    expect(await lean.answer(request({ query, variables: { n: 'many' } }), ok)).toBeUndefined();
    // Above the cost limit (50): Apollo's plugin refuses it, with its error.
    expect(await lean.answer(request({ query, variables: { n: 5000 } }), ok)).toBeUndefined();
    expect(
      await lean.answer(request({ query }), () => {
        throw new Error('no context');
      }),
    ).toBeUndefined();
    expect(await lean.answer(request({ query }), ok)).toBe('{"data":{"items":[{"name":"item-0"},{"name":"item-1"}]}}\n');
  });

  it('keeps a bounded number of documents, the least recently used out first', async () => {
    const documents = ['{ a: whoami }', '{ b: whoami }', '{ c: whoami }', '{ d: whoami }'];
    for (const query of documents) await viaApollo(query, { name: 'ada' });
    expect(lean.size).toBe(3);
    expect(await lean.answer(request({ query: documents[0] }), () => ({ name: 'ada' }))).toBeUndefined();
    expect(await lean.answer(request({ query: documents[3] }), () => ({ name: 'ada' }))).toBe('{"data":{"d":"ada"}}\n');
  });
});
