/**
 * Runs capi and generated projects as a user would: as child processes. Generated projects live
 * under the repository's tmp/ folder so that their dependencies resolve from capi's own install.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { exampleContentTypes, repoRoot } from './model.ts';

const run = promisify(execFile);
const CAPI = join(repoRoot, 'bin', 'capi.mjs');

export interface Result {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs any program (npm, npx, ...) to completion; a failure is a result with its exit code, not an exception. */
export async function command(file: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<Result> {
  try {
    const { stdout, stderr } = await run(file, [...args], { cwd: options.cwd, env: { ...process.env, ...options.env }, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

export async function capi(args: readonly string[], cwd = repoRoot, env: NodeJS.ProcessEnv = {}): Promise<Result> {
  return node([CAPI, ...args], { cwd, env });
}

export async function node(args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<Result> {
  return command(process.execPath, args, options);
}

/** A scratch folder inside the repository (tmp/ is git-ignored), removed by `dispose`. */
export function scratch(prefix: string): { dir: string; dispose: () => void } {
  const base = join(repoRoot, 'tmp');
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, `${prefix}-`));
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A scratch folder outside the repository (under the system's temporary folder), where no
 * node_modules folder above it resolves anything: where a user's own project would be.
 */
export function outsideScratch(prefix: string): { dir: string; dispose: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `capi-${prefix}-`));
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Copies the example model so that a test can edit it. */
export function copyExample(to: string): string {
  cpSync(exampleContentTypes, to, { recursive: true });
  return to;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface RunningServer {
  readonly url: string;
  /** The server process (benchmarks read its CPU time and peak memory). */
  readonly pid: number;
  readonly output: () => string;
  stop(): Promise<void>;
  /** SIGKILL, as a crash or an OOM killer would: no shutdown code runs. */
  kill(): Promise<void>;
}

/**
 * Turns GraphQL introspection on in a generated project's config/plugins.json, as a user who
 * wants it in production would: it is off there by default, as in Strapi.
 */
export function enableIntrospection(project: string): void {
  const path = join(project, 'config', 'plugins.json');
  const plugins = JSON.parse(readFileSync(path, 'utf8')) as { graphql?: { config?: Record<string, unknown> } };
  plugins.graphql = { ...plugins.graphql, config: { ...plugins.graphql?.config, apolloServer: { introspection: true } } };
  writeFileSync(path, `${JSON.stringify(plugins, null, 2)}\n`);
}

/**
 * Grants `actions` to `role` in a generated project's config/permissions.json, as a user opening
 * types on purpose would (a new project opens no content); the server reads it when it starts.
 */
export function grant(project: string, role: string, actions: readonly string[]): void {
  const path = join(project, 'config', 'permissions.json');
  const permissions = JSON.parse(readFileSync(path, 'utf8')) as Record<string, string[]>;
  permissions[role] = [...new Set([...(permissions[role] ?? []), ...actions])];
  writeFileSync(path, `${JSON.stringify(permissions, null, 2)}\n`);
}

/** Every project has users, and in production a server without JWT_SECRET refuses to start (as Strapi's does). */
export const testJwtSecret = 'test-jwt-secret-of-a-reasonable-length';

/**
 * Starts `node dist/main.js` of a generated project on a port the kernel gives it (PORT=0 unless
 * `env` sets one) and waits for the server's own word that it listens (main.ts
 * `announceListening`, over an IPC channel). Not a port found free beforehand and then polled
 * for `/_health`: under a full test run another process (the other vitest worker's fuzz server,
 * another project's tests on the machine) could take that port first, answer the health check,
 * and receive the writes meant for this server, while this one failed with EADDRINUSE. The wait
 * is generous: on a loaded machine (CI, benchmarks beside other work) a start can take most of a minute.
 */
export async function startServer(project: string, env: NodeJS.ProcessEnv, startTimeoutMs = 120_000): Promise<RunningServer> {
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: project,
    stdio: ['pipe', 'pipe', 'pipe', 'ipc'],
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', JWT_SECRET: testJwtSecret, ...env },
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${output}`));
    }, startTimeoutMs);
    const settle = (fn: () => void): void => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      fn();
    };
    const onMessage = (message: unknown): void => {
      const announced = message as { type?: unknown; url?: unknown };
      if (announced.type === 'capi:listening' && typeof announced.url === 'string') settle(() => resolve(announced.url as string));
    };
    const onExit = (code: number | null): void => settle(() => reject(new Error(`server exited with ${code}:\n${output}`)));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
  if (child.connected) child.disconnect();
  // Ready as before: /_health answers (its database too); its log lines have arrived by then.
  for (let attempt = 1; !(await healthy(url)); attempt++) {
    if (attempt >= 300) {
      await stop(child, 'SIGKILL');
      throw new Error(`server does not answer /_health:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, pid: child.pid ?? 0, output: () => output, stop: () => stop(child), kill: () => stop(child, 'SIGKILL') };
}

function healthy(url: string): Promise<boolean> {
  return fetch(`${url}/_health`).then(
    (r) => r.ok,
    () => false,
  );
}

function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}
