/**
 * Strapi's error envelope, `{ data: null, error: { status, name, message, details } }`, as typed
 * error classes. Handlers throw these; `toErrorResponse` turns anything thrown into the envelope.
 * Only errors of these classes (and the body parser's own client errors) reach the client with
 * their message: everything else becomes a generic 500, so internals never leak.
 */
import { STATUS_CODES } from 'node:http';
import type { JsonValue } from './schema.ts';

export type ErrorDetails = { readonly [key: string]: JsonValue };

export interface ErrorBody {
  readonly status: number;
  readonly name: string;
  readonly message: string;
  readonly details: ErrorDetails;
}

export interface ErrorEnvelope {
  readonly data: null;
  readonly error: ErrorBody;
}

/** One problem of a ValidationError, in the shape Strapi puts in `details.errors`. */
export interface ValidationIssue {
  readonly path: readonly string[];
  readonly message: string;
  readonly name: string;
  readonly value?: JsonValue;
}

/** Base of every error whose status, name and message are meant for the client. */
export abstract class HttpError extends Error {
  abstract readonly status: number;
  readonly details: ErrorDetails;

  constructor(message: string, details: ErrorDetails = {}) {
    super(boundText(message, MESSAGE_LIMIT));
    this.details = boundDetails(details);
  }

  toBody(): ErrorBody {
    return { status: this.status, name: this.name, message: this.message, details: this.details };
  }
}

export class ApplicationError extends HttpError {
  override readonly name: string = 'ApplicationError';
  readonly status: number = 400;
  constructor(message = 'An application error occurred', details: ErrorDetails = {}) {
    super(message, details);
  }
}

export class ValidationError extends HttpError {
  override readonly name = 'ValidationError';
  readonly status = 400;
  constructor(message: string, details: ErrorDetails = {}) {
    super(message, details);
  }

  /** A ValidationError listing each problem the way Strapi does (`details.errors`). */
  static of(message: string, issues: readonly ValidationIssue[]): ValidationError {
    return new ValidationError(message, { errors: issues.map(issueToJson) });
  }
}

export class PaginationError extends HttpError {
  override readonly name = 'PaginationError';
  readonly status = 400;
  constructor(message = 'Invalid pagination', details: ErrorDetails = {}) {
    super(message, details);
  }
}

export class UnauthorizedError extends HttpError {
  override readonly name = 'UnauthorizedError';
  readonly status = 401;
  constructor(message = 'Missing or invalid credentials', details: ErrorDetails = {}) {
    super(message, details);
  }
}

export class ForbiddenError extends HttpError {
  override readonly name = 'ForbiddenError';
  readonly status = 403;
  constructor(message = 'Forbidden', details: ErrorDetails = {}) {
    super(message, details);
  }
}

export class NotFoundError extends HttpError {
  override readonly name = 'NotFoundError';
  readonly status = 404;
  constructor(message = 'Not Found', details: ErrorDetails = {}) {
    super(message, details);
  }
}

export class PayloadTooLargeError extends HttpError {
  override readonly name = 'PayloadTooLargeError';
  readonly status = 413;
  constructor(message = 'Payload too large', details: ErrorDetails = {}) {
    super(message, details);
  }
}

/**
 * A statement of the request ran past the database's statement timeout (`api.query.timeoutMs`)
 * and was cancelled: the request asked for more than the server answers in that time, or the
 * database is overloaded. 503, as the answer may come another time; GraphQL answers with the
 * same HTTP status (Apollo reads `extensions.http`), as for its other request limits.
 */
export class QueryTimeoutError extends HttpError {
  override readonly name = 'ServiceUnavailableError';
  readonly status = 503;
  readonly extensions = { http: { status: 503 } };
  constructor() {
    super('The query took longer than the server allows (api.query.timeoutMs): ask for less (fewer populated relations, a smaller page, narrower filters) or try again later', { limit: 'timeoutMs' });
  }
}

/** The only 5xx the client sees besides a timeout; its message is fixed so that nothing internal leaks. */
export class InternalServerError extends HttpError {
  override readonly name = 'InternalServerError';
  readonly status = 500;
  constructor() {
    super('Internal Server Error', {});
  }
}

