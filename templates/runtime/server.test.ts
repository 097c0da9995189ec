import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/postgres.ts';
import { JSON_BODY_LIMITS } from './body-guard.ts';
import { ERROR_ECHO_LIMITS, ForbiddenError, toErrorResponse, ValidationError } from './errors.ts';
import { createLogger, type Logger } from './logger.ts';
import { runMigrations, runServer, startupErrorMessage, type ProcessIo } from './main.ts';
import type { JsonValue, ModelSchema } from './schema.ts';
import { ListenError, startServer, type MountFactory, type RunningServer } from './server.ts';

const model: ModelSchema = { contentTypes: {}, components: {} };
const root = mkdtempSync(join(tmpdir(), 'capi-server-'));
let counter = 0;
const running: RunningServer[] = [];

afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function projectRoot(options: { migrations?: Record<string, string>; config?: Record<string, unknown> } = {}): string {
  const dir = join(root, `project-${++counter}`);
  mkdirSync(join(dir, 'prisma', 'migrations'), { recursive: true });
  mkdirSync(join(dir, 'config'));
  for (const [name, sql] of Object.entries(options.migrations ?? {})) {
    mkdirSync(join(dir, 'prisma', 'migrations', name));
    writeFileSync(join(dir, 'prisma', 'migrations', name, 'migration.sql'), sql);
  }
  for (const [name, json] of Object.entries(options.config ?? {})) writeFileSync(join(dir, 'config', name), JSON.stringify(json));
  return dir;
}

function capturingLogger(): { logger: Logger; lines: () => Array<Record<string, unknown>> } {
  const out: string[] = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void out.push(line) } });
  return { logger, lines: () => out.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

const env = { HOST: '127.0.0.1', PORT: '0' };

/** Starts a server on a free port; it is closed after the current test unless `keep` is set. */
async function start(options: { mounts?: readonly MountFactory[]; env?: Record<string, string>; dir?: string; keep?: boolean } = {}): Promise<RunningServer> {
  const dir = options.dir ?? projectRoot({ config: { 'server.json': { jsonLimit: 1000 } } });
  const server = await startServer({
    projectRoot: dir,
    model,
    env: { ...env, ...options.env },
    logger: capturingLogger().logger,
    handleSignals: false,
    mounts: options.mounts ?? [],
  });
  if (options.keep !== true) running.push(server);
  return server;
}

describe('the app', () => {
  let server: RunningServer;
  beforeAll(async () => {
    const router = express.Router();
    router.get('/boom', () => {
      throw new Error('secret internal detail at /srv/app');
    });
    router.get('/forbidden', () => {
      throw new ForbiddenError('Not for you');
    });
    router.post('/echo', (req, res) => {
      res.json({ data: req.body as unknown });
    });
    server = await start({ mounts: [() => ({ path: '/api', handler: router })], keep: true });
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers the health check after asking the database', async () => {
    const response = await fetch(`${server.url}/_health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', database: 'sqlite' });
  });

  it('answers unknown routes with the 404 envelope', async () => {
    for (const [method, path] of [
      ['GET', '/nope'],
      ['POST', '/api/unknown'],
      ['DELETE', '/_health'],
    ] as const) {
      const response = await fetch(`${server.url}${path}`, { method });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
    }
  });

  it('answers malformed JSON with a ValidationError', async () => {
    const response = await fetch(`${server.url}/api/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"data": ' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      data: null,
      error: { status: 400, name: 'ValidationError', message: 'Invalid JSON in request body', details: {} },
    });
  });

  it('refuses JSON bodies nested deeper than the limit, or holding a NUL, before any router', async () => {
    const deep = await fetch(`${server.url}/api/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `${'['.repeat(300)}${']'.repeat(300)}` });
    expect(deep.status).toBe(400);
    expect(await deep.json()).toEqual({
      data: null,
      error: { status: 400, name: 'ValidationError', message: `Invalid request body: nested deeper than ${JSON_BODY_LIMITS.depth} levels`, details: { limit: JSON_BODY_LIMITS.depth } },
    });
    const atLimit = `${'['.repeat(JSON_BODY_LIMITS.depth)}${']'.repeat(JSON_BODY_LIMITS.depth)}`;
    const fits = await fetch(`${server.url}/api/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: atLimit });
    expect(fits.status).toBe(200);
    const nul = await fetch(`${server.url}/api/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"data":{"list":["ok","a\\u0000"]}}' });
    expect(nul.status).toBe(400);
    expect(((await nul.json()) as { error: { message: string } }).error.message).toBe('data.list.1 must be text without NUL (\\u0000) characters');
  });

  it('parses JSON bodies for mounted routers', async () => {
    const response = await fetch(`${server.url}/api/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(await response.json()).toEqual({ data: { a: 1 } });
  });

  it('answers a body over the limit with 413', async () => {
    const response = await fetch(`${server.url}/api/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'x'.repeat(2000) }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      data: null,
      error: { status: 413, name: 'PayloadTooLargeError', message: 'Request body too large', details: { limit: 1000 } },
    });
  });

  it('turns an unexpected error into a generic 500 that leaks nothing', async () => {
    const response = await fetch(`${server.url}/api/boom`);
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error', details: {} } });
    expect(text).not.toContain('secret');
  });

  it('passes client errors through as their envelope', async () => {
    const response = await fetch(`${server.url}/api/forbidden`);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ data: null, error: { status: 403, name: 'ForbiddenError', message: 'Not for you', details: {} } });
  });
});

describe('startServer', () => {
  it('logs one line saying where it listens and on which database', async () => {
    const capture = capturingLogger();
    const dir = projectRoot({ migrations: { '0001_init': 'CREATE TABLE "thing" ("id" INTEGER PRIMARY KEY);\n' } });
    const server = await startServer({ projectRoot: dir, model, env, logger: capture.logger, handleSignals: false });
    running.push(server);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    const messages = capture.lines().map((line) => line.msg);
    expect(messages).toContain(`capi server listening on http://127.0.0.1:${server.port} (database: sqlite .data/data.db)`);
    expect(messages).toContain('applying migration 0001_init');
    expect(await server.context.db.query('SELECT count(*) AS n FROM "thing"')).toEqual([{ n: 0 }]);
  });

  it('fails with a ListenError when the port is in use, and closes the database', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const error = await start({ env: { PORT: String(port) } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ListenError);
      expect(error).toMatchObject({ code: 'EADDRINUSE' });
      expect((error as Error).message).toBe(`cannot listen on 127.0.0.1:${port}: port ${port} is already in use (set PORT or "port" in config/server.json)`);
      expect(startupErrorMessage(error)).toBe((error as Error).message);
    } finally {
      blocker.close();
    }
  });

  it('fails with the migration error and does not listen', async () => {
    const dir = projectRoot({ migrations: { '0001_bad': 'CREATE TABLE oops (;\n' } });
    const error = await start({ dir }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'MigrationError', message: expect.stringMatching(/^migration 0001_bad failed: /) });
  });

  it('closes gracefully: in-flight requests finish, then the database closes', async () => {
    let release!: () => void;
    let entered!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const server = await start({
      mounts: [
        () => ({
          path: '/slow',
          handler: async (_req, res) => {
            entered();
            await gate;
            res.json({ ok: true });
          },
        }),
      ],
    });
    const pending = fetch(`${server.url}/slow`).then((r) => r.json());
    await inside;
    const closed = server.close();
    release();
    expect(await pending).toEqual({ ok: true });
    await closed;
    await expect(server.context.db.query('SELECT 1')).rejects.toThrow();
    await expect(fetch(`${server.url}/_health`)).rejects.toThrow();
  });
});

