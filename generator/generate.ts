/**
 * The pipeline: load → validate → model → emit → migrate → write → build.
 * Every stage before `write` is pure or read-only, which is what makes `--check` possible.
 */
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { SchemaError, type Diagnostic } from './diagnostics.ts';
import type { EmittedFile } from './emit/files.ts';
import { GRAPHQL_SCHEMA_PATH } from './emit/graphql/resolvers.ts';
import { emitGraphqlSchema } from './emit/graphql/sdl.ts';
import { emitModules } from './emit/modules.ts';
import { DATABASES, databaseOfProvider, type DatabaseKind } from './databases.ts';
import { emitPrismaSchema } from './emit/prisma.ts';
import { emitClient, CLIENT_DIR } from './emit/client.ts';
import { emitOpenApi, OPENAPI_PATH } from './emit/openapi.ts';
import { capiPackage, emitProject, packageName } from './emit/project.ts';
import { capiModules, installDependencies, installCommand, missingDependencies } from './install.ts';
import { loadSchemas, type LoadedSchemas } from './load.ts';
import { planMigration } from './migrations.ts';
import { buildModel } from './model/build.ts';
import { formatNote, normalizeSchemas } from './normalize.ts';
import { unportedParts } from './strapi-project.ts';
import type { Model } from './model/types.ts';
import type { StepReporter } from './steps.ts';
import { validateSchemas } from './validate/index.ts';
import { keepUserEdits } from './user-edits.ts';
import { applyChanges, compareWithDisk, manifestFile, read, type FileChanges } from './write.ts';

const run = promisify(execFile);

export interface GenerateOptions {
  readonly contentTypes: string;
  readonly out: string;
  /** Defaults to the provider of the migrations already in `out`, else sqlite. */
  readonly database?: DatabaseKind;
  readonly check: boolean;
  readonly acceptDataLoss: boolean;
  /** Skip type-checking and compiling the generated project (tests that only read files). */
  readonly skipBuild: boolean;
  /**
   * Before building, install the project's dependencies with npm when they cannot be found from
   * `out` (default true). When false and they are missing, the build is skipped and the next
   * commands are printed instead.
   */
  readonly install?: boolean;
}

export interface GenerateResult {
  readonly changes: FileChanges;
  /** Name of the migration created (or, with --check, that would be created). */
  readonly migration?: string;
}

export class ProviderMismatchError extends Error {
  override readonly name = 'ProviderMismatchError';
}

export class BuildError extends Error {
  override readonly name = 'BuildError';
}

/** load + validate + model: the part `capi validate` runs. */
export async function loadModel(contentTypes: string, report: StepReporter): Promise<Model> {
  const loaded = await report.step(
    'load',
    () => loadSchemas(contentTypes),
    (l) => `${l.files.length} files (${l.layout} layout)`,
  );
  const diagnostics = await report.step(
    'validate',
    () => validate(loaded),
    (d) => (d.length === 0 ? 'no problems' : `${d.length} problem(s)`),
  );
  if (diagnostics.length > 0) throw new SchemaError(diagnostics);
  const normalized = normalizeSchemas(loaded.files, loaded.config.customFields);
  const unported = loaded.layout === 'strapi' ? unportedParts(loaded.root) : [];
  for (const note of [...normalized.notes, ...unported]) report.info(formatNote(note));
  return report.step(
    'model',
    () => buildModel(normalized.files),
    (m) => `${m.contentTypes.length} content types, ${m.components.length} components`,
  );
}

function validate(loaded: LoadedSchemas): Diagnostic[] {
  // A file that did not load may define what the others name: the model is then incomplete.
  return [...loaded.diagnostics, ...validateSchemas(loaded.files, { customFields: loaded.config.customFields, complete: loaded.diagnostics.length === 0 })];
}

export async function generate(options: GenerateOptions, report: StepReporter): Promise<GenerateResult> {
  const out = resolve(options.out);
  const model = await loadModel(options.contentTypes, report);
  const locked = lockedProvider(out);
  const database = options.database ?? locked ?? 'sqlite';
  if (locked !== undefined && locked !== database) {
    throw new ProviderMismatchError(`${options.out}/prisma/migrations holds ${locked} migrations; generate ${database} into another --out directory`);
  }
  const source = sourceLabel(out, options.contentTypes);
  const files = await report.step(
    'emit',
    () => emitAll(model, database, source, basename(out)),
    (f) => `${f.length} files`,
  );
  const schema = files.find((f) => f.path === SCHEMA_PATH)?.contents ?? '';
  const migration = await report.step(
    'migrate',
    () => nextMigration(out, schema, database, options),
    (m) => (m === undefined ? 'schema unchanged, no migration' : `${options.check ? 'would create' : 'created'} ${m.name}`),
  );
  const all = keepUserEdits(out, migration === undefined ? files : [...files, migration.file]);
  const changes = compareWithDisk(out, all);
  if (options.check) return { changes, ...(migration ? { migration: migration.name } : {}) };
  await report.step(
    'write',
    () => applyChanges(out, all, changes),
    () => summarize(changes),
  );
  if (!options.skipBuild && (await ensureDependencies(out, options, report)))
    await report.step(
      'build',
      () => build(out),
      () => 'tsc, strict, 0 errors',
    );
  return { changes, ...(migration ? { migration: migration.name } : {}) };
}

