/** The cost model of cost.ts, priced on a small schema shaped like the generated one. */
import { describe, expect, it } from 'vitest';
import { buildSchema, getOperationAST, parse } from './graphql-js.ts';
import { entries, operationCost, type CostModel, type Variables } from './cost.ts';

const schema = buildSchema(/* GraphQL */ `
  input PaginationArg {
    page: Int
    pageSize: Int
    start: Int
    limit: Int
  }
  type Query {
    hello: String
    tags: [String]
    article(documentId: ID!): Article
    articles(pagination: PaginationArg = {}, sort: [String] = []): [Article]!
    articles_connection(pagination: PaginationArg = {}): ArticleEntityResponseCollection
  }
  type Mutation {
    createArticle(title: String): Article
  }
  type Article {
    title: String
    author: Author
    blocks: [ArticleBlocksDynamicZone]
    tags_connection(pagination: PaginationArg = {}): TagRelationResponseCollection
  }
  type Author {
    name: String
    articles(pagination: PaginationArg = {}): [Article]!
  }
  type Tag {
    name: String
  }
  type ArticleEntityResponseCollection {
    nodes: [Article!]!
    pageInfo: Pagination!
  }
  type TagRelationResponseCollection {
    nodes: [Tag!]!
  }
  type Pagination {
    total: Int!
    page: Int!
  }
  union ArticleBlocksDynamicZone = ComponentSharedQuote | ComponentSharedMedia
  type ComponentSharedQuote {
    body: String
  }
  type ComponentSharedMedia {
    url: String
  }
`);

const model: CostModel = { defaultLimit: 10, maxLimit: 20, unboundedListSize: 1000 };

function cost(query: string, variables?: Variables, options: { model?: CostModel; operationName?: string } = {}): number {
  const document = parse(query);
  const operation = getOperationAST(document, options.operationName);
  if (operation === null || operation === undefined) throw new Error('no operation');
  return operationCost(schema, document, operation, variables, options.model ?? model);
}

describe('operationCost', () => {
  it('counts one per field', () => {
    expect(cost('{ hello }')).toBe(1);
    expect(cost('{ hello article(documentId: "x") { title author { name } } }')).toBe(1 + (1 + 1 + (1 + 1)));
  });

  it('counts a list of scalars as one field', () => {
    expect(cost('{ tags }')).toBe(1);
  });

  it('multiplies a list field by defaultLimit when no page size is asked for', () => {
    expect(cost('{ articles { title } }')).toBe(1 + 10 * 1);
    expect(cost('{ articles { title author { name } } }')).toBe(1 + 10 * (1 + 1 + 1));
  });

  it('uses pagination.pageSize or pagination.limit, capped at maxLimit', () => {
    expect(cost('{ articles(pagination: { pageSize: 3 }) { title } }')).toBe(1 + 3);
    expect(cost('{ articles(pagination: { start: 5, limit: 4 }) { title } }')).toBe(1 + 4);
    expect(cost('{ articles(pagination: { page: 2, pageSize: 500 }) { title } }')).toBe(1 + 20);
  });

  it('counts limit -1 as maxLimit, or unboundedListSize without a maxLimit', () => {
    expect(cost('{ articles(pagination: { limit: -1 }) { title } }')).toBe(1 + 20);
    const uncapped: CostModel = { ...model, maxLimit: null };
    expect(cost('{ articles(pagination: { limit: -1 }) { title } }', undefined, { model: uncapped })).toBe(1 + 1000);
    expect(cost('{ articles(pagination: { pageSize: 500 }) { title } }', undefined, { model: uncapped })).toBe(1 + 500);
  });

  it('counts at least one entry for a page of 0', () => {
    expect(cost('{ articles(pagination: { pageSize: 0 }) { title } }')).toBe(1 + 1);
  });

  it('multiplies nested lists', () => {
    expect(cost('{ articles(pagination: { pageSize: 5 }) { author { articles(pagination: { pageSize: 4 }) { title } } } }')).toBe(1 + 5 * (1 + (1 + 4 * 1)));
  });

  it('hands a connection page size to its nodes', () => {
    expect(cost('{ articles_connection(pagination: { pageSize: 5 }) { nodes { title } pageInfo { total } } }')).toBe(1 + (1 + 5 * 1) + (1 + 1));
    expect(cost('{ articles_connection { nodes { title } } }')).toBe(1 + (1 + 10 * 1));
    expect(cost('{ articles { tags_connection(pagination: { limit: 2 }) { nodes { name } } } }')).toBe(1 + 10 * (1 + (1 + 2 * 1)));
  });

  it('reads page sizes from variables and their defaults', () => {
    const query = 'query ($n: Int = 3) { articles(pagination: { pageSize: $n }) { title } }';
    expect(cost(query)).toBe(1 + 3);
    expect(cost(query, { n: 7 })).toBe(1 + 7);
    expect(cost('query ($p: PaginationArg) { articles(pagination: $p) { title } }', { p: { limit: 2 } })).toBe(1 + 2);
    expect(cost('query ($p: PaginationArg) { articles(pagination: $p) { title } }')).toBe(1 + 10);
  });

  it('prices values of the wrong type as the default (coercion refuses them later)', () => {
    expect(cost('query ($n: Int) { articles(pagination: { pageSize: $n }) { title } }', { n: 'many' })).toBe(1 + 10);
  });

  it('counts fragments where they are spread, and inline fragments on union members', () => {
    const query = `{
      articles(pagination: { pageSize: 2 }) { ...Card }
      article(documentId: "x") { ...Card }
    }
    fragment Card on Article { title blocks { ... on ComponentSharedQuote { body } ... on ComponentSharedMedia { url } } }`;
    const card = 1 + (1 + 10 * 2);
    expect(cost(query)).toBe(1 + 2 * card + (1 + card));
  });

  it('leaves __typename and introspection out', () => {
    expect(cost('{ __typename articles { __typename title } }')).toBe(1 + 10);
    expect(cost('{ __schema { types { name fields { name } } } }')).toBe(0);
  });

  it('prices the chosen operation only', () => {
    const query = 'query A { hello } query B { articles { title } } mutation C { createArticle(title: "x") { title } }';
    expect(cost(query, undefined, { operationName: 'A' })).toBe(1);
    expect(cost(query, undefined, { operationName: 'B' })).toBe(11);
    expect(cost(query, undefined, { operationName: 'C' })).toBe(2);
  });

  it('prices exponential fragment fan-out without expanding it', () => {
    // F0 spreads F1 twice, F1 spreads F2 twice, ...: 2^40 fields once expanded.
    const levels = 40;
    const fragments = Array.from({ length: levels }, (_, i) => `fragment F${i} on Article { ...F${i + 1} ...F${i + 1} }`).join('\n');
    const query = `{ article(documentId: "x") { ...F0 } }\n${fragments}\nfragment F${levels} on Article { title }`;
    expect(cost(query)).toBe(1 + 2 ** levels);
  });

  it('does not loop on fragment cycles or choke on unknown fields and fragments', () => {
    expect(cost('{ article(documentId: "x") { ...A } } fragment A on Article { title ...B } fragment B on Article { ...A }')).toBe(1 + 1);
    expect(cost('{ nope { deeper } ...Missing }')).toBe(2);
  });
});

describe('entries', () => {
  it('is the default page size when nothing is asked, capped by maxLimit', () => {
    expect(entries(undefined, model)).toBe(10);
    expect(entries(undefined, { ...model, defaultLimit: 50 })).toBe(20);
  });
});