it('stops background work registered with onClose after the last request and before the database closes', async () => {
  const events: string[] = [];
  const server = await start({
    mounts: [
      (context) => {
        context.onClose?.(async () => {
          // The database is still open while background work winds down.
          await context.db.query('SELECT 1');
          events.push('stopped with the database open');
        });
        context.onClose?.(() => Promise.reject(new Error('a failing stop')));
        context.onClose?.(async () => void events.push('later stops still run'));
        return [];
      },
    ],
    keep: true,
  });
  await server.close();
  expect(events).toEqual(['stopped with the database open', 'later stops still run']);
  await expect(server.context.db.query('SELECT 1')).rejects.toThrow();
});

describe('on postgres', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('capi_srvtest');
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('reports the database in the health check', async () => {
    const server = await start({ env: { DATABASE_URL: database.url } });
    expect(server.context.db.description).toBe(`postgres 127.0.0.1:5432/${database.name}`);
    expect(await (await fetch(`${server.url}/_health`)).json()).toEqual({ status: 'ok', database: 'postgres' });
  });
});

describe('process entry points', () => {
  class Exit extends Error {
    constructor(readonly code: number) {
      super(`exit ${code}`);
    }
  }
  function fakeIo(): ProcessIo & { out: string[]; err: string[] } {
    const out: string[] = [];
    const err: string[] = [];
    return {
      out,
      err,
      stdout: (line) => void out.push(line),
      stderr: (line) => void err.push(line),
      exit: (code) => {
        throw new Exit(code);
      },
      announce: () => {
        throw new Error('announced a server that should not have started');
      },
    };
  }

  it.each([
    [{ 'server.json': { prot: 80 } }, {}, 'capi: config/server.json: unknown key "prot" (did you mean "port"?)'],
    [{}, { DATABASE_URL: 'oracle://x/y' }, 'capi: DATABASE_URL must start with "file:", "postgres://", "postgresql://", "mysql://" or "mariadb://" (got "oracle://x/y")'],
    [{}, { DATABASE_URL: 'mysql://root@127.0.0.1:1/x' }, 'capi: cannot connect to mysql 127.0.0.1:1/x: connect ECONNREFUSED 127.0.0.1:1'],
    [{}, { DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/x' }, 'capi: cannot connect to postgres 127.0.0.1:1/x: connect ECONNREFUSED 127.0.0.1:1'],
    // Replicas where the database has no replica support are refused, not ignored (MySQL: replicas.test.ts).
    [
      {},
      { DATABASE_REPLICA_URLS: 'file:./replica.db' },
      'capi: read replicas (DATABASE_REPLICA_URLS, config/database.json "replicas") are supported on PostgreSQL only, not on sqlite: remove them: every statement then goes to the one database',
    ],
  ])('runServer prints one line and exits 1 (%j %j)', async (config, extraEnv, line) => {
    const io = fakeIo();
    const error = await runServer({ projectRoot: projectRoot({ config }), model, env: { ...env, ...extraEnv } }, io).catch((e: unknown) => e);
    expect(error).toEqual(new Exit(1));
    expect(io.err).toEqual([line]);
  });

  it('runMigrations applies and reports, and fails in one line', async () => {
    const dir = projectRoot({ migrations: { '0001_init': 'CREATE TABLE "thing" ("id" INTEGER PRIMARY KEY);\n' } });
    const io = fakeIo();
    expect(await runMigrations({ projectRoot: dir, env: {} }, io)).toEqual(['0001_init']);
    expect(io.out).toEqual(['capi: applying migration 0001_init', expect.stringMatching(/^capi: applied migration 0001_init in \d+ ms$/), 'capi: applied 1 migration(s) to sqlite .data/data.db']);
    const again = fakeIo();
    expect(await runMigrations({ projectRoot: dir, env: {} }, again)).toEqual([]);
    expect(again.out).toEqual(['capi: sqlite .data/data.db is up to date']);

    mkdirSync(join(dir, 'prisma', 'migrations', '0002_bad'));
    writeFileSync(join(dir, 'prisma', 'migrations', '0002_bad', 'migration.sql'), 'ALTER TABLE "nothing" ADD COLUMN "x" TEXT;\n');
    const failing = fakeIo();
    await expect(runMigrations({ projectRoot: dir, env: {} }, failing)).rejects.toEqual(new Exit(1));
    expect(failing.err).toEqual(['capi: migration 0002_bad failed: no such table: nothing']);
  });

  it('calls anything unknown an unexpected error, in one line', () => {
    expect(startupErrorMessage(new TypeError('x is not\na function'))).toBe('unexpected error: x is not a function');
  });
});

describe('toErrorResponse', () => {
  it('keeps ValidationError details in Strapi form', () => {
    const response = toErrorResponse(ValidationError.of('2 errors occurred', [{ path: ['title'], message: 'title must be defined.', name: 'ValidationError' }]));
    expect(response).toEqual({
      status: 400,
      unexpected: false,
      body: {
        data: null,
        error: {
          status: 400,
          name: 'ValidationError',
          message: '2 errors occurred',
          details: { errors: [{ path: ['title'], message: 'title must be defined.', name: 'ValidationError' }] },
        },
      },
    });
  });

  it('bounds what an error echoes: message length, detail strings, depth and width', () => {
    let deep: JsonValue = 'leaf';
    for (let i = 0; i < 5_000; i += 1) deep = [deep];
    const error = new ValidationError('x'.repeat(100_000), { value: deep, text: 'y'.repeat(100_000), list: Array.from({ length: 10_000 }, (_, i) => i) });
    const body = toErrorResponse(error).body;
    const json = JSON.stringify(body);
    expect(json.length).toBeLessThan(5_000);
    expect(body.error.message).toBe(`${'x'.repeat(ERROR_ECHO_LIMITS.message)}…`);
    expect(body.error.details.text).toBe(`${'y'.repeat(ERROR_ECHO_LIMITS.text)}…`);
    expect((body.error.details.list as JsonValue[]).at(-1)).toBe('…');
    expect((body.error.details.list as JsonValue[]).length).toBe(ERROR_ECHO_LIMITS.items + 1);
  });

  it('hides anything else behind a 500', () => {
    for (const thrown of [new Error('db password is hunter2'), 'a string', null, { status: 500, message: 'x' }]) {
      expect(toErrorResponse(thrown)).toEqual({
        status: 500,
        unexpected: true,
        body: { data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error', details: {} } },
      });
    }
  });
});
