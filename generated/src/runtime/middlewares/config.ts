/**
 * config/middlewares.json: the HTTP middlewares of the server, named and configured as in a
 * Strapi project's `config/middlewares.js`, so that its exported array ports one to one: each
 * entry is a name (`"strapi::cors"`) or `{ "name": "strapi::cors", "config": { ... } }`, and they
 * run in the order listed. A missing file means Strapi 5's default list.
 *
 * Every option is checked at start-up: an unknown name, key or a value of the wrong type stops
 * the server with one line naming the entry. Names outside `strapi::` (`global::`, `plugin::`,
 * `api::`) are code in a Strapi project; the message says to port them to src/extensions/.
 */
import { array, at, boolean, closest, fail, got, integer, object, oneOf, string, type JsonObject, type Where } from '../config-check.ts';

/** Strapi 5's `config/middlewares.js` of a new project, in its order. */
export const defaultMiddlewareList = [
  'strapi::logger',
  'strapi::errors',
  'strapi::security',
  'strapi::cors',
  'strapi::poweredBy',
  'strapi::query',
  'strapi::body',
  'strapi::session',
  'strapi::favicon',
  'strapi::public',
] as const;

/** helmet's options as Strapi's `strapi::security` takes them (a subset that covers its defaults and common edits). */
export interface SecurityConfig {
  /** false: no Content-Security-Policy header. Directive names in either spelling (`img-src` or `imgSrc`). */
  readonly contentSecurityPolicy: false | { readonly useDefaults: boolean; readonly directives: Readonly<Record<string, readonly string[] | null>> };
  readonly crossOriginEmbedderPolicy: false | { readonly policy: 'require-corp' | 'credentialless' | 'unsafe-none' };
  readonly crossOriginOpenerPolicy: false | { readonly policy: 'same-origin' | 'same-origin-allow-popups' | 'unsafe-none' };
  readonly crossOriginResourcePolicy: false | { readonly policy: 'same-origin' | 'same-site' | 'cross-origin' };
  readonly originAgentCluster: boolean;
  readonly referrerPolicy: false | { readonly policy: readonly string[] };
  readonly hsts: false | { readonly maxAge: number; readonly includeSubDomains: boolean; readonly preload: boolean };
  readonly frameguard: false | { readonly action: 'deny' | 'sameorigin' };
  readonly xssFilter: boolean;
  readonly noSniff: boolean;
  readonly dnsPrefetchControl: false | { readonly allow: boolean };
  readonly ieNoOpen: boolean;
  readonly permittedCrossDomainPolicies: false | { readonly permittedPolicies: 'none' | 'master-only' | 'by-content-type' | 'all' };
}

export interface CorsConfig {
  /** `*`, one origin, or a list; a comma-separated string is a list, as in Strapi. */
  readonly origin: '*' | readonly string[];
  readonly credentials: boolean;
  readonly methods: readonly string[];
  readonly headers: readonly string[];
  readonly expose: readonly string[];
  /** Seconds browsers may cache a preflight answer. */
  readonly maxAge: number | null;
}

export interface BodyConfig {
  /** Bytes. */
  readonly jsonLimit: number;
  readonly formLimit: number;
  readonly textLimit: number;
  readonly json: boolean;
  readonly urlencoded: boolean;
  readonly text: boolean;
}

export interface QueryConfig {
  readonly depth: number;
  readonly arrayLimit: number;
  readonly parameterLimit: number;
}

export interface CompressionConfig {
  /** Bytes below which answers are sent as they are. */
  readonly threshold: number;
  readonly br: boolean;
  readonly gzip: boolean;
  readonly deflate: boolean;
}

export interface StaticConfig {
  /** Milliseconds browsers may cache the files. */
  readonly maxAge: number;
  /** `public/index.html` answers `GET /` (Strapi serves its own welcome page there). */
  readonly defaultIndex: boolean;
}

/**
 * koa-session's options as Strapi's `strapi::session` takes them, served by cookie-session (the
 * session lives in a signed cookie, as koa-session's default store keeps it).
 */
