/**
 * The process-level entry points that a generated project's `src/main.ts` and `src/migrate.ts`
 * call. They own the process: a start-up failure prints one line, `capi: <message>`, on stderr
 * and exits with code 1. Known failures (config, database, migration, listen) are phrased for
 * the user; anything else is a bug and also gets its stack when LOG_LEVEL is debug or trace.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { followPrimary, isClusterWorker, startPrimary, WorkerStartError } from './cluster.ts';
import { ConfigError, loadConfig, workerCount, type AppConfig, type Environment } from './config.ts';
import { DatabaseOpenError, openDatabase } from './database.ts';
import { createLogger, logLevelFromEnv, type Logger } from './logger.ts';
import { loadDotEnv } from './env.ts';
import { applyMigrations, MigrationError, type MigrationLog } from './migrate.ts';
import type { ModelSchema } from './schema.ts';
import { ListenError, startServer, type MountFactory, type RunningServer } from './server.ts';

/** Where the server is listening, as told to the parent process: `{ type: 'capi:listening', url, port }`. */
export interface ListeningAnnouncement {
  readonly type: 'capi:listening';
  readonly url: string;
  readonly port: number;
}

/**
 * What runServer does to its process, as values: a caller that runs it inside another program
 * (a test inside a test runner's worker) passes its own, so that nothing is written to, exits, or
 * lets go of that program's streams and IPC channel.
 */
export interface ProcessIo {
  readonly stdout: (line: string) => void;
  readonly stderr: (line: string) => void;
  readonly exit: (code: number) => never;
  readonly announce: (listening: ListeningAnnouncement) => void;
}

const processIo: ProcessIo = {
  stdout: (line) => void process.stdout.write(`${line}\n`),
  stderr: (line) => void process.stderr.write(`${line}\n`),
  exit: (code) => process.exit(code),
  announce: announceToParent,
};

export interface RunServerOptions {
  readonly projectRoot: string;
  readonly model: ModelSchema;
  readonly mounts?: readonly MountFactory[];
  readonly env?: Environment;
  /** Command-line arguments (`--workers N`); defaults to this process' own. */
  readonly argv?: readonly string[];
}

/**
 * Starts the server for good: returns once it listens; shuts down on SIGINT/SIGTERM. With more
 * than one worker (`--workers N`, config/server.json `workers`) this process becomes the
 * cluster's primary (cluster.ts) and returns undefined once every worker listens.
 */
export async function runServer(options: RunServerOptions, io: ProcessIo = processIo): Promise<RunningServer | undefined> {
  // Without an env of its own, the process' environment takes in .env (never over what is set),
  // so that every reader of process.env, and every worker forked from here, sees it too.
  const env: Record<string, string | undefined> = options.env === undefined ? process.env : { ...options.env };
  try {
    loadDotEnv(options.projectRoot, env);
    if (isClusterWorker()) {
      const serving = followPrimary(io.exit);
      const server = await startServer({ ...options, env, handleSignals: true, migrate: false });
      serving(server.stop);
      return server;
    }
    // Read once here: the worker count, the migrations and the single server all use this copy.
    const config = loadConfig({ projectRoot: options.projectRoot, env, model: options.model });
    const workers = workersWanted(options, config);
    if (workers <= 1) {
      const server = await startServer({ ...options, env, config, handleSignals: true });
      io.announce({ type: 'capi:listening', url: server.url, port: server.port });
      return server;
    }
    await runPrimary(options, env, config, workers, io);
    return undefined;
  } catch (error) {
    return fatal(error, env, io);
  }
}

/**
 * Tells a parent that started this process with an IPC channel (child_process.fork, a process
 * manager) where the server listens: `{ type: 'capi:listening', url, port }`. Such a parent can
 * start the server on port 0 and learn the port, instead of picking a free port beforehand, which
 * another process may take before this one listens (and then answers in its place). Without a
 * channel nothing is sent; the channel is let go so that it does not keep the process alive.
 */
function announceToParent(listening: ListeningAnnouncement): void {
  if (process.send === undefined) return;
  process.send(listening);
  process.channel?.unref();
}

