/**
 * The project's configuration: JSON files under `config/`, created by `capi generate` once and
 * owned by the user from then on, plus a few environment variables that win over them (HOST,
 * PORT, DATABASE_URL; env.ts lists every variable the server reads). A missing file means "all defaults". Anything unknown or of the
 * wrong type stops start-up with a one-line ConfigError naming the file and the key.
 *
 * config/server.json       { host: "127.0.0.1", port: 1337, jsonLimit?: 1048576, workers: 1, proxy?: false, shutdown?: { drain: 0, timeout: 10 }, metrics?: { enabled, path, port?, host? } }
 *   jsonLimit (optional): largest accepted JSON request body, in bytes (larger ones get a 413);
 *   the default of strapi::body's jsonLimit in middlewares.json, which is where it now belongs.
 *   workers: server processes sharing the port (cluster.ts): a number, or "auto" for one per
 *     core; `--workers N` on the command line wins.
 *   proxy: trust X-Forwarded-For/-Proto from a proxy in front (client addresses for rate limits).
 *   shutdown: on SIGTERM/SIGINT, `drain` seconds of serving with /_ready answering 503 (so that a
 *     load balancer takes the process out first), then `timeout` seconds for requests in flight.
 *   metrics: Prometheus metrics, off unless enabled (observability/config.ts).
 * config/database.json     { client: "sqlite", connection: { filename: ".data/data.db" } }
 *                          { client: "postgres", connection: { url: "postgresql://...", pgbouncer?: false }, pool: { max: 10 } }
 *                          { client: "mysql", connection: { url: "mysql://..." }, pool: { max: 10 } }
 *   filename is relative to the project root; DATABASE_URL (`file:./x.db`, `file:/abs.db`,
 *   `postgres://...`, `postgresql://...`, `mysql://...`, `mariadb://...`) replaces client and connection.
 *   pgbouncer (or `?pgbouncer=true` in the URL, Prisma's spelling): PostgreSQL behind a pooler in
 *     transaction mode; statements run unnamed and no startup `options` are sent (database-postgres.ts).
 *   replicas (optional, PostgreSQL): { urls: ["postgresql://..."], maxLagMs: 10000, checkIntervalMs: 1000 }:
 *     streaming replicas that serve reads (replicas/); DATABASE_REPLICA_URLS (comma-separated) replaces urls.
 * config/api.json          { rest: { defaultLimit: 25, maxLimit: 100, withCount: true }, query?: { maxDepth: 10, maxTables: 100, timeoutMs: 10000 } }
 *   query: the budget of one read, REST or GraphQL (engine/budget.ts): the longest chain of
 *     relations, components and media it walks (populate, filters, sort), and how many in all;
 *     timeoutMs: the longest a statement of a request runs before the database cancels it (0: none).
 * config/plugins.json      { graphql: { config: { defaultLimit: 10, maxLimit: -1, depthLimit: 10, amountLimit?, maxAliases: 30,
 *                                               landingPage?, playgroundAlways?, apolloServer?: { introspection }, maxCost? } },
 *                            i18n: { defaultLocale: "en", locales: ["en" | { code, name }] },
 *                            upload: { sizeLimit: 209715200, allowedMimeTypes?: ["image/*", "application/pdf"],
 *                                      config?: { provider: "local" | "aws-s3", providerOptions, sizeLimit } } }
 *   graphql.maxLimit: largest page size a query may ask for; -1 means no limit.
 *   graphql.depthLimit: deepest allowed selection-set nesting (fragments expanded).
 *   graphql.maxAliases: most aliased fields allowed in one document (aliases multiply work cheaply).
 *   graphql.maxCost: largest estimated cost of one operation (off unless set). Every selected field
 *     costs 1, and the cost of a list field's selection is multiplied by the number of entries it
 *     may return (its page size, or defaultLimit when none is given).
 *   graphql.landingPage: the GraphiQL IDE at GET /graphql; default: on unless NODE_ENV=production.
 *     playgroundAlways (Strapi 4's name): true turns it on in production too.
 *   graphql.apolloServer.introspection: default: on unless NODE_ENV=production.
 *   graphql.apolloServer.hideSchemaDetailsFromClientErrors (Apollo's name): no "Did you mean" hints
 *     in errors; default: whenever introspection is off.
 *   graphql.amountLimit: largest number of entries any list or _connection field returns, at any
 *     nesting level: larger page sizes (and limit -1) are lowered to it, as maxLimit lowers them;
 *     the smaller of the two applies. Not set: no such cap.
 *   upload.allowedMimeTypes: when present, only these types (`type/subtype` or `type/*`) are accepted.
 *   upload.config: Strapi's `upload.config` — the provider that stores files (upload/provider-config.ts);
 *     its `sizeLimit` is the same setting as upload.sizeLimit (give it in one place).
 *                          "users-permissions": { config: { jwt: { expiresIn: "30d" } } }
 *                            documentation: { enabled?: boolean }  (/api/openapi.json and Swagger UI at /api/docs; default: off when NODE_ENV=production)
 *   users-permissions.config.jwt.expiresIn: how long a user JWT lives (Strapi's key and default):
 *     a JWT without an `exp` claim is accepted for this long after its `iat`, and refused without
 *     one. Seconds, or a duration like "30d", "12h", "90m".
 *   users-permissions.config.register.allowedFields: user attributes a registration may set.
 *   users-permissions.config.advanced: allowRegister (true), emailConfirmation (false),
 *     defaultRole ("authenticated"), emailResetPasswordUrl, emailConfirmationRedirection.
 *   users-permissions.config.ratelimit: { enabled: true, max: 5, interval: 300000 (ms) } per
 *     identifier, path and address on the sign-in routes.
 *   users-permissions.config.emailTemplates.{resetPassword,emailConfirmation}: { subject, message }.
 * config/permissions.json  { "public": ["api::article.article.find", ...], "authenticated": [...] }
 *   Role name to allowed actions. Roles missing from the file have no permissions.
 * config/webhooks.json     [{ name, url, headers?, events, secretEnv? }] (webhooks/config.ts)
 * config/middlewares.json  Strapi's middleware list, names and options (middlewares/config.ts)
 * config/rate-limit.json   request limits per route group (rate-limit/config.ts)
 * config/cache.json        ETags, Cache-Control, surrogate keys and CDN purges (cache/config.ts); all off by default
 */
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { array, at, boolean, ConfigError, duration, fail, got, integer, object, oneOf, string, closest, type JsonObject, type Where } from './config-check.ts';
import { actionPattern, defaultPermissions, knownActions, type PermissionModel, type Permissions } from './permissions.ts';
import type { JsonValue } from './schema.ts';
import { webhooksConfig, type WebhookConfig } from './webhooks/config.ts';
import { isProduction } from './env.ts';
import { defaultMiddlewareList, middlewaresConfig, type MiddlewareEntry } from './middlewares/config.ts';
import { defaultRateLimitFile, rateLimitsConfig, type RateLimitsConfig } from './rate-limit/config.ts';
import { uploadProviderConfig, type UploadProviderConfig } from './upload/provider-config.ts';
import type { EmailConfig } from './users/email.ts';
import type { DatabaseKind } from './dialect/types.ts';
import { DEFAULT_QUERY_BUDGET, type QueryBudget } from './engine/budget.ts';
import { cacheConfig, type CacheConfig } from './cache/config.ts';
import { metricsConfig, type MetricsConfig } from './observability/config.ts';

