import { defaultMiddlewareList } from './middlewares/config.ts';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, defaultConfigFiles, defaultPermissions, loadConfig, redactUrl, type Environment } from './config.ts';
import { logLevelFromEnv } from './logger.ts';

const roots: string[] = [];

function project(files: Record<string, unknown> = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'capi-config-'));
  roots.push(root);
  mkdirSync(join(root, 'config'));
  for (const [name, json] of Object.entries(files)) {
    writeFileSync(join(root, 'config', name), typeof json === 'string' ? json : JSON.stringify(json));
  }
  return root;
}

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const model = {
  contentTypes: [
    { uid: 'api::article.article', kind: 'collectionType' as const },
    { uid: 'api::global.global', kind: 'singleType' as const },
  ],
};

function load(files: Record<string, unknown>, env: Environment = {}, withModel = true) {
  return loadConfig({ projectRoot: project(files), env, model: withModel ? model : undefined });
}

function errorOf(files: Record<string, unknown>, env: Environment = {}): string {
  try {
    load(files, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('expected a ConfigError');
}

describe("GraphQL settings under Strapi's names", () => {
  const graphql = (config: Record<string, unknown>, env: Environment = {}) => load({ 'plugins.json': { graphql: { config } } }, env).plugins.graphql;

  it('turns the IDE and introspection off in production, on elsewhere', () => {
    expect(graphql({}, { NODE_ENV: 'production' })).toMatchObject({ landingPage: false, introspection: false, hideSchemaDetailsFromClientErrors: true });
    expect(graphql({}, { NODE_ENV: 'development' })).toMatchObject({ landingPage: true, introspection: true, hideSchemaDetailsFromClientErrors: false });
    // The hints follow introspection unless set: both give away the schema.
    expect(graphql({ apolloServer: { introspection: true } }, { NODE_ENV: 'production' })).toMatchObject({ hideSchemaDetailsFromClientErrors: false });
    expect(graphql({ apolloServer: { introspection: false, hideSchemaDetailsFromClientErrors: false } })).toMatchObject({ hideSchemaDetailsFromClientErrors: false });
    expect(graphql({})).toMatchObject({ landingPage: true, introspection: true });
  });

  it('lets landingPage, playgroundAlways and apolloServer.introspection decide', () => {
    expect(graphql({ landingPage: true }, { NODE_ENV: 'production' }).landingPage).toBe(true);
    expect(graphql({ playgroundAlways: true }, { NODE_ENV: 'production' }).landingPage).toBe(true);
    expect(graphql({ landingPage: false }).landingPage).toBe(false);
    expect(graphql({ apolloServer: { introspection: true } }, { NODE_ENV: 'production' }).introspection).toBe(true);
    expect(graphql({ apolloServer: { introspection: false } }).introspection).toBe(false);
  });

  it('has no cost limit unless maxCost is set, and reads amountLimit', () => {
    expect(graphql({}).maxCost).toBeNull();
    expect(graphql({ maxCost: 2_000_000 }).maxCost).toBe(2_000_000);
    expect(graphql({ amountLimit: 50 }).amountLimit).toBe(50);
    expect(graphql({}).amountLimit).toBeNull();
    expect(graphql({ amountLimit: null }).amountLimit).toBeNull();
  });

  it('refuses what it cannot honour, naming the key', () => {
    expect(errorOf({ 'plugins.json': { graphql: { config: { landingPage: 'yes' } } } })).toBe('config/plugins.json: graphql.config.landingPage must be true or false (got "yes")');
    expect(errorOf({ 'plugins.json': { graphql: { config: { apolloServer: { mocks: true } } } } })).toBe('config/plugins.json: unknown key "graphql.config.apolloServer.mocks"');
    // Strapi's documented example: accepted, as Apollo 4 ignores it.
    expect(graphql({ apolloServer: { tracing: false }, amountLimit: 100, playgroundAlways: false }).landingPage).toBe(true);
    expect(errorOf({ 'plugins.json': { graphql: { config: { endpoint: '/gql' } } } })).toBe('config/plugins.json: graphql.config.endpoint can only be "/graphql" (got "/gql")');
  });
});

describe('config/middlewares.json', () => {
  const middlewares = (json: unknown) => load({ 'middlewares.json': json }).middlewares;

  it("reads strapi::session with Strapi's defaults, the keys from APP_KEYS, secure in production", () => {
    const session = (config: unknown, env: Environment = {}) => load({ 'middlewares.json': ['strapi::body', { name: 'strapi::session', config }] }, env).middlewares[1];
    expect(session({})).toEqual({
      name: 'strapi::session',
      config: { key: 'koa.sess', maxAge: 86_400_000, httpOnly: true, secure: false, sameSite: false, signed: true, overwrite: true, keys: null },
    });
    expect(session({}, { NODE_ENV: 'production', APP_KEYS: 'keyA, keyB,' })).toMatchObject({ config: { secure: true, keys: ['keyA', 'keyB'] } });
    expect(session({ key: 'sid', maxAge: 'session', sameSite: 'lax', secure: true, httpOnly: false, rolling: false, renew: false, autoCommit: true })).toMatchObject({
      config: { key: 'sid', maxAge: 'session', sameSite: 'lax', secure: true, httpOnly: false },
    });
  });

  it("takes Strapi's names and { name, config } entries, in order, with Strapi's defaults", () => {
    const entries = middlewares([
      'strapi::errors',
      { name: 'strapi::cors', config: { origin: ['https://a.example', 'https://b.example'], maxAge: 600 } },
      'strapi::body',
      { name: 'strapi::poweredBy', config: { poweredBy: 'Acme' } },
    ]);
    expect(entries.map((entry) => entry.name)).toEqual(['strapi::errors', 'strapi::cors', 'strapi::body', 'strapi::poweredBy']);
    expect(entries[1]).toEqual({
      name: 'strapi::cors',
      config: {
        origin: ['https://a.example', 'https://b.example'],
        credentials: true,
        methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'],
        headers: ['Content-Type', 'Authorization', 'Origin', 'Accept'],
        expose: [],
        maxAge: 600,
      },
    });
    expect(entries[2]).toEqual({ name: 'strapi::body', config: { jsonLimit: 1_048_576, formLimit: 56 * 1024, textLimit: 56 * 1024, json: true, urlencoded: true, text: true } });
    expect(entries[3]).toEqual({ name: 'strapi::poweredBy', config: { poweredBy: 'Acme' } });
  });

  it('gives CORS credentials to listed origins only, unless told otherwise', () => {
    const credentialsOf = (config?: Record<string, unknown>) =>
      (middlewares(['strapi::body', config === undefined ? 'strapi::cors' : { name: 'strapi::cors', config }])[1] as { config: { credentials: boolean } }).config.credentials;
    expect(credentialsOf()).toBe(false);
    expect(credentialsOf({ origin: '*' })).toBe(false);
    expect(credentialsOf({ origin: ['https://a.example'] })).toBe(true);
    expect(credentialsOf({ origin: ['https://a.example'], credentials: false })).toBe(false);
    expect(credentialsOf({ origin: '*', credentials: false })).toBe(false);
  });

  it('reads sizes as koa-body writes them, and a comma-separated origin as a list', () => {
    const [body, cors] = middlewares([
      { name: 'strapi::body', config: { jsonLimit: '2mb', formLimit: '100kb', textLimit: 512 } },
      { name: 'strapi::cors', config: { origin: 'https://a.example, https://b.example' } },
    ]);
    expect(body).toMatchObject({ config: { jsonLimit: 2 * 1024 * 1024, formLimit: 100 * 1024, textLimit: 512 } });
    expect(cors).toMatchObject({ config: { origin: ['https://a.example', 'https://b.example'] } });
  });

  it('says what is wrong in one line: unknown names, custom code, bad options', () => {
    expect(errorOf({ 'middlewares.json': ['strapi::body', 'strapi::corz'] })).toMatch(
      /^config\/middlewares.json: \[1\] is not a middleware capi knows \(got "strapi::corz"\) \(did you mean "strapi::cors"\?\); known: strapi::logger, /,
    );
    expect(errorOf({ 'middlewares.json': ['strapi::body', 'global::audit'] })).toBe(
      'config/middlewares.json: [1] "global::audit" is custom code of the Strapi project: port it to src/extensions/index.ts (middlewares.before or .after, see docs/extending.md) and remove it from this file',
    );
    expect(errorOf({ 'middlewares.json': ['strapi::body', { name: 'strapi::cors', config: { origin: 5 } }] })).toBe('config/middlewares.json: [1].config.origin must be an array (got 5)');
    expect(errorOf({ 'middlewares.json': ['strapi::body', { name: 'strapi::cors', config: { origin: '*', credentials: true } }] })).toBe(
      'config/middlewares.json: [1].config.credentials cannot be true with origin "*": any web page could then send your visitors\' cookies and read the answers. List the origins allowed to (origin: ["https://front.example"]), or set credentials to false',
    );
    expect(errorOf({ 'middlewares.json': ['strapi::body', { name: 'strapi::security', config: { hsts: { maxAge: -1 } } }] })).toBe(
      'config/middlewares.json: [1].config.hsts.maxAge must be an integer >= 0 (got -1)',
    );
    expect(errorOf({ 'middlewares.json': [{ name: 'strapi::body', config: { jsonLimit: 'lots' } }] })).toBe(
      'config/middlewares.json: [0].config.jsonLimit must be a number of bytes or a size like "1mb" or "56kb" (got "lots")',
    );
    expect(errorOf({ 'middlewares.json': ['strapi::cors'] })).toBe('config/middlewares.json: must list "strapi::body": every write and GraphQL request has a JSON body');
    expect(errorOf({ 'middlewares.json': ['strapi::body', 'strapi::body'] })).toBe('config/middlewares.json: [1] lists "strapi::body" a second time');
    expect(errorOf({ 'middlewares.json': ['strapi::body', { name: 'strapi::session', config: { rolling: true } }] })).toBe(
      "config/middlewares.json: [1].config.rolling can only be false: capi's session sends its cookie when the session changes (got true)",
    );
    expect(errorOf({ 'middlewares.json': ['strapi::body', { name: 'strapi::session', config: { sameSite: 'loose' } }] })).toBe(
      'config/middlewares.json: [1].config.sameSite must be one of "strict", "lax", "none" (got "loose")',
    );
    expect(errorOf({ 'middlewares.json': ['strapi::body', { name: 'strapi::security', config: null }] })).toBe('config/middlewares.json: [1].config must be a JSON object (got null)');
    expect(errorOf({ 'middlewares.json': ['strapi::body', { name: 'strapi::security', config: { contentSecurityPolicy: { directives: null } } }] })).toBe(
      'config/middlewares.json: [1].config.contentSecurityPolicy.directives must be a JSON object (got null)',
    );
    expect(errorOf({ 'middlewares.json': ['strapi::body', { name: 'strapi::security', config: { crossOriginOpenerPolicy: { policy: 'open' } } }] })).toMatch(
      /\[1\]\.config\.crossOriginOpenerPolicy\.policy must be one of "same-origin", "same-origin-allow-popups", "unsafe-none"/,
    );
  });

  it("keeps helmet's policy values, and merges CSP directives over Strapi's", () => {
    const [, security] = middlewares([
      'strapi::body',
      {
        name: 'strapi::security',
        config: {
          crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
          crossOriginEmbedderPolicy: true,
          contentSecurityPolicy: { directives: { imgSrc: ["'self'", 'https://cdn.example'], 'upgrade-insecure-requests': null } },
        },
      },
    ]);
    expect(security).toMatchObject({
      config: {
        crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
        crossOriginEmbedderPolicy: { policy: 'require-corp' },
        crossOriginResourcePolicy: false,
        contentSecurityPolicy: { useDefaults: true, directives: { 'img-src': ["'self'", 'https://cdn.example'], 'connect-src': ["'self'", 'https:'], 'upgrade-insecure-requests': null } },
      },
    });
  });
});

describe('config/rate-limit.json', () => {
  it('reads each group, with the defaults for groups left out', () => {
    const limits = load({ 'rate-limit.json': { rest: { enabled: true, max: 100, interval: '15m' }, upload: { max: 3 } } }).rateLimits;
    expect(limits.rest).toEqual({ enabled: true, max: 100, intervalMs: 15 * 60_000 });
    expect(limits.upload).toEqual({ enabled: true, max: 3, intervalMs: 900_000 });
    expect(limits.graphql).toEqual({ enabled: false, max: 300, intervalMs: 60_000 });
    expect(errorOf({ 'rate-limit.json': { uploads: {} } })).toBe('config/rate-limit.json: unknown key "uploads" (did you mean "upload"?)');
  });
});

describe('loadConfig defaults', () => {
  it('takes every default when no file exists', () => {
    const root = project();
    const config = loadConfig({ projectRoot: root, env: {}, model });
    expect(config.server).toEqual({ host: '127.0.0.1', port: 1337, jsonLimit: 1048576, proxy: false, shutdown: { drainMs: 0, timeoutMs: 10_000 }, metrics: { enabled: false, path: '/metrics' } });
    expect(config.database).toEqual({ client: 'sqlite', filename: join(root, '.data/data.db'), label: '.data/data.db' });
    expect(config.api.rest).toEqual({ defaultLimit: 25, maxLimit: 100, withCount: true });
    expect(config.plugins.graphql).toEqual({
      defaultLimit: 10,
      maxLimit: null,
      depthLimit: 10,
      maxAliases: 30,
      maxCost: null,
      amountLimit: 100,
      landingPage: true,
      introspection: true,
      hideSchemaDetailsFromClientErrors: false,
    });
    expect(config.middlewares.map((entry) => entry.name)).toEqual([...defaultMiddlewareList]);
    expect(config.rateLimits).toEqual({
      upload: { enabled: true, max: 300, intervalMs: 900_000 },
      rest: { enabled: false, max: 600, intervalMs: 60_000 },
      graphql: { enabled: false, max: 300, intervalMs: 60_000 },
    });
    expect(config.plugins.i18n).toEqual({ defaultLocale: 'en', locales: [{ code: 'en', name: 'English (en)' }] });
    expect(config.plugins.upload).toEqual({ sizeLimit: 209715200, allowedMimeTypes: null, provider: { provider: 'local' } });
    expect(config.plugins.usersPermissions).toEqual({
      jwt: { expiresIn: 30 * 24 * 3600 },
      register: { allowedFields: [] },
      advanced: { allowRegister: true, emailConfirmation: false, defaultRole: 'authenticated', emailResetPasswordUrl: null, emailConfirmationRedirection: null },
      ratelimit: { enabled: true, max: 5, intervalMs: 300_000 },
      emailTemplates: {},
    });
    expect(config.plugins.email).toEqual({ provider: 'log', defaultFrom: null, defaultReplyTo: null });
    expect(config.permissions).toEqual(defaultPermissions());
  });

  it("reads users-permissions jwt.expiresIn as Strapi's config/plugins writes it: seconds or a duration", () => {
    const expiresIn = (value: unknown): number => load({ 'plugins.json': { 'users-permissions': { config: { jwt: { expiresIn: value } } } } }).plugins.usersPermissions.jwt.expiresIn;
    expect(expiresIn(3600)).toBe(3600);
    expect(expiresIn('7d')).toBe(7 * 86_400);
    expect(expiresIn('12h')).toBe(12 * 3600);
    expect(expiresIn('90m')).toBe(90 * 60);
    expect(expiresIn('45s')).toBe(45);
    expect(expiresIn('2 weeks')).toBe(14 * 86_400);
    expect(expiresIn('1y')).toBe(31_557_600);
    expect(load({ 'plugins.json': { 'users-permissions': {} } }).plugins.usersPermissions.jwt.expiresIn).toBe(30 * 86_400);
  });

  it("without a permissions file, with or without a model, opens no content: only signing in and up, and one's own account", () => {
    for (const withModel of [true, false]) {
      const { permissions } = load({}, {}, withModel);
      expect(permissions).toEqual(defaultPermissions());
      expect(
        Object.values(permissions)
          .flat()
          .filter((action) => !action.startsWith('plugin::users-permissions.')),
      ).toEqual([]);
    }
  });

  it('reads back exactly what defaultConfigFiles writes, for both databases', () => {
    for (const client of ['sqlite', 'postgres', 'mysql'] as const) {
      const files: Record<string, unknown> = { ...defaultConfigFiles(client), 'permissions.json': defaultPermissions() };
      const config = load(files);
      expect(config.database.client).toBe(client);
      expect(config.api.rest.maxLimit).toBe(100);
    }
    expect(load(defaultConfigFiles('postgres')).database).toEqual({
      client: 'postgres',
      url: 'postgresql://postgres@127.0.0.1:5432/postgres',
      label: '127.0.0.1:5432/postgres',
      pool: { max: 10 },
      pgbouncer: false,
    });
  });

  it('reads the query budget of api.json, defaulting each key', () => {
    expect(load({}).api.query).toEqual({ maxDepth: 10, maxTables: 100, timeoutMs: 10_000 });
    expect(load({ 'api.json': { query: { maxDepth: 6 } } }).api.query).toEqual({ maxDepth: 6, maxTables: 100, timeoutMs: 10_000 });
    expect(load({ 'api.json': { rest: { maxLimit: 50 }, query: { maxTables: 40 } } }).api).toEqual({
      rest: { defaultLimit: 25, maxLimit: 50, withCount: true },
      query: { maxDepth: 10, maxTables: 40, timeoutMs: 10_000 },
    });
  });

  it('takes partial files, filling in the rest', () => {
    const config = load({ 'api.json': { rest: { maxLimit: 50 } }, 'plugins.json': { graphql: { config: { maxLimit: 200 } } } });
    expect(config.api.rest).toEqual({ defaultLimit: 25, maxLimit: 50, withCount: true });
    expect(config.plugins.graphql.maxLimit).toBe(200);
  });

  it('starts with a GraphQL defaultLimit above maxLimit, as Strapi does (pages are capped, the mount warns)', () => {
    expect(load({ 'plugins.json': { graphql: { config: { defaultLimit: 50, maxLimit: 20 } } } }).plugins.graphql).toMatchObject({ defaultLimit: 50, maxLimit: 20 });
  });

  it('reads locales as codes or {code, name}', () => {
    const config = load({ 'plugins.json': { i18n: { defaultLocale: 'fr', locales: ['en', { code: 'fr', name: 'Français' }, 'pt-BR'] } } });
    expect(config.plugins.i18n).toEqual({
      defaultLocale: 'fr',
      locales: [
        { code: 'en', name: 'English (en)' },
        { code: 'fr', name: 'Français' },
        { code: 'pt-BR', name: 'Brazilian Portuguese (pt-BR)' },
      ],
    });
  });

  it('reads upload limits and permissions', () => {
    const config = load({
      'plugins.json': { upload: { sizeLimit: 1000, allowedMimeTypes: ['image/*', 'Application/PDF'] } },
      'permissions.json': { public: ['api::article.article.find', 'api::article.article.find'], editor: ['api::global.global.update'] },
    });
    expect(config.plugins.upload).toEqual({ sizeLimit: 1000, allowedMimeTypes: ['image/*', 'application/pdf'], provider: { provider: 'local' } });
    expect(config.permissions).toEqual({ public: ['api::article.article.find'], authenticated: [], editor: ['api::global.global.update'] });
  });
});

describe('environment overrides', () => {
  it('HOST and PORT win over server.json', () => {
    const config = load({ 'server.json': { host: '127.0.0.1', port: 4000 } }, { HOST: '::1', PORT: '0' });
    expect(config.server).toMatchObject({ host: '::1', port: 0 });
  });

  it('empty variables count as unset', () => {
    expect(load({ 'server.json': { port: 4000 } }, { PORT: '', HOST: ' ' }).server).toMatchObject({ host: '127.0.0.1', port: 4000 });
  });

  it('DATABASE_URL file: means sqlite, relative to the project root or absolute', () => {
    const root = project({ 'database.json': { client: 'postgres', connection: { url: 'postgresql://x@h/db' } } });
    const relative = loadConfig({ projectRoot: root, env: { DATABASE_URL: 'file:./var/app.db' } }).database;
    expect(relative).toEqual({ client: 'sqlite', filename: join(root, 'var/app.db'), label: 'var/app.db' });
    const absolute = loadConfig({ projectRoot: root, env: { DATABASE_URL: 'file:/srv/data/app.db' } }).database;
    expect(absolute).toEqual({ client: 'sqlite', filename: '/srv/data/app.db', label: '/srv/data/app.db' });
  });

  it('DATABASE_URL postgres:// and postgresql:// mean postgres', () => {
    expect(load({}, { DATABASE_URL: 'postgres://u:secret@db.example:5433/shop' }).database).toEqual({
      client: 'postgres',
      url: 'postgres://u:secret@db.example:5433/shop',
      label: 'db.example:5433/shop',
      pool: { max: 10 },
      pgbouncer: false,
    });
    expect(load({}, { DATABASE_URL: 'postgresql://localhost/app' }).database).toMatchObject({ client: 'postgres', label: 'localhost/app' });
  });

  it('pgbouncer: ?pgbouncer=true in DATABASE_URL or connection.url (taken out of the URL pg gets), or connection.pgbouncer', () => {
    expect(load({}, { DATABASE_URL: 'postgres://u:secret@pooler:6432/shop?pgbouncer=true&sslmode=require' }).database).toEqual({
      client: 'postgres',
      url: 'postgres://u:secret@pooler:6432/shop?sslmode=require',
      label: 'pooler:6432/shop',
      pool: { max: 10 },
      pgbouncer: true,
    });
    expect(load({}, { DATABASE_URL: 'postgres://pooler:6432/shop?pgbouncer=false' }).database).toMatchObject({ url: 'postgres://pooler:6432/shop', pgbouncer: false });
    const file = (connection: Record<string, unknown>): Record<string, unknown> => ({ 'database.json': { client: 'postgres', connection } });
    expect(load(file({ url: 'postgresql://pooler:6432/shop', pgbouncer: true })).database).toMatchObject({ url: 'postgresql://pooler:6432/shop', pgbouncer: true });
    expect(load(file({ url: 'postgresql://pooler:6432/shop?pgbouncer=true' })).database).toMatchObject({ url: 'postgresql://pooler:6432/shop', pgbouncer: true });
    expect(() => load(file({ url: 'postgresql://pooler:6432/shop', pgbouncer: 'yes' }))).toThrow('config/database.json: connection.pgbouncer must be true or false (got "yes")');
    expect(() => load(file({ url: 'postgresql://pooler:6432/shop?pgbouncer=false', pgbouncer: true }))).toThrow(
      'config/database.json: connection.url says pgbouncer=false while connection.pgbouncer is true: give it once',
    );
    expect(() => load({}, { DATABASE_URL: 'postgres://pooler/shop?pgbouncer=1' })).toThrow('DATABASE_URL has pgbouncer=1: it must be true or false (got "postgres://pooler/shop?pgbouncer=1")');
  });

  it('shutdown: drain and timeout in seconds or as durations, drain 0 allowed', () => {
    expect(load({ 'server.json': { shutdown: { drain: 5 } } }).server.shutdown).toEqual({ drainMs: 5_000, timeoutMs: 10_000 });
    expect(load({ 'server.json': { shutdown: { drain: 0, timeout: '1m' } } }).server.shutdown).toEqual({ drainMs: 0, timeoutMs: 60_000 });
    expect(() => load({ 'server.json': { shutdown: { drain: -1 } } })).toThrow('config/server.json: shutdown.drain must be');
    expect(() => load({ 'server.json': { shutdown: { grace: 3 } } })).toThrow('config/server.json: unknown key "shutdown.grace"');
  });

  it('DATABASE_URL mysql:// and mariadb:// mean mysql, and database.json takes client "mysql"', () => {
    expect(load({}, { DATABASE_URL: 'mysql://u:secret@db.example:3307/shop' }).database).toEqual({
      client: 'mysql',
      url: 'mysql://u:secret@db.example:3307/shop',
      label: 'db.example:3307/shop',
      pool: { max: 10 },
    });
    expect(load({}, { DATABASE_URL: 'mariadb://localhost/app' }).database).toMatchObject({ client: 'mysql', label: 'localhost/app' });
    expect(load({ 'database.json': { client: 'mysql', connection: { url: 'mysql://root@127.0.0.1:3306/db' }, pool: { max: 3 } } }).database).toEqual({
      client: 'mysql',
      url: 'mysql://root@127.0.0.1:3306/db',
      label: '127.0.0.1:3306/db',
      pool: { max: 3 },
    });
  });
});

describe('read replicas', () => {
  const primary = { client: 'postgres', connection: { url: 'postgresql://app@primary/shop' }, pool: { max: 4 } };

  it('are absent unless a replica is named, so nothing of their routing is set up', () => {
    expect(load({ 'database.json': primary }).replicas).toBeUndefined();
    expect(load({ 'database.json': { ...primary, replicas: { maxLagMs: 5 } } }).replicas).toBeUndefined();
    expect(load({ 'database.json': primary }, { DATABASE_REPLICA_URLS: ' , ' }).replicas).toBeUndefined();
  });

  it('come from database.json, with DATABASE_REPLICA_URLS replacing their urls, each with the primary pool size', () => {
    const file = { ...primary, replicas: { urls: ['postgresql://app@replica-1/shop'], maxLagMs: 2000, checkIntervalMs: 250 } };
    expect(load({ 'database.json': file }).replicas).toEqual({
      servers: [{ client: 'postgres', url: 'postgresql://app@replica-1/shop', label: 'replica-1/shop', pool: { max: 4 }, pgbouncer: false }],
      maxLagMs: 2000,
      checkIntervalMs: 250,
    });
    const fromEnv = load({ 'database.json': file }, { DATABASE_REPLICA_URLS: 'postgresql://app@r2/shop, postgres://app@r3:5433/shop' }).replicas;
    expect(fromEnv?.servers.map((server) => server.label)).toEqual(['r2/shop', 'r3:5433/shop']);
    expect(fromEnv).toMatchObject({ maxLagMs: 2000, checkIntervalMs: 250 });
    expect(load({ 'database.json': primary }, { DATABASE_REPLICA_URLS: 'postgresql://app@r2/shop' }).replicas).toMatchObject({ maxLagMs: 10_000, checkIntervalMs: 1000 });
  });

  it.each([
    [{ replicas: { urls: 'postgresql://r/db' } }, {}, 'config/database.json: replicas.urls must be an array (got "postgresql://r/db")'],
    [{ replicas: { urls: ['mysql://r/db'] } }, {}, 'config/database.json: replicas.urls[0] must be a database of the primary\'s kind, "postgres" (got "mysql://r/db")'],
    [{ replicas: { urls: ['postgresql://r/db'], maxLagMs: -1 } }, {}, 'config/database.json: replicas.maxLagMs must be an integer >= 0 (got -1)'],
    [{ replicas: { urls: ['postgresql://r/db'], checkIntervalMs: 1 } }, {}, 'config/database.json: replicas.checkIntervalMs must be an integer >= 10 (got 1)'],
    [{ replicas: { url: ['postgresql://r/db'] } }, {}, 'config/database.json: unknown key "replicas.url" (did you mean "replicas.urls"?)'],
    [
      {},
      { DATABASE_REPLICA_URLS: 'postgresql://r/db,oracle://u:secret@r/db' },
      'DATABASE_REPLICA_URLS[1] must start with "file:", "postgres://", "postgresql://", "mysql://" or "mariadb://" (got "oracle://u:***@r/db")',
    ],
  ])('%j %j', (replicas, env, message) => {
    expect(errorOf({ 'database.json': { ...primary, ...replicas } }, env)).toBe(message);
  });
});

describe('error messages', () => {
  it.each([
    [{ 'api.json': { rest: { maxLimit: 'a lot' } } }, 'config/api.json: rest.maxLimit must be an integer >= 1 (got "a lot")'],
    [{ 'api.json': { rest: { defaultLimit: 0 } } }, 'config/api.json: rest.defaultLimit must be an integer >= 1 (got 0)'],
    [{ 'api.json': { rest: { defaultLimit: 200 } } }, 'config/api.json: rest.defaultLimit must not exceed rest.maxLimit (got 200 > 100)'],
    [{ 'api.json': { rest: { withCount: 'yes' } } }, 'config/api.json: rest.withCount must be true or false (got "yes")'],
    [{ 'api.json': { rest: { maxLimt: 5 } } }, 'config/api.json: unknown key "rest.maxLimt" (did you mean "rest.maxLimit"?)'],
    [{ 'api.json': [] }, 'config/api.json: must be a JSON object (got [])'],
    [{ 'api.json': { query: { maxDepth: 0 } } }, 'config/api.json: query.maxDepth must be an integer >= 1 (got 0)'],
    [{ 'api.json': { query: { maxTables: 'many' } } }, 'config/api.json: query.maxTables must be an integer >= 1 (got "many")'],
    [{ 'api.json': { query: { timeoutMs: -1 } } }, 'config/api.json: query.timeoutMs must be an integer >= 0 (got -1)'],
    [{ 'api.json': { query: { depth: 5 } } }, 'config/api.json: unknown key "query.depth"'],
    [{ 'server.json': { prot: 1 } }, 'config/server.json: unknown key "prot" (did you mean "port"?)'],
    [{ 'server.json': { colour: 1 } }, 'config/server.json: unknown key "colour"'],
    [{ 'server.json': { port: 70000 } }, 'config/server.json: port must be an integer between 0 and 65535 (got 70000)'],
    [{ 'server.json': { host: '' } }, 'config/server.json: host must be a non-empty string (got "")'],
    [{ 'server.json': '{ "port": 1, }' }, 'config/server.json: is not valid JSON: '],
    [{ 'database.json': { client: 'oracle' } }, 'config/database.json: client must be one of "sqlite", "postgres", "mysql" (got "oracle")'],
    [{ 'database.json': { client: 'mysql' } }, 'config/database.json: connection.url is required when client is "mysql"'],
    [{ 'database.json': { client: 'mysql', connection: { url: 'postgres://h/db' } } }, 'config/database.json: connection.url must start with "mysql://" or "mariadb://" (got "postgres://h/db")'],
    [{ 'database.json': { client: 'mysql', connection: { url: 'mysql://h' } } }, 'config/database.json: connection.url names no database (mysql://user@host:3306/database) (got "mysql://h")'],
    [{ 'database.json': { connection: {} } }, 'config/database.json: client must be one of "sqlite", "postgres", "mysql" (got nothing)'],
    [{ 'database.json': { client: 'postgres' } }, 'config/database.json: connection.url is required when client is "postgres"'],
    [{ 'database.json': { client: 'sqlite', connection: { url: 'x' } } }, 'config/database.json: unknown key "connection.url"'],
    [{ 'database.json': { client: 'sqlite', pool: { max: 2 } } }, 'config/database.json: pool is only valid when client is "postgres"'],
    [{ 'database.json': { client: 'postgres', connection: { url: 'mysql://h/db' } } }, 'config/database.json: connection.url must start with "postgres://" or "postgresql://" (got "mysql://h/db")'],
    [{ 'plugins.json': { graphql: { config: { maxLimit: 0 } } } }, 'config/plugins.json: graphql.config.maxLimit must be -1 (no limit) or an integer >= 1 (got 0)'],
    [{ 'plugins.json': { graphql: { config: { depthLimt: 3 } } } }, 'config/plugins.json: unknown key "graphql.config.depthLimt" (did you mean "graphql.config.depthLimit"?)'],
    [{ 'plugins.json': { graphql: { defaultLimit: 3 } } }, 'config/plugins.json: unknown key "graphql.defaultLimit"'],
    [{ 'plugins.json': { i18n: { defaultLocale: 'de', locales: ['en'] } } }, 'config/plugins.json: i18n.defaultLocale must be one of i18n.locales (got "de")'],
    [{ 'plugins.json': { i18n: { locales: ['en', 'english'] } } }, 'config/plugins.json: i18n.locales[1] must be a locale code like "en" or "pt-BR" (got "english")'],
    [{ 'plugins.json': { i18n: { locales: ['en', { code: 'en' }] } } }, 'config/plugins.json: i18n.locales[1] repeats locale "en"'],
    [{ 'plugins.json': { i18n: { locales: [] } } }, 'config/plugins.json: i18n.locales must list at least one locale'],
    [{ 'plugins.json': { upload: { sizeLimit: -5 } } }, 'config/plugins.json: upload.sizeLimit must be an integer >= 1 (got -5)'],
    [{ 'plugins.json': { upload: { allowedMimeTypes: ['png'] } } }, 'config/plugins.json: upload.allowedMimeTypes[0] must be a MIME type like "image/png" or "image/*" (got "png")'],
    [
      { 'plugins.json': { 'users-permissions': { config: { jwt: { expiresIn: '3600' } } } } },
      'config/plugins.json: users-permissions.config.jwt.expiresIn must be a number of seconds or a duration like "30d", "12h" or "90m" (got "3600")',
    ],
    [{ 'plugins.json': { 'users-permissions': { config: { jwt: { expiresIn: '30 parsecs' } } } } }, 'users-permissions.config.jwt.expiresIn must be a number of seconds or a duration'],
    [{ 'plugins.json': { 'users-permissions': { config: { jwt: { expiresIn: 0 } } } } }, 'config/plugins.json: users-permissions.config.jwt.expiresIn must be an integer >= 1 (got 0)'],
    [{ 'plugins.json': { 'users-permissions': { config: { jwt: { expiresIn: '0d' } } } } }, 'users-permissions.config.jwt.expiresIn must be a number of seconds or a duration'],
    [
      { 'plugins.json': { 'users-permissions': { config: { jwt: { expireIn: '7d' } } } } },
      'config/plugins.json: unknown key "users-permissions.config.jwt.expireIn" (did you mean "users-permissions.config.jwt.expiresIn"?)',
    ],
    [{ 'plugins.json': { 'users-permissions': { jwt: { expiresIn: '7d' } } } }, 'config/plugins.json: unknown key "users-permissions.jwt"'],
    [{ 'permissions.json': { public: 'all' } }, 'config/permissions.json: public must be an array (got "all")'],
    [{ 'permissions.json': { Public: [] } }, 'config/permissions.json: role "Public" must be a name in lower case (letters, digits, "-" or "_")'],
    [{ 'permissions.json': { public: ['find everything'] } }, 'config/permissions.json: public[0] must be an action like "api::article.article.find" (got "find everything")'],
    [
      { 'permissions.json': { public: ['api::artcle.article.find'] } },
      'config/permissions.json: public[0] is not an action of this project (got "api::artcle.article.find") (did you mean "api::article.article.find"?)',
    ],
    [{ 'permissions.json': { public: ['api::global.global.findOne'] } }, 'config/permissions.json: public[0] is not an action of this project (got "api::global.global.findOne")'],
  ])('%j', (files, message) => {
    expect(errorOf(files)).toContain(message);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be an integer between 0 and 65535 (got "abc")'],
    [{ PORT: '-1' }, 'PORT must be an integer between 0 and 65535 (got "-1")'],
    [{ DATABASE_URL: 'oracle://root:hunter2@db/app' }, 'DATABASE_URL must start with "file:", "postgres://", "postgresql://", "mysql://" or "mariadb://" (got "oracle://root:***@db/app")'],
    [{ DATABASE_URL: 'file:' }, 'DATABASE_URL names no file (got "file:")'],
    [{ DATABASE_URL: 'postgres://' }, 'DATABASE_URL names no host (got "postgres://")'],
    [{ DATABASE_URL: 'postgres://h:port/db' }, 'DATABASE_URL is not a valid URL (got "postgres://h:port/db")'],
  ])('env %j', (env, message) => {
    expect(errorOf({}, env)).toBe(message);
  });

  it('never shows a password', () => {
    expect(redactUrl('postgresql://user:pa%40ss@host:5432/db')).toBe('postgresql://user:***@host:5432/db');
    expect(redactUrl('postgresql://user@host/db')).toBe('postgresql://user@host/db');
  });

  it('LOG_LEVEL is checked', () => {
    expect(logLevelFromEnv({})).toBe('info');
    expect(logLevelFromEnv({ LOG_LEVEL: 'DEBUG' })).toBe('debug');
    expect(() => logLevelFromEnv({ LOG_LEVEL: 'verbose' })).toThrow('LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "verbose")');
  });
});

describe('defaultPermissions', () => {
  it("is Strapi 5's users-permissions DEFAULT_PERMISSIONS: the public role signs in and up, the authenticated role reads its account and changes its password, no content, media or locales for either", () => {
    expect(defaultPermissions()).toEqual({
      public: ['callback', 'connect', 'emailConfirmation', 'forgotPassword', 'register', 'resetPassword', 'sendEmailConfirmation'].map((a) => `plugin::users-permissions.auth.${a}`),
      authenticated: ['plugin::users-permissions.auth.changePassword', 'plugin::users-permissions.user.me'],
    });
  });
});

describe('config/webhooks.json', () => {
  const hook = { name: 'indexer', url: 'https://indexer.example/hook', events: ['entry.create', 'media.delete'] };

  it('reads endpoints, their headers and the signing secret from the named variable', () => {
    const config = load({ 'webhooks.json': [{ ...hook, headers: { Authorization: 'Bearer x' }, secretEnv: 'HOOK_SECRET' }] }, { HOOK_SECRET: 's3cret' });
    expect(config.webhooks).toEqual([{ name: 'indexer', url: 'https://indexer.example/hook', headers: { Authorization: 'Bearer x' }, events: ['entry.create', 'media.delete'], secret: 's3cret' }]);
    expect(load({}).webhooks).toEqual([]);
  });

  it.each([
    [{ x: 1 }, 'config/webhooks.json: must be an array (got {"x":1})'],
    [[{ ...hook, url: 'ftp://x' }], 'config/webhooks.json: [0].url must be an http:// or https:// URL (got "ftp://x")'],
    [
      [{ ...hook, events: ['entry.created'] }],
      'config/webhooks.json: [0].events[0] must be one of "entry.create", "entry.update", "entry.delete", "entry.publish", "entry.unpublish", "media.create", "media.update", "media.delete" (got "entry.created")',
    ],
    [[{ ...hook, events: [] }], 'config/webhooks.json: [0].events must list at least one event'],
    [[hook, hook], 'config/webhooks.json: [1].name repeats the name of another webhook (got "indexer")'],
    [[{ ...hook, header: {} }], 'config/webhooks.json: unknown key "[0].header" (did you mean "[0].headers"?)'],
    [[{ ...hook, headers: { 'bad header': 'x' } }], 'config/webhooks.json: [0].headers.bad header is not a valid HTTP header name'],
    [[{ ...hook, secretEnv: 'MISSING_SECRET' }], 'config/webhooks.json: [0].secretEnv names the environment variable MISSING_SECRET, which is not set'],
  ])('%j', (webhooks, message) => {
    expect(errorOf({ 'webhooks.json': webhooks })).toBe(message);
  });
});
