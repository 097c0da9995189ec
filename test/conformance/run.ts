/**
 * `npm run conformance -- [--database sqlite|postgres] [--only REGEX]`: replays the recorded
 * conformance suite (test/fixtures/conformance) against a freshly generated capi server and
 * prints PASS/FAIL per case.
 * PostgreSQL runs get a throwaway database (CAPI_TEST_PG_URL, as the tests).
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../support/model.ts';
import { createTestDatabase } from '../support/postgres.ts';
import { prepareProject, replay, startReferenceServer, type HarnessOptions } from './harness.ts';

const { values } = parseArgs({ options: { database: { type: 'string', default: 'sqlite' }, only: { type: 'string' } } });
const database = values.database === 'postgres' ? 'postgres' : 'sqlite';
const pg = database === 'postgres' ? await createTestDatabase('capi_conformance') : undefined;
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
