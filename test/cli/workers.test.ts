/**
 * `node dist/main.js --workers 2` on SQLite (one WAL file, one writer at a time), PostgreSQL and MySQL:
 * the primary migrates once and forks two servers on one port; both answer, concurrent writes
 * landing on both succeed (on SQLite a writer waits for the lock instead of failing), a killed
 * worker is replaced, and SIGTERM ends every worker gracefully with exit code 0.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capi, freePort, scratch } from '../support/cli.ts';
import { exampleContentTypes } from '../support/model.ts';
import { clients, createServerDatabase } from '../support/databases.ts';
import type { TestDatabase } from '../support/postgres.ts';

interface Health {
  readonly status: string;
  readonly worker?: { readonly id: number; readonly pid: number };
}

const WRITES = 40;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(clients)('two server workers on %s', (database) => {
  const space = scratch(`workers-${database}`);
  let pg: TestDatabase | undefined;
  let primary: ChildProcess;
  let output = '';
  let url: string;

  /** One health answer on a fresh connection: the cluster hands new connections out in turn. */
  const health = async (): Promise<Health> => (await fetch(`${url}/_health`, { headers: { connection: 'close' }, signal: AbortSignal.timeout(5_000) })).json() as Promise<Health>;
  const workerPids = async (probes = 8): Promise<Set<number>> => {
    const pids = new Set<number>();
    for (let i = 0; i < probes; i++) {
      const answer = await health();
      if (answer.worker !== undefined) pids.add(answer.worker.pid);
    }
    return pids;
  };

  beforeAll(async () => {
    pg = database === 'sqlite' ? undefined : await createServerDatabase(database, 'capi_workers');
    const project = join(space.dir, 'api');
    const generated = await capi(['generate', '--content-types', exampleContentTypes, '--out', project, '--database', database, '--quiet']);
    if (generated.code !== 0) throw new Error(generated.stderr + generated.stdout);
    // A new project opens no content; the CLI opens what this test uses (and shows that a grant opens a type).
    const granted = await capi(['permissions', 'grant', 'public', 'api::tag.tag.create', 'api::tag.tag.find', '--project', project]);
    if (granted.code !== 0) throw new Error(granted.stderr);
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const databaseUrl = pg?.url ?? `file:${join(space.dir, 'data.db')}`;
    primary = spawn(process.execPath, ['dist/main.js', '--workers', '2'], {
      cwd: project,
      env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), DATABASE_URL: databaseUrl, LOG_LEVEL: 'info' },
    });
    primary.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    primary.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    await until('two workers', async () => ((await workerPids(4)).size === 2 ? true : undefined)).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${output}`);
    });
  }, 240_000);

  afterAll(async () => {
    if (primary !== undefined && primary.exitCode === null) primary.kill('SIGKILL');
    await pg?.drop();
    space.dispose();
  });

  it('migrates once, in the primary, and both workers answer', async () => {
    expect((await workerPids()).size).toBe(2);
    expect(output.match(/applying migration 0001_init/g)).toHaveLength(1);
    expect(output).toContain('2 server workers listening');
  });

  it(`${WRITES} concurrent writes spread over both workers all succeed`, async () => {
    const answers = await Promise.all(
      Array.from({ length: WRITES }, (_, i) =>
        fetch(`${url}/api/tags`, { method: 'POST', headers: { 'content-type': 'application/json', connection: 'close' }, body: JSON.stringify({ data: { name: `tag ${i}`, weight: i } }) }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    await Promise.all(answers.map((answer) => answer.arrayBuffer()));
    expect(statuses).toEqual(Array.from({ length: WRITES }, () => 201));
    const list = (await (await fetch(`${url}/api/tags?pagination[pageSize]=1`)).json()) as { meta: { pagination: { total: number } } };
    expect(list.meta.pagination.total).toBe(WRITES);
  });

  it('a killed worker is replaced', async () => {
    const before = await workerPids();
    const [victim] = [...before];
    process.kill(victim!, 'SIGKILL');
    const after = await until('a replacement worker', async () => {
      const pids = await workerPids(4);
      return pids.size === 2 && !pids.has(victim!) ? pids : undefined;
    });
    expect(after.size).toBe(2);
    expect(output).toContain('starting another');
  });

  it('SIGTERM to the primary ends every worker gracefully, exit code 0', async () => {
    const pids = await workerPids();
    const exited = new Promise<number | null>((resolve) => primary.once('exit', (code) => resolve(code)));
    primary.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of pids) expect(alive(pid)).toBe(false);
  });
});
