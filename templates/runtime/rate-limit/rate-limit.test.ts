import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/postgres.ts';
import { openDatabase, type Database } from '../database.ts';
import { createLogger } from '../logger.ts';
import type { ModelSchema } from '../schema.ts';
import { startServer, type RunningServer } from '../server.ts';
import { PostgresRateLimitStore, RATE_LIMIT_TABLE } from './postgres-store.ts';

const model: ModelSchema = { contentTypes: {}, components: {} };
const root = mkdtempSync(join(tmpdir(), 'capi-rate-limit-'));
let counter = 0;
const running: RunningServer[] = [];

afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The table as the Prisma migration of a PostgreSQL project creates it (generator/emit/prisma.ts rateLimitBlock). */
const rateLimitDdl = `CREATE TABLE "capi_rate_limits" ("key" TEXT NOT NULL, "hits" INTEGER NOT NULL, "reset_at" TIMESTAMPTZ(3) NOT NULL, CONSTRAINT "capi_rate_limits_pkey" PRIMARY KEY ("key"));
CREATE INDEX "capi_rate_limits_reset_at_idx" ON "capi_rate_limits"("reset_at");`;

function project(rateLimits: unknown, database?: string): string {
  const dir = join(root, `project-${++counter}`);
  mkdirSync(join(dir, 'prisma', 'migrations', '0001_rate_limits'), { recursive: true });
  mkdirSync(join(dir, 'config'));
  writeFileSync(join(dir, 'prisma', 'migrations', '0001_rate_limits', 'migration.sql'), database === undefined ? 'SELECT 1;' : rateLimitDdl);
  writeFileSync(join(dir, 'config', 'rate-limit.json'), JSON.stringify(rateLimits));
  return dir;
}

async function start(dir: string, databaseUrl?: string): Promise<RunningServer> {
  const routes = express.Router();
  routes.post('/api/upload', (_req, res) => void res.status(201).json([{ id: 1 }]));
  routes.post('/upload', (_req, res) => void res.status(201).json([{ id: 1 }]));
  routes.get('/api/articles', (_req, res) => void res.json({ data: [], meta: {} }));
  routes.post('/graphql', (_req, res) => void res.json({ data: { hello: 'hi' } }));
  const server = await startServer({
    projectRoot: dir,
    model,
    env: { HOST: '127.0.0.1', PORT: '0', ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }) },
    logger: createLogger({ level: 'silent' }),
    handleSignals: false,
    mounts: [() => ({ path: '/', handler: routes })],
  });
  running.push(server);
  return server;
}

const tooMany = { data: null, error: { status: 429, name: 'RateLimitError', message: 'Too many requests, please try again later.', details: {} } };

async function post(server: RunningServer, path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  return { status: response.status, body: await response.json() };
}

describe('route-group limits (in memory, SQLite)', () => {
  it('limits uploads by default, answering 429 in the Strapi envelope, on both upload paths', async () => {
    const server = await start(project({ upload: { max: 2 } }));
    expect((await post(server, '/api/upload')).status).toBe(201);
    expect((await post(server, '/upload')).status).toBe(201);
    expect(await post(server, '/api/upload')).toEqual({ status: 429, body: tooMany });
    // Other groups are off by default.
    for (let i = 0; i < 5; i++) expect((await fetch(`${server.url}/api/articles`)).status).toBe(200);
  });

  it('counts every spelling of a path the router answers in its group', async () => {
    // Express matches paths case-insensitively and with or without a trailing slash.
    const server = await start(project({ upload: { max: 2 }, rest: { enabled: true, max: 2 } }));
    for (const path of ['/API/upload', '/api/Upload/']) expect((await post(server, path)).status).toBe(201);
    expect(await post(server, '/UPLOAD')).toEqual({ status: 429, body: tooMany });
    for (const path of ['/API/articles', '/api/Articles/']) expect((await fetch(`${server.url}${path}`)).status).toBe(200);
    expect((await fetch(`${server.url}/Api/ARTICLES`)).status).toBe(429);
  });

  it('limits REST reads and GraphQL when they are turned on, GraphQL answering in its own shape', async () => {
    const server = await start(project({ rest: { enabled: true, max: 1 }, graphql: { enabled: true, max: 1 }, upload: { enabled: false } }));
    expect((await fetch(`${server.url}/api/articles`)).status).toBe(200);
    const rest = await fetch(`${server.url}/api/articles`);
    expect(rest.status).toBe(429);
    expect(rest.headers.get('ratelimit-limit')).toBe('1');
    expect(await rest.json()).toEqual(tooMany);
    expect((await post(server, '/graphql')).status).toBe(200);
    expect(await post(server, '/graphql')).toEqual({
      status: 429,
      body: {
        errors: [
          {
            message: 'Too many requests, please try again later.',
            extensions: { code: 'STRAPI_RATE_LIMIT_ERROR', error: { name: 'RateLimitError', message: 'Too many requests, please try again later.', details: {} } },
          },
        ],
      },
    });
    for (let i = 0; i < 3; i++) expect((await post(server, '/api/upload')).status).toBe(201);
  });
});