export interface SessionConfig {
  /** The cookie's name ("koa.sess"); its signature is `<key>.sig`. */
  readonly key: string;
  /** Milliseconds; "session": a cookie that ends with the browser session. */
  readonly maxAge: number | 'session';
  readonly httpOnly: boolean;
  /** Strapi's default: true in production (the cookie is then only sent over HTTPS). */
  readonly secure: boolean;
  /** false: no SameSite attribute (Strapi's `null`). */
  readonly sameSite: 'strict' | 'lax' | 'none' | false;
  readonly signed: boolean;
  readonly overwrite: boolean;
  /** APP_KEYS (Strapi's `app.keys`), comma-separated; null when not set. */
  readonly keys: readonly string[] | null;
}

export interface FaviconConfig {
  /** Relative to the project root; `favicon.ico` when the configured file does not exist, as in Strapi. */
  readonly path: string;
  readonly maxAge: number;
}

/** One configured middleware, in the order of the file. */
export type MiddlewareEntry =
  | { readonly name: 'strapi::logger' }
  | { readonly name: 'strapi::errors' }
  | { readonly name: 'strapi::security'; readonly config: SecurityConfig }
  | { readonly name: 'strapi::cors'; readonly config: CorsConfig }
  | { readonly name: 'strapi::poweredBy'; readonly config: { readonly poweredBy: string } }
  | { readonly name: 'strapi::query'; readonly config: QueryConfig }
  | { readonly name: 'strapi::body'; readonly config: BodyConfig }
  | { readonly name: 'strapi::session'; readonly config: SessionConfig }
  | { readonly name: 'strapi::favicon'; readonly config: FaviconConfig }
  | { readonly name: 'strapi::public'; readonly config: StaticConfig }
  | { readonly name: 'strapi::compression'; readonly config: CompressionConfig };

export type MiddlewareName = MiddlewareEntry['name'];

