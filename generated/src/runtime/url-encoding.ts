/**
 * Percent-encoding of request URLs. Express decodes route parameters lazily and answers a
 * malformed sequence (`/api/products/%E0%A4%A`) with an error the envelope cannot tell from a
 * crash, and URLSearchParams (GraphQL GET) silently replaces one with U+FFFD, changing what the
 * client asked for. Both are refused up front as the client's mistake: a 400 ValidationError.
 *
 * REST query strings are not checked here: they are parsed by qs, which keeps a malformed
 * sequence as the literal text, as Strapi's parser does.
 */
import type { RequestHandler } from 'express';
import { ValidationError } from './errors.ts';

export const malformedPathMessage = 'Malformed percent-encoding in the URL path';
export const malformedQueryMessage = 'Malformed percent-encoding in the query string';

/** Whether `text` decodes as percent-encoded UTF-8 (`%` followed by two hex digits, valid byte sequences). */
export function isWellEncoded(text: string): boolean {
  if (!text.includes('%')) return true;
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** The part of a request URL after `?`, as sent. */
export function rawQueryString(url: string): string {
  const at = url.indexOf('?');
  return at === -1 ? '' : url.slice(at + 1);
}

/** App-wide, before any router: every path segment any route may decode is well encoded. */
export const wellEncodedPath: RequestHandler = (req, _res, next) => {
  next(isWellEncoded(req.path) ? undefined : new ValidationError(malformedPathMessage, { source: 'path' }));
};
