/**
 * `capi develop`, as `strapi develop` is used: generate and serve, then watch the content types;
 * each change (debounced) regenerates, migrates and restarts the server. A change that cannot be
 * applied (a schema error, a migration that would lose data, a project that does not compile)
 * is printed and the running server is left alone; the watcher keeps going until Ctrl-C.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { DatabaseKind } from '../generator/databases.ts';
import { generate, type GenerateResult } from '../generator/generate.ts';
import type { FileChanges } from '../generator/write.ts';
import { consoleReporter } from '../generator/steps.ts';
import { describeError } from './errors.ts';

export interface DevelopOptions {
  readonly contentTypes: string;
  readonly out: string;
  readonly database?: DatabaseKind;
  readonly acceptDataLoss: boolean;
  /** Quiet time after the last file event before regenerating: editors write in bursts. */
  readonly debounceMs: number;
}

/** Folders under the content types that never hold schemas (a Strapi project has all of these). */
const skippedFolders = new Set(['node_modules', '.git', '.cache', '.tmp', 'dist', 'build', 'public', '.strapi']);

/** How long a server gets to finish its requests and close before it is killed. */
const STOP_GRACE_MS = 10_000;

export async function develop(options: DevelopOptions, log: (text: string) => void = (text) => process.stderr.write(text)): Promise<void> {
  const out = resolve(options.out);
  const watched = resolve(options.contentTypes);
  const report = consoleReporter(process.stderr);
  let server: ChildProcess | undefined;
  let stopping = false;
  // Servers stopped for a restart: their exit is expected, not reported as a crash.
  const replaced = new WeakSet<ChildProcess>();

  const startServer = (): void => {
    const child = spawn(process.execPath, ['dist/main.js'], { cwd: out, stdio: ['ignore', 'inherit', 'inherit'], env: process.env });
    child.once('exit', (code, signal) => {
      if (server === child) server = undefined;
      if (!stopping && !replaced.has(child)) log(`capi develop: the server exited (${signal ?? `code ${code}`}); waiting for a change to the content types\n`);
    });
    server = child;
  };

  /** One generation; the server restarts only when it succeeded, so a refused change leaves it running. */
  const regenerate = async (reason: string): Promise<void> => {
    if (stopping) return;
    log(`capi develop: ${reason}; regenerating ${options.contentTypes} → ${options.out}\n`);
    let result: GenerateResult;
    try {
      result = await generate(
        { contentTypes: options.contentTypes, out: options.out, check: false, skipBuild: false, acceptDataLoss: options.acceptDataLoss, ...(options.database ? { database: options.database } : {}) },
        report,
      );
    } catch (error) {
      log(describeError(error));
      log(server ? 'capi develop: change not applied; the server keeps running the previous version\n' : 'capi develop: change not applied; waiting for a fix\n');
      return;
    }
    if (stopping) return;
    // An edit that changes no generated file (formatting, a reverted change) leaves the server as
    // it is: a restart would only refuse connections for a while.
    if (server && unchanged(result.changes)) {
      log('capi develop: the generated project is unchanged; the server keeps running\n');
      return;
    }
    if (server) {
      log('capi develop: restarting the server\n');
      replaced.add(server);
      await stopProcess(server);
    }
    if (!stopping) startServer();
  };

  // Ctrl-C from the first moment: nothing is left running (server, watcher) once develop returns.
  let watcher: FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  const runs = serialized(regenerate);
  const stopped = new Promise<void>((done) => {
    const stop = (): void => {
      if (stopping) return;
      stopping = true;
      clearTimeout(timer);
      log('capi develop: stopping\n');
      void (async () => {
        await watcher?.close();
        await runs.idle();
        if (server) await stopProcess(server);
      })().then(done);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });

  await runs.run('starting');
  if (stopping) return stopped;
  if (!server && existsSync(resolve(out, 'dist', 'main.js'))) {
    log('capi develop: serving the last build until the content types are fixed\n');
    startServer();
  }

  watcher = watch(watched, { ignoreInitial: true, ignored: (path, stats) => isIgnored(watched, out, path, stats?.isFile()) });
  const changed = new Set<string>();
  watcher.on('all', (_event, path) => {
    changed.add(relative(watched, path) || path);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const files = [...changed].sort();
      changed.clear();
      void runs.run(`${files.join(', ')} changed`);
    }, options.debounceMs);
  });
  watcher.on('error', (error) => log(`capi develop: watching ${options.contentTypes} failed: ${String(error)}\n`));
  await new Promise<void>((ready) => watcher?.once('ready', ready));
  if (!stopping) log(`capi develop: watching ${options.contentTypes} for changes (Ctrl-C to stop)\n`);
  return stopped;
}

function unchanged(changes: FileChanges): boolean {
  return changes.created.length === 0 && changes.updated.length === 0 && changes.removed.length === 0;
}

/** Only schema files count: JSON outside the skipped folders and outside the generated project. */
function isIgnored(root: string, out: string, path: string, isFile: boolean | undefined): boolean {
  const resolved = resolve(path);
  if (resolved === out || resolved.startsWith(`${out}${sep}`)) return true;
  const rel = relative(root, resolved);
  if (rel.split(sep).some((part) => skippedFolders.has(part))) return true;
  return isFile === true && !resolved.endsWith('.json');
}

interface Serialized {
  run(reason: string): Promise<void>;
  /** Resolves once no run is in progress or queued. */
  idle(): Promise<void>;
}

/**
 * Runs `task` one call at a time: a call made while one runs is kept (the latest reason wins) and
 * runs once the current one ends, so a burst of edits during a generation costs one more run.
 */
function serialized(task: (reason: string) => Promise<void>): Serialized {
  let running: Promise<void> | undefined;
  let next: string | undefined;
  const drain = async (reason: string): Promise<void> => {
    for (let current: string | undefined = reason; current !== undefined; current = next, next = undefined) await task(current);
    running = undefined;
  };
  return {
    run(reason) {
      if (running) {
        next = reason;
        return running;
      }
      running = drain(reason);
      return running;
    },
    idle: () => running ?? Promise.resolve(),
  };
}

/** SIGTERM (the server finishes its requests and closes), SIGKILL after a grace period. */
function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    child.once('exit', () => {
      clearTimeout(kill);
      done();
    });
    child.kill('SIGTERM');
  });
}