export interface ErrorResponse {
  readonly status: number;
  readonly body: ErrorEnvelope;
  /** True when the thrown value was not a client error: the caller should log it in full. */
  readonly unexpected: boolean;
}

/** Turns any thrown value into the status and envelope to send. Never throws. */
export function toErrorResponse(thrown: unknown): ErrorResponse {
  const error = asHttpError(thrown);
  if (error === undefined) {
    const internal = new InternalServerError();
    return { status: internal.status, body: envelope(internal), unexpected: true };
  }
  return { status: error.status, body: envelope(error), unexpected: false };
}

export function envelope(error: HttpError): ErrorEnvelope {
  return { data: null, error: error.toBody() };
}

/**
 * The HttpError a thrown value stands for, if it is a client error: our own classes, and the
 * errors of Express' body parser (which carry `type` and `status`, and `expose` for 4xx).
 */
function asHttpError(thrown: unknown): HttpError | undefined {
  if (thrown instanceof HttpError) return thrown;
  if (typeof thrown !== 'object' || thrown === null) return undefined;
  const { type, status, expose, limit } = thrown as { type?: unknown; status?: unknown; expose?: unknown; limit?: unknown };
  switch (type) {
    case 'entity.parse.failed':
      return new ValidationError('Invalid JSON in request body');
    case 'entity.too.large':
      return new PayloadTooLargeError('Request body too large', typeof limit === 'number' ? { limit } : {});
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ValidationError('Unsupported request body encoding');
    case 'request.aborted':
      return new ValidationError('Request aborted');
    case 'request.size.invalid':
      return new ValidationError('Request size did not match Content-Length');
  }
  // Other http-errors style client errors (e.g. from Express' router): keep their status, but
  // not their message, which may name internals.
  if (expose === true && typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 400) return new ValidationError('Bad Request');
    if (status === 401) return new UnauthorizedError();
    if (status === 403) return new ForbiddenError();
    if (status === 404) return new NotFoundError();
    if (status === 413) return new PayloadTooLargeError();
    return new StatusError(status);
  }
  return undefined;
}

/** A client error with a status that has no class of its own (405, 415, ...). */
class StatusError extends ApplicationError {
  override readonly status: number;
  constructor(status: number) {
    super(STATUS_CODES[status] ?? 'Bad Request');
    this.status = status;
  }
}

function issueToJson(issue: ValidationIssue): JsonValue {
  const json: { [key: string]: JsonValue } = { path: [...issue.path], message: issue.message, name: issue.name };
  if (issue.value !== undefined) json.value = issue.value;
  return json;
}

/**
 * What an error may echo of a client's input. A message or detail quoting a huge or deeply nested
 * value would make the answer huge, or make serializing it overflow the stack: past these bounds
 * the echo is cut, marked with `…`.
 */
export const ERROR_ECHO_LIMITS = { message: 1000, text: 500, depth: 8, items: 100 } as const;
const MESSAGE_LIMIT = ERROR_ECHO_LIMITS.message;

function boundText(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

function boundDetails(details: ErrorDetails): ErrorDetails {
  const bounded = boundJson(details, 0);
  return typeof bounded === 'object' && bounded !== null && !Array.isArray(bounded) ? bounded : {};
}

/** A copy of a JSON value cut to the echo limits; recursion stops at `depth`, so it cannot overflow. */
function boundJson(value: JsonValue, depth: number): JsonValue {
  if (typeof value === 'string') return boundText(value, ERROR_ECHO_LIMITS.text);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= ERROR_ECHO_LIMITS.depth) return '…';
  if (Array.isArray(value)) {
    const items = value.slice(0, ERROR_ECHO_LIMITS.items).map((item) => boundJson(item, depth + 1));
    return value.length > ERROR_ECHO_LIMITS.items ? [...items, '…'] : items;
  }
  const out: { [key: string]: JsonValue } = {};
  let count = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (count++ >= ERROR_ECHO_LIMITS.items) {
      out['…'] = '…';
      break;
    }
    const inner = value[key];
    if (inner !== undefined) out[boundText(key, ERROR_ECHO_LIMITS.text)] = boundJson(inner, depth + 1);
  }
  return out;
}