describe('behind a proxy', () => {
  it('counts per client address from X-Forwarded-For when config/server.json says proxy: true', async () => {
    const dir = project({ upload: { max: 1 } });
    writeFileSync(join(dir, 'config', 'server.json'), JSON.stringify({ proxy: true }));
    const server = await start(dir);
    const from = (address: string) => fetch(`${server.url}/api/upload`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': address }, body: '{}' });
    expect((await from('203.0.113.7')).status).toBe(201);
    expect((await from('203.0.113.7')).status).toBe(429);
    // Another client behind the same proxy has its own allowance.
    expect((await from('198.51.100.9')).status).toBe(201);
  });
});

describe('on PostgreSQL, shared by every process', () => {
  let pg: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    pg = await createTestDatabase('capi_rate_limit');
    db = await openDatabase({ client: 'postgres', url: pg.url, label: 'test', pool: { max: 4 } });
  });
  afterAll(async () => {
    await db.close();
    await pg.drop();
  });

  it('holds the limit across two servers on one database', async () => {
    const dir = project({ upload: { max: 3, interval: '1h' } }, 'postgres');
    const first = await start(dir, pg.url);
    const second = await start(dir, pg.url);
    const statuses = [];
    for (const server of [first, second, first, second, first]) statuses.push((await post(server, '/api/upload')).status);
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    const [row] = await db.query<{ key: string; hits: number }>(`SELECT key, hits FROM ${RATE_LIMIT_TABLE}`);
    expect(row).toEqual({ key: 'upload:3600000:127.0.0.1', hits: 5 });
  });

  it('counts concurrent hits from several stores exactly once each', async () => {
    const a = new PostgresRateLimitStore(db, { prefix: 'test:', windowMs: 60_000 });
    const b = new PostgresRateLimitStore(db, { prefix: 'test:', windowMs: 60_000 });
    const hits = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).increment('client')));
    expect(hits.map((hit) => hit.totalHits).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await a.get('client')).toMatchObject({ totalHits: 20 });
    await b.decrement('client');
    expect(await a.get('client')).toMatchObject({ totalHits: 19 });
    await a.resetKey('client');
    expect(await b.get('client')).toBeUndefined();
  });

  it('starts a new window once the old one has ended', async () => {
    const store = new PostgresRateLimitStore(db, { prefix: 'window:', windowMs: 60_000 });
    await store.increment('x');
    const second = await store.increment('x');
    expect(second.totalHits).toBe(2);
    expect(second.resetTime!.getTime()).toBeGreaterThan(Date.now());
    // End the window as the clock would, without waiting for it.
    await db.execute(`UPDATE ${RATE_LIMIT_TABLE} SET reset_at = now() - interval '1 second' WHERE key = 'window:x'`);
    expect(await store.get('x')).toBeUndefined();
    expect((await store.increment('x')).totalHits).toBe(1);
  });
});
