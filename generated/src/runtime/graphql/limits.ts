/**
 * Limits on what one GraphQL document may ask for, checked before anything executes, so that a
 * hostile document costs the server a parse and a walk, never a database round trip.
 *
 *   maxTokens     lexical tokens in the document (graphql-js stops parsing past it)   GRAPHQL_PARSE_FAILED
 *   depthLimit    nesting of selection sets below the root fields                     GRAPHQL_VALIDATION_FAILED
 *   maxAliases    aliased fields in one operation, fragments expanded                 GRAPHQL_VALIDATION_FAILED
 *   maxCost       estimated cost of the executed operation (see cost.ts); off unless   GRAPHQL_VALIDATION_FAILED
 *                 configured: Strapi has no cost limit, and real page-builder front
 *                 ends send queries that cost over a million by this estimate
 *
 * Every refusal is an HTTP 400. The depth refusal is worded as Strapi's (graphql-depth-limit):
 * `'<operation name>' exceeds maximum operation depth of <depthLimit>`; the others name the limit
 * and its configured value.
 * Introspection fields (`__schema`, `__type`, `__typename`) are left out of depth and cost, as
 * graphql-depth-limit (which Strapi uses) does: GraphiQL's own introspection query is deeper than
 * any sensible depth limit, and graphql-js' MaxIntrospectionDepthRule already bounds what a
 * hostile introspection query can cost.
 */
import { GraphQLError, Kind, type ASTNode, type FieldNode, type OperationDefinitionNode, type SelectionSetNode, type ValidationContext, type ValidationRule } from './graphql-js.ts';
import type { GraphqlConfig } from '../config.ts';
import { pageSizeCap } from './args-pagination.ts';

export interface GraphqlLimits {
  /** Deepest selection-set nesting: `{ a { b } }` is 1 deep. From graphql.config.depthLimit. */
  readonly depthLimit: number;
  /** Most aliased fields in one operation. From graphql.config.maxAliases. */
  readonly maxAliases: number;
  /** Largest estimated cost of the operation that runs; null: not checked. From graphql.config.maxCost. */
  readonly maxCost: number | null;
  /** Most lexical tokens in one document (bytes are bounded by server.jsonLimit before this). */
  readonly maxTokens: number;
  /** Entries a list field is assumed to return when no page size is asked for. From graphql.config.defaultLimit. */
  readonly defaultLimit: number;
  /** Cap on any page size; null: none. The smaller of graphql.config.maxLimit and amountLimit. */
  readonly maxLimit: number | null;
  /** Entries assumed for `limit: -1` ("everything") when there is no maxLimit to cap it. */
  readonly unboundedListSize: number;
}

/** The limits that config/plugins.json does not carry. */
export const documentLimitDefaults = { maxTokens: 10_000, unboundedListSize: 1_000 } as const;

/** The configured limits, with `overrides` (from the mount's options) winning. */
export function graphqlLimits(config: GraphqlConfig, overrides: Partial<GraphqlLimits> = {}): GraphqlLimits {
  return {
    depthLimit: config.depthLimit,
    maxAliases: config.maxAliases,
    maxCost: config.maxCost,
    defaultLimit: config.defaultLimit,
    maxLimit: pageSizeCap(config),
    ...documentLimitDefaults,
    ...overrides,
  };
}

/**
 * A refusal: Apollo reports errors of validation rules with GRAPHQL_VALIDATION_FAILED and 400 by
 * itself; the code and status here serve the checks that run later (the cost, which needs the
 * request's variables).
 */
export function limitError(message: string, nodes: ASTNode | readonly ASTNode[]): GraphQLError {
  return new GraphQLError(message, { nodes, extensions: { code: 'GRAPHQL_VALIDATION_FAILED', http: { status: 400 } } });
}

/** `The query "Feed"`, `The mutation`: how messages name an operation. */
export function describeOperation(operation: OperationDefinitionNode): string {
  const name = operation.name === undefined ? '' : ` "${operation.name.value}"`;
  return `The ${operation.operation}${name}`;
}

