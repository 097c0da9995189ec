/**
 * The server's logger: pino, one JSON object per line on stdout, level from LOG_LEVEL (default
 * "info"). Each request's line and request id come from `strapi::logger` (middlewares/
 * request-log.ts). Start-up failures do not go through here: they are one plain `capi: ...` line
 * on stderr (see main.ts).
 */
import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino';
import { ConfigError } from './config-check.ts';
import type { Environment } from './config.ts';

export type Logger = PinoLogger;

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

export interface LoggerOptions {
  readonly level?: LogLevel;
  /** Defaults to stdout. Tests pass a stream to read what was logged. */
  readonly destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const settings = { level: options.level ?? 'info', base: { name: 'capi' } };
  return options.destination === undefined ? pino(settings) : pino(settings, options.destination);
}

/** LOG_LEVEL, checked: a typo there should not silently mean "info". Throws ConfigError. */
export function logLevelFromEnv(env: Environment): LogLevel {
  const value = env.LOG_LEVEL?.trim().toLowerCase();
  if (value === undefined || value === '') return 'info';
  if (!(logLevels as readonly string[]).includes(value)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${logLevels.join(', ')} (got ${JSON.stringify(env.LOG_LEVEL)})`);
  }
  return value as LogLevel;
}
