/**
 * A generated conformance-model server for HTTP tests, on SQLite or PostgreSQL, seeded with the
 * conformance seed, plus small request helpers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningServer } from '../support/cli.ts';
import { repoRoot } from '../support/model.ts';
import { createServerDatabase, type Client } from '../support/databases.ts';
import type { TestDatabase } from '../support/postgres.ts';
import { prepareProject, referenceDatabaseUrl, restrictPermissions, seed, startReferenceServer, type HarnessOptions } from '../conformance/harness.ts';

export interface SeedMap {
  readonly documents: Record<string, { uid: string; documentId: string }>;
  readonly media: Record<string, { id: number; documentId: string }>;
}

export interface TestServer {
  readonly url: string;
  readonly seedMap: SeedMap;
  readonly project: string;
  /** The database the server runs on (a `file:` URL on SQLite). */
  readonly databaseUrl: string;
  /** Restarts the server on the same database with some actions revoked from every role. */
  restart(revoke: readonly string[]): Promise<void>;
  /** What the server wrote to stdout and stderr (its log, at warn and above) since it started. */
  output(): string;
  stop(): Promise<void>;
}

export async function startSeededServer(database: Client, name: string): Promise<TestServer> {
  const pg: TestDatabase | undefined = database === 'sqlite' ? undefined : await createServerDatabase(database, `capi_${name}`);
  const options: HarnessOptions = {
    database,
    workDir: join(repoRoot, 'tmp', `${name}-${database}-${process.pid}`),
    ...(pg === undefined ? {} : { databaseUrl: pg.url }),
  };
  const project = await prepareProject(options);
  const env = { CAPI_QUERY_COUNT: '1' };
  let server: RunningServer = await startReferenceServer(project, options, env);
  const seedMap = JSON.parse(readFileSync(await seed(server, options.workDir), 'utf8')) as SeedMap;
  const handle: TestServer = {
    get url() {
      return server.url;
    },
    seedMap,
    project,
    databaseUrl: referenceDatabaseUrl(options),
    async restart(revoke) {
      await server.stop();
      restrictPermissions(project, revoke);
      server = await startReferenceServer(project, options, env);
    },
    output: () => server.output(),
    async stop() {
      await server.stop();
      await pg?.drop();
    },
  };
  return handle;
}

export interface JsonResponse {
  readonly status: number;
  /** Response JSON, asserted field by field in the tests. */
  readonly body: any;
  readonly queries: number;
}

export async function request(base: string, method: string, path: string, body?: unknown): Promise<JsonResponse> {
  const init: RequestInit = { method, headers: body === undefined ? {} : { 'content-type': 'application/json' } };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const res = await fetch(`${base}${path}`, init);
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text), queries: Number(res.headers.get('x-query-count') ?? NaN) };
}
