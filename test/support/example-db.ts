/**
 * A migrated, empty database for the example model, on every database of test/support/databases.ts, opened through the
 * runtime's own Database interface: what engine-level tests (reads, writes, uploads) run on.
 *
 *   const ctx = await openExampleDatabase('postgres');
 *   ... ctx.db, ctx.model ...
 *   await ctx.close();
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { model } from './runtime-model.ts';
import { emitPrismaSchema } from '../../generator/emit/prisma.ts';
import { diffSchemas } from '../../generator/migrations.ts';
import type { DatabaseConfig } from '../../templates/runtime/config.ts';
import { openDatabase, type Database } from '../../templates/runtime/database.ts';
import type { ModelSchema } from '../../templates/runtime/schema.ts';
import { clients, createServerDatabase, type Client } from './databases.ts';
import { exampleContentTypes, loadModelFrom } from './model.ts';

export { clients, type Client };

export interface ExampleDatabase {
  readonly db: Database;
  readonly model: ModelSchema;
  readonly client: Client;
  /** How to open it again (from a child process). */
  readonly config: DatabaseConfig;
  close(): Promise<void>;
}

const ddl = new Map<Client, Promise<string>>();

/** The example model's DDL for a client, computed once per test file. */
function exampleDdl(client: Client): Promise<string> {
  let script = ddl.get(client);
  if (!script) {
    script = diffSchemas(undefined, emitPrismaSchema(loadModelFrom(exampleContentTypes), client, 'content-types/'), client);
    ddl.set(client, script);
  }
  return script;
}

export async function openExampleDatabase(client: Client): Promise<ExampleDatabase> {
  const script = await exampleDdl(client);
  if (client === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'capi-db-'));
    const config: DatabaseConfig = { client: 'sqlite', filename: join(dir, 'test.db'), label: 'test.db' };
    const db = await openDatabase(config);
    await db.exec(script);
    return {
      db,
      model,
      client,
      config,
      close: async () => {
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const database = await createServerDatabase(client);
  const config: DatabaseConfig = { client, url: database.url, label: database.name, pool: { max: 4 } };
  const db = await openDatabase(config);
  await db.exec(script);
  return {
    db,
    model,
    client,
    config,
    close: async () => {
      await db.close();
      await database.drop();
    },
  };
}