/** `--workers` when given, else config/server.json's `workers`, else 1. */
function workersWanted(options: RunServerOptions, config: AppConfig): number {
  const { values } = parseArgs({ args: [...(options.argv ?? process.argv.slice(2))], options: { workers: { type: 'string' } }, strict: false, allowPositionals: true });
  if (typeof values.workers === 'string') return workerCount({ file: '', path: '--workers' }, values.workers);
  return config.server.workers ?? 1;
}

/** Migrations once, then the workers; SIGINT/SIGTERM stop them gracefully, a second one at once. */
async function runPrimary(options: RunServerOptions, env: Environment, config: AppConfig, workers: number, io: ProcessIo): Promise<void> {
  const logger: Logger = createLogger({ level: logLevelFromEnv(env) });
  const db = await openDatabase(config.database, { onWarning: (message) => logger.warn(message) });
  try {
    await applyMigrations(db, join(config.projectRoot, 'prisma', 'migrations'), logger);
  } finally {
    await db.close();
  }
  // The workers' metrics are summed here (cluster-metrics.ts); loaded only when metrics are on.
  const stopMetrics = config.server.metrics.enabled
    ? await (await import('./observability/cluster-metrics.ts')).startClusterMetrics(config.server.metrics, config.server.host, logger)
    : async () => undefined;
  // Workers still running after their drain, their requests' timeout and a margin are killed.
  const graceMs = config.server.shutdown.drainMs + config.server.shutdown.timeoutMs + 5_000;
  const primary = startPrimary({ workers, logger, graceMs, ...(options.env === undefined ? {} : { env: options.env }) });
  const stop = (): Promise<void> => primary.stop().then(stopMetrics);
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (signalled) {
      logger.warn(`${signal} again: ending the workers without waiting`);
      primary.kill();
      io.exit(1);
    }
    signalled = true;
    logger.info(`${signal} received: shutting down ${workers} workers`);
    void stop().then(() => io.exit(0));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await primary.ready;
  } catch (error) {
    await stop();
    throw error;
  }
  logger.info(`${workers} server workers listening on ${config.server.host}:${config.server.port} (database: ${config.database.label})`);
}

export interface RunMigrationsOptions {
  readonly projectRoot: string;
  readonly env?: Environment;
}

/** Applies pending migrations and returns their names; reports progress as `capi: ...` lines. */
export async function runMigrations(options: RunMigrationsOptions, io: ProcessIo = processIo): Promise<string[]> {
  const env: Record<string, string | undefined> = options.env === undefined ? process.env : { ...options.env };
  try {
    loadDotEnv(options.projectRoot, env);
    const config = loadConfig({ projectRoot: options.projectRoot, env });
    const db = await openDatabase(config.database, { onWarning: (message) => io.stderr(`capi: warning: ${message}`) });
    try {
      const log: MigrationLog = { info: (m) => io.stdout(`capi: ${m}`), warn: (m) => io.stderr(`capi: warning: ${m}`) };
      const applied = await applyMigrations(db, join(resolve(options.projectRoot), 'prisma', 'migrations'), log);
      io.stdout(applied.length === 0 ? `capi: ${db.description} is up to date` : `capi: applied ${applied.length} migration(s) to ${db.description}`);
      return applied;
    } finally {
      await db.close();
    }
  } catch (error) {
    return fatal(error, env, io);
  }
}

/** The one line a start-up failure is reported with (without the `capi: ` prefix). */
export function startupErrorMessage(error: unknown): string {
  const known = error instanceof ConfigError || error instanceof DatabaseOpenError || error instanceof MigrationError || error instanceof ListenError || error instanceof WorkerStartError;
  const message = error instanceof Error ? error.message : String(error);
  return (known ? message : `unexpected error: ${message}`).replace(/\s*\n\s*/g, ' ');
}

function fatal(error: unknown, env: Environment, io: ProcessIo): never {
  io.stderr(`capi: ${startupErrorMessage(error)}`);
  const level = env.LOG_LEVEL?.trim().toLowerCase();
  if ((level === 'debug' || level === 'trace') && error instanceof Error && error.stack !== undefined) io.stderr(error.stack);
  return io.exit(1);
}