export { ConfigError } from './config-check.ts';
export { defaultPermissions, knownActions, type PermissionModel, type Permissions } from './permissions.ts';

/** The `client` of config/database.json: one of the supported databases. */
export type DatabaseClient = DatabaseKind;

export interface ServerConfig {
  readonly host: string;
  readonly port: number;
  /** Largest accepted JSON body, in bytes. */
  readonly jsonLimit: number;
  /** Server processes to run, when the file sets it (1, or absent: this process serves alone). */
  readonly workers?: number;
  /**
   * Trust `X-Forwarded-*` from a proxy or load balancer in front (Strapi's `proxy`): the client's
   * address (rate limits, logs) and protocol come from them. Only behind a proxy that sets them.
   */
  readonly proxy: boolean;
  /** What SIGTERM/SIGINT do (server.ts): fail readiness and keep serving for `drainMs`, then give requests in flight `timeoutMs`. */
  readonly shutdown: ShutdownConfig;
  /** Prometheus metrics (observability/config.ts). */
  readonly metrics: MetricsConfig;
}

export interface ShutdownConfig {
  readonly drainMs: number;
  readonly timeoutMs: number;
}

export interface SqliteConfig {
  readonly client: 'sqlite';
  /** Absolute path, or `:memory:`. */
  readonly filename: string;
  /** The path as configured (relative to the project root when it is inside it), for messages. */
  readonly label: string;
}

export interface PostgresConfig {
  readonly client: 'postgres';
  readonly url: string;
  /** `host/database`, without credentials, for messages. */
  readonly label: string;
  readonly pool: { readonly max: number };
  /**
   * A pooler in transaction mode (PgBouncer's `pool_mode = transaction`) stands between: the
   * server session changes from one transaction to the next, so no statement is named and no
   * session option is set at connection start (database-postgres.ts). Absent: false.
   */
  readonly pgbouncer?: boolean;
}

/** MySQL 8 or MariaDB 10.11+, through mysql2 (`mysql://` or `mariadb://` URLs). */
export interface MysqlConfig {
  readonly client: 'mysql';
  readonly url: string;
  /** `host/database`, without credentials, for messages. */
  readonly label: string;
  readonly pool: { readonly max: number };
}

export type DatabaseConfig = SqliteConfig | PostgresConfig | MysqlConfig;

/** Read replicas of the database (replicas/): they serve reads that need not see a newer write. */
export interface ReplicasConfig {
  /** One per replica, each read like DATABASE_URL, with the primary's pool size. */
  readonly servers: readonly DatabaseConfig[];
  /** A replica further behind the primary than this (milliseconds) serves nothing until it catches up. */
  readonly maxLagMs: number;
  /** How often the replicas' replay positions and health are checked, in milliseconds. */
  readonly checkIntervalMs: number;
}

export interface RestConfig {
  readonly defaultLimit: number;
  readonly maxLimit: number;
  readonly withCount: boolean;
}

export interface GraphqlConfig {
  readonly defaultLimit: number;
  /** null: no limit (`-1` in the file, as in Strapi). */
  readonly maxLimit: number | null;
  readonly depthLimit: number;
  readonly maxAliases: number;
  /** null: no cost limit (the default; Strapi has none). */
  readonly maxCost: number | null;
  /** A second cap on page sizes (Strapi 3's name, in Strapi's documented example); null: none. */
  readonly amountLimit: number | null;
  /** Serve the GraphiQL IDE to browsers. */
  readonly landingPage: boolean;
  /** Answer introspection queries (`__schema`, `__type`). */
  readonly introspection: boolean;
  /**
   * Leave graphql-js' "Did you mean ...?" hints out of error messages: they name fields, arguments
   * and enum values, which would give away the schema introspection keeps to itself.
   */
  readonly hideSchemaDetailsFromClientErrors: boolean;
}

export interface Locale {
  readonly code: string;
  readonly name: string;
}

export interface I18nConfig {
  readonly defaultLocale: string;
  /** Never empty; contains defaultLocale. */
  readonly locales: readonly Locale[];
}

export interface UploadConfig {
  readonly sizeLimit: number;
  /** null: every type is accepted. */
  readonly allowedMimeTypes: readonly string[] | null;
  /** Where files are stored: the local folder, or an S3 bucket. */
  readonly provider: UploadProviderConfig;
}

