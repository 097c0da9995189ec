/**
 * Replicas of a deployment start at the same moment on one database: several `node dist/main.js`
 * processes of one project, started together on an empty database (SQLite file, PostgreSQL,
 * MySQL/MariaDB), all reach listening and answer, the migrations are applied once, and what the
 * server writes at start (the roles of config/permissions.json) is written once. A few rounds, so
 * that a race shows.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capi, grant, scratch, startServer, type RunningServer } from '../support/cli.ts';
import { clients, createServerDatabase } from '../support/databases.ts';
import { exampleContentTypes } from '../support/model.ts';
import { connect } from '../support/sql.ts';

const PROCESSES = 4;
const ROUNDS = 3;

describe.each(clients)(`${PROCESSES} processes started together on an empty database of %s`, (database) => {
  const space = scratch(`start-together-${database}`);
  const project = join(space.dir, 'api');

  beforeAll(async () => {
    const generated = await capi(['generate', '--content-types', exampleContentTypes, '--out', project, '--database', database, '--quiet']);
    if (generated.code !== 0) throw new Error(generated.stderr + generated.stdout);
    grant(project, 'public', ['api::tag.tag.find']);
  }, 600_000);

  afterAll(() => space.dispose());

  it.each(Array.from({ length: ROUNDS }, (_, round) => round + 1))(
    `${database}, round %d: every process starts and answers`,
    async (round) => {
      const made = database === 'sqlite' ? undefined : await createServerDatabase(database, 'capi_start');
      const url = made?.url ?? `file:${join(space.dir, `round-${round}.db`)}`;
      const started = await Promise.allSettled(Array.from({ length: PROCESSES }, () => startServer(project, { DATABASE_URL: url, LOG_LEVEL: 'info' })));
      const servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      try {
        const failures = started.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
        expect(failures).toEqual([]);
        for (const server of servers) {
          const answer = await fetch(`${server.url}/api/tags`);
          expect(answer.status).toBe(200);
          expect(((await answer.json()) as { data: unknown[] }).data).toEqual([]);
        }
        const output = servers.map((server: RunningServer) => server.output()).join('\n');
        expect(output.match(/applying migration 0001_init/g)).toHaveLength(1);
        const sql = await connect(database, url);
        try {
          const roles = await sql.all('SELECT type, COUNT(*) AS n FROM up_roles WHERE published_at IS NOT NULL GROUP BY type ORDER BY type');
          expect(roles.map((row) => [row['type'], Number(row['n'])])).toEqual([
            ['authenticated', 1],
            ['public', 1],
          ]);
        } finally {
          await sql.close();
        }
      } finally {
        await Promise.all(servers.map((server) => server.stop()));
        await made?.drop();
      }
    },
    300_000,
  );
});
