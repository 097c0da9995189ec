/**
 * A real PgBouncer (Debian's `pgbouncer` package) in front of the local PostgreSQL, started by a
 * test on a free port with its own config file in a temporary folder, and stopped afterwards.
 * PgBouncer refuses to run as root, so as root (CI) it switches to the `postgres` user.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './cli.ts';
import { adminUrl } from './postgres.ts';

export type PoolMode = 'transaction' | 'session';

export interface PgBouncerOptions {
  readonly mode: PoolMode;
  /** Server connections per database and user: fewer than the clients' pool, so that sessions are shared. */
  readonly poolSize?: number;
  /** `ignore_startup_parameters`: empty in a stock pgbouncer.ini. */
  readonly ignoreStartupParameters?: readonly string[];
}

export interface PgBouncer {
  readonly port: number;
  /** The URL of `database` through this PgBouncer. */
  url(database: string): string;
  /** What PgBouncer logged so far. */
  log(): string;
  stop(): Promise<void>;
}

export async function startPgBouncer(options: PgBouncerOptions): Promise<PgBouncer> {
  const dir = mkdtempSync(join(tmpdir(), 'capi-pgbouncer-'));
  const port = await freePort();
  const upstream = new URL(adminUrl);
  const user = decodeURIComponent(upstream.username) || 'postgres';
  writeFileSync(join(dir, 'users.txt'), `"${user}" ""\n`);
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${upstream.hostname} port=${upstream.port || '5432'}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'users.txt')}`,
      `pool_mode = ${options.mode}`,
      `default_pool_size = ${options.poolSize ?? 4}`,
      'max_client_conn = 500',
      ...(options.ignoreStartupParameters === undefined ? [] : [`ignore_startup_parameters = ${options.ignoreStartupParameters.join(',')}`]),
      '',
    ].join('\n'),
  );
  // As root, `-u` makes PgBouncer read its files and then switch to that user.
  const asRoot = process.getuid?.() === 0;
  // Debian installs it in /usr/sbin, which a user's PATH may lack.
  const env = { ...process.env, PATH: `${process.env.PATH ?? ''}:/usr/sbin` };
  const child = spawn('pgbouncer', [...(asRoot ? ['-u', 'postgres'] : []), join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  await listening(child, port, () => output);
  return {
    port,
    url: (database) => {
      const url = new URL(adminUrl);
      url.port = String(port);
      url.pathname = `/${database}`;
      return url.toString();
    },
    log: () => output,
    stop: async () => {
      await stopProcess(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves once the port takes connections; rejects with PgBouncer's output when it exits first. */
async function listening(child: ChildProcess, port: number, output: () => string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited with ${child.exitCode}:\n${output()}`);
    if (await accepts(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stopProcess(child);
  throw new Error(`pgbouncer did not listen on ${port}:\n${output()}`);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    // SIGINT: PgBouncer's immediate shutdown (SIGTERM waits for clients to leave).
    child.kill('SIGINT');
  });
}