export interface UsersPermissionsConfig {
  readonly jwt: {
    /** Seconds a user JWT without an `exp` claim is accepted after its `iat`, and the lifetime of the JWTs capi issues. */
    readonly expiresIn: number;
  };
  /** Attributes a registration may set besides username, email and password (Strapi's `register.allowedFields`). */
  readonly register: { readonly allowedFields: readonly string[] };
  /** Strapi's "advanced settings" (kept in its database and admin panel; here in the config file). */
  readonly advanced: {
    readonly allowRegister: boolean;
    readonly emailConfirmation: boolean;
    /** The role (its key in config/permissions.json) a registered user gets. */
    readonly defaultRole: string;
    /** Page of the front end that resets a password; the emailed link is `<url>?code=<token>`. */
    readonly emailResetPasswordUrl: string | null;
    /** Where `GET /api/auth/email-confirmation` redirects after confirming. */
    readonly emailConfirmationRedirection: string | null;
  };
  /** Sign-in attempts per identifier, path and address (Strapi's `ratelimit`). */
  readonly ratelimit: { readonly enabled: boolean; readonly max: number; readonly intervalMs: number };
  /** Subject and message (Strapi's `<%= URL %>`, `<%= TOKEN %>`, `<%= CODE %>`, `<%= USER.username %>` placeholders) of the two emails; Strapi's defaults when absent. */
  readonly emailTemplates: {
    readonly resetPassword?: EmailTemplate;
    readonly emailConfirmation?: EmailTemplate;
  };
}

export interface EmailTemplate {
  readonly subject: string;
  readonly message: string;
}

/**
 * plugins.json `documentation`: `{ enabled }` turns the OpenAPI document (/api/openapi.json) and
 * its Swagger UI page (/api/docs) on or off. Unset, they are on except when NODE_ENV is
 * production, as the GraphQL IDE and introspection are.
 */
export interface DocumentationConfig {
  readonly enabled: boolean;
}

/** Strapi's users-permissions default for `jwt.expiresIn`: 30 days. */
export const defaultJwtExpiresIn = 30 * 86_400;

export interface AppConfig {
  /** Absolute path of the generated project. */
  readonly projectRoot: string;
  readonly server: ServerConfig;
  readonly database: DatabaseConfig;
  /** Absent when no replica is configured: every statement then goes to `database`. */
  readonly replicas?: ReplicasConfig;
  readonly api: { readonly rest: RestConfig; readonly query: QueryBudget };
  readonly plugins: {
    readonly graphql: GraphqlConfig;
    readonly i18n: I18nConfig;
    readonly upload: UploadConfig;
    readonly usersPermissions: UsersPermissionsConfig;
    readonly email: EmailConfig;
    readonly documentation: DocumentationConfig;
  };
  readonly permissions: Permissions;
  readonly webhooks: readonly WebhookConfig[];
  /** config/middlewares.json, in order. */
  readonly middlewares: readonly MiddlewareEntry[];
  readonly rateLimits: RateLimitsConfig;
  /** config/cache.json. */
  readonly cache: CacheConfig;
}

export type Environment = Readonly<Record<string, string | undefined>>;

export interface LoadConfigOptions {
  readonly projectRoot: string;
  /** Defaults to `process.env`. */
  readonly env?: Environment;
  /**
   * When given, permissions are checked against the model's actions (a typo in an action name
   * is an error rather than a silently missing permission). A missing permissions.json means
   * `defaultPermissions()`: signing in and up, and no content for anyone.
   */
  readonly model?: PermissionModel;
}

export const configFileNames = ['server.json', 'database.json', 'api.json', 'plugins.json', 'permissions.json', 'webhooks.json', 'middlewares.json', 'rate-limit.json', 'cache.json'] as const;
export type ConfigFileName = (typeof configFileNames)[number];

export const defaultSqliteFilename = '.data/data.db';
export const defaultPostgresUrl = 'postgresql://postgres@127.0.0.1:5432/postgres';
export const defaultMysqlUrl = 'mysql://root@127.0.0.1:3306/db';

/** Contents of the config files other than permissions.json (see defaultPermissions). */
export function defaultConfigFiles(database: DatabaseClient): Readonly<Record<Exclude<ConfigFileName, 'permissions.json'>, JsonValue>> {
  return {
    // The JSON body limit is strapi::body's jsonLimit in middlewares.json (server.json's is still read).
    'server.json': { host: '127.0.0.1', port: 1337 },
    'database.json': clientConfigs[database].defaultFile,
    'api.json': { rest: { defaultLimit: 25, maxLimit: 100, withCount: true } },
    'plugins.json': {
      graphql: { config: { defaultLimit: 10, maxLimit: -1, depthLimit: 10, amountLimit: 100, maxAliases: 30 } },
      i18n: { defaultLocale: 'en', locales: ['en'] },
      upload: { sizeLimit: 209_715_200 },
    },
    'webhooks.json': [],
    'middlewares.json': [...defaultMiddlewareList],
    'rate-limit.json': defaultRateLimitFile(),
    'cache.json': { etag: false, cacheControl: {} },
  };
}

/** Reads and checks every config file. Throws ConfigError. */
export function loadConfig(options: LoadConfigOptions): AppConfig {
  const projectRoot = resolve(options.projectRoot);
  const env = options.env ?? process.env;
  const read = (name: ConfigFileName): { where: Where; json: unknown } => readConfigFile(projectRoot, name);
  const defaults = defaultConfigFiles('sqlite');

  const server = read('server.json');
  const database = read('database.json');
  const api = read('api.json');
  const plugins = read('plugins.json');
  const permissions = read('permissions.json');
  const webhooks = read('webhooks.json');
  const middlewares = read('middlewares.json');
  const rateLimits = read('rate-limit.json');
  const cache = read('cache.json');
  const serverSettings = serverConfig(server.where, server.json ?? defaults['server.json'], env);
  const databaseSettings = databaseConfig(database.where, database.json ?? defaults['database.json'], env, projectRoot);
  const replicas = replicasConfig(database.where, database.json, env, databaseSettings, projectRoot);
  return {
    projectRoot,
    server: serverSettings,
    database: databaseSettings,
    ...(replicas === undefined ? {} : { replicas }),
    api: apiConfig(api.where, api.json ?? defaults['api.json']),
    plugins: pluginsConfig(plugins.where, plugins.json ?? defaults['plugins.json'], env),
    permissions: permissionsConfig(permissions.where, permissions.json, options.model),
    webhooks: webhooksConfig(webhooks.where, webhooks.json ?? [], env),
    middlewares: middlewaresConfig(middlewares.where, middlewares.json, { jsonLimit: serverSettings.jsonLimit, env }),
    rateLimits: rateLimitsConfig(rateLimits.where, rateLimits.json),
    cache: cacheConfig(cache.where, cache.json ?? {}, env, options.model === undefined ? undefined : cacheKeyCheck(options.model)),
  };
}

