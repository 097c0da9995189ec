/** `workers` in config/server.json and `--workers`: a count or "auto", checked like every other key. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import cluster from 'node:cluster';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, workerCount } from './config.ts';
import { runServer } from './main.ts';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function server(json: unknown): ReturnType<typeof loadConfig>['server'] {
  const root = mkdtempSync(join(tmpdir(), 'capi-workers-'));
  roots.push(root);
  mkdirSync(join(root, 'config'));
  writeFileSync(join(root, 'config', 'server.json'), JSON.stringify(json));
  return loadConfig({ projectRoot: root, env: {} }).server;
}

describe('workers', () => {
  it('is absent unless set (one process), a count when set, one per core for "auto"', () => {
    expect(server({}).workers).toBeUndefined();
    expect(server({ workers: 4 }).workers).toBe(4);
    expect(server({ workers: 'auto' }).workers).toBe(availableParallelism());
  });

  it('rejects anything else with the key and the accepted values', () => {
    for (const bad of [0, -1, 1.5, 'many', 257, true]) {
      expect(() => server({ workers: bad })).toThrow(ConfigError);
    }
    expect(() => server({ workers: 'many' })).toThrow('config/server.json: workers must be an integer between 1 and 256, or "auto" (one per core) (got "many")');
  });

  it('--workers takes the same values, as text', () => {
    expect(workerCount({ file: '', path: '--workers' }, '3')).toBe(3);
    expect(workerCount({ file: '', path: '--workers' }, 'auto')).toBe(availableParallelism());
    expect(() => workerCount({ file: '', path: '--workers' }, 'x')).toThrow(/--workers.*must be an integer between 1 and 256, or "auto"/);
  });
});

describe('runServer and the configuration', () => {
  class Exit extends Error {
    constructor(readonly code: number) {
      super(`exit ${code}`);
    }
  }

  /** runServer on a project with these config files; what it prints and the exit code. */
  async function start(files: Record<string, unknown>, argv: string[]): Promise<{ stderr: string[]; stdout: string[]; code: number | undefined }> {
    const root = mkdtempSync(join(tmpdir(), 'capi-primary-'));
    roots.push(root);
    mkdirSync(join(root, 'config'));
    for (const [name, json] of Object.entries(files)) writeFileSync(join(root, 'config', name), JSON.stringify(json));
    const stderr: string[] = [];
    const stdout: string[] = [];
    let code: number | undefined;
    const io = {
      stdout: (line: string) => void stdout.push(line),
      stderr: (line: string) => void stderr.push(line),
      exit: (exitCode: number): never => {
        code = exitCode;
        throw new Exit(exitCode);
      },
      announce: () => {
        throw new Error('a server started despite the configuration error');
      },
    };
    await runServer({ projectRoot: root, model: { contentTypes: {}, components: {} } as never, env: { LOG_LEVEL: 'silent' }, argv }, io).catch((error: unknown) => {
      if (!(error instanceof Exit)) throw error;
    });
    return { stderr, stdout, code };
  }

  it.each([
    ['--workers 2', { 'plugins.json': { graphql: { config: { maxLimit: 'lots' } } } }, ['--workers', '2']],
    ['workers in config/server.json', { 'server.json': { workers: 2 }, 'plugins.json': { graphql: { config: { maxLimit: 'lots' } } } }, []],
  ])('reports a configuration error once, in one line, and forks no worker (%s)', async (_name, files, argv) => {
    const { stderr, stdout, code } = await start(files, argv);
    expect(code).toBe(1);
    expect(stdout).toEqual([]);
    expect(stderr).toHaveLength(1);
    expect(stderr[0]).toMatch(/^capi: config\/plugins\.json: graphql\.config\.maxLimit .+$/);
    expect(Object.keys(cluster.workers ?? {})).toEqual([]);
  });
});
