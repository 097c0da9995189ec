/**
 * The HTTP server: an Express app with the pieces every generated project shares (the
 * middlewares of config/middlewares.json, rate limits, liveness and readiness probes, Strapi's
 * error envelope for everything that goes wrong) and explicit mount points where the REST and
 * GraphQL routers plug in. `startServer` is the whole start-up: .env, config, database,
 * migrations, app, listen, graceful shutdown.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import express, { type ErrorRequestHandler, type Express, type RequestHandler, type Router } from 'express';
import { loadConfig, type AppConfig, type Environment } from './config.ts';
import { loadDotEnv } from './env.ts';
import { buildMiddlewares } from './middlewares/index.ts';
import { requestId, requestLogger } from './middlewares/request-log.ts';
import { isRateLimited, routeGroupLimits } from './rate-limit/index.ts';
import { directListener, type DirectRoute } from './direct.ts';
import { openDatabase, type Database } from './database.ts';
import { InternalServerError, NotFoundError, ValidationError, envelope, toErrorResponse } from './errors.ts';
import { jsonBodyGuard } from './body-guard.ts';
import { createLogger, logLevelFromEnv, type Logger } from './logger.ts';
import { applyMigrations } from './migrate.ts';
import { mountProbes, Readiness } from './probes.ts';
import { queryCounter } from './query-count.ts';
import { primaryOf, replicaMiddlewares, withReplicas } from './replicas/index.ts';
import { noObservability, startObservability, type Observability } from './observability/index.ts';
import { sendJson } from './send.ts';
import type { ModelSchema } from './schema.ts';
import { wellEncodedPath } from './url-encoding.ts';

/** What every router gets to work with. */
export interface AppContext {
  readonly config: AppConfig;
  readonly db: Database;
  readonly model: ModelSchema;
  readonly logger: Logger;
  /** The environment the server runs with (process.env and .env); absent in tests of one module, which then read process.env. */
  readonly env?: Environment;
  /**
   * Registers background work (the webhook delivery worker) to stop at shutdown, after the last
   * request and before the database closes. Absent where no server runs (tests of one module).
   */
  readonly onClose?: (stop: () => Promise<void>) => void;
}

/** A router (or handler) and the path it is mounted at, e.g. `{ path: '/api', handler: restRouter }`. */
export interface Mount {
  readonly path: string;
  readonly handler: Router | RequestHandler;
  /**
   * Routes of `handler` the server may answer without Express (direct.ts), full paths: each must
   * run exactly what Express would run for it after the app-wide middlewares.
   */
  readonly direct?: readonly DirectRoute[];
}

/** Builds mounts once the context exists (routers need the database and config). */
export type MountFactory = (context: AppContext) => Mount | readonly Mount[] | Promise<Mount | readonly Mount[]>;

export interface CreateAppOptions extends AppContext {
  /** Report each request's SQL statement count in an `X-Query-Count` header (tests, benchmarks). */
  readonly countQueries?: boolean;
  /** Mounted in order, after the built-in routes and before the 404 fallback. */
  readonly mounts?: readonly Mount[];
  /** Answer the mounts' direct routes without Express (direct.ts). Default true; `CAPI_DIRECT_PATH=0` turns it off. */
  readonly direct?: boolean;
  /** What `/_ready` answers by; the server's own, which its shutdown turns off. Default: always ready. */
  readonly readiness?: Readiness;
  /** Metrics and traces (observability/index.ts); none by default. */
  readonly observability?: Observability;
}

export function createApp(options: CreateAppOptions): Express {
  return buildApp(options).app;
}

/**
 * The server's request listener: the mounts' direct routes answered by direct.ts, after the same
 * app-wide handlers in the same order as the Express app runs them, and everything else by the
 * app. A route of a rate-limited group stays on Express, whose limiter keys on Express' `req.ip`.
 */
export function createRequestListener(options: CreateAppOptions): RequestListener {
  const built = buildApp(options);
  if (options.direct === false) return built.app;
  const limited = (route: DirectRoute): boolean => isRateLimited(options.config.rateLimits, route.method, route.path);
  const routes = (options.mounts ?? []).flatMap((mount) => mount.direct ?? []).filter((route) => !limited(route));
  options.logger.debug(`direct path: ${routes.length === 0 ? 'none' : routes.map((route) => `${route.method} ${route.path}`).join(', ')}`);
  return directListener(routes, { fallback: built.app, before: built.before, forProjectCode: built.forProjectCode, onError: built.onError, trustProxy: options.config.server.proxy === true });
}

interface BuiltApp {
  readonly app: Express;
  /** The app-wide handlers every request passes before the routes, in order. */
  readonly before: readonly RequestHandler[];
  /** Those of `before` only the project's code needs (BuiltMiddlewares.forProjectCode). */
  readonly forProjectCode: ReadonlySet<RequestHandler>;
  readonly onError: ErrorRequestHandler;
}

