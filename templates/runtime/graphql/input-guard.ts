/**
 * What a GraphQL request may carry, checked before anything executes, each refusal an HTTP 400:
 *
 *   input values (literals or variables) nested deeper than JSON_BODY_LIMITS.depth   GRAPHQL_VALIDATION_FAILED / BAD_USER_INPUT
 *   a NUL character in a string literal, a variable or a variable's key              GRAPHQL_VALIDATION_FAILED / BAD_USER_INPUT
 *   a subscription (the schema has none: Strapi's content API has no subscriptions)  GRAPHQL_VALIDATION_FAILED
 *
 * Deeper values would overflow the stack of input coercion and of the filter translation; a NUL
 * cannot be stored or compared by any column (column-domains.ts). POST bodies are held to the
 * same limits by the JSON body guard already; GET variables arrive here unchecked.
 */
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { jsonDepthExceeds, nulPath } from '../column-domains.ts';
import { JSON_BODY_LIMITS } from '../body-guard.ts';
import { GraphQLError, type ASTNode, type ASTVisitor, type ValidationContext, type ValidationRule } from './graphql-js.ts';

export const INPUT_DEPTH_LIMIT = JSON_BODY_LIMITS.depth;

const nulMessage = 'String values must not contain NUL (\\u0000) characters.';

/** Literal input values: nesting of objects and lists, NULs in strings, and subscriptions. */
export function inputLiteralRule(limit: number = INPUT_DEPTH_LIMIT): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    let depth = 0;
    let reported = false;
    const nest = {
      enter(node: ASTNode): void {
        depth += 1;
        if (depth <= limit || reported) return;
        reported = true;
        context.reportError(new GraphQLError(`Input values are nested deeper than ${limit} levels; the maximum is ${limit}.`, { nodes: node }));
      },
      leave(): void {
        depth -= 1;
      },
    };
    return {
      ObjectValue: nest,
      ListValue: nest,
      StringValue(node) {
        if (node.value.includes('\u0000')) context.reportError(new GraphQLError(nulMessage, { nodes: node }));
      },
      OperationDefinition(node) {
        if (node.operation === 'subscription') {
          context.reportError(new GraphQLError('Subscriptions are not supported: the schema has no Subscription type.', { nodes: node }));
        }
      },
    };
  };
}

/** Variables: the same depth and NUL rules as literals (GET requests bypass the JSON body guard). */
export function inputVariablesPlugin<TContext extends BaseContext>(limit: number = INPUT_DEPTH_LIMIT): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request }) {
          const refused = variablesError(request.variables, limit);
          if (refused !== undefined) throw refused;
        },
      };
    },
  };
}

/** Why the plugin above refuses `variables`, or undefined when it lets them pass. */
export function variablesError(variables: Readonly<Record<string, unknown>> | null | undefined, limit: number = INPUT_DEPTH_LIMIT): GraphQLError | undefined {
  if (variables === undefined || variables === null) return undefined;
  if (jsonDepthExceeds(variables, limit)) return badInput(`Variables are nested deeper than ${limit} levels; the maximum is ${limit}.`);
  const path = nulPath(variables);
  return path === undefined ? undefined : badInput(`Variable "$${path.map(String).join('.')}": ${nulMessage}`);
}

function badInput(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
}
