/**
 * `npm run bench:profile -- [--database sqlite|postgres] [--shape rest-list] [--seconds 5] [--express] [--floor] [--top 25]`: where
 * a generated server spends its CPU under load. Starts the conformance project with
 * `node --cpu-prof`, seeds it, loads one shape of bench/shapes.mjs with autocannon (10
 * connections), stops the server and prints the self time of the profile grouped by package (or
 * runtime file) over the load's window, the heaviest first: how much goes to Express, qs, Apollo, graphql-js, the
 * database driver, the engine, JSON, the HTTP machinery of Node itself. `--express` profiles the
 * server with the direct path off (`CAPI_DIRECT_PATH=0`), every request through Express; `--floor`
 * profiles the floor (bench/floor) on the same database instead, for comparison. A second
 * table lists the heaviest functions (name and package): what to look at inside a package.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon, { type Request as LoadRequest } from 'autocannon';
import { prepareProject, seed, startReferenceServer, type HarnessOptions } from '../test/conformance/harness.ts';
import { freePort, testJwtSecret } from '../test/support/cli.ts';
import { repoRoot } from '../test/support/model.ts';
import { createTestDatabase } from '../test/support/postgres.ts';

interface Shape {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string };
}
interface Profile {
  readonly endTime: number;
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const { values } = parseArgs({
  options: {
    database: { type: 'string', default: 'sqlite' },
    shape: { type: 'string', default: 'rest-list' },
    seconds: { type: 'string', default: '5' },
    top: { type: 'string', default: '25' },
    express: { type: 'boolean', default: false },
    floor: { type: 'boolean', default: false },
  },
});
const database = values.database === 'postgres' ? 'postgres' : 'sqlite';
const { shapes } = (await import(join(import.meta.dirname, 'shapes.mjs'))) as { shapes: Record<string, Shape> };
const shape = shapes[values.shape];
if (shape === undefined) throw new Error(`unknown shape ${values.shape}; one of ${Object.keys(shapes).join(', ')}`);

/** A frame's group: the npm package it belongs to, the runtime module, or Node's own. */
function groupOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (url === '') return functionName === '' ? '(native)' : `(${functionName})`;
  const modules = url.lastIndexOf('node_modules/');
  if (modules !== -1) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:')) return url;
  const runtime = url.indexOf('/runtime/');
  return runtime === -1 ? url : url.slice(runtime + 1);
}

/** A frame's function and where it is defined. */
function functionOf(frame: ProfileNode['callFrame']): string {
  return `${frame.functionName === '' ? '(anonymous)' : frame.functionName} ${groupOf(frame)}`;
}

const pg = database === 'postgres' ? await createTestDatabase('capi_bench_profile') : undefined;
const options: HarnessOptions = { database, workDir: join(repoRoot, 'tmp', `bench-profile-${database}`), ...(pg ? { databaseUrl: pg.url } : {}) };
const profiles = join(options.workDir, 'profiles');
try {
  const project = await prepareProject(options);
  const seeding = await startReferenceServer(project, options, { LOG_LEVEL: 'error' });
  try {
    await seed(seeding, options.workDir);
  } finally {
    await seeding.stop();
  }
  mkdirSync(profiles, { recursive: true });
  // --cpu-prof is refused in NODE_OPTIONS: the server is started with it on its command line.
  const port = await freePort();
  const databaseUrl = pg?.url ?? `file:${join(options.workDir, 'conformance.db')}`;
  const child = values.floor
    ? spawn(
        process.execPath,
        [
          '--cpu-prof',
          `--cpu-prof-dir=${profiles}`,
          join(import.meta.dirname, 'floor', 'server.mjs'),
          '--client',
          database,
          '--database',
          pg?.url ?? join(options.workDir, 'conformance.db'),
          '--port',
          String(port),
        ],
        {
          stdio: 'inherit',
        },
      )
    : spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${profiles}`, 'dist/main.js'], {
        cwd: project,
        stdio: 'inherit',
        env: {
          ...process.env,
          HOST: '127.0.0.1',
          PORT: String(port),
          JWT_SECRET: testJwtSecret,
          DATABASE_URL: databaseUrl,
          NODE_ENV: 'production',
          LOG_LEVEL: 'error',
          ...(values.express ? { CAPI_DIRECT_PATH: '0' } : {}),
        },
      });
  const url = `http://127.0.0.1:${port}`;
  let requests = 0;
  try {
    // Ready when it answers at all (the floor has no /_health; its 404 is an answer).
    while (
      !(await fetch(`${url}/_health`).then(
        () => true,
        () => false,
      ))
    )
      await new Promise((resolve) => setTimeout(resolve, 100));
    // A second of load first, outside the window read below: lazily loaded modules and the JIT's
    // first compilations are start-up, not the cost of a request.
    await autocannon({ url, connections: 10, duration: 1, requests: [shape as LoadRequest] });
    const result = await autocannon({ url, connections: 10, duration: Number(values.seconds), requests: [shape as LoadRequest] });
    requests = result.requests.total;
  } finally {
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
  }
  const file = readdirSync(profiles).find((name) => name.endsWith('.cpuprofile'));
  if (file === undefined) throw new Error('the server wrote no profile');
  const profile = JSON.parse(readFileSync(join(profiles, file), 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  // Only the load's window (the server stops right after it): start-up (module loading, the
  // GraphQL schema) would otherwise weigh on a short or slow run.
  const windowStart = profile.endTime - (Number(values.seconds) + 0.2) * 1e6;
  let at = profile.endTime - profile.timeDeltas.reduce((sum, delta) => sum + delta, 0);
  profile.samples.forEach((id, index) => {
    const node = byId.get(id);
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    if (at < windowStart || node === undefined || node.callFrame.functionName === '(idle)') return;
    const group = groupOf(node.callFrame);
    self.set(group, (self.get(group) ?? 0) + delta);
    const fn = functionOf(node.callFrame);
    functions.set(fn, (functions.get(fn) ?? 0) + delta);
    total += delta;
  });
  const table = (heading: string, times: Map<string, number>): string =>
    [`| ${heading} | share | ms/request |`, '| --- | --- | --- |']
      .concat(
        [...times.entries()]
          .sort((a, b) => b[1] - a[1])
          .slice(0, Number(values.top))
          .map(([where, micros]) => `| ${where} | ${((100 * micros) / total).toFixed(1)}% | ${(micros / 1000 / Math.max(1, requests)).toFixed(3)} |`),
      )
      .join('\n');
  process.stdout.write(
    `${values.shape} on ${database}${values.floor ? ', the floor' : values.express ? ' through Express' : ''}: ${requests} requests, ${(total / 1000 / Math.max(1, requests)).toFixed(3)} ms of busy CPU per request\n\n${table('where', self)}\n\n${table('function', functions)}\n`,
  );
} finally {
  rmSync(profiles, { recursive: true, force: true });
  await pg?.drop();
}
