/**
 * A failed request as a value: Strapi's error envelope (`status`, `name`, `message`, `details`)
 * plus the HTTP response, so callers can branch on `error.name` ('ValidationError',
 * 'NotFoundError', 'ForbiddenError', ...) without parsing anything.
 */
import type { ErrorEnvelope, JsonValue } from './types.js';

export class CapiError extends Error {
  override readonly name = 'CapiError';
  /** HTTP status (also `error.status` of the envelope). */
  readonly status: number;
  /** The envelope as the server sent it, or one built from the status when the body was not one. */
  readonly envelope: ErrorEnvelope;
  readonly response: Response;
  readonly request: { readonly method: string; readonly url: string };

  constructor(envelope: ErrorEnvelope, response: Response, request: { readonly method: string; readonly url: string }) {
    super(envelope.error.message);
    this.status = envelope.error.status;
    this.envelope = envelope;
    this.response = response;
    this.request = request;
  }

  /** Strapi's error class name: `ValidationError`, `NotFoundError`, `ForbiddenError`, ... */
  get errorName(): string {
    return this.envelope.error.name;
  }

  get details(): JsonValue {
    return this.envelope.error.details;
  }
}

/** The name @strapi/client users catch. */
export { CapiError as StrapiError };

export function isCapiError(value: unknown): value is CapiError {
  return value instanceof CapiError;
}

/** Reads an error answer: Strapi's envelope when the body is one, else one built from the status. */
export async function errorFromResponse(response: Response, request: { readonly method: string; readonly url: string }): Promise<CapiError> {
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return new CapiError(isEnvelope(body) ? body : fallbackEnvelope(response, text), response, request);
}

function isEnvelope(body: unknown): body is ErrorEnvelope {
  if (typeof body !== 'object' || body === null || !('error' in body)) return false;
  const error = (body as { error: unknown }).error;
  return typeof error === 'object' && error !== null && typeof (error as { status?: unknown }).status === 'number' && typeof (error as { message?: unknown }).message === 'string';
}

function fallbackEnvelope(response: Response, text: string): ErrorEnvelope {
  const message = response.statusText || text.slice(0, 200) || `HTTP ${response.status}`;
  return { data: null, error: { status: response.status, name: 'HTTPError', message, details: {} } };
}
