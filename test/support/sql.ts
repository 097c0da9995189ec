/** Just enough SQL access for tests to look at or poke a project's database, over either driver. */
import Database from 'better-sqlite3';
import pg from 'pg';
import { openDatabase } from '../../templates/runtime/database.ts';
import type { Client } from './databases.ts';

export interface Sql {
  run(sql: string): Promise<void>;
  all(sql: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export async function connect(client: Client, url: string): Promise<Sql> {
  if (client === 'mysql') {
    // The runtime's driver, so statements read as on the other databases (ANSI_QUOTES, UTC).
    const db = await openDatabase({ client: 'mysql', url, label: 'test', pool: { max: 1 } });
    return { run: (sql) => db.exec(sql), all: (sql) => db.query(sql), close: () => db.close() };
  }
  if (client === 'sqlite') {
    const db = new Database(url.replace(/^file:/, ''));
    return {
      run: async (sql) => void db.exec(sql),
      all: async (sql) => db.prepare(sql).all() as Record<string, unknown>[],
      close: async () => void db.close(),
    };
  }
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  return {
    run: async (sql) => void (await pool.query(sql)),
    all: async (sql) => (await pool.query(sql)).rows as Record<string, unknown>[],
    close: () => pool.end(),
  };
}
