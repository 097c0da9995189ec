/**
 * The middlewares of config/middlewares.json turned into Express handlers, in the file's order.
 * Each Strapi middleware maps to the package that does the same job on Express (helmet, cors,
 * compression, pino-http, Express' body parsers and static files); the table below is the whole
 * mapping. Static files (`strapi::public`) are served after the API routes, as Strapi serves them
 * as routes: an API request never costs a file-system lookup.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import compression from 'compression';
import cors, { type CorsOptions } from 'cors';
import express, { type RequestHandler } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import type { Logger } from '../logger.ts';
import { QUERY_LIMITS, setQueryLimits } from '../query/query-string.ts';
import { plainJsonBody } from './json-body.ts';
import type { BodyConfig, CompressionConfig, CorsConfig, FaviconConfig, MiddlewareEntry, SecurityConfig, StaticConfig } from './config.ts';
import { requestLog } from './request-log.ts';
import { session } from './session.ts';

export interface BuiltMiddlewares {
  /** Run before the API routes, in the file's order. */
  readonly before: readonly RequestHandler[];
  /** Run after the API routes, before the 404 answer (static files). */
  readonly fallback: readonly RequestHandler[];
  /**
   * Those of `before` whose work only the project's code can see (`strapi::session`: nothing capi
   * serves reads a session): a route no project code runs on may skip them (direct.ts).
   */
  readonly forProjectCode: ReadonlySet<RequestHandler>;
}

export interface MiddlewareContext {
  readonly projectRoot: string;
  readonly logger: Logger;
  /** Tracing is on: the request log names each request's trace. */
  readonly traced?: boolean;
}

type Built = { readonly before?: RequestHandler; readonly fallback?: RequestHandler; readonly forProjectCode?: true };
type Builders = { readonly [N in MiddlewareEntry['name']]: (entry: Extract<MiddlewareEntry, { name: N }>, context: MiddlewareContext) => Built };

const builders: Builders = {
  'strapi::logger': (_entry, { logger, traced }) => ({ before: requestLog(logger, traced === true) }),
  // Strapi's error envelope is the app's last handler whatever the list says (server.ts).
  'strapi::errors': () => ({}),
  'strapi::security': ({ config }) => ({ before: helmet(helmetOptions(config)) }),
  'strapi::cors': ({ config }) => ({ before: cors(corsOptions(config)) }),
  'strapi::poweredBy': ({ config }) => ({
    before: (_req, res, next) => {
      res.setHeader('X-Powered-By', config.poweredBy);
      next();
    },
  }),
  'strapi::query': ({ config }) => {
    setQueryLimits(config);
    return {};
  },
  'strapi::body': ({ config }) => ({ before: bodyParsers(config) }),
  'strapi::session': ({ config }, { logger }) => ({ before: session(config, logger), forProjectCode: true }),
  'strapi::favicon': ({ config }, { projectRoot }) => ({ before: favicon(config, projectRoot) }),
  'strapi::public': ({ config }, { projectRoot }) => ({ fallback: publicFiles(config, projectRoot) }),
  'strapi::compression': ({ config }) => ({ before: compress(config) }),
};

export function buildMiddlewares(entries: readonly MiddlewareEntry[], context: MiddlewareContext): BuiltMiddlewares {
  const before: RequestHandler[] = [];
  const fallback: RequestHandler[] = [];
  const forProjectCode = new Set<RequestHandler>();
  // The parser's limits are per process: a list without strapi::query means the defaults, not
  // whatever an earlier app in the same process set.
  setQueryLimits(QUERY_LIMITS);
  for (const entry of entries) {
    const build = builders[entry.name] as (entry: MiddlewareEntry, context: MiddlewareContext) => Built;
    const built = build(entry, context);
    if (built.before !== undefined) before.push(built.before);
    if (built.before !== undefined && built.forProjectCode === true) forProjectCode.add(built.before);
    if (built.fallback !== undefined) fallback.push(built.fallback);
  }
  return { before, fallback, forProjectCode };
}

function helmetOptions(config: SecurityConfig): HelmetOptions {
  const csp = config.contentSecurityPolicy;
  return {
    contentSecurityPolicy: csp === false ? false : { useDefaults: csp.useDefaults, directives: csp.directives as Record<string, string[] | null> },
    crossOriginEmbedderPolicy: config.crossOriginEmbedderPolicy,
    crossOriginOpenerPolicy: config.crossOriginOpenerPolicy,
    crossOriginResourcePolicy: config.crossOriginResourcePolicy,
    originAgentCluster: config.originAgentCluster,
    referrerPolicy: config.referrerPolicy === false ? false : { policy: config.referrerPolicy.policy as NonNullable<Exclude<HelmetOptions['referrerPolicy'], boolean>>['policy'] },
    strictTransportSecurity: config.hsts,
    xFrameOptions: config.frameguard === false ? false : { action: config.frameguard.action },
    xXssProtection: config.xssFilter,
    xContentTypeOptions: config.noSniff,
    xDnsPrefetchControl: config.dnsPrefetchControl,
    xDownloadOptions: config.ieNoOpen,
    xPermittedCrossDomainPolicies: config.permittedCrossDomainPolicies,
    // Express' own header is off (server.ts); `strapi::poweredBy` sets Strapi's.
    xPoweredBy: false,
  };
}

