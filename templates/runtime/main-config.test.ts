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
import { afterEach, describe, expect, it, vi } from 'vitest';

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
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  loads.count = 0;
  forked.workers = [];
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
};
const model = { contentTypes: {}, components: {} } as never;

describe('runServer and config loads', () => {
  it('the cluster primary loads the configuration once for the worker count and the migrations', async () => {
    const listeners = { int: process.listenerCount('SIGINT'), term: process.listenerCount('SIGTERM') };
    try {
      await runServer({ projectRoot: project({ workers: 3, host: '127.0.0.1', port: 0 }), model, env: { LOG_LEVEL: 'silent' }, argv: [] }, io);
      expect(forked.workers).toEqual([3]);
      expect(loads.count).toBe(1);
    } finally {
      // runPrimary's signal handlers, which the stand-in primary never needs.
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        const all = process.listeners(signal);
        for (const listener of all.slice(signal === 'SIGINT' ? listeners.int : listeners.term)) process.off(signal, listener);
      }
    }
  });

  it('a single server uses the configuration runServer loaded', async () => {
    const server = await runServer({ projectRoot: project({ host: '127.0.0.1', port: 0 }), model, env: { LOG_LEVEL: 'silent' }, argv: [] }, io);
    try {
      expect(server).toBeDefined();
      expect(forked.workers).toEqual([]);
      expect(loads.count).toBe(1);
    } finally {
      await server?.close();
    }
  });
});
