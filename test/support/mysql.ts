/**
 * MySQL/MariaDB for tests: every test file gets its own throwaway database, so files can run in
 * parallel against the one local server. The admin URL comes from CAPI_TEST_MYSQL_URL; without it
 * the local default of this project's machines is used (MariaDB, root without a password).
 */
import { createConnection, type Connection } from 'mysql2/promise';
import type { TestDatabase } from './postgres.ts';

export const adminUrl = process.env.CAPI_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/mysql';

export async function createTestDatabase(prefix = 'capi_test'): Promise<TestDatabase> {
  const name = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await withAdmin((connection) => connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => withAdmin((connection) => connection.query(`DROP DATABASE IF EXISTS \`${name}\``)).then(() => undefined),
  };
}

async function withAdmin<T>(fn: (connection: Connection) => Promise<T>): Promise<T> {
  const connection = await createConnection(adminUrl);
  try {
    return await fn(connection);
  } finally {
    await connection.end();
  }
}
