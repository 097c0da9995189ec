/**
 * `npm run bench:poolers -- [--seconds 5] [--shapes all|a,b]`
 *
 * The request shapes of bench/shapes.mjs on the conformance model and seed, on PostgreSQL reached
 * four ways, each by a fresh capi server (autocannon, 10 connections, as bench/run.ts):
 *
 * - direct: named prepared statements (the default);
 * - direct, pgbouncer=true: unnamed statements without a pooler, the cost of the setting alone;
 * - PgBouncer session mode: named statements (`ignore_startup_parameters = options`);
 * - PgBouncer transaction mode, pgbouncer=true (stock pgbouncer.ini).
 *
 * PgBouncer is started here (test/support/pgbouncer.ts) with 10 server connections. Prints a
 * Markdown table of requests/s and of non-2xx answers for docs/deployment.md.
 */
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

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '5' }, shapes: { type: 'string', default: 'all' } } });
const seconds = Number(values.seconds);
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

  const table: Record<string, Record<string, string>> = {};
  for (const [route, url] of routes) {
    const server = await startReferenceServer(project, options(url));
    try {
      for (const [name, shape] of shapes) {
        // A short warm-up: plans, JIT of the server's own code, PgBouncer's server connections.
        await autocannon({ url: server.url, connections: 10, duration: 1, requests: [shape as LoadRequest] });
        const result = await autocannon({ url: server.url, connections: 10, duration: seconds, requests: [shape as LoadRequest] });
        const failed = result.non2xx + result.errors;
        (table[name] ??= {})[route] = `${Math.round(result.requests.average)}${failed === 0 ? '' : ` (${failed} failed)`}`;
        process.stderr.write(`${route} ${name}: ${table[name][route]} req/s\n`);
      }
    } finally {
      await server.stop();
    }
  }

  console.log(`| shape | ${routes.map(([route]) => route).join(' | ')} |`);
  console.log(`| --- | ${routes.map(() => '---:').join(' | ')} |`);
  for (const [name] of shapes) console.log(`| ${name} | ${routes.map(([route]) => table[name]?.[route] ?? '').join(' | ')} |`);
} finally {
  for (const bouncer of bouncers) await bouncer.stop();
  await database.drop();
}