/**
 * Strapi's `strapi::cors` on @koa/cors: a request without an Origin gets `*`; with `origin: "*"`
 * every origin gets `*` (never credentials: config.ts refuses the pair); with a list, a listed
 * origin is echoed and any other gets no CORS header at all.
 */
function corsOptions(config: CorsConfig): CorsOptions {
  return {
    origin: (origin, callback) => {
      if (origin === undefined || config.origin === '*') return callback(null, '*');
      return callback(null, config.origin.includes(origin) ? origin : false);
    },
    credentials: config.credentials,
    methods: [...config.methods],
    allowedHeaders: [...config.headers],
    exposedHeaders: [...config.expose],
    ...(config.maxAge === null ? {} : { maxAge: config.maxAge }),
    preflightContinue: false,
    optionsSuccessStatus: 204,
  };
}

/** A plain JSON body is read by json-body.ts, which answers as body-parser would; the rest by body-parser. */
function bodyParsers(config: BodyConfig): RequestHandler {
  const parsers = bodyParserChain(config);
  return config.json ? plainJsonBody(config.jsonLimit, parsers) : parsers;
}

/** koa-body's three parsers on body-parser, each with its limit; a larger body is a 413 in Strapi's envelope (errors.ts). */
export function bodyParserChain(config: BodyConfig): RequestHandler {
  const parsers: RequestHandler[] = [];
  if (config.json) parsers.push(express.json({ limit: config.jsonLimit, type: ['application/json', 'application/*+json'] }));
  if (config.urlencoded) parsers.push(express.urlencoded({ limit: config.formLimit, extended: true, parameterLimit: 1000 }));
  if (config.text) parsers.push(express.text({ limit: config.textLimit, type: 'text/*' }));
  return chain(parsers);
}

function chain(handlers: readonly RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let index = 0;
    const step = (error?: unknown): void => {
      const handler = handlers[index++];
      if (error !== undefined || handler === undefined) return next(error);
      handler(req, res, step);
    };
    step();
  };
}

/** `GET /favicon.ico` from the project root (koa-favicon); nothing when there is no icon. */
function favicon(config: FaviconConfig, projectRoot: string): RequestHandler {
  const configured = resolve(projectRoot, config.path);
  const path = existsSync(configured) ? configured : resolve(projectRoot, 'favicon.ico');
  const exists = existsSync(path);
  return (req, res, next) => {
    if (req.path !== '/favicon.ico' || !exists) return next();
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD, OPTIONS');
      res.status(req.method === 'OPTIONS' ? 200 : 405).end();
      return;
    }
    res.sendFile(path, { maxAge: config.maxAge, headers: { 'Content-Type': path.endsWith('.png') ? 'image/png' : 'image/x-icon' } }, (error) => {
      if (error !== undefined && !res.headersSent) next(error);
    });
  };
}

/** The project's `public/` folder (not `public/uploads`, which the upload routes serve), GET and HEAD only. */
function publicFiles(config: StaticConfig, projectRoot: string): RequestHandler {
  const files = express.static(join(projectRoot, 'public'), { maxAge: config.maxAge, index: config.defaultIndex ? 'index.html' : false, dotfiles: 'ignore', redirect: false, fallthrough: true });
  return (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path.startsWith('/uploads/')) return next();
    files(req, res, next);
  };
}

/**
 * koa-compress' settings on the compression package: answers above `threshold` bytes are sent
 * br, gzip or deflate as the client accepts; an encoding turned off is hidden from the package.
 */
function compress(config: CompressionConfig): RequestHandler {
  const handler = compression({ threshold: config.threshold });
  const off = (['br', 'gzip', 'deflate'] as const).filter((encoding) => !config[encoding]);
  if (off.length === 0) return handler;
  return (req, res, next) => {
    const accepted = req.headers['accept-encoding'];
    if (typeof accepted === 'string') {
      req.headers['accept-encoding'] = accepted
        .split(',')
        .filter((part) => !off.includes(part.split(';')[0]?.trim().toLowerCase() as (typeof off)[number]))
        .join(',');
    }
    handler(req, res, next);
  };
}
