/**
 * A/B runs of the five shapes of bench/shapes.mjs against two servers of one generated project on
 * one database, differing only in their environment (bench:read-paths, bench:http-paths). Per
 * shape the two are loaded back to back, `--rounds` times alternating, so the machine's noise hits
 * both alike; reported are req/s, the ratio, the server's CPU milliseconds per request (from
 * /proc, user + system) and the statements per request, as a Markdown table on stdout. Both
 * servers must answer every shape with the same body, or the run stops.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon, { type Request as LoadRequest } from 'autocannon';
import { prepareProject, seed, startReferenceServer, type HarnessOptions } from '../test/conformance/harness.ts';
import type { RunningServer } from '../test/support/cli.ts';
import { repoRoot } from '../test/support/model.ts';
import { createTestDatabase } from '../test/support/postgres.ts';

/** One side of the comparison: its column label and the environment its server runs with. */
export interface Variant {
  readonly label: string;
  readonly env: NodeJS.ProcessEnv;
  /**
   * Runs this side from another project folder, given the one prepared from this checkout (same
   * model and config): bench/against.ts generates it with another commit's generator and runtime.
   */
  readonly project?: (prepared: string, database: 'sqlite' | 'postgres') => Promise<string>;
}

export interface PairedBench {
  /** Names the scratch database and work folder (`capi_bench_<name>`, tmp/bench-<name>-<db>). */
  readonly name: string;
  /** What differs, for the table's heading ("path", "HTTP path"). */
  readonly subject: string;
  readonly a: Variant;
  readonly b: Variant;
  /** The script's own command-line options (read by it), so that parsing them here does not fail. */
  readonly options?: Record<string, { readonly type: 'string'; readonly multiple?: boolean }>;
}

interface Shape {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

interface Load {
  readonly rps: number;
  readonly cpuMsPerRequest: number;
  readonly non2xx: number;
}

type Probe = Record<string, { statements: string; body: string }>;

const request = (base: string, shape: Shape) => fetch(`${base}${shape.path}`, { method: shape.method ?? 'GET', headers: shape.headers ?? {}, ...(shape.body ? { body: shape.body } : {}) });

/** user + system CPU time of a process in ms (/proc/<pid>/stat, in clock ticks of 10 ms). */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function load(server: RunningServer, shape: Shape, seconds: number): Promise<Load> {
  await (await request(server.url, shape)).arrayBuffer();
  const before = cpuMs(server.pid);
  const result = await autocannon({ url: server.url, connections: 10, duration: seconds, requests: [shape as LoadRequest] });
  const requests = result.requests.total;
  return { rps: result.requests.average, cpuMsPerRequest: (cpuMs(server.pid) - before) / Math.max(1, requests), non2xx: result.non2xx };
}

const mean = (loads: readonly Load[], key: 'rps' | 'cpuMsPerRequest'): number => loads.reduce((sum, l) => sum + l[key], 0) / loads.length;

/** Parses `--database`, `--seconds` and `--rounds`, runs both variants and prints the table. */
export async function runPairedBench(bench: PairedBench): Promise<void> {
  const { values } = parseArgs({
    options: { database: { type: 'string', default: 'sqlite' }, seconds: { type: 'string', default: '10' }, rounds: { type: 'string', default: '2' }, ...bench.options },
  });
  const database = values.database === 'postgres' ? 'postgres' : 'sqlite';
  const seconds = Number(values.seconds);
  const rounds = Number(values.rounds);
  const { shapes } = (await import(join(import.meta.dirname, 'shapes.mjs'))) as { shapes: Record<string, Shape> };

  const pg = database === 'postgres' ? await createTestDatabase(`capi_bench_${bench.name}`) : undefined;
  const options: HarnessOptions = { database, workDir: join(repoRoot, 'tmp', `bench-${bench.name}-${database}`), ...(pg ? { databaseUrl: pg.url } : {}) };
  const project = await prepareProject(options);

  /** Statements per request and the body of each shape, from a server that counts. */
  const projectA = (await bench.a.project?.(project, database)) ?? project;
  const projectB = (await bench.b.project?.(project, database)) ?? project;
  const probe = async (at: string, env: NodeJS.ProcessEnv): Promise<Probe> => {
    const server = await startReferenceServer(at, options, { ...env, CAPI_QUERY_COUNT: '1', LOG_LEVEL: 'error' });
    try {
      const out: Probe = {};
      for (const [name, shape] of Object.entries(shapes)) {
        const res = await request(server.url, shape);
        out[name] = { statements: res.headers.get('x-query-count') ?? '?', body: await res.text() };
      }
      return out;
    } finally {
      await server.stop();
    }
  };

  const seeding = await startReferenceServer(project, options, { LOG_LEVEL: 'error' });
  try {
    await seed(seeding, options.workDir);
  } finally {
    await seeding.stop();
  }
  const probeA = await probe(projectA, bench.a.env);
  const probeB = await probe(projectB, bench.b.env);
  for (const name of Object.keys(shapes)) {
    if (probeA[name]!.body !== probeB[name]!.body) throw new Error(`${name}: ${bench.a.label} and ${bench.b.label} answer differently`);
  }

  const serverA = await startReferenceServer(projectA, options, { ...bench.a.env, LOG_LEVEL: 'error' });
  const serverB = await startReferenceServer(projectB, options, { ...bench.b.env, LOG_LEVEL: 'error' });
  try {
    const rows: string[] = [];
    for (const [name, shape] of Object.entries(shapes)) {
      const a: Load[] = [];
      const b: Load[] = [];
      for (let round = 0; round < rounds; round += 1) {
        a.push(await load(serverA, shape, seconds));
        b.push(await load(serverB, shape, seconds));
      }
      const failed = [...a, ...b].reduce((sum, l) => sum + l.non2xx, 0);
      rows.push(
        `| ${name} | ${Math.round(mean(a, 'rps'))} | ${Math.round(mean(b, 'rps'))} | ${(mean(b, 'rps') / mean(a, 'rps')).toFixed(2)} | ` +
          `${mean(a, 'cpuMsPerRequest').toFixed(2)} | ${mean(b, 'cpuMsPerRequest').toFixed(2)} | ${probeA[name]!.statements} | ${probeB[name]!.statements} | ${failed} |`,
      );
      process.stderr.write(`${rows.at(-1)}\n`);
    }
    const [la, lb] = [bench.a.label, bench.b.label];
    process.stdout.write(
      [
        `capi on ${database}, ${seconds} s x ${rounds} rounds per shape and ${bench.subject}, autocannon 10 connections, one server process each:`,
        '',
        `| shape | ${la} req/s | ${lb} req/s | ratio | ${la} CPU ms/req | ${lb} CPU ms/req | ${la} statements | ${lb} statements | non-2xx |`,
        '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
        ...rows,
        '',
      ].join('\n'),
    );
  } finally {
    await serverA.stop();
    await serverB.stop();
    await pg?.drop();
  }
}
