/**
 * `--workers N` (or `workers` in config/server.json): N server processes sharing one port through
 * node:cluster, so that a project uses every core. The server keeps no state outside the
 * database, so the processes share nothing else. The primary applies pending migrations once,
 * then forks the workers one after another (each a whole server, main.ts); it replaces a worker that dies after it
 * started, stops everything when a worker cannot start (the same cause would stop the next one),
 * and on SIGINT/SIGTERM asks every worker to finish its requests and close (server.ts' graceful
 * shutdown) before it exits itself.
 *
 * On SQLite the processes open the same file in WAL mode (database-sqlite.ts): readers never
 * wait, one writer at a time, and a writer that finds the write lock taken waits for it
 * (busy_timeout) instead of failing; transactions take the lock when they begin (BEGIN
 * IMMEDIATE), so none fails half-way on a lock another process holds.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from './logger.ts';

/** The message a worker gets when the primary shuts down. */
const SHUTDOWN = 'capi:shutdown';

/** Under a cluster, which worker this process is; nothing when it serves alone. */
export function clusterWorker(): { readonly worker?: { readonly id: number; readonly pid: number } } {
  const worker = cluster.isWorker ? cluster.worker : undefined;
  return worker === undefined ? {} : { worker: { id: worker.id, pid: process.pid } };
}

export function isClusterWorker(): boolean {
  return cluster.isWorker;
}

/**
 * In a worker: the primary's shutdown message, or the primary going away, stops the server
 * gracefully and ends the process. Call before the server starts, and hand it the server's stop
 * once it listens: a shutdown that arrives while the worker still starts (the primary forks them
 * one after another) then stops it as soon as it listens, instead of being lost.
 */
export function followPrimary(exit: (code: number) => never): (stop: () => Promise<void>) => void {
  let stopServer: (() => Promise<void>) | undefined;
  let requested = false;
  let stopping = false;
  const stop = (): void => {
    requested = true;
    if (stopServer === undefined || stopping) return;
    stopping = true;
    stopServer().then(
      () => exit(0),
      () => exit(1),
    );
  };
  process.on('message', (message) => {
    if (message === SHUTDOWN) stop();
  });
  process.on('disconnect', stop);
  return (serverStop) => {
    stopServer = serverStop;
    if (requested) stop();
  };
}

/** A worker ended before it listened: what stops it would stop every other one too. */
export class WorkerStartError extends Error {
  override readonly name = 'WorkerStartError';
}

export interface Primary {
  /** Resolves once the first `workers` processes listen; rejects when one of them cannot start. */
  readonly ready: Promise<void>;
  /** Asks every worker to close, kills those still running after the grace period. */
  stop(): Promise<void>;
  /** Ends every worker at once (a second signal). */
  kill(): void;
  /** The pids of the workers alive now. */
  pids(): number[];
}

export interface PrimaryOptions {
  readonly workers: number;
  readonly logger: Logger;
  /** Workers still running this long after shutdown starts are killed (their drain and timeout, and a margin). */
  readonly graceMs: number;
  /** Environment of the workers (on top of this process' own). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Forks the workers; call in the primary, after the migrations. */
export function startPrimary(options: PrimaryOptions): Primary {
  const { logger } = options;
  const listened = new Set<number>();
  let stopping = false;
  let resolveReady: () => void = () => undefined;
  let rejectReady: (error: Error) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });

  // The first workers start one after another: start-up writes (the users plugin's default
  // roles, an extension's bootstrap) check, then insert, and two processes doing that at once on
  // a new database would both insert. Once one worker has listened, that data exists.
  const fork = (): Worker => {
    const worker = cluster.fork(options.env === undefined ? undefined : definedOnly(options.env));
    worker.once('listening', () => {
      listened.add(worker.id);
      if (listened.size === options.workers) resolveReady();
      else if (listened.size < options.workers && !stopping) fork();
    });
    return worker;
  };

  const alive = (): Worker[] => Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && !w.isDead());

  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopped ??= new Promise<void>((resolve) => {
      stopping = true;
      const done = (): void => {
        if (alive().length > 0) return;
        clearTimeout(force);
        cluster.off('exit', done);
        resolve();
      };
      const force = setTimeout(() => {
        logger.warn(`${alive().length} server worker(s) still running ${options.graceMs / 1000} s after shutdown began: killed`);
        for (const worker of alive()) worker.process.kill('SIGKILL');
      }, options.graceMs);
      force.unref();
      cluster.on('exit', done);
      for (const worker of alive()) {
        if (worker.isConnected()) worker.send(SHUTDOWN);
        else worker.process.kill('SIGTERM');
      }
      done();
    }));

  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    if (!listened.has(worker.id)) {
      rejectReady(new WorkerStartError(`a server worker exited before it listened (${signal ?? `code ${code}`})`));
      void stop();
      return;
    }
    logger.warn(`server worker ${worker.process.pid} ended (${signal ?? `code ${code}`}): starting another`);
    fork();
  });

  fork();
  return {
    ready,
    stop,
    kill: () => {
      stopping = true;
      for (const worker of alive()) worker.process.kill('SIGKILL');
    },
    pids: () => alive().flatMap((worker) => (worker.process.pid === undefined ? [] : [worker.process.pid])),
  };
}

function definedOnly(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}