/** Defaults that come from elsewhere: server.json's `jsonLimit`, from before middlewares.json existed; the environment (NODE_ENV, APP_KEYS). */
export interface MiddlewareDefaults {
  readonly jsonLimit: number;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

type Reader = (where: Where, config: JsonObject | undefined, defaults: MiddlewareDefaults) => MiddlewareEntry;

/** Strapi 5's defaults for each middleware (packages/core/core/src/middlewares/*), checked and filled in. */
const readers: Readonly<Record<MiddlewareName, Reader>> = {
  'strapi::logger': (where, config) => (noOptions(where, config), { name: 'strapi::logger' }),
  'strapi::errors': (where, config) => (noOptions(where, config), { name: 'strapi::errors' }),
  'strapi::security': (where, config) => ({ name: 'strapi::security', config: securityConfig(where, config ?? {}) }),
  'strapi::cors': (where, config) => ({ name: 'strapi::cors', config: corsConfig(where, config ?? {}) }),
  'strapi::poweredBy': (where, config) => {
    const c = object(where, config ?? {}, ['poweredBy']);
    // capi answers, not Strapi: the header names what serves the request (configurable, as in Strapi).
    return { name: 'strapi::poweredBy', config: { poweredBy: c.poweredBy === undefined ? 'capi' : string(at(where, 'poweredBy'), c.poweredBy) } };
  },
  'strapi::query': (where, config) => {
    const c = object(where, config ?? {}, ['depth', 'arrayLimit', 'parameterLimit', 'strictNullHandling']);
    // Strapi sets strictNullHandling; capi's parser always reads `a` and `a=` alike, so only true is meaningful.
    if (c.strictNullHandling !== undefined && c.strictNullHandling !== true) fail(at(where, 'strictNullHandling'), `can only be true ${got(c.strictNullHandling)}`);
    return {
      name: 'strapi::query',
      config: {
        depth: c.depth === undefined ? 20 : integer(at(where, 'depth'), c.depth, { min: 1, max: 100 }),
        arrayLimit: c.arrayLimit === undefined ? 100 : integer(at(where, 'arrayLimit'), c.arrayLimit, { min: 1, max: 10_000 }),
        parameterLimit: c.parameterLimit === undefined ? 1000 : integer(at(where, 'parameterLimit'), c.parameterLimit, { min: 1, max: 100_000 }),
      },
    };
  },
  'strapi::body': (where, config, defaults) => {
    // koa-body's names and defaults (1mb JSON, 56kb form and text); multipart is the upload route's.
    const c = object(where, config ?? {}, ['jsonLimit', 'formLimit', 'textLimit', 'json', 'urlencoded', 'text', 'multipart', 'patchKoa', 'formidable', 'includeUnparsed']);
    return {
      name: 'strapi::body',
      config: {
        jsonLimit: c.jsonLimit === undefined ? defaults.jsonLimit : byteSize(at(where, 'jsonLimit'), c.jsonLimit),
        formLimit: c.formLimit === undefined ? 56 * 1024 : byteSize(at(where, 'formLimit'), c.formLimit),
        textLimit: c.textLimit === undefined ? 56 * 1024 : byteSize(at(where, 'textLimit'), c.textLimit),
        json: c.json === undefined ? true : boolean(at(where, 'json'), c.json),
        urlencoded: c.urlencoded === undefined ? true : boolean(at(where, 'urlencoded'), c.urlencoded),
        text: c.text === undefined ? true : boolean(at(where, 'text'), c.text),
      },
    };
  },
  'strapi::session': (where, config, defaults) => ({ name: 'strapi::session', config: sessionConfig(where, config ?? {}, defaults.env ?? {}) }),
  'strapi::favicon': (where, config) => {
    const c = object(where, config ?? {}, ['path', 'maxAge']);
    return {
      name: 'strapi::favicon',
      config: {
        path: c.path === undefined ? 'favicon.png' : string(at(where, 'path'), c.path),
        maxAge: c.maxAge === undefined ? 86_400_000 : integer(at(where, 'maxAge'), c.maxAge, { min: 0 }),
      },
    };
  },
  'strapi::public': (where, config) => {
    const c = object(where, config ?? {}, ['maxAge', 'defaultIndex']);
    return {
      name: 'strapi::public',
      config: {
        maxAge: c.maxAge === undefined ? 60_000 : integer(at(where, 'maxAge'), c.maxAge, { min: 0 }),
        defaultIndex: c.defaultIndex === undefined ? true : boolean(at(where, 'defaultIndex'), c.defaultIndex),
      },
    };
  },
  'strapi::compression': (where, config) => {
    // koa-compress's names: `threshold` (1024 bytes), and `br`/`gzip`/`deflate` (false turns one off).
    const c = object(where, config ?? {}, ['threshold', 'br', 'gzip', 'deflate']);
    const encoding = (key: 'br' | 'gzip' | 'deflate'): boolean => {
      const value = c[key];
      if (value === undefined || value === true) return true;
      if (value === false) return false;
      // koa-compress takes an options object to tune an encoding: it stays on with zlib's defaults.
      object(at(where, key), value, ['params', 'level', 'flush', 'chunkSize']);
      return true;
    };
    return {
      name: 'strapi::compression',
      config: { threshold: c.threshold === undefined ? 1024 : byteSize(at(where, 'threshold'), c.threshold), br: encoding('br'), gzip: encoding('gzip'), deflate: encoding('deflate') },
    };
  },
};

export const knownMiddlewareNames = Object.keys(readers) as MiddlewareName[];

/** Parses config/middlewares.json (its JSON, or undefined when the file is missing). Throws ConfigError. */
export function middlewaresConfig(where: Where, json: unknown, defaults: MiddlewareDefaults = { jsonLimit: 1_048_576 }): readonly MiddlewareEntry[] {
  const list = json === undefined ? defaultMiddlewareList : array(where, json);
  const entries = list.map((item, index) => middlewareEntry(at(where, index), item, defaults));
  // Without it no route could read a JSON body; in Strapi too the API would stop working.
  if (!entries.some((entry) => entry.name === 'strapi::body')) fail(where, 'must list "strapi::body": every write and GraphQL request has a JSON body');
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    if (seen.has(entry.name)) fail(at(where, index), `lists "${entry.name}" a second time`);
    seen.add(entry.name);
  });
  return entries;
}

function middlewareEntry(where: Where, item: unknown, defaults: MiddlewareDefaults): MiddlewareEntry {
  let name: string;
  let config: JsonObject | undefined;
  if (typeof item === 'string') {
    name = item;
  } else {
    const o = object(where, item, ['name', 'config', 'resolve']);
    if (o.resolve !== undefined) fail(at(where, 'resolve'), 'points to code: port that middleware to src/extensions/index.ts (middlewares.before or .after, see docs/extending.md)');
    name = string(at(where, 'name'), o.name);
    config = o.config === undefined ? undefined : anyObject(at(where, 'config'), o.config);
  }
  const reader = (readers as Readonly<Record<string, Reader>>)[name];
  if (reader !== undefined) return reader(at(where, 'config'), config, defaults);
  if (/^(global|plugin|api)::/.test(name)) {
    fail(where, `"${name}" is custom code of the Strapi project: port it to src/extensions/index.ts (middlewares.before or .after, see docs/extending.md) and remove it from this file`);
  }
  const guess = closest(name, knownMiddlewareNames);
  fail(where, `is not a middleware capi knows ${got(name)}${guess === undefined ? '' : ` (did you mean "${guess}"?)`}; known: ${knownMiddlewareNames.join(', ')}`);
}