function buildApp(options: CreateAppOptions): BuiltApp {
  const { config, db, logger } = options;
  const observability = options.observability ?? noObservability;
  const app = express();
  app.disable('x-powered-by');
  // Queries are parsed by the content API with its own qs limits, and JSON answers carry no
  // ETag: both are per-request work Express would otherwise do for nothing.
  app.set('query parser', false);
  app.set('etag', false);
  // Behind a proxy, req.ip (rate limits, logs) must be the client's, not the proxy's.
  if (config.server.proxy) app.set('trust proxy', true);
  const middlewares = buildMiddlewares(config.middlewares, { projectRoot: config.projectRoot, logger, traced: observability.traced });
  const before: RequestHandler[] = [
    ...observability.before,
    requestId,
    ...middlewares.before,
    wellEncodedPath,
    // After the body is read: a scope opened before would be lost across the body stream's callbacks.
    ...replicaMiddlewares(db, config.replicas),
    ...(options.countQueries === true ? [queryCounter(db)] : []),
    jsonBodyGuard,
  ];
  for (const handler of before) app.use(handler);
  // Counters every request reads and writes at once: on the primary, whatever replicas there are.
  app.use(routeGroupLimits(config.rateLimits, primaryOf(db)));

  if (observability.endpoint !== undefined) app.get(observability.endpoint.path, observability.endpoint.handler);

  mountProbes(app, db, logger, options.readiness ?? new Readiness());

  for (const mount of options.mounts ?? []) app.use(mount.path, mount.handler);
  for (const fallback of middlewares.fallback) app.use(fallback);

  app.use((_req, res) => {
    sendJson(res, 404, envelope(new NotFoundError()));
  });
  const onError = errorHandler(logger);
  app.use(onError);
  return { app, before, forProjectCode: middlewares.forProjectCode, onError };
}

function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const response = toErrorResponse(error);
    // The request's own logger: the line carries its request id, as its request log line does.
    if (response.unexpected) requestLogger(req, logger).error({ err: error, method: req.method, path: req.path }, 'unhandled error');
    if (res.headersSent) {
      // Part of a response is out already; the only honest signal left is a cut connection.
      req.socket.destroy();
      return;
    }
    try {
      sendJson(res, response.status, response.body);
    } catch (failure) {
      // The envelope is bounded (errors.ts), so this is a bug; still, the handler must answer.
      logger.error({ err: failure }, 'error response could not be serialized');
      sendJson(res, response.status, envelope(response.status >= 500 ? new InternalServerError() : new ValidationError('Bad Request')));
    }
  };
}

export interface StartServerOptions {
  readonly projectRoot: string;
  readonly model: ModelSchema;
  readonly mounts?: readonly MountFactory[];
  /** Defaults to `process.env`. The project's `.env` fills in what it lacks (into a copy when given). */
  readonly env?: Environment;
  /** Defaults to a pino logger on stdout at LOG_LEVEL. */
  readonly logger?: Logger;
  /** Close gracefully on SIGINT/SIGTERM, then exit. Default true; tests turn it off. */
  readonly handleSignals?: boolean;
  /** Defaults to `<projectRoot>/prisma/migrations`. */
  readonly migrationsDir?: string;
  /** Apply pending migrations first (default true); cluster workers leave it to the primary. */
  readonly migrate?: boolean;
  /** The project's configuration when the caller has loaded it already (main.ts): read once per process. */
  readonly config?: AppConfig;
}

export interface RunningServer {
  readonly context: AppContext;
  readonly server: Server;
  /** The port actually bound (useful when the configured port is 0). */
  readonly port: number;
  /** `http://host:port`. */
  readonly url: string;
  /** Stops accepting connections, lets requests in flight finish, then closes the database. */
  close(): Promise<void>;
  /**
   * The graceful stop of SIGTERM/SIGINT: `/_ready` answers 503 at once, the server keeps serving
   * for config/server.json's `shutdown.drain` (so that load balancers take it out of rotation
   * first), then `close()`.
   */
  stop(): Promise<void>;
}

