/**
 * GraphQL errors the way Strapi 5's GraphQL plugin shapes them, so that front ends written for
 * Strapi read the same `extensions.code` values:
 *
 *   thrown by a resolver                       extensions.code              message
 *   ForbiddenError, UnauthorizedError          FORBIDDEN                    "Forbidden access" (the default one)
 *   ValidationError                            BAD_USER_INPUT               its own
 *   any other HttpError (PaginationError ...)  STRAPI_<NAME> (STRAPI_PAGINATION_ERROR, STRAPI_NOT_FOUND_ERROR)
 *   a GraphQLError                             its own                      its own
 *   anything else                              INTERNAL_SERVER_ERROR        "Internal Server Error" (logged in full)
 *
 * HttpErrors also carry `extensions.error { name, message, details }`, and, as in Strapi, these
 * errors keep their `path` but drop `locations`. They come back with HTTP 200 and partial data.
 * Errors of the request itself (syntax, validation, variables, missing query) keep Apollo's
 * codes and HTTP 400. Stack traces are never sent.
 */
import { GraphQLError, type GraphQLFormattedError } from './graphql-js.ts';
import { ForbiddenError, HttpError, InternalServerError, UnauthorizedError, ValidationError, type ErrorDetails } from '../errors.ts';
import type { Logger } from '../logger.ts';

/** What Strapi's GraphQL plugin says instead of the REST default "Forbidden". */
export const forbiddenMessage = 'Forbidden access';

const internalMessage = 'Internal Server Error';

// A type alias, not an interface: GraphQL's extensions are an index signature, which only aliases satisfy.
export type StrapiErrorExtensions = {
  readonly code: string;
  readonly error?: { readonly name: string; readonly message: string; readonly details: ErrorDetails };
};

/** The `extensions.code` Strapi gives an HttpError. */
export function strapiErrorCode(error: HttpError): string {
  if (error instanceof ForbiddenError || error instanceof UnauthorizedError) return 'FORBIDDEN';
  if (error instanceof ValidationError) return 'BAD_USER_INPUT';
  if (error instanceof InternalServerError) return 'INTERNAL_SERVER_ERROR';
  return `STRAPI_${upperSnakeCase(error.name)}`;
}

/** `PaginationError` → `PAGINATION_ERROR`, as lodash's snakeCase + toUpper do in Strapi. */
export function upperSnakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
}

/** The message and extensions a client sees for an HttpError. */
export function strapiError(error: HttpError): { message: string; extensions: StrapiErrorExtensions } {
  const code = strapiErrorCode(error);
  if (code === 'INTERNAL_SERVER_ERROR') return { message: internalMessage, extensions: { code } };
  const message = error instanceof ForbiddenError && error.message === new ForbiddenError().message ? forbiddenMessage : error.message;
  return { message, extensions: { code, error: { name: error.name, message, details: error.details } } };
}

export interface FormatOptions {
  /** Leave graphql-js' "Did you mean ...?" hints out (config.ts `hideSchemaDetailsFromClientErrors`). */
  readonly hideSuggestions?: boolean;
}

/**
 * Apollo's `formatError`. `formatted` is what Apollo would send; `error` the GraphQLError it came
 * from, whose `originalError` is what a resolver threw.
 */
