/**
 * The process-level entry points that a generated project's `src/main.ts` and `src/migrate.ts`
 * call. They own the process: a start-up failure prints one line, `capi: <message>`, on stderr
 * and exits with code 1. Known failures (config, database, migration, listen) are phrased for
 * the user; anything else is a bug and also gets its stack when LOG_LEVEL is debug or trace.
 */
import { join, resolve } from 'node:path';
import { ConfigError, loadConfig, type Environment } from './config.ts';
import { DatabaseOpenError, openDatabase } from './database.ts';
import { applyMigrations, MigrationError, type MigrationLog } from './migrate.ts';
import type { ModelSchema } from './schema.ts';
import { ListenError, startServer, type MountFactory, type RunningServer } from './server.ts';

export interface ProcessIo {
  readonly stdout: (line: string) => void;
  readonly stderr: (line: string) => void;
  readonly exit: (code: number) => never;
}

const processIo: ProcessIo = {
  stdout: (line) => void process.stdout.write(`${line}\n`),
  stderr: (line) => void process.stderr.write(`${line}\n`),
  exit: (code) => process.exit(code),
};

export interface RunServerOptions {
  readonly projectRoot: string;
  readonly model: ModelSchema;
  readonly mounts?: readonly MountFactory[];
  readonly env?: Environment;
}

/** Starts the server for good: returns once it listens; shuts down on SIGINT/SIGTERM. */
export async function runServer(options: RunServerOptions, io: ProcessIo = processIo): Promise<RunningServer> {
  const env = options.env ?? process.env;
  try {
    return await startServer({ ...options, env, handleSignals: true });
  } catch (error) {
    return fatal(error, env, io);
  }
}

export interface RunMigrationsOptions {
  readonly projectRoot: string;
  readonly env?: Environment;
}

/** Applies pending migrations and returns their names; reports progress as `capi: ...` lines. */
export async function runMigrations(options: RunMigrationsOptions, io: ProcessIo = processIo): Promise<string[]> {
  const env = options.env ?? process.env;
  try {
    const config = loadConfig({ projectRoot: options.projectRoot, env });
    const db = await openDatabase(config.database);
    try {
      const log: MigrationLog = { info: (m) => io.stdout(`capi: ${m}`), warn: (m) => io.stderr(`capi: warning: ${m}`) };
      const applied = await applyMigrations(db, join(resolve(options.projectRoot), 'prisma', 'migrations'), log);
      io.stdout(
        applied.length === 0
          ? `capi: ${db.description} is up to date`
          : `capi: applied ${applied.length} migration(s) to ${db.description}`,
      );
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
  const known = error instanceof ConfigError || error instanceof DatabaseOpenError || error instanceof MigrationError || error instanceof ListenError;
  const message = error instanceof Error ? error.message : String(error);
  return (known ? message : `unexpected error: ${message}`).replace(/\s*\n\s*/g, ' ');
}

function fatal(error: unknown, env: Environment, io: ProcessIo): never {
  io.stderr(`capi: ${startupErrorMessage(error)}`);
  const level = env.LOG_LEVEL?.trim().toLowerCase();
  if ((level === 'debug' || level === 'trace') && error instanceof Error && error.stack !== undefined) io.stderr(error.stack);
  return io.exit(1);
}
