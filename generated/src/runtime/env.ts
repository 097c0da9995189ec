/**
 * The environment variables the server reads, in one typed table: `.env.example` is rendered
 * from it by `capi generate`, and docs/configuration.md lists the same rows, so the three cannot
 * drift apart. Also loads the project's `.env` at start-up, without overriding variables the real
 * environment sets (a deployment's settings always win over a file left in the image).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { ConfigError } from './config-check.ts';

export interface EnvVariable {
  readonly name: string;
  /** One line: what it does and when it is needed. */
  readonly description: string;
  /** The value `.env.example` shows; commented out when there is no sensible default. */
  readonly example: string;
  /** Set in `.env.example` (uncommented): values a fresh project starts with. */
  readonly active?: boolean;
}

export const envVariables: readonly EnvVariable[] = [
  { name: 'NODE_ENV', description: 'production turns the GraphQL IDE and introspection off and makes missing secrets fatal', example: 'development', active: true },
  { name: 'HOST', description: 'address to listen on (overrides config/server.json host)', example: '127.0.0.1', active: true },
  { name: 'PORT', description: 'port to listen on (overrides config/server.json port)', example: '1337', active: true },
  {
    name: 'DATABASE_URL',
    description: 'file:./path.db (SQLite), postgresql://user:password@host:5432/db or mysql://user:password@host:3306/db (MySQL/MariaDB); overrides config/database.json',
    example: 'file:./.data/data.db',
  },
  {
    name: 'DATABASE_REPLICA_URLS',
    description: 'comma-separated PostgreSQL streaming replicas that serve reads (read-your-writes kept); overrides config/database.json replicas.urls',
    example: 'postgresql://user:password@replica-1:5432/db,postgresql://user:password@replica-2:5432/db',
  },
  { name: 'LOG_LEVEL', description: 'fatal, error, warn, info (default), debug, trace or silent', example: 'info' },
  { name: 'JWT_SECRET', description: "signs and checks users' JWTs (sign-in, /api/users); required in production when the project has users", example: 'change-me-to-a-long-random-string' },
  {
    name: 'APP_KEYS',
    description: "comma-separated keys signing strapi::session cookies (Strapi's app.keys); without them a key is made at start and sessions end with the process",
    example: 'change-me-a,change-me-b',
  },
  { name: 'API_TOKEN_SALT', description: 'HMAC key of stored API tokens; required as soon as tokens exist; changing it invalidates every token', example: 'change-me-to-a-long-random-string' },
  { name: 'AWS_REGION', description: 'region of the aws-s3 upload provider when config/plugins.json names none', example: 'eu-west-1' },
  { name: 'AWS_ACCESS_KEY_ID', description: 'aws-s3 upload provider credentials when config/plugins.json gives none (the AWS SDK reads it)', example: 'AKIA...' },
  { name: 'AWS_SECRET_ACCESS_KEY', description: 'aws-s3 upload provider credentials when config/plugins.json gives none (the AWS SDK reads it)', example: 'change-me' },
  { name: 'CAPI_DIRECT_PATH', description: '0: answer content reads and GraphQL through Express too, instead of the direct path (direct.ts)', example: '1' },
  { name: 'CAPI_QUERY_COUNT', description: "1: report each request's SQL statement count in an X-Query-Count header (tests, benchmarks)", example: '0' },
  { name: 'CAPI_WEBHOOK_BACKOFF_MS', description: 'first retry delay of a failed webhook delivery, doubled each attempt', example: '1000' },
  { name: 'CAPI_WEBHOOK_TIMEOUT_MS', description: 'how long one webhook delivery may take', example: '10000' },
  { name: 'CAPI_WEBHOOK_MAX_ATTEMPTS', description: 'attempts before a webhook delivery is given up', example: '10' },
  { name: 'CAPI_WEBHOOK_POLL_MS', description: 'how often pending webhook deliveries are looked for', example: '1000' },
  { name: 'CAPI_WEBHOOK_RETENTION_DAYS', description: 'days delivered and failed webhook deliveries are kept', example: '7' },
  {
    name: 'METRICS_TOKEN',
    description: 'bearer token a Prometheus scrape must send when config/server.json enables metrics (Authorization: Bearer ...)',
    example: 'change-me-to-a-long-random-string',
  },
  { name: 'OTEL_EXPORTER_OTLP_ENDPOINT', description: 'OTLP/HTTP collector (e.g. http://otel-collector:4318): turns tracing on; spans go to its /v1/traces', example: 'http://localhost:4318' },
  { name: 'OTEL_EXPORTER_OTLP_PROTOCOL', description: 'http/protobuf (default) or http/json', example: 'http/protobuf' },
  { name: 'OTEL_TRACES_EXPORTER', description: 'otlp, console or none; otlp or console turns tracing on, none keeps it off', example: 'otlp' },
  { name: 'OTEL_SERVICE_NAME', description: "the traces' service.name (default capi)", example: 'capi' },
];

/** The contents of a generated project's `.env.example`. */
export function renderEnvExample(): string {
  const lines = [
    '# Environment of the server. Copy to .env (never committed) and fill in; variables set in the',
    '# real environment win over .env. Webhooks may also name their own secret variables',
    '# (config/webhooks.json "secretEnv"), and any string of config/plugins.json may be "${env:NAME}".',
  ];
  for (const variable of envVariables) {
    lines.push('', `# ${variable.description}`, `${variable.active === true ? '' : '# '}${variable.name}=${variable.example}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Reads `<projectRoot>/.env` into `env` for every variable `env` does not already have. Returns
 * the names it set. A missing file is fine; one that cannot be read is a ConfigError.
 */
export function loadDotEnv(projectRoot: string, env: Record<string, string | undefined>): string[] {
  const path = join(projectRoot, '.env');
  if (!existsSync(path)) return [];
  let parsed: Record<string, string | undefined>;
  try {
    parsed = parseEnv(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(`.env cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  const set: string[] = [];
  for (const [name, value] of Object.entries(parsed)) {
    if (value === undefined || env[name] !== undefined) continue;
    env[name] = value;
    set.push(name);
  }
  return set;
}

export function isProduction(env: Readonly<Record<string, string | undefined>>): boolean {
  return env.NODE_ENV?.trim() === 'production';
}

/** A secret a feature cannot work without: the one-line start-up error that names it. */
export class MissingSecretError extends ConfigError {
  constructor(name: string, why: string) {
    super(`${name} is not set: ${why} (set it in the environment or in .env; see .env.example)`);
  }
}
