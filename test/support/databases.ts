/**
 * The databases every storage test runs on: one list, so a new database is picked up by every
 * test that iterates it. Server databases get a throwaway database per test file
 * (test/support/postgres.ts, test/support/mysql.ts).
 */
import { createTestDatabase as createMysqlDatabase } from './mysql.ts';
import { createTestDatabase as createPostgresDatabase, type TestDatabase } from './postgres.ts';

export type Client = 'sqlite' | 'postgres' | 'mysql';
export const clients: readonly Client[] = ['sqlite', 'postgres', 'mysql'];

export type ServerClient = Exclude<Client, 'sqlite'>;

/** A throwaway database on the local server of `client`, dropped by `drop()`. */
export function createServerDatabase(client: ServerClient, prefix?: string): Promise<TestDatabase> {
  return client === 'mysql' ? createMysqlDatabase(prefix) : createPostgresDatabase(prefix);
}
