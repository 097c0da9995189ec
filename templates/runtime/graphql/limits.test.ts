/** The document-only limits of limits.ts as graphql-js validation rules, and how they are configured. */
import { describe, expect, it } from 'vitest';
import { buildSchema, parse, validate, type GraphQLError } from './graphql-js.ts';
import { aliasLimitRule, depthLimitRule, documentLimitDefaults, graphqlLimits } from './limits.ts';

const schema = buildSchema(/* GraphQL */ `
  type Query {
    hello: String
    node: Node
    nodes: [Node]
  }
  type Mutation {
    touch: Node
  }
  type Node {
    name: String
    child: Node
    children: [Node]
  }
`);

function check(rule: ReturnType<typeof depthLimitRule>, query: string): readonly GraphQLError[] {
  return validate(schema, parse(query), [rule]);
}

const nested = (levels: number): string => `{ ${'node { '.repeat(levels)}name${' }'.repeat(levels)} }`;

describe('depthLimitRule', () => {
  it('counts selection-set nesting below the root fields, as graphql-depth-limit does', () => {
    expect(check(depthLimitRule(0), '{ hello }')).toEqual([]);
    expect(check(depthLimitRule(1), nested(1))).toEqual([]);
    expect(check(depthLimitRule(2), nested(2))).toEqual([]);
    expect(check(depthLimitRule(2), nested(3)).map((error) => error.message)).toEqual(["'' exceeds maximum operation depth of 2"]);
  });

  it('names the path only down to the first field past the limit', () => {
    const [error] = check(depthLimitRule(1), nested(30));
    expect(error?.message).toBe("'' exceeds maximum operation depth of 1");
    expect(error?.locations).toEqual([{ line: 1, column: 17 }]);
  });

  it('checks every operation of the document and names them', () => {
    const query = `query Shallow { hello } mutation Deep { touch { child { child { name } } } }`;
    expect(check(depthLimitRule(2), query).map((error) => error.message)).toEqual(["'Deep' exceeds maximum operation depth of 2"]);
  });

  it('expands fragments and inline fragments', () => {
    const query = '{ node { ...A } } fragment A on Node { ... on Node { child { ...B } } } fragment B on Node { children { name } }';
    expect(check(depthLimitRule(3), query)).toEqual([]);
    expect(check(depthLimitRule(2), query).map((error) => error.message)).toEqual(["'' exceeds maximum operation depth of 2"]);
  });

  it('leaves introspection out', () => {
    expect(check(depthLimitRule(1), '{ __schema { types { fields { type { ofType { name } } } } } }')).toEqual([]);
    expect(check(depthLimitRule(0), '{ __typename }')).toEqual([]);
  });

  it('survives fragment cycles and exponential fan-out', () => {
    expect(check(depthLimitRule(5), '{ node { ...A } } fragment A on Node { child { ...A } }')).toEqual([]);
    const levels = 40;
    const fragments = Array.from({ length: levels }, (_, i) => `fragment F${i} on Node { ...F${i + 1} child { ...F${i + 1} } }`).join('\n');
    const errors = check(depthLimitRule(10), `{ node { ...F0 } }\n${fragments}\nfragment F${levels} on Node { name }`);
    expect(errors.map((error) => error.message)[0]).toBe("'' exceeds maximum operation depth of 10");
  });
});

describe('aliasLimitRule', () => {
  it('counts aliased fields at every level', () => {
    expect(check(aliasLimitRule(3), '{ a: hello b: node { c: name } }')).toEqual([]);
    expect(check(aliasLimitRule(2), '{ a: hello b: node { c: name } }').map((error) => error.message)).toEqual(['The query uses 3 aliases; the maximum is 2 (maxAliases).']);
  });

  it('counts a fragment once per spread', () => {
    const query = 'query Twice { x: node { ...Names } y: node { ...Names } } fragment Names on Node { a: name b: name }';
    expect(check(aliasLimitRule(6), query)).toEqual([]);
    expect(check(aliasLimitRule(5), query).map((error) => error.message)).toEqual(['The query "Twice" uses 6 aliases; the maximum is 5 (maxAliases).']);
  });

  it('survives fragment cycles and exponential fan-out', () => {
    expect(check(aliasLimitRule(5), '{ node { ...A } } fragment A on Node { a: child { ...A } }')).toEqual([]);
    const levels = 40;
    const fragments = Array.from({ length: levels }, (_, i) => `fragment F${i} on Node { ...F${i + 1} c: child { ...F${i + 1} } }`).join('\n');
    const errors = check(aliasLimitRule(30), `{ node { ...F0 } }\n${fragments}\nfragment F${levels} on Node { n: name }`);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/^The query uses \d+ aliases; the maximum is 30 \(maxAliases\)\.$/);
  });
});

describe('graphqlLimits', () => {
  const limits = { defaultLimit: 10, maxLimit: null, depthLimit: 10, maxAliases: 30, maxCost: 50_000 };
  const config = { ...limits, amountLimit: null, landingPage: true, introspection: true, hideSchemaDetailsFromClientErrors: false };

  it('takes the configured values and the document defaults', () => {
    expect(graphqlLimits(config)).toEqual({ ...limits, ...documentLimitDefaults });
    expect(documentLimitDefaults).toEqual({ maxTokens: 10_000, unboundedListSize: 1_000 });
  });

  it('estimates list sizes with the page-size cap the resolvers apply: the smaller of maxLimit and amountLimit', () => {
    expect(graphqlLimits({ ...config, amountLimit: 100 }).maxLimit).toBe(100);
    expect(graphqlLimits({ ...config, maxLimit: 40, amountLimit: 100 }).maxLimit).toBe(40);
  });

  it('lets the mount override any of them', () => {
    expect(graphqlLimits(config, { maxTokens: 500, depthLimit: 4 })).toMatchObject({ maxTokens: 500, depthLimit: 4, maxAliases: 30 });
  });
});
