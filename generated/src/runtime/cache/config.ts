/**
 * config/cache.json: HTTP caching of content reads for browsers and CDNs (docs/deployment.md,
 * "HTTP caching and CDNs"). Everything is off unless the file turns it on:
 *
 *   {
 *     "etag": true,
 *     "cacheControl": { "api::article.article": "public, max-age=60, s-maxage=600",
 *                       "api::article.article.findOne": "public, max-age=300", "graphql": "public, max-age=30" },
 *     "surrogateKeys": { "headers": ["Surrogate-Key", "Cache-Tag"], "maxBytes": 4096 },
 *     "purge": { "url": "http://varnish:6081/", "method": "PURGE", "headers": { "xkey-purge": "{keys}" } }
 *   }
 *
 * etag: a strong ETag (hash of the bytes sent) on every 200 answer of a content GET (REST find and
 *   findOne, GraphQL over GET), and 304 Not Modified when If-None-Match names it.
 * cacheControl: the Cache-Control header by content type (`<uid>`), by route (`<uid>.find`,
 *   `<uid>.findOne`, which win over the type's) and for GraphQL GETs (`graphql`). A request that
 *   carries credentials (an Authorization header) gets the same directives made `private` (no
 *   `public`, `s-maxage`): only anonymous answers are shared-cacheable. Every such answer says
 *   `Vary: Authorization`.
 * surrogateKeys: headers naming the content types and documents an answer contains, for
 *   tag-based purges: `Surrogate-Key` (Varnish xkey, Fastly; space-separated), `Cache-Tag`
 *   (Cloudflare; comma-separated), `xkey`. Above `maxBytes` only the type keys are sent.
 * purge: the request that evicts a written document's answers, sent after every write through
 *   the webhook outbox (retried, survives a restart). `{keys}` (space-separated), `{keys,}`
 *   (comma-separated) and `{keysJson}` (a JSON array) are replaced by the keys in header values
 *   and `body`; `{env.<name>}` by the environment variable <name> (a token), read at start-up.
 */
import { at, boolean, fail, got, integer, object, oneOf, string, type Where } from '../config-check.ts';
import type { Environment } from '../config.ts';

/** The headers surrogate keys may be sent in, each with the separator its readers split on. */
export const KEY_HEADERS = {
  'Surrogate-Key': ' ',
  'Cache-Tag': ',',
  xkey: ' ',
} as const satisfies Readonly<Record<string, string>>;
export type KeyHeader = keyof typeof KEY_HEADERS;

export interface SurrogateKeysConfig {
  readonly headers: readonly KeyHeader[];
  /** The longest key list sent; longer ones fall back to the type keys. */
  readonly maxBytes: number;
}

export interface PurgeConfig {
  readonly url: string;
  readonly method: string;
  /** Header templates (`{keys}`, `{keys,}`, `{keysJson}`; `{env.<name>}` already replaced). */
  readonly headers: Readonly<Record<string, string>>;
  /** Body template; null: no body. */
  readonly body: string | null;
}

export interface CacheConfig {
  readonly etag: boolean;
  /** Cache-Control by `<uid>`, `<uid>.find`, `<uid>.findOne` or `graphql`. */
  readonly cacheControl: Readonly<Record<string, string>>;
  readonly surrogateKeys: SurrogateKeysConfig | null;
  readonly purge: PurgeConfig | null;
}

export const noCaching: CacheConfig = { etag: false, cacheControl: {}, surrogateKeys: null, purge: null };

/** The default of `surrogateKeys.maxBytes`: under Varnish's 8 KiB limit on a response header line (`http_resp_hdr_len`). */
export const DEFAULT_MAX_KEY_BYTES = 4096;

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Visible ASCII and spaces: what a header value may hold. */
const HEADER_VALUE = /^[\x20-\x7e]*$/;
const METHOD = /^[A-Z]+$/;

/** `validKey(key)` says whether a `cacheControl` key names a content type, a route or GraphQL. */
export function cacheConfig(where: Where, json: unknown, env: Environment, validKey?: (key: string) => boolean): CacheConfig {
  const file = object(where, json, ['etag', 'cacheControl', 'surrogateKeys', 'purge']);
  const ccWhere = at(where, 'cacheControl');
  const cc = object(ccWhere, file.cacheControl ?? {}, Object.keys(file.cacheControl ?? {}));
  const cacheControl: Record<string, string> = {};
  for (const [key, value] of Object.entries(cc)) {
    if (validKey !== undefined && !validKey(key)) fail(at(ccWhere, key), 'names no content type, route (`<uid>.find`, `<uid>.findOne`) or `graphql`');
    cacheControl[key] = string(at(ccWhere, key), value, { regex: /^[\x20-\x7e]+$/, description: 'a Cache-Control header value' });
  }
  return {
    etag: file.etag === undefined ? false : boolean(at(where, 'etag'), file.etag),
    cacheControl,
    surrogateKeys: surrogateKeys(at(where, 'surrogateKeys'), file.surrogateKeys),
    purge: file.purge === undefined ? null : purge(at(where, 'purge'), file.purge, env),
  };
}

function surrogateKeys(where: Where, json: unknown): SurrogateKeysConfig | null {
  if (json === undefined || json === false) return null;
  if (json === true) return { headers: ['Surrogate-Key', 'Cache-Tag'], maxBytes: DEFAULT_MAX_KEY_BYTES };
  const file = object(where, json, ['headers', 'maxBytes']);
  const names = Object.keys(KEY_HEADERS) as KeyHeader[];
  const list = file.headers === undefined ? ['Surrogate-Key', 'Cache-Tag'] : file.headers;
  if (!Array.isArray(list) || list.length === 0) fail(at(where, 'headers'), `must be a non-empty list of ${names.join(', ')} ${got(list)}`);
  const headers = list.map((name, index) => oneOf(at(at(where, 'headers'), index), name, names));
  return { headers: [...new Set(headers)], maxBytes: file.maxBytes === undefined ? DEFAULT_MAX_KEY_BYTES : integer(at(where, 'maxBytes'), file.maxBytes, { min: 64, max: 65_536 }) };
}

function purge(where: Where, json: unknown, env: Environment): PurgeConfig {
  const file = object(where, json, ['url', 'method', 'headers', 'body']);
  const url = string(at(where, 'url'), file.url);
  if (!/^https?:\/\/[^/\s]+/.test(url) || !URL.canParse(url)) fail(at(where, 'url'), `must be an http:// or https:// URL ${got(url)}`);
  const method = file.method === undefined ? 'POST' : string(at(where, 'method'), file.method, { regex: METHOD, description: 'an HTTP method in capitals' });
  const headersWhere = at(where, 'headers');
  const headersJson = object(headersWhere, file.headers ?? {}, Object.keys(file.headers ?? {}));
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(headersJson)) {
    if (!HEADER_NAME.test(name)) fail(at(headersWhere, name), 'is not a valid HTTP header name');
    const filled = withEnv(at(headersWhere, name), string(at(headersWhere, name), value), env);
    if (!HEADER_VALUE.test(filled)) fail(at(headersWhere, name), 'must be visible ASCII text');
    headers[name] = filled;
  }
  const body = file.body === undefined ? null : withEnv(at(where, 'body'), string(at(where, 'body'), file.body), env);
  return { url, method, headers, body };
}

/** `{env.<name>}` replaced by the variable's value; an unset one stops start-up. */
function withEnv(where: Where, template: string, env: Environment): string {
  return template.replace(/\{env\.([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const value = env[name];
    if (value === undefined || value === '') fail(where, `names the environment variable ${name}, which is not set`);
    return value;
  });
}