/** Whether a config/cache.json `cacheControl` key names a content type of the model, one of its read routes, or GraphQL. */
function cacheKeyCheck(model: PermissionModel): (key: string) => boolean {
  const uids = new Set(Object.values(model.contentTypes).map((type) => type.uid));
  return (key) => key === 'graphql' || uids.has(key) || (/\.(find|findOne)$/.test(key) && uids.has(key.replace(/\.(find|findOne)$/, '')));
}

/** The parsed file, or undefined when it does not exist. */
function readConfigFile(projectRoot: string, name: ConfigFileName): { where: Where; json: unknown } {
  const where: Where = { file: `config/${name}`, path: '' };
  const path = resolve(projectRoot, 'config', name);
  if (!existsSync(path)) return { where, json: undefined };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    fail(where, `cannot be read: ${messageOf(error)}`);
  }
  try {
    return { where, json: JSON.parse(text) };
  } catch (error) {
    fail(where, `is not valid JSON: ${messageOf(error)}`);
  }
}

function serverConfig(where: Where, json: unknown, env: Environment): ServerConfig {
  const file = object(where, json, ['host', 'port', 'jsonLimit', 'workers', 'proxy', 'shutdown', 'metrics']);
  const envHost = nonEmpty(env.HOST);
  const envPort = nonEmpty(env.PORT);
  const host = envHost ?? (file.host === undefined ? '127.0.0.1' : string(at(where, 'host'), file.host));
  const port =
    envPort !== undefined
      ? integer({ file: '', path: 'PORT' }, /^\d+$/.test(envPort) ? Number(envPort) : envPort, { min: 0, max: 65535 })
      : file.port === undefined
        ? 1337
        : integer(at(where, 'port'), file.port, { min: 0, max: 65535 });
  const jsonLimit = file.jsonLimit === undefined ? 1_048_576 : integer(at(where, 'jsonLimit'), file.jsonLimit, { min: 1 });
  const proxy = file.proxy === undefined ? false : boolean(at(where, 'proxy'), file.proxy);
  const shutdown = shutdownConfig(at(where, 'shutdown'), file.shutdown ?? {});
  const metrics = metricsConfig(at(where, 'metrics'), file.metrics, env, port);
  return { host, port, jsonLimit, proxy, shutdown, metrics, ...(file.workers === undefined ? {} : { workers: workerCount(at(where, 'workers'), file.workers) }) };
}

/** Requests in flight get this long after the drain before their connections are cut. */
const defaultShutdownTimeoutSeconds = 10;

function shutdownConfig(where: Where, json: unknown): ShutdownConfig {
  const file = object(where, json, ['drain', 'timeout']);
  const seconds = (key: 'drain' | 'timeout', fallback: number): number => {
    const value = file[key];
    if (value === undefined) return fallback;
    // 0 is a valid drain (stop accepting at once, as before); a duration string has no zero.
    return typeof value === 'number' ? integer(at(where, key), value, { min: 0 }) : duration(at(where, key), value);
  };
  return { drainMs: seconds('drain', 0) * 1000, timeoutMs: seconds('timeout', defaultShutdownTimeoutSeconds) * 1000 };
}

/** Most server processes a project may ask for: beyond a few per core they only cost memory. */
export const MAX_WORKERS = 256;

/** `workers`: a count, or "auto" for one process per core (`--workers` takes the same values). */
export function workerCount(where: Where, value: unknown): number {
  if (value === 'auto') return availableParallelism();
  const count = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 1 || count > MAX_WORKERS) {
    fail(where, `must be an integer between 1 and ${MAX_WORKERS}, or "auto" (one per core) ${got(value)}`);
  }
  return count;
}

/** How config/database.json is written and read for each database. */
interface ClientConfig {
  /** database.json as `capi generate` writes it. */
  readonly defaultFile: JsonValue;
  /** The keys `connection` may have. */
  readonly connectionKeys: readonly string[];
  /** Whether `pool` applies (one connection serves SQLite). */
  readonly pooled: boolean;
  read(where: Where, connection: Readonly<Record<string, unknown>>, poolMax: number, projectRoot: string): DatabaseConfig;
}

const clientConfigs: Readonly<Record<DatabaseKind, ClientConfig>> = {
  sqlite: {
    defaultFile: { client: 'sqlite', connection: { filename: defaultSqliteFilename } },
    connectionKeys: ['filename'],
    pooled: false,
    read(where, connection, _poolMax, projectRoot) {
      const filename = connection.filename === undefined ? defaultSqliteFilename : string(at(at(where, 'connection'), 'filename'), connection.filename);
      return sqliteConfig(filename, projectRoot);
    },
  },
  postgres: {
    defaultFile: { client: 'postgres', connection: { url: defaultPostgresUrl }, pool: { max: 10 } },
    connectionKeys: ['url', 'pgbouncer'],
    pooled: true,
    read(where, connection, poolMax) {
      if (connection.url === undefined) fail(at(at(where, 'connection'), 'url'), 'is required when client is "postgres"');
      const url = string(at(at(where, 'connection'), 'url'), connection.url);
      const pgbouncer = connection.pgbouncer === undefined ? undefined : boolean(at(at(where, 'connection'), 'pgbouncer'), connection.pgbouncer);
      return postgresConfig(at(at(where, 'connection'), 'url'), url, poolMax, pgbouncer);
    },
  },
  mysql: {
    defaultFile: { client: 'mysql', connection: { url: defaultMysqlUrl }, pool: { max: 10 } },
    connectionKeys: ['url'],
    pooled: true,
    read(where, connection, poolMax) {
      if (connection.url === undefined) fail(at(at(where, 'connection'), 'url'), 'is required when client is "mysql"');
      const url = string(at(at(where, 'connection'), 'url'), connection.url);
      return mysqlConfig(at(at(where, 'connection'), 'url'), url, poolMax);
    },
  },
};

