/**
 * `npm run bench:poolers -- [--seconds 5] [--rounds 2] [--shapes all|a,b]`
 *
 * The request shapes of bench/shapes.mjs on the conformance model and seed, on PostgreSQL reached
 * four ways, each by a fresh capi server (autocannon, 10 connections, as bench/run.ts):
 *
 * - direct: named prepared statements (the default);
 * - direct, pgbouncer=true: unnamed statements without a pooler, the cost of the setting alone;
 * - PgBouncer session mode: named statements (`ignore_startup_parameters = options`);
 * - PgBouncer transaction mode, pgbouncer=true (stock pgbouncer.ini).
 *
 * PgBouncer is started here (test/support/pgbouncer.ts) with 10 server connections. The four
 * servers run side by side and are measured in turn, shape by shape, for `rounds` rounds, so that
 * a change in the machine's load spreads over all four. Prints a Markdown table of the mean
 * requests/s (and of failed answers, if any) for docs/deployment.md.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon, { type Request as LoadRequest } from 'autocannon';
import { prepareProject, seed, startReferenceServer, type HarnessOptions } from '../test/conformance/harness.ts';
import { repoRoot } from '../test/support/model.ts';
import { createTestDatabase } from '../test/support/postgres.ts';
import { startPgBouncer, type PgBouncer } from '../test/support/pgbouncer.ts';

interface Shape {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '5' }, rounds: { type: 'string', default: '2' }, shapes: { type: 'string', default: 'all' } } });
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const { shapes: allShapes } = (await import(join(import.meta.dirname, 'shapes.mjs'))) as { shapes: Record<string, Shape> };
const shapes = Object.entries(allShapes).filter(([name]) => values.shapes === 'all' || values.shapes.split(',').includes(name));

const database = await createTestDatabase('capi_bench_pool');
const workDir = join(repoRoot, 'tmp', `bench-poolers-${process.pid}`);
const options = (databaseUrl: string): HarnessOptions => ({ database: 'postgres', databaseUrl, workDir });
const bouncers: PgBouncer[] = [];
try {
  const project = await prepareProject(options(database.url));
  const seeding = await startReferenceServer(project, options(database.url));
  await seed(seeding, workDir).finally(() => seeding.stop());

  const session = await startPgBouncer({ mode: 'session', poolSize: 10, ignoreStartupParameters: ['options'] });
  const transaction = await startPgBouncer({ mode: 'transaction', poolSize: 10 });
  bouncers.push(session, transaction);
  const routes: readonly (readonly [string, string])[] = [
    ['direct', database.url],
    ['direct, pgbouncer=true', `${database.url}?pgbouncer=true`],
    ['PgBouncer session', session.url(database.name)],
    ['PgBouncer transaction, pgbouncer=true', `${transaction.url(database.name)}?pgbouncer=true`],
  ];

  // One after another: four starting at once on a busy machine miss the start-up timeout.
  const servers: Awaited<ReturnType<typeof startReferenceServer>>[] = [];
  for (const [, url] of routes) servers.push(await startReferenceServer(project, options(url)));
  const rps: Record<string, Record<string, number[]>> = {};
  const failed: Record<string, Record<string, number>> = {};
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const [name, shape] of shapes) {
        for (const [index, [route]] of routes.entries()) {
          const url = servers[index]!.url;
          // A short warm-up: plans, the server's own code, PgBouncer's server connections.
          await autocannon({ url, connections: 10, duration: 1, requests: [shape as LoadRequest] });
          const result = await autocannon({ url, connections: 10, duration: seconds, requests: [shape as LoadRequest] });
          ((rps[name] ??= {})[route] ??= []).push(result.requests.average);
          (failed[name] ??= {})[route] = (failed[name][route] ?? 0) + result.non2xx + result.errors;
          process.stderr.write(`round ${round} ${route} ${name}: ${Math.round(result.requests.average)} req/s\n`);
        }
      }
    }
  } finally {
    for (const server of servers) await server.stop();
  }
  const cell = (name: string, route: string): string => {
    const runs = rps[name]?.[route] ?? [];
    const mean = Math.round(runs.reduce((sum, value) => sum + value, 0) / Math.max(runs.length, 1));
    const failures = failed[name]?.[route] ?? 0;
    return `${mean}${failures === 0 ? '' : ` (${failures} failed)`}`;
  };

  console.log(`| shape | ${routes.map(([route]) => route).join(' | ')} |`);
  console.log(`| --- | ${routes.map(() => '---:').join(' | ')} |`);
  for (const [name] of shapes) console.log(`| ${name} | ${routes.map(([route]) => cell(name, route)).join(' | ')} |`);
} finally {
  for (const bouncer of bouncers) await bouncer.stop();
  await database.drop();
  rmSync(workDir, { recursive: true, force: true });
}
