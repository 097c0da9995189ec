/**
 * `npm run bench -- [--database sqlite|postgres|mysql|both|all] [--seconds 10] [--shapes all|none|a,b] [--growth 1000,10000,100000|none] [--growth-seconds 3] [--growth-shapes all|a,b]`
 *
 * In one run, per database: the five request shapes of bench/shapes.mjs against a generated capi
 * server on the conformance model and seed, and back to back against the floor (bench/floor: a
 * bare node:http server answering the same shapes with ONE SQL statement each, its JSON checked
 * byte-equal to capi's first); then the growth table (bench/growth.ts) on the capi server.
 * autocannon with 10 connections, as the Strapi reference was measured; CPU time and peak RSS
 * read from /proc for each server process; SQL statements per request from a second capi server
 * run with `CAPI_QUERY_COUNT=1` (counting keeps an async context per request, which would cost
 * throughput). Prints Markdown tables for docs/benchmarks.md. `both` is SQLite and PostgreSQL,
 * `all` adds MySQL/MariaDB, which has no floor server (its capi figures are reported against
 * Strapi's alone) but has the growth table.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon, { type Request as LoadRequest } from 'autocannon';
import { prepareProject, seed, startReferenceServer, type HarnessOptions } from '../test/conformance/harness.ts';
import { repoRoot } from '../test/support/model.ts';
import { createServerDatabase, type Client } from '../test/support/databases.ts';
import { growth, growthMarkdown } from './growth.ts';

interface Shape {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

/** Strapi 5.54 on this machine's kind, from bench/strapi-reference.md (req/s). */
const strapi: Record<string, number> = { 'rest-list': 342, 'rest-populate-star': 189, 'rest-populate-deep': 115, 'gql-nested': 82, 'gql-connection': 117 };

const { values } = parseArgs({
  options: {
    database: { type: 'string', default: 'both' },
    seconds: { type: 'string', default: '10' },
    growth: { type: 'string', default: '1000,10000,100000' },
    'growth-seconds': { type: 'string', default: '3' },
    // Growth shapes by name (bench/growth.ts), comma-separated: `populate=* first page,populate=* last page`.
    'growth-shapes': { type: 'string', default: 'all' },
    shapes: { type: 'string', default: 'all' },
  },
});
const selections: Readonly<Record<string, readonly Client[]>> = { sqlite: ['sqlite'], postgres: ['postgres'], mysql: ['mysql'], both: ['sqlite', 'postgres'], all: ['sqlite', 'postgres', 'mysql'] };
const databases = selections[values.database];
if (databases === undefined) throw new Error(`--database must be one of ${Object.keys(selections).join(', ')}`);
/** The databases bench/floor has statements for (MySQL's JSON functions print spaces, so its floor would need its own text).  */
const withFloor: ReadonlySet<Client> = new Set(['sqlite', 'postgres']);
const seconds = Number(values.seconds);
const growthSizes = values.growth === 'none' ? [] : values.growth.split(',').map(Number);
const growthShapes = values['growth-shapes'] === 'all' ? undefined : values['growth-shapes'].split(',').map((name) => name.trim());
const { shapes: allShapes } = (await import(join(import.meta.dirname, 'shapes.mjs'))) as { shapes: Record<string, Shape> };
/** `--shapes rest-list,gql-nested` loads only those; `none` only the growth table. */
const shapes = Object.fromEntries(Object.entries(allShapes).filter(([name]) => values.shapes === 'all' || values.shapes.split(',').includes(name)));

/** CPU time (ms) and peak resident memory (MB) of a process so far, from /proc. */
function usage(pid: number): { cpuMs: number; peakMb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the line (11 and 12 after the command), in clock ticks (100 per second).
  const cpuMs = (Number(fields[11]) + Number(fields[12])) * 10;
  const peak = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return { cpuMs, peakMb: Math.round(Number(peak?.[1] ?? 0) / 1024) };
}

interface Load {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly cpuPerRequest: number;
  readonly peakMb: number;
  readonly non2xx: number;
}

async function load(url: string, pid: number, shape: Shape): Promise<Load> {
  const before = usage(pid);
  const result = await autocannon({ url, connections: 10, duration: seconds, requests: [shape as LoadRequest] });
  const after = usage(pid);
  const total = result.requests.total || 1;
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuPerRequest: (after.cpuMs - before.cpuMs) / total,
    peakMb: after.peakMb,
    non2xx: result.non2xx,
  };
}

const request = (base: string, shape: Shape): Promise<Response> =>
  fetch(`${base}${shape.path}`, { method: shape.method ?? 'GET', headers: shape.headers ?? {}, ...(shape.body ? { body: shape.body } : {}) });