const databaseClients = Object.keys(clientConfigs) as DatabaseKind[];

function databaseConfig(where: Where, json: unknown, env: Environment, projectRoot: string): DatabaseConfig {
  const file = object(where, json, ['client', 'connection', 'pool', 'replicas']);
  const client = clientConfigs[oneOf(at(where, 'client'), file.client, databaseClients)];
  const connection = object(at(where, 'connection'), file.connection ?? {}, client.connectionKeys);
  if (!client.pooled && file.pool !== undefined) {
    const pooled = databaseClients.filter((name) => clientConfigs[name].pooled).map((name) => `"${name}"`);
    fail(at(where, 'pool'), `is only valid when client is ${pooled.join(' or ')}`);
  }
  const pool = file.pool === undefined ? {} : object(at(where, 'pool'), file.pool, ['max']);
  const poolMax = pool.max === undefined ? 10 : integer(at(at(where, 'pool'), 'max'), pool.max, { min: 1 });

  const envUrl = nonEmpty(env.DATABASE_URL);
  if (envUrl !== undefined) return databaseFromUrl({ file: '', path: 'DATABASE_URL' }, envUrl, projectRoot, poolMax);
  return client.read(where, connection, poolMax, projectRoot);
}

const defaultMaxLagMs = 10_000;
const defaultCheckIntervalMs = 1_000;

/**
 * database.json's `replicas`, with DATABASE_REPLICA_URLS replacing its urls; undefined when no
 * replica is named (nothing of the replica routing is then set up). Each replica must be the
 * primary's kind of database; whether that kind supports replicas is its dialect's to say, at start-up.
 */
function replicasConfig(where: Where, json: unknown, env: Environment, primary: DatabaseConfig, projectRoot: string): ReplicasConfig | undefined {
  const section = typeof json === 'object' && json !== null && 'replicas' in json ? json.replicas : undefined;
  const w = at(where, 'replicas');
  const file = section === undefined ? {} : object(w, section, ['urls', 'maxLagMs', 'checkIntervalMs']);
  const envUrls = nonEmpty(env.DATABASE_REPLICA_URLS);
  const urls: { where: Where; url: string }[] =
    envUrls !== undefined
      ? envUrls.split(',').flatMap((url, i) => (url.trim() === '' ? [] : [{ where: { file: '', path: `DATABASE_REPLICA_URLS[${i}]` }, url: url.trim() }]))
      : file.urls === undefined
        ? []
        : array(at(w, 'urls'), file.urls).map((url, i) => ({ where: at(at(w, 'urls'), i), url: string(at(at(w, 'urls'), i), url) }));
  if (urls.length === 0) return undefined;
  const poolMax = 'pool' in primary ? primary.pool.max : 1;
  const servers = urls.map(({ where: place, url }) => {
    const server = databaseFromUrl(place, url, projectRoot, poolMax);
    if (server.client !== primary.client) fail(place, `must be a database of the primary's kind, "${primary.client}" ${got(redactUrl(url))}`);
    return server;
  });
  return {
    servers,
    maxLagMs: file.maxLagMs === undefined ? defaultMaxLagMs : integer(at(w, 'maxLagMs'), file.maxLagMs, { min: 0 }),
    checkIntervalMs: file.checkIntervalMs === undefined ? defaultCheckIntervalMs : integer(at(w, 'checkIntervalMs'), file.checkIntervalMs, { min: 10 }),
  };
}

/** DATABASE_URL: `file:` means SQLite, `postgres://` / `postgresql://` PostgreSQL, `mysql://` / `mariadb://` MySQL or MariaDB. */
function databaseFromUrl(where: Where, url: string, projectRoot: string, poolMax: number): DatabaseConfig {
  if (url.startsWith('file:')) {
    let filename: string;
    try {
      filename = url.startsWith('file://') ? fileURLToPath(url) : url.slice('file:'.length).replace(/\?.*$/, '');
    } catch (error) {
      fail(where, `is not a valid file URL: ${messageOf(error)} ${got(url)}`);
    }
    if (filename === '') fail(where, `names no file ${got(url)}`);
    return sqliteConfig(filename, projectRoot);
  }
  if (/^postgres(ql)?:\/\//.test(url)) return postgresConfig(where, url, poolMax);
  if (/^(mysql|mariadb):\/\//.test(url)) return mysqlConfig(where, url, poolMax);
  fail(where, `must start with "file:", "postgres://", "postgresql://", "mysql://" or "mariadb://" ${got(redactUrl(url))}`);
}

function sqliteConfig(filename: string, projectRoot: string): SqliteConfig {
  if (filename === ':memory:') return { client: 'sqlite', filename, label: filename };
  const absolute = resolve(projectRoot, filename);
  const inside = relative(projectRoot, absolute);
  const label = isAbsolute(filename) && (inside.startsWith('..') || isAbsolute(inside)) ? absolute : inside.split(sep).join('/');
  return { client: 'sqlite', filename: absolute, label };
}

function postgresConfig(where: Where, url: string, poolMax: number, pgbouncerKey?: boolean): PostgresConfig {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    fail(where, `is not a valid URL ${got(redactUrl(url))}`);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    fail(where, `must start with "postgres://" or "postgresql://" ${got(redactUrl(url))}`);
  }
  if (parsed.hostname === '') fail(where, `names no host ${got(redactUrl(url))}`);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || parsed.username || 'postgres';
  const { url: driverUrl, pgbouncer } = pgbouncerParameter(where, url, parsed);
  if (pgbouncer !== undefined && pgbouncerKey !== undefined && pgbouncer !== pgbouncerKey) {
    fail(where, `says pgbouncer=${pgbouncer} while connection.pgbouncer is ${pgbouncerKey}: give it once`);
  }
  return { client: 'postgres', url: driverUrl, label: `${parsed.host}/${database}`, pool: { max: poolMax }, pgbouncer: pgbouncer ?? pgbouncerKey ?? false };
}

/**
 * `?pgbouncer=true` (Prisma's spelling, which users of Supabase and PgBouncer already put in their
 * URLs): taken out of the URL, which then goes to pg without it. Other parameters stay as written.
 */
function pgbouncerParameter(where: Where, url: string, parsed: URL): { url: string; pgbouncer?: boolean } {
  const given = parsed.searchParams.get('pgbouncer');
  if (given === null) return { url };
  if (given !== 'true' && given !== 'false') fail(where, `has pgbouncer=${given}: it must be true or false ${got(redactUrl(url))}`);
  parsed.searchParams.delete('pgbouncer');
  return { url: parsed.toString(), pgbouncer: given === 'true' };
}

function mysqlConfig(where: Where, url: string, poolMax: number): MysqlConfig {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    fail(where, `is not a valid URL ${got(redactUrl(url))}`);
  }
  if (parsed.protocol !== 'mysql:' && parsed.protocol !== 'mariadb:') fail(where, `must start with "mysql://" or "mariadb://" ${got(redactUrl(url))}`);
  if (parsed.hostname === '') fail(where, `names no host ${got(redactUrl(url))}`);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (database === '') fail(where, `names no database (mysql://user@host:3306/database) ${got(redactUrl(url))}`);
  return { client: 'mysql', url, label: `${parsed.host}/${database}`, pool: { max: poolMax } };
}

