/**
 * Replays the conformance fixtures (test/fixtures/conformance, Strapi 5's recorded answers) against a capi server: generate the conformance model, configure
 * it as the reference Strapi was configured, start it on an empty database, seed it through the
 * public API, run the recorded cases and compare with Strapi's answers.
 */
import type { Client } from '../support/databases.ts';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { capi, node, startServer, type RunningServer } from '../support/cli.ts';
import { conformanceDir } from '../support/fixtures.ts';

export { conformanceDir };

export interface CaseResult {
  readonly name: string;
  readonly passed: boolean;
  /** compare.mjs' diff lines for a failed case. */
  readonly diff: readonly string[];
}

export interface ConformanceRun {
  readonly results: readonly CaseResult[];
  readonly passed: number;
  readonly failed: number;
}

export interface HarnessOptions {
  readonly database: Client;
  /** URL of an empty PostgreSQL or MySQL database (sqlite uses a file in the project). */
  readonly databaseUrl?: string;
  /** Regular expression selecting cases, e.g. `^rest-`. */
  readonly only?: string;
  /** Where the project and the outputs go (created; previous content removed). */
  readonly workDir: string;
}

/** Configuration of the reference server (conformance README, "How the reference server was configured"). */
function referenceConfig(model: { contentTypes: Record<string, { uid: string; kind: string }> }): Record<string, unknown> {
  const actions: string[] = [];
  for (const type of Object.values(model.contentTypes)) {
    // users-permissions' types have the plugin's own actions, not granted to the reference roles.
    if (!type.uid.startsWith('api::')) continue;
    const verbs = type.kind === 'singleType' ? ['find', 'update', 'delete'] : ['find', 'findOne', 'create', 'update', 'delete'];
    for (const verb of verbs) if (`${type.uid}.${verb}` !== 'api::internal-note.internal-note.find') actions.push(`${type.uid}.${verb}`);
  }
  actions.push(...['find', 'findOne', 'upload', 'destroy'].map((a) => `plugin::upload.content-api.${a}`), 'plugin::i18n.locales.listLocales');
  return {
    'api.json': { rest: { defaultLimit: 25, maxLimit: 100, withCount: true } },
    'plugins.json': {
      // The reference Strapi answered introspection (the recorded full-schema case); production turns it off by default.
      graphql: { config: { defaultLimit: 10, maxLimit: 20, depthLimit: 20, apolloServer: { introspection: true } } },
      i18n: {
        defaultLocale: 'en',
        locales: [
          { code: 'en', name: 'English (en)' },
          { code: 'fr', name: 'French (fr)' },
        ],
      },
    },
    'permissions.json': { public: actions, authenticated: actions },
  };
}

export async function prepareProject(options: HarnessOptions): Promise<string> {
  rmSync(options.workDir, { recursive: true, force: true });
  mkdirSync(options.workDir, { recursive: true });
  const project = join(options.workDir, 'project');
  const generated = await capi(['generate', '--content-types', join(conformanceDir, 'content-types'), '--out', project, '--database', options.database, '--quiet']);
  if (generated.code !== 0) throw new Error(`capi generate failed:\n${generated.stderr}`);
  const { model } = (await import(join(project, 'src', 'model.ts'))) as { model: { contentTypes: Record<string, { uid: string; kind: string }> } };
  for (const [file, json] of Object.entries(referenceConfig(model))) {
    writeFileSync(join(project, 'config', file), `${JSON.stringify(json, null, 2)}\n`);
  }
  return project;
}

/** The database a reference server of `options` runs on: a file in the work folder on SQLite. */
export function referenceDatabaseUrl(options: HarnessOptions): string {
  const databaseUrl = options.database === 'sqlite' ? `file:${join(options.workDir, 'conformance.db')}` : options.databaseUrl;
  if (databaseUrl === undefined) throw new Error(`a ${options.database} run needs databaseUrl`);
  return databaseUrl;
}

export async function startReferenceServer(project: string, options: HarnessOptions, env: NodeJS.ProcessEnv = {}): Promise<RunningServer> {
  return startServer(project, { DATABASE_URL: referenceDatabaseUrl(options), NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env });
}

/** Rewrites the project's permissions.json: the reference grants with `revoke` taken away. */
export function restrictPermissions(project: string, revoke: readonly string[]): void {
  const path = join(project, 'config', 'permissions.json');
  const permissions = JSON.parse(readFileSync(path, 'utf8')) as Record<string, string[]>;
  for (const role of Object.keys(permissions)) permissions[role] = (permissions[role] ?? []).filter((action) => !revoke.includes(action));
  writeFileSync(path, `${JSON.stringify(permissions, null, 2)}\n`);
}

/** Runs the conformance seed through HTTP; returns the path of its seed map. */
export async function seed(server: RunningServer, workDir: string): Promise<string> {
  const map = join(workDir, 'seed-map.json');
  const seeded = await node([join(conformanceDir, 'seed.mjs'), '--base', server.url, '--out', map], { cwd: conformanceDir });
  if (seeded.code !== 0) throw new Error(`seeding failed:\n${seeded.stderr}\n${seeded.stdout}`);
  return map;
}

/** Seeds through HTTP, runs the cases and compares; throws when seeding fails. */
export async function replay(server: RunningServer, options: HarnessOptions): Promise<ConformanceRun> {
  return runCases(server, options, await seed(server, options.workDir));
}

/** Runs the cases against a server whose content is described by the seed map `map`, and compares. */
export async function runCases(server: RunningServer, options: HarnessOptions, map: string): Promise<ConformanceRun> {
  const out = join(options.workDir, 'out');
  const only = options.only === undefined ? [] : ['--only', options.only];
  const ran = await node([join(conformanceDir, 'run-cases.mjs'), '--base', server.url, '--map', map, '--out', out, ...only], { cwd: conformanceDir });
  if (ran.code !== 0) throw new Error(`run-cases failed:\n${ran.stderr}`);
  const compared = await node([join(conformanceDir, 'compare.mjs'), join(conformanceDir, 'golden'), out, '--ignore-keys', 'size,sizeInBytes', ...only, '--max-diffs', '6'], {
    cwd: conformanceDir,
  });
  return parseComparison(compared.stdout);
}

/** Reads compare.mjs' report: `PASS name` / `FAIL name` followed by indented diff lines. */
export function parseComparison(report: string): ConformanceRun {
  const results: CaseResult[] = [];
  for (const line of report.split('\n')) {
    const verdict = /^(PASS|FAIL|MISSING)\s+(\S+)/.exec(line);
    if (verdict) results.push({ name: verdict[2] ?? '', passed: verdict[1] === 'PASS', diff: [] });
    else if (line.startsWith(' ') && results.length > 0) (results.at(-1)?.diff as string[]).push(line.trim());
  }
  const passed = results.filter((r) => r.passed).length;
  return { results, passed, failed: results.length - passed };
}

export function caseNames(prefix: string): string[] {
  const cases = JSON.parse(readFileSync(join(conformanceDir, 'cases.json'), 'utf8')) as { name: string }[];
  return cases.map((c) => c.name).filter((name) => name.startsWith(prefix) && existsSync(join(conformanceDir, 'golden', `${name}.json`)));
}
