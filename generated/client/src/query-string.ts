/**
 * Query parameters in Strapi's bracket notation, written with `qs` so that the server's
 * `qs.parse` (runtime/query/query-string.ts: no dots, arrays by index, depth 20, 100 array items)
 * reads back exactly the object given here. Brackets stay readable; values are encoded.
 */
import qs from 'qs';

export function stringifyQuery(query: object | undefined): string {
  if (query === undefined) return '';
  return qs.stringify(query, { encoder: readableBrackets, arrayFormat: 'indices', allowDots: false, skipNulls: false });
}

/**
 * Keys and values percent-encoded as qs does by default, except the brackets and the `$` of
 * operators in keys, which the server reads either way. (A bracket inside a key name cannot be told from nesting by qs at all.)
 */
function readableBrackets(text: string, encode: (text: string) => string, _charset: string, kind: 'key' | 'value'): string {
  const encoded = encode(text);
  return kind === 'key' ? encoded.replace(/%5B/gi, '[').replace(/%5D/gi, ']').replace(/%24/g, '$') : encoded;
}

/** `path` with the query appended (`?` or `&` as the path already has a query or not). */
export function withQuery(path: string, query: object | undefined): string {
  const search = stringifyQuery(query);
  if (search === '') return path;
  return `${path}${path.includes('?') ? '&' : '?'}${search}`;
}