/** The URL with its password replaced, so that messages and logs never show it. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@/]*@/i, '$1***@');
}

function apiConfig(where: Where, json: unknown): AppConfig['api'] {
  const file = object(where, json, ['rest', 'query']);
  return { rest: restConfig(at(where, 'rest'), file.rest ?? {}), query: queryBudget(at(where, 'query'), file.query ?? {}) };
}

function queryBudget(where: Where, json: unknown): QueryBudget {
  const query = object(where, json, ['maxDepth', 'maxTables', 'timeoutMs']);
  return {
    maxDepth: query.maxDepth === undefined ? DEFAULT_QUERY_BUDGET.maxDepth : integer(at(where, 'maxDepth'), query.maxDepth, { min: 1 }),
    maxTables: query.maxTables === undefined ? DEFAULT_QUERY_BUDGET.maxTables : integer(at(where, 'maxTables'), query.maxTables, { min: 1 }),
    timeoutMs: query.timeoutMs === undefined ? DEFAULT_QUERY_BUDGET.timeoutMs : integer(at(where, 'timeoutMs'), query.timeoutMs, { min: 0 }),
  };
}

function restConfig(restWhere: Where, json: unknown): RestConfig {
  const rest = object(restWhere, json, ['defaultLimit', 'maxLimit', 'withCount']);
  const defaultLimit = rest.defaultLimit === undefined ? 25 : integer(at(restWhere, 'defaultLimit'), rest.defaultLimit, { min: 1 });
  const maxLimit = rest.maxLimit === undefined ? 100 : integer(at(restWhere, 'maxLimit'), rest.maxLimit, { min: 1 });
  const withCount = rest.withCount === undefined ? true : boolean(at(restWhere, 'withCount'), rest.withCount);
  if (defaultLimit > maxLimit) fail(at(restWhere, 'defaultLimit'), `must not exceed rest.maxLimit (got ${defaultLimit} > ${maxLimit})`);
  return { defaultLimit, maxLimit, withCount };
}

function pluginsConfig(where: Where, json: unknown, env: Environment): AppConfig['plugins'] {
  const file = object(where, json, ['documentation', 'email', 'graphql', 'i18n', 'upload', 'users-permissions']);
  return {
    documentation: documentationConfig(at(where, 'documentation'), file.documentation ?? {}, env),
    graphql: graphqlConfig(at(where, 'graphql'), file.graphql ?? {}, isProduction(env)),
    i18n: i18nConfig(at(where, 'i18n'), file.i18n ?? {}),
    upload: uploadConfig(at(where, 'upload'), file.upload ?? {}, env),
    usersPermissions: usersPermissionsConfig(at(where, 'users-permissions'), file['users-permissions'] ?? {}),
    email: emailConfig(at(where, 'email'), file.email ?? {}),
  };
}

function documentationConfig(where: Where, json: unknown, env: Environment): DocumentationConfig {
  const c = object(where, json, ['enabled']);
  return { enabled: c.enabled === undefined ? !isProduction(env) : boolean(at(where, 'enabled'), c.enabled) };
}

/** Strapi's email plugin settings: `provider` "log" (the default: messages go to the log) or "smtp". */
function emailConfig(where: Where, json: unknown): EmailConfig {
  const outer = object(where, json, ['config']);
  const w = at(where, 'config');
  const c = object(w, outer.config ?? {}, ['provider', 'providerOptions', 'settings']);
  const sw = at(w, 'settings');
  const settings = object(sw, c.settings ?? {}, ['defaultFrom', 'defaultReplyTo']);
  const defaults = {
    defaultFrom: settings.defaultFrom === undefined ? null : string(at(sw, 'defaultFrom'), settings.defaultFrom),
    defaultReplyTo: settings.defaultReplyTo === undefined ? null : string(at(sw, 'defaultReplyTo'), settings.defaultReplyTo),
  };
  const provider = c.provider === undefined ? 'log' : oneOf(at(w, 'provider'), c.provider, ['log', 'smtp'] as const);
  if (provider === 'log') return { provider, ...defaults };
  const ow = at(w, 'providerOptions');
  const o = object(ow, c.providerOptions ?? {}, ['host', 'port', 'secure', 'auth']);
  const aw = at(ow, 'auth');
  const auth = o.auth === undefined ? undefined : object(aw, o.auth, ['user', 'pass']);
  return {
    provider,
    smtp: {
      host: string(at(ow, 'host'), o.host),
      port: o.port === undefined ? 587 : integer(at(ow, 'port'), o.port, { min: 1, max: 65_535 }),
      secure: o.secure === undefined ? false : boolean(at(ow, 'secure'), o.secure),
      ...(auth === undefined ? {} : { auth: { user: string(at(aw, 'user'), auth.user), pass: string(at(aw, 'pass'), auth.pass) } }),
    },
    ...defaults,
  };
}