/** A JSON object whose keys the caller checks itself. */
function anyObject(where: Where, value: unknown): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(where, `must be a JSON object ${got(value)}`);
  return value as JsonObject;
}

function noOptions(where: Where, config: JsonObject | undefined): void {
  if (config !== undefined) object(where, config, []);
}

const byteUnits: Readonly<Record<string, number>> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** Bytes: a number, or a size as koa-body and the `bytes` package write it (`"1mb"`, `"56kb"`). */
export function byteSize(where: Where, value: unknown): number {
  if (typeof value === 'number') return integer(where, value, { min: 1 });
  const match = typeof value === 'string' ? /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(value.trim()) : null;
  const bytes = match === null ? Number.NaN : Math.floor(Number(match[1]) * (byteUnits[(match[2] ?? 'b').toLowerCase()] ?? Number.NaN));
  if (!Number.isSafeInteger(bytes) || bytes < 1) fail(where, `must be a number of bytes or a size like "1mb" or "56kb" ${got(value)}`);
  return bytes;
}

function stringList(where: Where, value: unknown): string[] {
  if (typeof value === 'string')
    return value
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  return array(where, value).map((item, i) => string(at(where, i), item));
}

function corsConfig(where: Where, json: JsonObject): CorsConfig {
  const c = object(where, json, ['origin', 'credentials', 'methods', 'headers', 'expose', 'maxAge', 'keepHeadersOnError', 'enabled']);
  // Accepted for the port: error answers keep the CORS headers either way (as they do in Strapi,
  // whose errors middleware answers inside the CORS one).
  if (c.keepHeadersOnError !== undefined) boolean(at(where, 'keepHeadersOnError'), c.keepHeadersOnError);
  if (c.enabled !== undefined) fail(at(where, 'enabled'), 'is not supported (Strapi 5 dropped it too): remove "strapi::cors" from the list to turn CORS off');
  const originList = c.origin === undefined ? ['*'] : stringList(at(where, 'origin'), c.origin);
  if (originList.length === 0) fail(at(where, 'origin'), `must name at least one origin, or "*" ${got(c.origin)}`);
  const origin = originList.length === 1 && originList[0] === '*' ? '*' : originList;
  if (origin !== '*' && origin.includes('*')) fail(at(where, 'origin'), `mixes "*" with origins ${got(c.origin)}`);
  return {
    origin,
    credentials: corsCredentials(at(where, 'credentials'), c.credentials, origin),
    methods: c.methods === undefined ? ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] : stringList(at(where, 'methods'), c.methods).map((m) => m.toUpperCase()),
    headers: c.headers === undefined ? ['Content-Type', 'Authorization', 'Origin', 'Accept'] : stringList(at(where, 'headers'), c.headers),
    expose: c.expose === undefined ? [] : stringList(at(where, 'expose'), c.expose),
    maxAge: c.maxAge === undefined ? 31_536_000 : c.maxAge === null ? null : integer(at(where, 'maxAge'), c.maxAge, { min: 0 }),
  };
}

/**
 * Credentials go with named origins only. Strapi's default (credentials with any origin) echoes
 * every caller's origin with `Access-Control-Allow-Credentials: true`, so that any web page may
 * send a visitor's cookies and read the answers; browsers refuse `*` with credentials for that
 * reason. The default is therefore credentials with a list and none with `*`, and asking for both
 * is refused rather than quietly weakened or dropped.
 */
function corsCredentials(where: Where, value: unknown, origin: CorsConfig['origin']): boolean {
  if (value === undefined) return origin !== '*';
  const credentials = boolean(where, value);
  if (credentials && origin === '*') {
    fail(
      where,
      'cannot be true with origin "*": any web page could then send your visitors\' cookies and read the answers. List the origins allowed to (origin: ["https://front.example"]), or set credentials to false',
    );
  }
  return credentials;
}

