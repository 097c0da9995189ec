/**
 * The emitted skeleton on its own is a working project: placed inside this repository (so that
 * its dependencies resolve from capi's node_modules) with a trivial model and no migrations, it
 * type-checks under its own tsconfig, compiles, starts and answers /_health, and fails start-up
 * with one line and exit code 1.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitProject } from '../../generator/emit/project.ts';
import { node, scratch, startServer } from '../support/cli.ts';
import { repoRoot } from '../support/model.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';

const run = promisify(execFile);
const tsc = join(repoRoot, 'node_modules', '.bin', 'tsc');
const space = scratch('project-boot');

function writeProject(database: 'sqlite' | 'postgres'): string {
  const dir = join(space.dir, database);
  for (const file of emitProject({ database, source: '../content-types/', projectName: `boot-${database}` })) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.contents);
  }
  writeFileSync(join(dir, 'src', 'model.ts'), 'export const model = { contentTypes: {}, components: {} };\n');
  mkdirSync(join(dir, 'prisma', 'migrations'), { recursive: true });
  return dir;
}

afterAll(() => space.dispose());

describe('an emitted sqlite project', () => {
  let dir: string;
  beforeAll(async () => {
    dir = writeProject('sqlite');
    await run(tsc, ['-p', dir], { cwd: dir });
  });

  it('type-checks and compiles under its own tsconfig', () => {
    for (const file of ['main.js', 'migrate.js', 'model.js', 'runtime/server.js', 'runtime/database-sqlite.js']) {
      expect(existsSync(join(dir, 'dist', file))).toBe(true);
    }
    expect(existsSync(join(dir, 'dist', 'runtime', 'server.test.js'))).toBe(false);
  });

  it('starts with node dist/main.js and answers /_health', async () => {
    const server = await startServer(dir, {});
    try {
      expect(server.output()).toMatch(/capi server listening on http:\/\/127\.0\.0\.1:\d+ \(database: sqlite \.data\/data\.db\)/);
      const response = await fetch(`${server.url}/_health`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok', database: 'sqlite' });
      const missing = await fetch(`${server.url}/api/articles`);
      expect(await missing.json()).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
    } finally {
      await server.stop();
    }
    expect(existsSync(join(dir, '.data', 'data.db'))).toBe(true);
  });

  it('applies migrations with node dist/migrate.js', async () => {
    const result = await node(['dist/migrate.js'], { cwd: dir });
    expect(result).toEqual({ code: 0, stdout: 'capi: sqlite .data/data.db is up to date\n', stderr: '' });
  });

  it('fails start-up with one line on stderr and exit code 1', async () => {
    const cases: Array<[NodeJS.ProcessEnv, string]> = [
      [{ PORT: 'eighty' }, 'capi: PORT must be an integer between 0 and 65535 (got "eighty")\n'],
      [{ DATABASE_URL: 'oracle://root@db/app' }, 'capi: DATABASE_URL must start with "file:", "postgres://", "postgresql://", "mysql://" or "mariadb://" (got "oracle://root@db/app")\n'],
      [{ DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/app' }, 'capi: cannot connect to postgres 127.0.0.1:1/app: connect ECONNREFUSED 127.0.0.1:1\n'],
    ];
    for (const [env, stderr] of cases) {
      const result = await node(['dist/main.js'], { cwd: dir, env: { HOST: '127.0.0.1', PORT: '0', ...env } });
      expect(result).toEqual({ code: 1, stdout: '', stderr });
    }
  });
});

describe('an emitted postgres project', () => {
  let dir: string;
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('capi_boot');
    dir = writeProject('postgres');
    await run(tsc, ['-p', dir], { cwd: dir });
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('starts on PostgreSQL and answers /_health', async () => {
    const server = await startServer(dir, { DATABASE_URL: database.url });
    try {
      expect(server.output()).toContain(`(database: postgres 127.0.0.1:5432/${database.name})`);
      expect(await (await fetch(`${server.url}/_health`)).json()).toEqual({ status: 'ok', database: 'postgres' });
    } finally {
      await server.stop();
    }
  });
});
