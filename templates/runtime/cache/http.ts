/**
 * The cache headers of a content read's 200 answer, on every path that sends one (REST through
 * Express or the direct path, rendered or not, and GraphQL over GET): a strong ETag over the exact
 * bytes sent (and 304 Not Modified when If-None-Match names it), the route's Cache-Control, made
 * `private` for a caller with credentials, `Vary: Authorization`, and the surrogate keys.
 *
 * Nothing here runs for a route config/cache.json says nothing about (`HttpCache.route` is
 * undefined): its answers are sent exactly as before.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { KEY_HEADERS, type CacheConfig, type SurrogateKeysConfig } from './config.ts';
import type { AnswerKeys } from './keys.ts';

/** What one route sends besides its body. */
export interface RouteCache {
  readonly etag: boolean;
  /** Cache-Control for an anonymous caller and for one with credentials; undefined: none sent. */
  readonly anonymous: string | undefined;
  readonly authenticated: string | undefined;
  /** `Vary`: the request headers the answer depends on beyond its URL. */
  readonly vary: string;
  readonly keys: SurrogateKeysConfig | null;
}

/** The caching rules of config/cache.json, by route. */
export class HttpCache {
  constructor(readonly config: CacheConfig) {}

  /** Whether anything is configured at all. */
  get enabled(): boolean {
    return this.config.etag || this.config.surrogateKeys !== null || Object.keys(this.config.cacheControl).length > 0;
  }

  /**
   * The rule of a route: `keys` are its cacheControl keys, most specific first (`<uid>.findOne`,
   * `<uid>`); `vary` the request headers that change its answer. Undefined when nothing applies.
   */
  route(keys: readonly string[], vary: readonly string[]): RouteCache | undefined {
    if (!this.enabled) return undefined;
    const directives = keys.map((key) => this.config.cacheControl[key]).find((value) => value !== undefined);
    return {
      etag: this.config.etag,
      anonymous: directives,
      authenticated: directives === undefined ? undefined : privateDirectives(directives),
      vary: ['Authorization', ...vary].join(', '),
      keys: this.config.surrogateKeys,
    };
  }
}

/**
 * The directives for a caller with credentials: the same freshness for the caller's own cache,
 * nothing a shared cache may store (`private` replaces `public`; `s-maxage` and the
 * shared-cache-only directives go).
 */
export function privateDirectives(directives: string): string {
  const kept = directives
    .split(',')
    .map((directive) => directive.trim())
    .filter((directive) => directive !== '' && !/^(public|private|s-maxage|proxy-revalidate)\b/i.test(directive));
  return ['private', ...kept].join(', ');
}

/**
 * Sends a 200 answer of `text` with the route's cache headers, or 304 when the caller's
 * If-None-Match names its ETag. `keys` is only called when surrogate keys are configured.
 */
export function sendCached(req: IncomingMessage, res: ServerResponse, rule: RouteCache, contentType: string, text: string, keys: () => AnswerKeys): void {
  const credentials = req.headers.authorization !== undefined;
  const cacheControl = credentials ? rule.authenticated : rule.anonymous;
  if (rule.keys !== null) {
    const line = keyLine(keys(), rule.keys.maxBytes);
    // An answer whose keys cannot all be named could not be purged: no shared cache may keep it.
    if (line === undefined) res.setHeader('Cache-Control', 'no-store');
    else {
      for (const header of rule.keys.headers) res.setHeader(header, KEY_HEADERS[header] === ' ' ? line : line.replaceAll(' ', KEY_HEADERS[header]));
      if (cacheControl !== undefined) res.setHeader('Cache-Control', cacheControl);
    }
  } else if (cacheControl !== undefined) res.setHeader('Cache-Control', cacheControl);
  res.setHeader('Vary', rule.vary);
  if (rule.etag) {
    const etag = `"${createHash('sha1').update(text).digest('base64url')}"`;
    res.setHeader('ETag', etag);
    if (matches(req.headers['if-none-match'], etag)) {
      res.statusCode = 304;
      res.end();
      return;
    }
  }
  res.statusCode = 200;
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/**
 * The keys as one space-separated line: every key, or only the required ones (types, a single
 * answer's root) when that is longer than `maxBytes` (a type key covers its documents, since
 * every write purges its type's key too); undefined when there are none or even those do not fit.
 */
export function keyLine(keys: AnswerKeys, maxBytes: number): string | undefined {
  const required = [...keys.required].join(' ');
  // No key to purge it by (or too many to name): nothing may keep it.
  if (required === '' || required.length > maxBytes) return undefined;
  const all = keys.documents.size === 0 ? required : `${required} ${[...keys.documents].join(' ')}`;
  return all.length <= maxBytes ? all : required;
}

/** If-None-Match's weak comparison (RFC 9110 13.1.2): `*`, or any listed tag with the same opaque value. */
function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return (trimmed.startsWith('W/') ? trimmed.slice(2) : trimmed) === etag;
  });
}