/** Strapi's `strapi::security` defaults, which its own config deep-merges over. */
const securityDefaults = {
  crossOriginEmbedderPolicy: false,
  crossOriginOpenerPolicy: false,
  crossOriginResourcePolicy: false,
  originAgentCluster: false,
  contentSecurityPolicy: {
    useDefaults: true,
    directives: {
      'connect-src': ["'self'", 'https:'],
      'img-src': ["'self'", 'data:', 'blob:', 'https://market-assets.strapi.io'],
      'media-src': ["'self'", 'data:', 'blob:'],
      'upgrade-insecure-requests': null,
    },
  },
  xssFilter: false,
  hsts: { maxAge: 31_536_000, includeSubDomains: true, preload: false },
  frameguard: { action: 'sameorigin' },
} as const;

/** helmet's options: `false` turns a header off, `true` or an object keeps it (with these settings). */
function securityConfig(where: Where, json: JsonObject): SecurityConfig {
  const c = object(where, json, [
    'contentSecurityPolicy',
    'crossOriginEmbedderPolicy',
    'crossOriginOpenerPolicy',
    'crossOriginResourcePolicy',
    'originAgentCluster',
    'referrerPolicy',
    'hsts',
    'frameguard',
    'xssFilter',
    'noSniff',
    'dnsPrefetchControl',
    'ieNoOpen',
    'permittedCrossDomainPolicies',
  ]);
  const flag = (key: string, fallback: boolean): boolean => (c[key] === undefined ? fallback : boolean(at(where, key), c[key]));
  const section = <T>(key: string, read: (w: Where, o: JsonObject) => T, fallback: T | false): T | false => {
    const value = c[key];
    if (value === undefined) return fallback;
    if (value === false) return false;
    if (value === true) return fallback === false ? read(at(where, key), {}) : fallback;
    return read(at(where, key), anyObject(at(where, key), value));
  };
  const defaults = securityDefaults;
  return {
    contentSecurityPolicy: section('contentSecurityPolicy', (w, o) => contentSecurityPolicy(w, o), contentSecurityPolicy(at(where, 'contentSecurityPolicy'), {})),
    crossOriginEmbedderPolicy: section(
      'crossOriginEmbedderPolicy',
      (w, o) => {
        const p = object(w, o, ['policy']);
        return { policy: p.policy === undefined ? 'require-corp' : oneOf(at(w, 'policy'), p.policy, ['require-corp', 'credentialless', 'unsafe-none'] as const) };
      },
      defaults.crossOriginEmbedderPolicy,
    ),
    crossOriginOpenerPolicy: section(
      'crossOriginOpenerPolicy',
      (w, o) => {
        const p = object(w, o, ['policy']);
        return { policy: p.policy === undefined ? 'same-origin' : oneOf(at(w, 'policy'), p.policy, ['same-origin', 'same-origin-allow-popups', 'unsafe-none'] as const) };
      },
      defaults.crossOriginOpenerPolicy,
    ),
    crossOriginResourcePolicy: section(
      'crossOriginResourcePolicy',
      (w, o) => {
        const p = object(w, o, ['policy']);
        return { policy: p.policy === undefined ? 'same-origin' : oneOf(at(w, 'policy'), p.policy, ['same-origin', 'same-site', 'cross-origin'] as const) };
      },
      false,
    ),
    originAgentCluster: flag('originAgentCluster', defaults.originAgentCluster),
    referrerPolicy: section(
      'referrerPolicy',
      (w, o) => {
        const p = object(w, o, ['policy']);
        return { policy: p.policy === undefined ? ['no-referrer'] : stringList(at(w, 'policy'), p.policy) };
      },
      { policy: ['no-referrer'] },
    ),
    hsts: section(
      'hsts',
      (w, o) => {
        const h = object(w, o, ['maxAge', 'includeSubDomains', 'preload']);
        return {
          maxAge: h.maxAge === undefined ? defaults.hsts.maxAge : integer(at(w, 'maxAge'), h.maxAge, { min: 0 }),
          includeSubDomains: h.includeSubDomains === undefined ? defaults.hsts.includeSubDomains : boolean(at(w, 'includeSubDomains'), h.includeSubDomains),
          preload: h.preload === undefined ? false : boolean(at(w, 'preload'), h.preload),
        };
      },
      defaults.hsts,
    ),
    frameguard: section(
      'frameguard',
      (w, o) => {
        const f = object(w, o, ['action']);
        return { action: f.action === undefined ? 'sameorigin' : oneOf(at(w, 'action'), typeof f.action === 'string' ? f.action.toLowerCase() : f.action, ['deny', 'sameorigin'] as const) };
      },
      defaults.frameguard,
    ),
    xssFilter: flag('xssFilter', defaults.xssFilter),
    noSniff: flag('noSniff', true),
    dnsPrefetchControl: section(
      'dnsPrefetchControl',
      (w, o) => {
        const d = object(w, o, ['allow']);
        return { allow: d.allow === undefined ? false : boolean(at(w, 'allow'), d.allow) };
      },
      { allow: false },
    ),
    ieNoOpen: flag('ieNoOpen', true),
    permittedCrossDomainPolicies: section(
      'permittedCrossDomainPolicies',
      (w, o) => {
        const p = object(w, o, ['permittedPolicies']);
        return { permittedPolicies: p.permittedPolicies === undefined ? 'none' : oneOf(at(w, 'permittedPolicies'), p.permittedPolicies, ['none', 'master-only', 'by-content-type', 'all'] as const) };
      },
      { permittedPolicies: 'none' },
    ),
  };
}

