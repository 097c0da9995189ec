/**
 * `npm run bench -- [--database sqlite|postgres] [--seconds 10]`: the five request shapes of
 * bench/shapes.mjs (copied from the shared folder by `npm run fixtures:refresh`) against a generated capi server on the conformance model and seed, with the
 * same load generator settings as the Strapi reference (autocannon, 10 connections), plus the
 * SQL statements each shape costs. Prints a Markdown table for docs/benchmarks.md.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon, { type Request as LoadRequest } from 'autocannon';
import { prepareProject, seed, startReferenceServer, type HarnessOptions } from '../test/conformance/harness.ts';
import { repoRoot } from '../test/support/model.ts';
import { createTestDatabase } from '../test/support/postgres.ts';

interface Shape {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

/** Strapi 5.54 on this machine's kind, from bench/strapi-reference.md (req/s). */
const strapi: Record<string, number> = { 'rest-list': 342, 'rest-populate-star': 189, 'rest-populate-deep': 115, 'gql-nested': 82, 'gql-connection': 117 };

const { values } = parseArgs({ options: { database: { type: 'string', default: 'sqlite' }, seconds: { type: 'string', default: '10' } } });
const database = values.database === 'postgres' ? 'postgres' : 'sqlite';
const seconds = Number(values.seconds);
const { shapes } = (await import(join(import.meta.dirname, 'shapes.mjs'))) as { shapes: Record<string, Shape> };

const pg = database === 'postgres' ? await createTestDatabase('capi_bench') : undefined;
const options: HarnessOptions = { database, workDir: join(repoRoot, 'tmp', `bench-${database}`), ...(pg ? { databaseUrl: pg.url } : {}) };
const project = await prepareProject(options);
// Counting statements per request keeps an async context per request, which costs throughput:
// count with one server, then load another one that does not count.
const request = (base: string, shape: Shape) => fetch(`${base}${shape.path}`, { method: shape.method ?? 'GET', headers: shape.headers ?? {}, ...(shape.body ? { body: shape.body } : {}) });
const counting = await startReferenceServer(project, options, { CAPI_QUERY_COUNT: '1', LOG_LEVEL: 'error' });
const queries: Record<string, string> = {};
try {
  await seed(counting, options.workDir);
  for (const [name, shape] of Object.entries(shapes)) {
    const probe = await request(counting.url, shape);
    queries[name] = probe.headers.get('x-query-count') ?? '?';
    await probe.arrayBuffer();
  }
} finally {
  await counting.stop();
}
const server = await startReferenceServer(project, options, { LOG_LEVEL: 'error' });
try {
  const rows: string[] = [];
  for (const [name, shape] of Object.entries(shapes)) {
    await (await request(server.url, shape)).arrayBuffer();
    const result = await autocannon({ url: server.url, connections: 10, duration: seconds, requests: [shape as LoadRequest] });
    const rps = Math.round(result.requests.average);
    const ratio = result.non2xx === 0 && strapi[name] ? `${(rps / (strapi[name] ?? 1)).toFixed(1)}x` : 'n/a';
    rows.push(`| ${name} | ${rps} | ${result.latency.p50} | ${result.latency.p99} | ${queries[name]} | ${result.non2xx} | ${strapi[name] ?? ''} | ${ratio} |`);
    process.stderr.write(`${rows.at(-1)}\n`);
  }
  process.stdout.write(
    [
      `capi on ${database}, ${seconds} s per shape, autocannon 10 connections, one server process:`,
      '',
      '| shape | req/s | p50 ms | p99 ms | SQL statements | non-2xx | Strapi req/s | capi/Strapi |',
      '| --- | --- | --- | --- | --- | --- | --- | --- |',
      ...rows,
      '',
    ].join('\n'),
  );
} finally {
  await server.stop();
  await pg?.drop();
}
