/**
 * Every REST case of the conformance fixtures (test/fixtures/conformance) must answer what real Strapi 5 answered, on both
 * databases, except the differences capi keeps on purpose (listed with their reason).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/model.ts';
import { clients, createServerDatabase } from '../support/databases.ts';
import type { TestDatabase } from '../support/postgres.ts';
import type { RunningServer } from '../support/cli.ts';
import { caseNames, prepareProject, replay, startReferenceServer, type ConformanceRun, type HarnessOptions } from './harness.ts';

/** Cases where capi answers differently from Strapi 5.54 on purpose; see README "Conformance". */
export const deliberateRestDifferences: Readonly<Record<string, string>> = {
  'rest-pagination-limit-minus-one':
    'Strapi 5.54 answers pagination[limit]=-1 with one item (a defect the conformance README lists); capi reads -1 as "as many as allowed" and caps it at rest.maxLimit.',
};

describe.each(clients)('REST conformance on %s', (database) => {
  let pg: TestDatabase | undefined;
  let server: RunningServer | undefined;
  let run: ConformanceRun;

  beforeAll(async () => {
    pg = database === 'sqlite' ? undefined : await createServerDatabase(database, 'capi_conformance');
    const options: HarnessOptions = {
      database,
      workDir: join(repoRoot, 'tmp', `conformance-test-${database}-${process.pid}`),
      only: '^rest-',
      ...(pg === undefined ? {} : { databaseUrl: pg.url }),
    };
    const project = await prepareProject(options);
    server = await startReferenceServer(project, options);
    run = await replay(server, options);
  });

  afterAll(async () => {
    await server?.stop();
    await pg?.drop();
  });

  it('replays every recorded REST case', () => {
    expect(run.results.map((r) => r.name).sort()).toEqual(caseNames('rest-').sort());
  });

  it('matches Strapi 5 on every case but the deliberate differences', () => {
    const unexpected = run.results.filter((r) => !r.passed && !(r.name in deliberateRestDifferences)).map((r) => `${r.name}\n  ${r.diff.join('\n  ')}`);
    expect(unexpected).toEqual([]);
  });
});