/** Nested under `config` as in Strapi's config/plugins.js, so that a Strapi project's settings carry over. */
function usersPermissionsConfig(where: Where, json: unknown): UsersPermissionsConfig {
  const outer = object(where, json, ['config']);
  const w = at(where, 'config');
  const config = object(w, outer.config ?? {}, ['jwt', 'register', 'advanced', 'ratelimit', 'emailTemplates']);
  const tw = at(w, 'emailTemplates');
  const templates = object(tw, config.emailTemplates ?? {}, ['resetPassword', 'emailConfirmation']);
  const template = (name: 'resetPassword' | 'emailConfirmation'): { [K in typeof name]?: EmailTemplate } => {
    if (templates[name] === undefined) return {};
    const ew = at(tw, name);
    const t = object(ew, templates[name], ['subject', 'message']);
    return { [name]: { subject: string(at(ew, 'subject'), t.subject), message: string(at(ew, 'message'), t.message) } };
  };
  const jwt = object(at(w, 'jwt'), config.jwt ?? {}, ['expiresIn']);
  const register = object(at(w, 'register'), config.register ?? {}, ['allowedFields']);
  const fieldsAt = at(at(w, 'register'), 'allowedFields');
  const allowedFields = register.allowedFields === undefined ? [] : array(fieldsAt, register.allowedFields).map((f, i) => string(at(fieldsAt, i), f));
  const aw = at(w, 'advanced');
  const adv = object(aw, config.advanced ?? {}, ['allowRegister', 'emailConfirmation', 'defaultRole', 'emailResetPasswordUrl', 'emailConfirmationRedirection']);
  const rw = at(w, 'ratelimit');
  const rate = object(rw, config.ratelimit ?? {}, ['enabled', 'max', 'interval']);
  return {
    jwt: { expiresIn: jwt.expiresIn === undefined ? defaultJwtExpiresIn : duration(at(at(w, 'jwt'), 'expiresIn'), jwt.expiresIn) },
    register: { allowedFields },
    advanced: {
      allowRegister: adv.allowRegister === undefined ? true : boolean(at(aw, 'allowRegister'), adv.allowRegister),
      emailConfirmation: adv.emailConfirmation === undefined ? false : boolean(at(aw, 'emailConfirmation'), adv.emailConfirmation),
      defaultRole: adv.defaultRole === undefined ? 'authenticated' : string(at(aw, 'defaultRole'), adv.defaultRole),
      emailResetPasswordUrl: adv.emailResetPasswordUrl === undefined ? null : string(at(aw, 'emailResetPasswordUrl'), adv.emailResetPasswordUrl),
      emailConfirmationRedirection: adv.emailConfirmationRedirection === undefined ? null : string(at(aw, 'emailConfirmationRedirection'), adv.emailConfirmationRedirection),
    },
    ratelimit: {
      enabled: rate.enabled === undefined ? true : boolean(at(rw, 'enabled'), rate.enabled),
      max: rate.max === undefined ? 5 : integer(at(rw, 'max'), rate.max, { min: 1 }),
      // Strapi's default window: 5 minutes; `interval` in milliseconds or a duration.
      intervalMs:
        rate.interval === undefined ? 5 * 60_000 : typeof rate.interval === 'number' ? integer(at(rw, 'interval'), rate.interval, { min: 1 }) : duration(at(rw, 'interval'), rate.interval) * 1000,
    },
    emailTemplates: { ...template('resetPassword'), ...template('emailConfirmation') },
  };
}

/**
 * Strapi's GraphQL settings under their names. `landingPage` follows Strapi 5: true/false, else on
 * unless NODE_ENV=production; Strapi 4's `playgroundAlways: true` still turns it on everywhere.
 * Strapi's own keys capi has nothing to do with (`endpoint` other than /graphql, `shadowCRUD`
 * false, `subscriptions`) are refused rather than silently ignored.
 */
function graphqlConfig(where: Where, json: unknown, production: boolean): GraphqlConfig {
  // Strapi nests the GraphQL plugin's options under `config`; keep that so files carry over.
  const outer = object(where, json, ['config', 'enabled']);
  if (outer.enabled !== undefined && outer.enabled !== true) fail(at(where, 'enabled'), `can only be true: the GraphQL API is part of every generated server ${got(outer.enabled)}`);
  const w = at(where, 'config');
  const c = object(w, outer.config ?? {}, [
    'defaultLimit',
    'maxLimit',
    'depthLimit',
    'amountLimit',
    'maxAliases',
    'maxCost',
    'landingPage',
    'playgroundAlways',
    'apolloServer',
    'endpoint',
    'shadowCRUD',
  ]);
  if (c.endpoint !== undefined && c.endpoint !== '/graphql') fail(at(w, 'endpoint'), `can only be "/graphql" ${got(c.endpoint)}`);
  if (c.shadowCRUD !== undefined && c.shadowCRUD !== true) fail(at(w, 'shadowCRUD'), `can only be true: capi generates the whole schema ${got(c.shadowCRUD)}`);
  const aw = at(w, 'apolloServer');
  const apollo = object(aw, c.apolloServer ?? {}, ['introspection', 'hideSchemaDetailsFromClientErrors', 'tracing']);
  // Strapi's documented example sets Apollo 2's `tracing`, which Apollo 4 (Strapi 5's) ignores too.
  if (apollo.tracing !== undefined) boolean(at(aw, 'tracing'), apollo.tracing);
  const playgroundAlways = c.playgroundAlways === undefined ? false : boolean(at(w, 'playgroundAlways'), c.playgroundAlways);
  const landingPage = playgroundAlways || (c.landingPage === undefined ? !production : boolean(at(w, 'landingPage'), c.landingPage));
  const introspection = apollo.introspection === undefined ? !production : boolean(at(aw, 'introspection'), apollo.introspection);
  const defaultLimit = c.defaultLimit === undefined ? 10 : integer(at(w, 'defaultLimit'), c.defaultLimit, { min: 1 });
  let maxLimit: number | null = null;
  if (c.maxLimit !== undefined && c.maxLimit !== -1) {
    if (typeof c.maxLimit !== 'number' || !Number.isSafeInteger(c.maxLimit) || c.maxLimit < 1) {
      fail(at(w, 'maxLimit'), `must be -1 (no limit) or an integer >= 1 ${got(c.maxLimit)}`);
    }
    maxLimit = c.maxLimit;
  }
  // A defaultLimit above maxLimit is no error: Strapi starts with it and caps every page at
  // maxLimit (args-pagination.ts does too); the GraphQL mount warns at start (server.ts).
  return {
    defaultLimit,
    maxLimit,
    depthLimit: c.depthLimit === undefined ? 10 : integer(at(w, 'depthLimit'), c.depthLimit, { min: 1 }),
    maxAliases: c.maxAliases === undefined ? 30 : integer(at(w, 'maxAliases'), c.maxAliases, { min: 0 }),
    maxCost: c.maxCost === undefined || c.maxCost === null ? null : integer(at(w, 'maxCost'), c.maxCost, { min: 1 }),
    amountLimit: c.amountLimit === undefined || c.amountLimit === null ? null : integer(at(w, 'amountLimit'), c.amountLimit, { min: 1 }),
    landingPage,
    introspection,
    hideSchemaDetailsFromClientErrors:
      apollo.hideSchemaDetailsFromClientErrors === undefined ? !introspection : boolean(at(aw, 'hideSchemaDetailsFromClientErrors'), apollo.hideSchemaDetailsFromClientErrors),
  };
}

