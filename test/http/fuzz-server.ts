/**
 * The server the fuzz test attacks: the conformance model of content-types/ generated, compiled
 * and started as a user would (a child process), on SQLite or PostgreSQL, with every content-API
 * action granted to the public role (so that writes and uploads are reachable without a token),
 * and seeded with the runtime's conformance seed (engine/test-seed.ts) through a connection of
 * its own and reads no fixture from outside the repository.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, type Database } from '../../templates/runtime/database.ts';
import { seedConformance, type Seeded } from '../../templates/runtime/engine/test-seed.ts';
import type { ModelSchema } from '../../templates/runtime/schema.ts';
import { capi, startServer, type RunningServer } from '../support/cli.ts';
import { exampleContentTypes, repoRoot } from '../support/model.ts';
import { createServerDatabase, type Client } from '../support/databases.ts';
import type { TestDatabase } from '../support/postgres.ts';

export interface FuzzServer {
  readonly url: string;
  readonly model: ModelSchema;
  readonly seeded: Seeded;
  /** Seeded documentIds by content-type uid. */
  readonly documents: Readonly<Record<string, readonly string[]>>;
  /** The served GraphQL SDL (src/graphql/schema.graphql of the generated project). */
  readonly sdl: string;
  /** A connection of the test's own, for invariant checks. */
  readonly db: Database;
  /** Server output so far (crashes and logged internal errors). */
  output(): string;
  stop(): Promise<void>;
}

function permissions(model: ModelSchema): string[] {
  const actions: string[] = [];
  // The project's own types; the users-permissions plugin's have actions of their own.
  for (const type of Object.values(model.contentTypes).filter((t) => t.uid.startsWith('api::'))) {
    const verbs = type.kind === 'singleType' ? ['find', 'update', 'delete'] : ['find', 'findOne', 'create', 'update', 'delete'];
    actions.push(...verbs.map((verb) => `${type.uid}.${verb}`));
  }
  actions.push(...['find', 'findOne', 'upload', 'destroy'].map((a) => `plugin::upload.content-api.${a}`), 'plugin::i18n.locales.listLocales');
  return actions;
}

export async function startFuzzServer(database: Client): Promise<FuzzServer> {
  // Unique per call: the fuzz and hardening test files may run at once, even in one process.
  const workDir = join(repoRoot, 'tmp', `fuzz-${database}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  const project = join(workDir, 'project');
  const generated = await capi(['generate', '--content-types', exampleContentTypes, '--out', project, '--database', database, '--quiet']);
  if (generated.code !== 0) throw new Error(`capi generate failed:\n${generated.stderr}`);
  const { model } = (await import(join(project, 'src', 'model.ts'))) as { model: ModelSchema };
  const actions = permissions(model);
  const config: Record<string, unknown> = {
    'api.json': { rest: { defaultLimit: 25, maxLimit: 100, withCount: true } },
    'plugins.json': {
      graphql: { config: { defaultLimit: 10, maxLimit: 20, depthLimit: 20 } },
      i18n: {
        defaultLocale: 'en',
        locales: [
          { code: 'en', name: 'English (en)' },
          { code: 'fr', name: 'French (fr)' },
        ],
      },
    },
    'permissions.json': { public: actions, authenticated: actions },
  };
  for (const [file, json] of Object.entries(config)) writeFileSync(join(project, 'config', file), `${JSON.stringify(json, null, 2)}\n`);

  const pg: TestDatabase | undefined = database === 'sqlite' ? undefined : await createServerDatabase(database, 'capi_fuzz');
  const sqliteFile = join(workDir, 'fuzz.db');
  const databaseUrl = pg?.url ?? `file:${sqliteFile}`;
  // Started once to apply the migrations, then seeded, then serving.
  const server: RunningServer = await startServer(project, { DATABASE_URL: databaseUrl, NODE_ENV: 'production', LOG_LEVEL: 'error' });
  const db = await openDatabase(
    pg === undefined ? { client: 'sqlite', filename: sqliteFile, label: 'fuzz.db' } : { client: database === 'mysql' ? 'mysql' : 'postgres', url: pg.url, label: pg.name, pool: { max: 2 } },
  );
  const seeded = (await seedConformance(db, model)).seeded();
  const documents: Record<string, string[]> = {};
  for (const type of Object.values(model.contentTypes)) {
    const rows = await db.query<{ document_id: string }>(`SELECT DISTINCT document_id FROM "${type.table}" ORDER BY document_id`);
    documents[type.uid] = rows.map((row) => row.document_id);
  }
  return {
    url: server.url,
    model,
    seeded,
    documents,
    sdl: readFileSync(join(project, 'src', 'graphql', 'schema.graphql'), 'utf8'),
    db,
    output: server.output,
    async stop() {
      await server.stop();
      await db.close();
      await pg?.drop();
      rmSync(workDir, { recursive: true, force: true });
    },
  };
}
