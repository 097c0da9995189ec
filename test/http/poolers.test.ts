/**
 * A generated server on PostgreSQL behind a real PgBouncer (Debian's 1.18, started here with a
 * stock pgbouncer.ini) in transaction and in session mode, under concurrent REST and GraphQL
 * reads and writes: no answer may be a 5xx. And what happens when capi is not told about a
 * transaction pooler: with named statements, PostgreSQL answers 42P05 / 26000; the server says
 * once what to set, runs every statement unnamed from then on, and answers normally.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../support/cli.ts';
import { repoRoot } from '../support/model.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { startPgBouncer, type PgBouncer, type PgBouncerOptions } from '../support/pgbouncer.ts';
import { prepareProject, seed, startReferenceServer, type HarnessOptions } from '../conformance/harness.ts';

interface Shot {
  readonly shape: string;
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly path: string;
  readonly body?: unknown;
}

const gql = (shape: string, query: string): Shot => ({ shape, method: 'POST', path: '/graphql', body: { query } });

let written = 0;
/** One round of the benchmark's read shapes (bench/shapes.mjs) and of writes, REST and GraphQL. */
function round(tagId: string): Shot[] {
  const n = ++written;
  return [
    { shape: 'rest-list', method: 'GET', path: '/api/tags?pagination[pageSize]=25' },
    { shape: 'rest-populate-star', method: 'GET', path: '/api/articles?populate=*' },
    {
      shape: 'rest-populate-deep',
      method: 'GET',
      path: '/api/articles?populate[author][populate][0]=avatar&populate[tags]=true&populate[seo][populate]=*&populate[category][populate][articles]=true',
    },
    gql('gql-nested', '{ articles { title author { name avatar { url } } tags { name } category { name articles { title } } } }'),
    gql('gql-connection', '{ tags_connection(pagination: { pageSize: 20 }) { nodes { name articles { title } } pageInfo { total } } }'),
    { shape: 'rest-create', method: 'POST', path: '/api/tags', body: { data: { name: `load ${process.pid} ${n}`, weight: n } } },
    { shape: 'rest-update', method: 'PUT', path: `/api/tags/${tagId}`, body: { data: { weight: n } } },
    gql('gql-create', `mutation { createTag(data: { name: "gql load ${process.pid} ${n}", weight: ${n} }) { documentId name } }`),
  ];
}

interface Tally {
  /** Status counts by shape, e.g. `{ 'rest-list': { 200: 40 } }`. */
  readonly statuses: Record<string, Record<number, number>>;
  /** GraphQL answers with `errors`, which GraphQL sends with status 200. */
  readonly graphqlErrors: string[];
}

