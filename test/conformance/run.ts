/**
 * `npm run conformance -- [--database sqlite|postgres|mysql] [--only REGEX]`: replays the recorded
 * conformance suite (test/fixtures/conformance) against a freshly generated capi server and
 * prints PASS/FAIL per case.
 * PostgreSQL and MySQL runs get a throwaway database (CAPI_TEST_PG_URL / CAPI_TEST_MYSQL_URL, as the tests).
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../support/model.ts';
import { clients, createServerDatabase } from '../support/databases.ts';
import { prepareProject, replay, startReferenceServer, type HarnessOptions } from './harness.ts';

const { values } = parseArgs({ options: { database: { type: 'string', default: 'sqlite' }, only: { type: 'string' } } });
const database = clients.find((client) => client === values.database) ?? 'sqlite';
const pg = database === 'sqlite' ? undefined : await createServerDatabase(database, 'capi_conformance');
const options: HarnessOptions = {
  database,
  workDir: join(repoRoot, 'tmp', `conformance-${database}`),
  ...(values.only === undefined ? {} : { only: values.only }),
  ...(pg === undefined ? {} : { databaseUrl: pg.url }),
};
try {
  const project = await prepareProject(options);
  const server = await startReferenceServer(project, options);
  try {
    const run = await replay(server, options);
    for (const result of run.results) {
      process.stdout.write(`${result.passed ? 'PASS' : 'FAIL'} ${result.name}\n${result.diff.map((d) => `     ${d}\n`).join('')}`);
    }
    process.stdout.write(`${run.passed} passed, ${run.failed} failed (${database})\n`);
    process.exitCode = run.failed === 0 ? 0 : 1;
  } finally {
    await server.stop();
  }
} finally {
  await pg?.drop();
}