/** The server could not listen (port in use, no permission, unknown address). */
export class ListenError extends Error {
  override readonly name = 'ListenError';
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/**
 * Loads config, opens the database, applies pending migrations, builds the app and listens.
 * Rejects with ConfigError, DatabaseOpenError, MigrationError or ListenError; whatever was opened
 * before the failure is closed again.
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  // process.env itself when no env is given, so that every reader of process.env sees .env too.
  const env: Record<string, string | undefined> = options.env === undefined ? process.env : { ...options.env };
  loadDotEnv(options.projectRoot, env);
  const logger = options.logger ?? createLogger({ level: logLevelFromEnv(env) });
  const config = options.config ?? loadConfig({ projectRoot: options.projectRoot, env, model: options.model });
  const primary = await openDatabase(config.database, {
    onBackgroundError: (error) => logger.warn({ err: error }, 'idle database connection failed'),
    onWarning: (message) => logger.warn(message),
    statementTimeoutMs: config.api.query.timeoutMs,
  });
  const readiness = new Readiness();
  let db = primary;
  let server: Server;
  let context: AppContext;
  const stops: (() => Promise<void>)[] = [];
  try {
    if (options.migrate ?? true) await applyMigrations(primary, options.migrationsDir ?? join(config.projectRoot, 'prisma', 'migrations'), logger);
    db = await withReplicas(primary, config.replicas, logger, config.api.query.timeoutMs);
    context = { config, db, model: options.model, logger, env, onClose: (stop) => stops.push(stop) };
    const mounts: Mount[] = [];
    for (const factory of options.mounts ?? []) {
      const made = await factory(context);
      mounts.push(...(isMountList(made) ? made : [made]));
    }
    const observability = await startObservability({ config, db, env, logger });
    // Last to stop: spans of the final requests and of the background work are still sent.
    stops.push(() => observability.close());
    const countQueries = env.CAPI_QUERY_COUNT === '1';
    const direct = env.CAPI_DIRECT_PATH !== '0';
    server = await listen(createRequestListener({ ...context, mounts, countQueries, direct, readiness, observability }), config.server.host, config.server.port);
  } catch (error) {
    await stopAll(stops, logger);
    await db.close().catch(() => undefined);
    throw error;
  }

  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.server.port;
  const url = `http://${config.server.host.includes(':') ? `[${config.server.host}]` : config.server.host}:${port}`;
  const { drainMs, timeoutMs } = config.server.shutdown;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    readiness.drain();
    return (closing ??= shutdown(server, db, () => stopAll(stops, logger), timeoutMs));
  };
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => (stopping ??= drain(server, readiness, drainMs, logger).then(close));
  logger.info(`capi server listening on ${url} (database: ${db.description})`);

  if (options.handleSignals ?? true) handleSignals(stop, logger);
  return { context, server, port, url, close, stop };
}

/**
 * Readiness fails at once; the server keeps serving for `drainMs`, so that a load balancer
 * polling `/_ready` takes it out of rotation before it stops accepting. Answers in that time
 * close their connection, so that keep-alive clients open their next one elsewhere.
 */
async function drain(server: Server, readiness: Readiness, drainMs: number, logger: Logger): Promise<void> {
  readiness.drain();
  if (drainMs === 0) return;
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => res.setHeader('connection', 'close'));
  logger.info(`draining: /_ready answers 503, still serving for ${drainMs / 1000} s`);
  await new Promise((resolve) => setTimeout(resolve, drainMs));
}

function isMountList(made: Mount | readonly Mount[]): made is readonly Mount[] {
  return Array.isArray(made);
}

function listen(listener: RequestListener, host: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(listener).listen(port, host);
    const onError = (error: NodeJS.ErrnoException): void => {
      server.close();
      reject(new ListenError(listenErrorMessage(error, host, port), error.code));
    };
    server.once('error', onError);
    server.once('listening', () => {
      server.off('error', onError);
      resolve(server);
    });
  });
}

function listenErrorMessage(error: NodeJS.ErrnoException, host: string, port: number): string {
  switch (error.code) {
    case 'EADDRINUSE':
      return `cannot listen on ${host}:${port}: port ${port} is already in use (set PORT or "port" in config/server.json)`;
    case 'EACCES':
      return `cannot listen on ${host}:${port}: permission denied (ports below 1024 need privileges)`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${host}:${port}: address ${host} is not available on this machine (set HOST or "host" in config/server.json)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on ${host}:${port}: host ${host} cannot be resolved`;
    default:
      return `cannot listen on ${host}:${port}: ${error.message}`;
  }
}

const idleSweepMs = 100;

async function shutdown(server: Server, db: Database, stopBackground: () => Promise<void>, timeoutMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // A keep-alive connection busy now turns idle once its answer is out; closed then, rather than
  // after the keep-alive timeout, and before its client sends another request on it.
  const sweep = setInterval(() => server.closeIdleConnections(), idleSweepMs);
  // Connections still open this long after the server stops accepting are cut.
  const force = setTimeout(() => server.closeAllConnections(), timeoutMs);
  force.unref();
  await closed;
  clearInterval(sweep);
  clearTimeout(force);
  await stopBackground();
  await db.close();
}

/** Stops registered background work; one failing never keeps the others (or the database) open. */
async function stopAll(stops: readonly (() => Promise<void>)[], logger: Logger): Promise<void> {
  for (const stop of stops) {
    await stop().catch((error: unknown) => logger.warn({ err: error }, 'stopping background work failed'));
  }
}

function handleSignals(stop: () => Promise<void>, logger: Logger): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) {
      logger.warn(`${signal} again: exiting without waiting`);
      process.exit(1);
    }
    stopping = true;
    logger.info(`${signal} received: shutting down`);
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
