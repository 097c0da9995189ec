/**
 * Read replicas through HTTP: two server processes on one PostgreSQL database with a real
 * streaming replica of it (test/support/replica.ts), as a deployment runs them. Reads are
 * served by the replica (its own table statistics count the content read; with its replay
 * paused it answers stale), writes by the primary; a client reads its write back on the other
 * process by the position it was handed (header or cookie) or on the same process by memory;
 * bad positions are ignored; a stopped replica costs no request, and serves again once back.
 */
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capi, copyExample, grant, scratch, startServer, type RunningServer } from '../support/cli.ts';
import { createServerDatabase } from '../support/databases.ts';
import type { TestDatabase } from '../support/postgres.ts';
import { startStreamingReplica, type StreamingReplica } from '../support/replica.ts';

const space = scratch('replicas');
const project = join(space.dir, 'project');
let replica: StreamingReplica | undefined;
let database: TestDatabase | undefined;
const servers: RunningServer[] = [];

beforeAll(async () => {
  try {
    replica = await startStreamingReplica();
    database = await createServerDatabase('postgres', 'capi_http_replicas');
    const generated = await capi(['generate', '--content-types', copyExample(join(space.dir, 'content-types')), '--out', project, '--database', 'postgres', '--quiet']);
    if (generated.code !== 0) throw new Error(generated.stderr);
    grant(project, 'public', ['api::category.category.find', 'api::category.category.findOne', 'api::category.category.create']);
    // The URLs come from the environment, the rest of the setting from the file.
    const databaseJson = { client: 'postgres', connection: { url: database.url }, pool: { max: 4 }, replicas: { maxLagMs: 600_000, checkIntervalMs: 100 } };
    writeFileSync(join(project, 'config', 'database.json'), JSON.stringify(databaseJson));
    const env = { DATABASE_URL: database.url, NODE_ENV: 'production', LOG_LEVEL: 'warn', CAPI_QUERY_COUNT: '1' };
    // One after the other: the first applies the migrations. The third has no replica, for comparison.
    for (let i = 0; i < 2; i++) servers.push(await startServer(project, { ...env, DATABASE_REPLICA_URLS: replica.url(database.name) }));
    servers.push(await startServer(project, env));
    await replica.catchUp();
  } catch (error) {
    await cleanUp();
    throw error;
  }
}, 300_000);

async function cleanUp(): Promise<void> {
  for (const server of servers.splice(0)) await server.stop();
  try {
    await replica?.destroy();
  } finally {
    await database?.drop();
    space.dispose();
  }
}

afterAll(cleanUp);

interface Answer {
  readonly status: number;
  readonly body: any;
  readonly headers: Headers;
}

async function call(server: number, method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers, ...(options.body === undefined ? {} : { 'content-type': 'application/json' }) };
  const res = await fetch(`${servers[server]!.url}${path}`, { method, headers, ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }) });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text), headers: res.headers };
}

const queries = (answer: Answer): number => Number(answer.headers.get('x-query-count'));