export function isIntrospectionField(field: FieldNode): boolean {
  return field.name.value.startsWith('__');
}

/** Fields along the deepest path of a selection set, outermost first, as a linked list (no copying per level). */
interface Chain {
  readonly field: FieldNode;
  readonly next: Chain | undefined;
}

interface Depth {
  readonly depth: number;
  readonly chain: Chain | undefined;
}

const flat: Depth = { depth: 0, chain: undefined };

/** Rejects operations whose selection sets nest deeper than `max` (fragments expanded). */
export function depthLimitRule(max: number): ValidationRule {
  return (context: ValidationContext) => {
    // Each fragment's depth is the same wherever it is spread: compute it once per document,
    // which keeps documents that spread fragments exponentially often linear to check.
    const fragments = new Map<string, Depth>();
    const inProgress = new Set<string>();

    const deepest = (selectionSet: SelectionSetNode): Depth => {
      let best = flat;
      for (const selection of selectionSet.selections) {
        let found: Depth;
        if (selection.kind === Kind.FIELD) {
          if (isIntrospectionField(selection)) continue;
          if (selection.selectionSet === undefined) {
            found = { depth: 0, chain: { field: selection, next: undefined } };
          } else {
            const below = deepest(selection.selectionSet);
            found = { depth: below.depth + 1, chain: { field: selection, next: below.chain } };
          }
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          found = deepest(selection.selectionSet);
        } else {
          found = fragmentDepth(selection.name.value);
        }
        if (best.chain === undefined || found.depth > best.depth) best = found;
      }
      return best;
    };

    const fragmentDepth = (name: string): Depth => {
      const known = fragments.get(name);
      if (known !== undefined) return known;
      const fragment = context.getFragment(name);
      // Unknown fragments and cycles are other rules' errors; they add no depth here.
      if (fragment === undefined || fragment === null || inProgress.has(name)) return flat;
      inProgress.add(name);
      const found = deepest(fragment.selectionSet);
      inProgress.delete(name);
      fragments.set(name, found);
      return found;
    };

    return {
      OperationDefinition(operation) {
        const { depth, chain } = deepest(operation.selectionSet);
        if (depth <= max) return;
        // The path down to the first field past the limit: fields at levels 0..max are allowed.
        const path: FieldNode[] = [];
        for (let link = chain; link !== undefined && path.length < max + 2; link = link.next) path.push(link.field);
        const offending = path[path.length - 1] ?? operation;
        // Strapi's message, word for word (an anonymous operation is named ''), so clients that
        // match on it keep working.
        context.reportError(limitError(`'${operation.name?.value ?? ''}' exceeds maximum operation depth of ${max}`, offending));
      },
    };
  };
}

/** Rejects operations with more than `max` aliased fields (fragments expanded: a spread counts its aliases again). */
export function aliasLimitRule(max: number): ValidationRule {
  return (context: ValidationContext) => {
    const fragments = new Map<string, number>();
    const inProgress = new Set<string>();

    const count = (selectionSet: SelectionSetNode): number => {
      let total = 0;
      for (const selection of selectionSet.selections) {
        if (selection.kind === Kind.FIELD) {
          if (selection.alias !== undefined) total += 1;
          if (selection.selectionSet !== undefined) total += count(selection.selectionSet);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          total += count(selection.selectionSet);
        } else {
          total += fragmentCount(selection.name.value);
        }
      }
      return total;
    };

    const fragmentCount = (name: string): number => {
      const known = fragments.get(name);
      if (known !== undefined) return known;
      const fragment = context.getFragment(name);
      if (fragment === undefined || fragment === null || inProgress.has(name)) return 0;
      inProgress.add(name);
      const found = count(fragment.selectionSet);
      inProgress.delete(name);
      fragments.set(name, found);
      return found;
    };

    return {
      OperationDefinition(operation) {
        const aliases = count(operation.selectionSet);
        if (aliases <= max) return;
        context.reportError(limitError(`${describeOperation(operation)} uses ${aliases} aliases; the maximum is ${max} (maxAliases).`, operation));
      },
    };
  };
}