export function formatGraphqlError(logger: Logger, options: FormatOptions = {}): (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError {
  const hints = options.hideSuggestions === true ? withoutSuggestion : (formatted: GraphQLFormattedError) => formatted;
  return (formatted, error) => {
    const thrown = isGraphqlError(error) ? error.originalError : error;
    if (thrown instanceof HttpError) {
      if (thrown instanceof InternalServerError) logger.error({ err: thrown, path: formatted.path }, 'GraphQL resolver failed');
      return withPath(strapiError(thrown), formatted);
    }
    if (thrown === undefined || isGraphqlError(thrown)) return withoutStack(asClientError(hints(withLimitName(formatted))));
    // Errors of the request itself (a custom scalar rejecting a variable, say) were classified by
    // Apollo already; only failures inside execution are the server's fault.
    if (formatted.path === undefined && formatted.extensions?.code !== 'INTERNAL_SERVER_ERROR') return withoutStack(formatted);
    logger.error({ err: thrown, path: formatted.path }, 'GraphQL resolver failed');
    return withPath({ message: internalMessage, extensions: { code: 'INTERNAL_SERVER_ERROR' } }, formatted);
  };
}

/**
 * What to throw when building the request's context fails (bad credentials, say): a GraphQLError,
 * so that Apollo neither prefixes the message with "Context creation failed" nor answers 500 for
 * a client's mistake.
 */
export function contextError(thrown: unknown, logger: Logger): GraphQLError {
  if (isGraphqlError(thrown)) return thrown;
  if (thrown instanceof HttpError && !(thrown instanceof InternalServerError)) {
    const { message, extensions } = strapiError(thrown);
    return new GraphQLError(message, { extensions: { ...extensions, http: { status: thrown.status } } });
  }
  logger.error({ err: thrown }, 'GraphQL context creation failed');
  return new GraphQLError(internalMessage, { extensions: { code: 'INTERNAL_SERVER_ERROR', http: { status: 500 } } });
}

/**
 * instanceof, or graphql-js' own tag: a GraphQLError from a second copy of graphql-js (see
 * graphql-js.ts) is still the client's business, not an internal error.
 */
function isGraphqlError(value: unknown): value is GraphQLError {
  return value instanceof GraphQLError || Object.prototype.toString.call(value) === '[object GraphQLError]';
}

/**
 * graphql-js ends a message with its hint: "Cannot query field "slugg" on type "Article". Did you
 * mean "slug"?", and so do its variable errors ("... Did you mean the enum value "PUBLISHED"?"),
 * which Apollo's own hideSchemaDetailsFromClientErrors leaves alone.
 */
const suggestion = / ?Did you mean .+\?$/s;

function withoutSuggestion(formatted: GraphQLFormattedError): GraphQLFormattedError {
  return suggestion.test(formatted.message) ? { ...formatted, message: formatted.message.replace(suggestion, '') } : formatted;
}

/** graphql-js' own words for the token limit ("more that 400 tokens") do not say which setting it is. */
const tokenLimitMessage = /^Syntax Error: Document contains more tha[nt] (\d+) tokens\. Parsing aborted\.$/;

function withLimitName(formatted: GraphQLFormattedError): GraphQLFormattedError {
  const limit = formatted.extensions?.code === 'GRAPHQL_PARSE_FAILED' ? tokenLimitMessage.exec(formatted.message)?.[1] : undefined;
  if (limit === undefined) return formatted;
  return { ...formatted, message: `Syntax Error: The document has more than ${limit} tokens; the maximum is ${limit} (maxTokens). Parsing aborted.` };
}

/**
 * Request errors graphql-js raises without a code, which Apollo would report as internal: more
 * invalid variables than graphql-js lists, and a document too deeply nested to parse.
 */
const tooManyVariableErrors = /^Too many errors processing variables/;
const parseStackOverflow = /Maximum call stack size exceeded/;

function asClientError(formatted: GraphQLFormattedError): GraphQLFormattedError {
  const code = formatted.extensions?.code;
  if (code === 'INTERNAL_SERVER_ERROR' && formatted.path === undefined && tooManyVariableErrors.test(formatted.message)) {
    return { ...formatted, extensions: { ...formatted.extensions, code: 'BAD_USER_INPUT' } };
  }
  if (code === 'GRAPHQL_PARSE_FAILED' && parseStackOverflow.test(formatted.message)) {
    return { ...formatted, message: 'Syntax Error: The document is nested too deeply to parse.' };
  }
  return formatted;
}

function withPath(error: { message: string; extensions: StrapiErrorExtensions }, formatted: GraphQLFormattedError): GraphQLFormattedError {
  return formatted.path === undefined ? { ...error } : { message: error.message, path: formatted.path, extensions: error.extensions };
}

/** Stack traces are off in Apollo already; this guards against one slipping in through a thrown GraphQLError's extensions. */
function withoutStack(formatted: GraphQLFormattedError): GraphQLFormattedError {
  if (formatted.extensions === undefined || !('stacktrace' in formatted.extensions)) return formatted;
  const { stacktrace: _stacktrace, ...extensions } = formatted.extensions;
  return { ...formatted, extensions };
}