const SCHEMA_PATH = 'prisma/schema.prisma';
const MIGRATIONS = 'prisma/migrations';

async function emitAll(model: Model, database: DatabaseKind, source: string, projectName: string): Promise<EmittedFile[]> {
  const sdl = emitGraphqlSchema(model, { source });
  const capi = capiPackage();
  const files: EmittedFile[] = [
    { path: SCHEMA_PATH, contents: emitPrismaSchema(model, database, source), policy: 'owned' },
    { path: `${MIGRATIONS}/migration_lock.toml`, contents: migrationLock(database), policy: 'owned' },
    ...(await emitModules(model, source)),
    // Served as is: the GraphQL mount reads this file at start-up.
    { path: GRAPHQL_SCHEMA_PATH, contents: sdl, policy: 'owned' },
    // Served as is at /api/openapi.json (runtime/openapi/).
    { path: OPENAPI_PATH, contents: `${JSON.stringify(emitOpenApi(model), null, 2)}\n`, policy: 'owned' },
    ...(await emitClient(model, { projectName: packageName(projectName), source, graphqlSchema: sdl, capiVersion: capi.version, versions: clientVersions(capi) })),
    ...emitProject({ database, source, projectName, mounts: [{ importPath: './content-api.ts', exportName: 'contentApi' }] }),
  ];
  return [...files, manifestFile(files)].sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** The client package's dependency ranges: those capi itself is tested with. */
function clientVersions(capi: ReturnType<typeof capiPackage>): Record<'qs' | '@types/qs' | 'typescript', string> {
  const range = (name: string): string => capi.dependencies[name] ?? capi.devDependencies[name] ?? '*';
  return { qs: range('qs'), '@types/qs': range('@types/qs'), typescript: range('typescript') };
}

function migrationLock(database: DatabaseKind): string {
  return `# Written by capi. The migrations in this folder are for this database provider.\nprovider = "${DATABASES[database].prismaProvider}"\n`;
}

function lockedProvider(out: string): DatabaseKind | undefined {
  const lock = read(join(out, MIGRATIONS, 'migration_lock.toml'));
  const provider = lock === undefined ? undefined : /provider\s*=\s*"(\w+)"/.exec(lock)?.[1];
  return databaseOfProvider(provider);
}

interface PlannedMigration {
  readonly name: string;
  readonly file: EmittedFile;
}

async function nextMigration(out: string, schema: string, database: DatabaseKind, options: GenerateOptions): Promise<PlannedMigration | undefined> {
  const existing = migrationFolders(out);
  const previous = read(join(out, SCHEMA_PATH));
  if (options.check) {
    // --check stays in memory: a changed schema is reported as the migration it would need.
    if (previous === schema && existing.length > 0) return undefined;
    const name = `${String(existing.length + 1).padStart(4, '0')}_…`;
    return { name, file: { path: `${MIGRATIONS}/${name}/migration.sql`, contents: '', policy: 'create-once' } };
  }
  const migration = await planMigration({ previous, next: schema, database, existing, acceptDataLoss: options.acceptDataLoss });
  if (migration === undefined) return undefined;
  return { name: migration.name, file: { path: `${MIGRATIONS}/${migration.name}/migration.sql`, contents: migration.sql, policy: 'create-once' } };
}

function migrationFolders(out: string): string[] {
  try {
    return readdirSync(join(out, MIGRATIONS), { withFileTypes: true })
      .filter((d) => d.isDirectory() && /^\d{4}_/.test(d.name))
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
}

/** True when the project's dependencies are there (found above `out` or just installed) and it can be built. */
async function ensureDependencies(out: string, options: GenerateOptions, report: StepReporter): Promise<boolean> {
  const missing = missingDependencies(out);
  if (missing.length === 0) return true;
  if (options.install === false) {
    report.info(`${options.out}: ${missing.length} dependencies are not installed (${missing.slice(0, 3).join(', ')}, ...); not built.`);
    report.info(`next: cd ${options.out} && npm ${installCommand(out).join(' ')} && npm start`);
    return false;
  }
  await report.step(
    'install',
    () => installDependencies(out, options.out),
    (command) => `${command}: ${missing.length} packages were missing`,
  );
  return true;
}

async function build(out: string): Promise<void> {
  await compile(out, 'the generated project');
  // The client package ships compiled (client/dist: .js + .d.ts), so a front end needs no TypeScript.
  await compile(join(out, CLIENT_DIR), 'the generated client');
}

async function compile(dir: string, what: string): Promise<void> {
  // typescript's exports hide bin/tsc; it sits in the package's folder among capi's dependencies.
  const tsc = join(capiModules(), 'typescript', 'bin', 'tsc');
  try {
    await run(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { cwd: dir, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const output = `${(error as { stdout?: string }).stdout ?? ''}`.trim();
    throw new BuildError(`${what} does not compile:\n${output || String(error)}`);
  }
}

function summarize(changes: FileChanges): string {
  return `${changes.created.length} created, ${changes.updated.length} updated, ${changes.removed.length} removed`;
}

/**
 * How the content-types folder is named in generated headers: relative to the output directory,
 * so that output does not depend on the directory capi was run from.
 */
function sourceLabel(out: string, contentTypes: string): string {
  const rel = relative(out, resolve(contentTypes)) || '.';
  return `${rel.split(sep).join('/')}/`;
}
