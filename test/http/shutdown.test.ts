/**
 * Liveness and readiness apart, and the graceful stop, on a real server process (one process,
 * and `--workers 2`) on PostgreSQL: `/_ready` answers 200, then on SIGTERM 503 while a slow
 * request in flight (a read waiting on a table lock the test holds) still completes with its
 * answer, and the process exits with code 0. `/_health` (liveness) answers 200 throughout.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capi, freePort, scratch } from '../support/cli.ts';
import { exampleContentTypes } from '../support/model.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const probe = async (url: string): Promise<{ status: number; body: unknown; connection: string | null }> => {
  const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  return { status: response.status, body: await response.json(), connection: response.headers.get('connection') };
};

describe('readiness and the graceful stop', () => {
  const space = scratch('shutdown');
  let database: TestDatabase;
  let project: string;

  beforeAll(async () => {
    database = await createTestDatabase('capi_shutdown');
    project = join(space.dir, 'api');
    const generated = await capi(['generate', '--content-types', exampleContentTypes, '--out', project, '--database', 'postgres', '--quiet']);
    if (generated.code !== 0) throw new Error(generated.stderr + generated.stdout);
    const granted = await capi(['permissions', 'grant', 'public', 'api::tag.tag.find', '--project', project]);
    if (granted.code !== 0) throw new Error(granted.stderr);
    // Long enough for the probes below to land inside it; the test waits on events, not on it.
    const serverJson = join(project, 'config', 'server.json');
    writeFileSync(serverJson, JSON.stringify({ ...(JSON.parse(readFileSync(serverJson, 'utf8')) as object), shutdown: { drain: 3, timeout: 60 } }));
    // The slow request waits on a lock for as long as the test takes: no statement timeout cuts it.
    const apiJson = join(project, 'config', 'api.json');
    writeFileSync(apiJson, JSON.stringify({ ...(JSON.parse(readFileSync(apiJson, 'utf8')) as object), query: { timeoutMs: 0 } }));
  }, 240_000);

  afterAll(async () => {
    await database?.drop();
    space.dispose();
  });

  describe.each([
    ['one process', [], 'capi server listening'],
    ['two workers', ['--workers', '2'], '2 server workers listening'],
  ])('%s', (_name, args, listening) => {
    let server: ChildProcess;
    let output = '';
    let url: string;

    beforeAll(async () => {
      const port = await freePort();
      url = `http://127.0.0.1:${port}`;
      server = spawn(process.execPath, ['dist/main.js', ...args], {
        cwd: project,
        env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), DATABASE_URL: database.url, LOG_LEVEL: 'info' },
      });
      server.stdout?.on('data', (d: Buffer) => (output += d.toString()));
      server.stderr?.on('data', (d: Buffer) => (output += d.toString()));
      await until('the server', async () => (output.includes(listening) && (await probe(`${url}/_ready`)).status === 200 ? true : undefined), 120_000).catch((error: unknown) => {
        throw new Error(`${String(error)}\n${output}`);
      });
    }, 120_000);

    afterAll(() => {
      if (server.exitCode === null) server.kill('SIGKILL');
    });

    it('readiness answers 200 after a prepared statement; liveness 200', async () => {
      expect(await probe(`${url}/_ready`)).toMatchObject({ status: 200, body: { status: 'ready', database: 'postgres' } });
      expect(await probe(`${url}/_health`)).toMatchObject({ status: 200, body: { status: 'ok', database: 'postgres' } });
    });

    it('SIGTERM: readiness 503 at once while a slow request in flight completes, then exit 0', async () => {
      const lock = new pg.Client({ connectionString: database.url });
      await lock.connect();
      try {
        await lock.query('BEGIN');
        await lock.query('LOCK TABLE tags IN ACCESS EXCLUSIVE MODE');
        const slow = fetch(`${url}/api/tags`).then(async (response) => ({ status: response.status, body: (await response.json()) as { data: unknown[] } }));
        // In flight: its statement waits on the lock.
        await until('the request to wait on the lock', async () => {
          const { rows } = await lock.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'", [database.name]);
          return rows[0]!.n > 0 ? true : undefined;
        });
        const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
        server.kill('SIGTERM');

        const draining = await until('readiness to fail', async () => {
          const answer = await probe(`${url}/_ready`);
          return answer.status === 503 ? answer : undefined;
        });
        expect(draining).toEqual({ status: 503, body: expect.objectContaining({ status: 'draining', database: 'postgres' }), connection: 'close' });
        // Liveness: the process is up, draining.
        expect(await probe(`${url}/_health`)).toMatchObject({ status: 200, body: { status: 'ok' } });
        // The drain ends: the server stops accepting, the slow request is still in flight.
        await until('the server to stop accepting', () =>
          fetch(`${url}/_health`).then(
            () => undefined,
            () => true,
          ),
        );
        await lock.query('COMMIT');
        expect(await slow).toEqual({ status: 200, body: expect.objectContaining({ data: [] }) });
        expect(await exited).toBe(0);
        expect(output).toContain('SIGTERM received');
        expect(output).not.toContain('still running');
      } finally {
        await lock.end();
      }
    }, 120_000);
  });
});