const localeCode = { regex: /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, description: 'a locale code like "en" or "pt-BR"' };

function i18nConfig(where: Where, json: unknown): I18nConfig {
  const file = object(where, json, ['defaultLocale', 'locales']);
  const defaultLocale = file.defaultLocale === undefined ? 'en' : string(at(where, 'defaultLocale'), file.defaultLocale, localeCode);
  const entries = file.locales === undefined ? [defaultLocale] : array(at(where, 'locales'), file.locales);
  const locales: Locale[] = [];
  entries.forEach((entry, index) => {
    const w = at(at(where, 'locales'), index);
    let locale: Locale;
    if (typeof entry === 'string') {
      const code = string(w, entry, localeCode);
      locale = { code, name: localeName(code) };
    } else {
      const o = object(w, entry, ['code', 'name']);
      const code = string(at(w, 'code'), o.code, localeCode);
      locale = { code, name: o.name === undefined ? localeName(code) : string(at(w, 'name'), o.name) };
    }
    if (locales.some((l) => l.code === locale.code)) fail(w, `repeats locale "${locale.code}"`);
    locales.push(locale);
  });
  if (locales.length === 0) fail(at(where, 'locales'), 'must list at least one locale');
  if (!locales.some((l) => l.code === defaultLocale)) {
    fail(at(where, 'defaultLocale'), `must be one of i18n.locales ${got(defaultLocale)}`);
  }
  return { defaultLocale, locales };
}

/** Strapi names locales like "French (fr)". */
function localeName(code: string): string {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(code);
    return name === undefined || name === code ? code : `${name} (${code})`;
  } catch {
    return code;
  }
}

const mimeType = { regex: /^[a-z0-9][a-z0-9!#$&^_.+-]*\/(\*|[a-z0-9][a-z0-9!#$&^_.+-]*)$/i, description: 'a MIME type like "image/png" or "image/*"' };

function uploadConfig(where: Where, json: unknown, env: Environment): UploadConfig {
  const file = object(where, json, ['sizeLimit', 'allowedMimeTypes', 'config']);
  const cw = at(where, 'config');
  const strapi = object(cw, file.config ?? {}, ['provider', 'providerOptions', 'sizeLimit']);
  if (strapi.sizeLimit !== undefined && file.sizeLimit !== undefined) fail(at(cw, 'sizeLimit'), 'is the same setting as upload.sizeLimit: give it once');
  const sizeLimit =
    strapi.sizeLimit !== undefined
      ? integer(at(cw, 'sizeLimit'), strapi.sizeLimit, { min: 1 })
      : file.sizeLimit === undefined
        ? 209_715_200
        : integer(at(where, 'sizeLimit'), file.sizeLimit, { min: 1 });
  const allowedMimeTypes =
    file.allowedMimeTypes === undefined || file.allowedMimeTypes === null
      ? null
      : array(at(where, 'allowedMimeTypes'), file.allowedMimeTypes).map((t, i) => string(at(at(where, 'allowedMimeTypes'), i), t, mimeType).toLowerCase());
  return { sizeLimit, allowedMimeTypes, provider: uploadProviderConfig(cw, strapi.provider, strapi.providerOptions, env) };
}

/** A role of config/permissions.json: a name in lower case. */
export const rolePattern = /^[a-z][a-z0-9_-]*$/;

function permissionsConfig(where: Where, json: unknown, model: PermissionModel | undefined): Permissions {
  if (json === undefined) return defaultPermissions();
  const file = asObject(where, json);
  const known = model === undefined ? undefined : knownActions(model);
  const roles: { public: readonly string[]; authenticated: readonly string[]; [role: string]: readonly string[] } = { public: [], authenticated: [] };
  for (const [role, value] of Object.entries(file)) {
    if (!rolePattern.test(role)) fail(where, `role "${role}" must be a name in lower case (letters, digits, "-" or "_")`);
    const w = at(where, role);
    const actions = array(w, value).map((action, index) => {
      const aw = at(w, index);
      const name = string(aw, action, { regex: actionPattern, description: 'an action like "api::article.article.find"' });
      if (known !== undefined && !known.includes(name)) {
        const guess = closest(name, known);
        fail(aw, `is not an action of this project ${got(name)}${guess === undefined ? '' : ` (did you mean "${guess}"?)`}`);
      }
      return name;
    });
    roles[role] = [...new Set(actions)];
  }
  return roles;
}

function asObject(where: Where, value: unknown): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(where, `must be a JSON object ${got(value)}`);
  return value as JsonObject;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function isConfigError(error: unknown): error is ConfigError {
  return error instanceof ConfigError;
}
