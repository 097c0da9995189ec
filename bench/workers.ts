/**
 * `npm run bench:workers -- [--database sqlite|postgres] [--seconds 5] [--workers 1,2]`: the same
 * capi project served by 1, then 2 (...) processes (config/server.json `workers`), back to back,
 * on the five request shapes. On a machine with as many free cores as workers plus the load
 * generator, throughput grows close to linearly with the worker count; where the load generator
 * and the workers share fewer cores (this project's 2-core machine), the curve flattens at the
 * core count. Prints a Markdown table for docs/benchmarks.md.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon, { type Request as LoadRequest } from 'autocannon';
import { prepareProject, seed, startReferenceServer, type HarnessOptions } from '../test/conformance/harness.ts';
import { repoRoot } from '../test/support/model.ts';
import { createTestDatabase } from '../test/support/postgres.ts';

const { values } = parseArgs({ options: { database: { type: 'string', default: 'sqlite' }, seconds: { type: 'string', default: '5' }, workers: { type: 'string', default: '1,2' } } });
const database = values.database === 'postgres' ? 'postgres' : 'sqlite';
const seconds = Number(values.seconds);
const counts = values.workers.split(',').map(Number);
const { shapes } = (await import(join(import.meta.dirname, 'shapes.mjs'))) as { shapes: Record<string, LoadRequest> };

const pg = database === 'postgres' ? await createTestDatabase('capi_bench_workers') : undefined;
const options: HarnessOptions = { database, workDir: join(repoRoot, 'tmp', `bench-workers-${database}`), ...(pg ? { databaseUrl: pg.url } : {}) };
try {
  const project = await prepareProject(options);
  const serverJson = join(project, 'config', 'server.json');
  const base = JSON.parse(readFileSync(serverJson, 'utf8')) as Record<string, unknown>;
  const rps: Record<string, number[]> = {};
  for (const [index, workers] of counts.entries()) {
    writeFileSync(serverJson, `${JSON.stringify({ ...base, workers }, null, 2)}\n`);
    const server = await startReferenceServer(project, options, { LOG_LEVEL: 'error' });
    try {
      if (index === 0) await seed(server, options.workDir);
      for (const [name, shape] of Object.entries(shapes)) {
        await autocannon({ url: server.url, connections: 10, duration: 1, requests: [shape] }); // warm every worker
        const result = await autocannon({ url: server.url, connections: 10, duration: seconds, requests: [shape] });
        (rps[name] ??= []).push(Math.round(result.requests.average));
        process.stderr.write(`${workers} worker(s) ${name}: ${Math.round(result.requests.average)} req/s, ${result.non2xx} non-2xx\n`);
      }
    } finally {
      await server.stop();
    }
  }
  const header = counts.map((n) => `${n} worker${n === 1 ? '' : 's'} req/s`);
  process.stdout.write(
    [
      `capi on ${database}, ${seconds} s per shape, autocannon 10 connections on the same machine (${availableParallelism()} cores):`,
      '',
      `| shape | ${header.join(' | ')} | ${counts
        .slice(1)
        .map((n) => `${n}/${counts[0]}`)
        .join(' | ')} |`,
      `| --- | ${counts.map(() => '---').join(' | ')} | ${counts
        .slice(1)
        .map(() => '---')
        .join(' | ')} |`,
      ...Object.entries(rps).map(
        ([name, row]) =>
          `| ${name} | ${row.join(' | ')} | ${row
            .slice(1)
            .map((v) => (v / (row[0] ?? 1)).toFixed(2))
            .join(' | ')} |`,
      ),
      '',
    ].join('\n'),
  );
} finally {
  await pg?.drop();
}