/** Creates a category on server 0; its documentId, the position handed out, and the statements it took. */
async function create(name: string): Promise<{ documentId: string; position: string; cookie: string; queries: number }> {
  const res = await call(0, 'POST', '/api/categories', { body: { data: { name } } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const position = res.headers.get('x-capi-read-after') ?? '';
  expect(position).toMatch(/^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/);
  const cookie = res.headers.getSetCookie().find((line) => line.startsWith('capi_read_after=')) ?? '';
  expect(cookie).toMatch(new RegExp(`^capi_read_after=${position.replace('/', '\\/')}; Path=/; Max-Age=\\d+; HttpOnly; SameSite=Lax$`));
  return { documentId: res.body.data.documentId as string, position, cookie: cookie.split(';')[0]!, queries: queries(res) };
}

const names = (answer: Answer): string[] => (answer.body.data as { name: string }[]).map((entry) => entry.name);

describe('read replicas, two server processes on PostgreSQL', () => {
  it('serves reads from the replica and writes from the primary, and hands out a position only for writes', async () => {
    await create('first');
    await replica!.catchUp();
    const scans = async (): Promise<number> => {
      const [row] = await replica!.query<{ n: string }>(`SELECT COALESCE(seq_scan, 0) + COALESCE(idx_scan, 0) AS n FROM pg_stat_user_tables WHERE relname = 'categories'`, database!.name);
      return Number(row?.n ?? 0);
    };
    const before = await scans();
    const list = await call(1, 'GET', '/api/categories');
    expect(list.status).toBe(200);
    expect(names(list)).toContain('first');
    expect(list.headers.get('x-capi-read-after')).toBeNull();
    // The replica's own statistics count the read (a server's connection reports them at its next
    // transaction end, at most once a second; its pool's position checks end transactions often).
    let after = before;
    for (let attempt = 0; attempt < 300 && after === before; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      after = await scans();
    }
    expect(after).toBeGreaterThan(before);
  });

  it('reads a write back right after it, on the other process, while the replica lags; anonymous reads get the replica', async () => {
    await replica!.pauseReplay();
    try {
      const { documentId, position, cookie } = await create('while paused');
      const path = `/api/categories/${documentId}`;
      // The other process, with the position in the header or the cookie: the primary answers.
      const byHeader = await call(1, 'GET', path, { headers: { 'x-capi-read-after': position } });
      expect(byHeader.status).toBe(200);
      expect(byHeader.body.data.name).toBe('while paused');
      expect((await call(1, 'GET', path, { headers: { cookie: `other=1; ${cookie}` } })).status).toBe(200);
      // The same process remembers its client (here: its address) without either.
      expect((await call(0, 'GET', path)).status).toBe(200);
      // Without a position the paused replica answers: it does not have the document yet.
      expect((await call(1, 'GET', path)).status).toBe(404);
      // Values that are no position are ignored, never an error; one from the future means the primary.
      for (const bad of ['garbage', 'ZZ/1', '1/2/3', '123456789/1', '-1/0', ' ']) {
        expect((await call(1, 'GET', path, { headers: { 'x-capi-read-after': bad } })).status, bad).toBe(404);
        expect((await call(1, 'GET', path, { headers: { cookie: `capi_read_after=${encodeURIComponent(bad)}` } })).status, bad).toBe(404);
      }
      expect((await call(1, 'GET', path, { headers: { 'x-capi-read-after': 'FFFFFFFF/FFFFFFFF' } })).status).toBe(200);
      // GraphQL's writes hand out a position too, and its reads honour it.
      const mutation = await call(0, 'POST', '/graphql', { body: { query: 'mutation { createCategory(data: { name: "by graphql" }) { documentId } }' } });
      expect(mutation.status, JSON.stringify(mutation.body)).toBe(200);
      const written = mutation.headers.get('x-capi-read-after') ?? '';
      expect(written).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
      const query = { query: `{ category(documentId: "${mutation.body.data.createCategory.documentId as string}") { name } }` };
      expect((await call(1, 'POST', '/graphql', { body: query, headers: { 'x-capi-read-after': written } })).body.data.category).toEqual({ name: 'by graphql' });
      expect((await call(1, 'POST', '/graphql', { body: query })).body.data.category).toBeNull();
    } finally {
      await replica!.resumeReplay();
    }
    await replica!.catchUp();
    expect(names(await call(1, 'GET', '/api/categories?pagination[pageSize]=100'))).toEqual(expect.arrayContaining(['while paused', 'by graphql']));
  });

  it('costs one statement on the primary per write and one on the replica per read that waits for it, nothing else', async () => {
    const alone = await call(2, 'POST', '/api/categories', { body: { data: { name: 'cost alone' } } });
    expect(alone.status).toBe(201);
    expect(alone.headers.get('x-capi-read-after')).toBeNull();
    const written = await create('cost replicated');
    expect(written.queries).toBe(queries(alone) + 1);
    await replica!.catchUp();
    const path = `/api/categories/${written.documentId}`;
    const read = queries(await call(2, 'GET', path));
    expect(queries(await call(1, 'GET', path))).toBe(read);
    await replica!.pauseReplay();
    try {
      const { documentId, position } = await create('cost paused');
      const waited = await call(1, 'GET', `/api/categories/${documentId}`, { headers: { 'x-capi-read-after': position } });
      expect(waited.status).toBe(200);
      expect(queries(waited)).toBe(read + 1);
    } finally {
      await replica!.resumeReplay();
    }
  });

  it('answers from the primary while the replica is down, and uses the replica again once it is back', async () => {
    await replica!.stop();
    try {
      for (let round = 0; round < 3; round++) {
        for (const server of [0, 1]) expect((await call(server, 'GET', '/api/categories')).status).toBe(200);
        const { documentId, position } = await create(`while down ${round}`);
        expect((await call(1, 'GET', `/api/categories/${documentId}`, { headers: { 'x-capi-read-after': position } })).status).toBe(200);
        expect((await call(1, 'GET', `/api/categories/${documentId}`)).status).toBe(200);
      }
    } finally {
      await replica!.start();
    }
    await replica!.catchUp();
    await replica!.pauseReplay();
    try {
      const { documentId } = await create('after restart');
      // Once the server's check finds the replica well, anonymous reads go to it again (stale while paused).
      let status = 0;
      for (let attempt = 0; attempt < 200 && status !== 404; attempt++) {
        status = (await call(1, 'GET', `/api/categories/${documentId}`)).status;
        if (status !== 404) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(status).toBe(404);
    } finally {
      await replica!.resumeReplay();
    }
  });
});