/**
 * Strapi deep-merges the user's directives over its own (lodash defaultsDeep: the user's value of
 * a directive replaces Strapi's); helmet then adds its defaults for directives not given.
 */
function contentSecurityPolicy(where: Where, json: JsonObject): Exclude<SecurityConfig['contentSecurityPolicy'], false> {
  const c = object(where, json, ['useDefaults', 'directives', 'reportOnly']);
  if (c.reportOnly !== undefined && c.reportOnly !== false) fail(at(where, 'reportOnly'), `is not supported ${got(c.reportOnly)}`);
  const dw = at(where, 'directives');
  const given = c.directives === undefined ? {} : anyObject(dw, c.directives);
  const directives: Record<string, readonly string[] | null> = { ...securityDefaults.contentSecurityPolicy.directives };
  for (const [key, value] of Object.entries(given)) {
    const name = key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
    if (!/^[a-z]+(-[a-z]+)*$/.test(name)) fail(at(dw, key), 'is not a Content-Security-Policy directive name');
    directives[name] = value === null ? null : stringList(at(dw, key), value);
  }
  return { useDefaults: c.useDefaults === undefined ? true : boolean(at(where, 'useDefaults'), c.useDefaults), directives };
}

/** Strapi 5's defaults (packages/core/core/src/middlewares/session.ts), in koa-session's names. */
function sessionConfig(where: Where, json: JsonObject, env: Readonly<Record<string, string | undefined>>): SessionConfig {
  const c = object(where, json, ['key', 'maxAge', 'autoCommit', 'overwrite', 'httpOnly', 'signed', 'rolling', 'renew', 'secure', 'sameSite']);
  // koa-session's rolling/renew re-send the cookie on every answer or near its end; cookie-session
  // sends it when the session changes. Refused rather than ignored.
  for (const key of ['rolling', 'renew'] as const) {
    if (c[key] !== undefined && boolean(at(where, key), c[key])) fail(at(where, key), `can only be false: capi's session sends its cookie when the session changes ${got(c[key])}`);
  }
  if (c.autoCommit !== undefined && !boolean(at(where, 'autoCommit'), c.autoCommit)) fail(at(where, 'autoCommit'), `can only be true: nothing in capi commits a session by hand ${got(c.autoCommit)}`);
  const keys = (env.APP_KEYS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
  return {
    key: c.key === undefined ? 'koa.sess' : string(at(where, 'key'), c.key),
    maxAge: c.maxAge === undefined ? 86_400_000 : c.maxAge === 'session' ? 'session' : integer(at(where, 'maxAge'), c.maxAge, { min: 1 }),
    httpOnly: c.httpOnly === undefined ? true : boolean(at(where, 'httpOnly'), c.httpOnly),
    secure: c.secure === undefined ? env.NODE_ENV?.trim() === 'production' : boolean(at(where, 'secure'), c.secure),
    sameSite:
      c.sameSite === undefined || c.sameSite === null || c.sameSite === false ? false : oneOf(at(where, 'sameSite'), c.sameSite === true ? 'strict' : c.sameSite, ['strict', 'lax', 'none'] as const),
    signed: c.signed === undefined ? true : boolean(at(where, 'signed'), c.signed),
    overwrite: c.overwrite === undefined ? true : boolean(at(where, 'overwrite'), c.overwrite),
    keys: keys.length === 0 ? null : keys,
  };
}