/** Runs `rounds` rounds of every shot with `concurrency` requests in flight. */
async function load(url: string, tagId: string, rounds: number, concurrency: number): Promise<Tally> {
  const queue = Array.from({ length: rounds }, () => round(tagId)).flat();
  const statuses: Record<string, Record<number, number>> = {};
  const graphqlErrors: string[] = [];
  const worker = async (): Promise<void> => {
    for (let shot = queue.shift(); shot !== undefined; shot = queue.shift()) {
      const init: RequestInit = { method: shot.method };
      if (shot.body !== undefined) init.body = JSON.stringify(shot.body);
      if (shot.body !== undefined) init.headers = { 'content-type': 'application/json' };
      const response = await fetch(`${url}${shot.path}`, init);
      const text = await response.text();
      const byStatus = (statuses[shot.shape] ??= {});
      byStatus[response.status] = (byStatus[response.status] ?? 0) + 1;
      if (shot.path === '/graphql' && response.status === 200 && (JSON.parse(text) as { errors?: unknown }).errors !== undefined) graphqlErrors.push(text);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { statuses, graphqlErrors };
}

/** Every shape answered only its success status. */
function allSucceeded(rounds: number): Record<string, Record<number, number>> {
  const ok = { 200: rounds };
  return {
    'rest-list': ok,
    'rest-populate-star': ok,
    'rest-populate-deep': ok,
    'gql-nested': ok,
    'gql-connection': ok,
    'rest-create': { 201: rounds },
    'rest-update': ok,
    'gql-create': ok,
  };
}

/** The server's log lines' messages (pino JSON lines; other lines are skipped). */
function messages(output: string): string[] {
  return output.split('\n').flatMap((line) => {
    try {
      const parsed = JSON.parse(line) as { msg?: unknown };
      return typeof parsed.msg === 'string' ? [parsed.msg] : [];
    } catch {
      return [];
    }
  });
}

const ROUNDS = 25;
const CONCURRENCY = 16;

describe('behind PgBouncer', () => {
  let database: TestDatabase;
  let project: string;
  let tagId: string;
  const options = (databaseUrl: string): HarnessOptions => ({ database: 'postgres', databaseUrl, workDir: join(repoRoot, 'tmp', `poolers-${process.pid}`) });
  const bouncers: PgBouncer[] = [];
  const servers: RunningServer[] = [];

  const bouncer = async (settings: PgBouncerOptions): Promise<PgBouncer> => {
    const started = await startPgBouncer(settings);
    bouncers.push(started);
    return started;
  };
  const server = async (databaseUrl: string): Promise<RunningServer> => {
    const started = await startReferenceServer(project, options(databaseUrl), { LOG_LEVEL: 'warn' });
    servers.push(started);
    return started;
  };

  beforeAll(async () => {
    database = await createTestDatabase('capi_pool');
    project = await prepareProject(options(database.url));
    // Seeded directly; the servers under test then share the database through PgBouncer.
    const direct = await startReferenceServer(project, options(database.url));
    try {
      await seed(direct, options(database.url).workDir);
      const created = await fetch(`${direct.url}/api/tags`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { name: 'updated under load' } }) });
      tagId = ((await created.json()) as { data: { documentId: string } }).data.documentId;
    } finally {
      await direct.stop();
    }
  }, 300_000);

  afterAll(async () => {
    for (const started of servers) await started.stop();
    for (const started of bouncers) await started.stop();
    await database?.drop();
    rmSync(options('').workDir, { recursive: true, force: true });
  });

  it('transaction mode, stock pgbouncer.ini, ?pgbouncer=true: concurrent REST and GraphQL reads and writes, no 5xx; the session settings are asked of the database', async () => {
    const pooler = await bouncer({ mode: 'transaction' });
    const api = await server(`${pooler.url(database.name)}?pgbouncer=true`);
    const tally = await load(api.url, tagId, ROUNDS, CONCURRENCY);
    expect(tally.graphqlErrors).toEqual([]);
    expect(tally.statuses).toEqual(allSucceeded(ROUNDS));
    expect((await fetch(`${api.url}/_ready`)).status).toBe(200);
    // PgBouncer drops session options, so the database must carry jit=off and the statement
    // timeout (api.query.timeoutMs, 10 s by default); the server says how.
    const warned = messages(api.output()).filter((message) => message.includes('capi cannot give its sessions their settings'));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain('the database has jit = on, statement_timeout = 0 where capi wants jit = off, statement_timeout = 10000');
    expect(warned[0]).toContain(`run ALTER DATABASE "${database.name}" SET jit = off; ALTER DATABASE "${database.name}" SET statement_timeout = 10000; once on PostgreSQL`);
  }, 300_000);

  it('the warning goes once the database carries the settings', async () => {
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await admin.query(`ALTER DATABASE "${database.name}" SET jit = off`);
    await admin.query(`ALTER DATABASE "${database.name}" SET statement_timeout = 10000`);
    await admin.end();
    const pooler = await bouncer({ mode: 'transaction' });
    const api = await server(`${pooler.url(database.name)}?pgbouncer=true`);
    expect((await fetch(`${api.url}/_ready`)).status).toBe(200);
    expect(api.output()).not.toContain('capi cannot give its sessions their settings');
  }, 120_000);

  it('session mode, stock pgbouncer.ini, ?pgbouncer=true: concurrent REST and GraphQL reads and writes, no 5xx', async () => {
    const pooler = await bouncer({ mode: 'session', poolSize: 20 });
    const api = await server(`${pooler.url(database.name)}?pgbouncer=true`);
    const tally = await load(api.url, tagId, ROUNDS, CONCURRENCY);
    expect(tally.graphqlErrors).toEqual([]);
    expect(tally.statuses).toEqual(allSucceeded(ROUNDS));
  }, 300_000);

  it('session mode keeps named statements when PgBouncer ignores the options parameter: no 5xx, no warning', async () => {
    const pooler = await bouncer({ mode: 'session', poolSize: 20, ignoreStartupParameters: ['options'] });
    const api = await server(pooler.url(database.name));
    const tally = await load(api.url, tagId, ROUNDS, CONCURRENCY);
    expect(tally.graphqlErrors).toEqual([]);
    expect(tally.statuses).toEqual(allSucceeded(ROUNDS));
    expect(api.output()).not.toContain('named prepared statements');
  }, 300_000);

  it('a stock PgBouncer refuses the options startup parameter: the start fails with one line naming the setting', async () => {
    const pooler = await bouncer({ mode: 'session' });
    const failed = await server(pooler.url(database.name)).then(
      () => 'started',
      (error: unknown) => String(error),
    );
    expect(failed).toContain('server exited with 1');
    expect(failed).toContain(
      `capi: cannot connect to postgres 127.0.0.1:${pooler.port}/${database.name}: unsupported startup parameter: options (a connection pooler such as PgBouncer refuses the options startup parameter: set pgbouncer=true`,
    );
  }, 120_000);

  it('named statements through transaction pooling: said once, then every statement runs unnamed and nothing answers 5xx', async () => {
    // The other servers' named statements stay on PgBouncer's server sessions, as another
    // deployment's would: two server sessions for ten client connections.
    const pooler = await bouncer({ mode: 'transaction', poolSize: 2, ignoreStartupParameters: ['options'] });
    // PgBouncer drops the options parameter here: a database without jit=off shows it at start.
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await admin.query(`ALTER DATABASE "${database.name}" RESET jit`);
    await admin.end();
    const api = await server(pooler.url(database.name));
    expect(messages(api.output())).toContainEqual(
      expect.stringContaining(
        `the settings given at connection start did not take (a pooler that drops the options startup parameter?), and the database has jit = on where capi wants jit = off: run ALTER DATABASE "${database.name}" SET jit = off;`,
      ),
    );
    const first = await load(api.url, tagId, ROUNDS, CONCURRENCY);
    expect(first.graphqlErrors).toEqual([]);
    expect(first.statuses).toEqual(allSucceeded(ROUNDS));
    const said = messages(api.output()).filter((message) => message.includes('named prepared statements do not survive a connection pooler in transaction mode'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/PostgreSQL answered "prepared statement "capi_[0-9a-f]+" (already exists|does not exist)"/);
    expect(said[0]).toContain('This process now runs every statement unnamed; set pgbouncer=true (?pgbouncer=true in DATABASE_URL');
    // After the load, as under it: ready, and a second load answers as the first.
    expect((await fetch(`${api.url}/_ready`)).status).toBe(200);
    const second = await load(api.url, tagId, ROUNDS, CONCURRENCY);
    expect(second.statuses).toEqual(allSucceeded(ROUNDS));
    expect(messages(api.output()).filter((message) => message.includes('named prepared statements do not survive'))).toHaveLength(1);
  }, 300_000);
});