async function startFloor(client: Client, database: string): Promise<{ url: string; pid: number; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'floor', 'server.mjs'), '--client', client, '--database', database], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`floor server exited with ${code}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match?.[1] !== undefined) resolve(match[1]);
    });
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid ?? 0, child };
}

async function bench(client: Client): Promise<string> {
  const pg = client === 'sqlite' ? undefined : await createServerDatabase(client, 'capi_bench');
  const options: HarnessOptions = { database: client, workDir: join(repoRoot, 'tmp', `bench-${client}`), ...(pg ? { databaseUrl: pg.url } : {}) };
  const location = pg?.url ?? join(options.workDir, 'conformance.db');
  const out: string[] = [];
  try {
    const project = await prepareProject(options);
    const counting = await startReferenceServer(project, options, { CAPI_QUERY_COUNT: '1', LOG_LEVEL: 'error' });
    const queries: Record<string, string> = {};
    try {
      await seed(counting, options.workDir);
      for (const [name, shape] of Object.entries(shapes)) {
        // The second answer is the steady state's: a GraphQL document's first answer is Apollo's
        // (graphql/lean.ts), later ones the rendered path's.
        await (await request(counting.url, shape)).arrayBuffer();
        const probe = await request(counting.url, shape);
        queries[name] = probe.headers.get('x-query-count') ?? '?';
        await probe.arrayBuffer();
      }
    } finally {
      await counting.stop();
    }
    const server = await startReferenceServer(project, options, { LOG_LEVEL: 'error' });
    const floor = withFloor.has(client) ? await startFloor(client, location) : undefined;
    try {
      const rows: string[] = [];
      for (const [name, shape] of Object.entries(shapes)) {
        const capiBody = await (await request(server.url, shape)).text();
        const floorAnswer = floor === undefined ? undefined : await request(floor.url, shape);
        const floorBody = (await floorAnswer?.text()) ?? '';
        const hasFloor = floorAnswer !== undefined && floorAnswer.status !== 404;
        if (floor !== undefined && hasFloor && floorBody !== capiBody)
          throw new Error(`${client} ${name}: the floor's JSON differs from capi's\nfloor: ${floorBody.slice(0, 400)}\ncapi:  ${capiBody.slice(0, 400)}`);
        const capi = await load(server.url, server.pid, shape);
        const bare = floor !== undefined && hasFloor ? await load(floor.url, floor.pid, shape) : undefined;
        const ratio = bare === undefined ? 'no floor' : (capi.rps / bare.rps).toFixed(2);
        const cpu = (l: Load): string => l.cpuPerRequest.toFixed(2);
        const versus = strapi[name] !== undefined && capi.non2xx === 0 ? `${(capi.rps / strapi[name]).toFixed(1)}x` : 'n/a';
        rows.push(
          `| ${name} | ${capi.rps} | ${bare?.rps ?? ''} | **${ratio}** | ${capi.p50} / ${capi.p99} | ${bare === undefined ? '' : `${bare.p50} / ${bare.p99}`} | ${cpu(capi)} | ${bare === undefined ? '' : cpu(bare)} | ${queries[name]} | ${bare === undefined ? '' : 1} | ${capi.peakMb} | ${bare?.peakMb ?? ''} | ${capi.non2xx + (bare?.non2xx ?? 0)} | ${versus} |`,
        );
        process.stderr.write(`${client} ${rows.at(-1)}\n`);
      }
      if (rows.length > 0) {
        out.push(
          `capi and the floor on ${client}, ${seconds} s per shape each, back to back, autocannon 10 connections, one server process each:`,
          '',
          '| shape | capi req/s | floor req/s | capi/floor | capi p50/p99 ms | floor p50/p99 ms | capi CPU ms/req | floor CPU ms/req | capi statements | floor statements | capi peak RSS MB | floor peak RSS MB | non-2xx | capi/Strapi |',
          '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
          ...rows,
          '',
        );
      }
      if (growthSizes.length > 0) {
        const grown = await growth(server.url, { client, location }, growthSizes, Number(values['growth-seconds']), (line) => process.stderr.write(`${client} growth ${line}\n`), growthShapes);
        out.push(`Growth on ${client} (capi, ${values['growth-seconds']} s per cell, 10 connections; each article a draft and a published row):`, '', growthMarkdown(grown), '');
      }
    } finally {
      floor?.child.kill('SIGTERM');
      await server.stop();
    }
  } finally {
    await pg?.drop();
  }
  return out.join('\n');
}

const reports: string[] = [];
for (const client of databases) reports.push(await bench(client));
process.stdout.write(`${reports.join('\n')}\n`);
