/**
 * runServer reads the project's configuration once per process: the cluster primary takes the
 * worker count and the migrations from one load (the workers, separate processes, load their
 * own), and a single server gets the copy runServer loaded. The cluster itself is replaced by a
 * stand-in here (forking from a test runner would fork the runner); test/cli/workers.test.ts runs
 * the real one.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ListeningAnnouncement } from './main.ts';

const loads = vi.hoisted(() => ({ count: 0 }));
const forked = vi.hoisted(() => ({ workers: [] as number[] }));

vi.mock('./config.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('./config.ts')>();
  return {
    ...original,
    loadConfig: (...args: Parameters<typeof original.loadConfig>) => {
      loads.count++;
      return original.loadConfig(...args);
    },
  };
});

vi.mock('./cluster.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('./cluster.ts')>();
  return {
    ...original,
    startPrimary: (options: { workers: number }) => {
      forked.workers.push(options.workers);
      return { ready: Promise.resolve(), stop: () => Promise.resolve(), kill: () => undefined, pids: () => [] };
    },
  };
});

const { runServer } = await import('./main.ts');

const roots: string[] = [];
const announced: ListeningAnnouncement[] = [];
let signalListeners = { SIGINT: 0, SIGTERM: 0 };
beforeEach(() => {
  signalListeners = { SIGINT: process.listenerCount('SIGINT'), SIGTERM: process.listenerCount('SIGTERM') };
});
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  loads.count = 0;
  forked.workers = [];
  announced.length = 0;
  // The handlers runServer installs (a server's graceful close, the primary's), which must not
  // outlive the test in the test runner's own process.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of process.listeners(signal).slice(signalListeners[signal])) process.off(signal, listener);
  }
});

function project(server: unknown): string {
  const root = mkdtempSync(join(tmpdir(), 'capi-main-config-'));
  roots.push(root);
  mkdirSync(join(root, 'config'));
  mkdirSync(join(root, 'prisma', 'migrations'), { recursive: true });
  writeFileSync(join(root, 'config', 'server.json'), JSON.stringify(server));
  writeFileSync(join(root, 'config', 'database.json'), JSON.stringify({ client: 'sqlite', connection: { filename: '.data/test.db' } }));
  return root;
}

const io = {
  stdout: () => undefined,
  stderr: (line: string) => {
    throw new Error(`unexpected error output: ${line}`);
  },
  exit: (code: number): never => {
    throw new Error(`unexpected exit ${code}`);
  },
  announce: (listening: ListeningAnnouncement) => void announced.push(listening),
};
const model = { contentTypes: {}, components: {} } as never;

describe('runServer and config loads', () => {
  it('the cluster primary loads the configuration once for the worker count and the migrations', async () => {
    await runServer({ projectRoot: project({ workers: 3, host: '127.0.0.1', port: 0 }), model, env: { LOG_LEVEL: 'silent' }, argv: [] }, io);
    expect(forked.workers).toEqual([3]);
    expect(loads.count).toBe(1);
    expect(announced).toEqual([]);
  });

  it('a single server uses the configuration runServer loaded', async () => {
    const server = await runServer({ projectRoot: project({ host: '127.0.0.1', port: 0 }), model, env: { LOG_LEVEL: 'silent' }, argv: [] }, io);
    try {
      expect(server).toBeDefined();
      expect(forked.workers).toEqual([]);
      expect(loads.count).toBe(1);
      // Told through the io it was given, never over the channel of the process it runs in.
      expect(announced).toEqual([{ type: 'capi:listening', url: server!.url, port: server!.port }]);
    } finally {
      await server?.close();
    }
  });
});
