/**
 * Emits the mostly-static skeleton of a generated project: package.json, tsconfig.json,
 * prisma.config.ts, the two entry points, README.md, .gitignore, the six config/*.json files
 * (create-once: the user owns them after the first generation) and a verbatim copy of the
 * hand-written runtime (templates/runtime, without its tests) as src/runtime/.
 *
 * Template context of templates/project/*.hbs (handlebars, no HTML escaping, strict: a missing
 * field is an error rather than an empty string):
 *   projectName      npm package name derived from the output folder's name
 *   database         'sqlite' | 'postgres'
 *   sqlite           database === 'sqlite' (handlebars has no equality test)
 *   databaseUrl      the default URL prisma.config.ts connects to when DATABASE_URL is unset
 *   source           the content-types folder, as labelled in generated headers
 *   capiVersion      capi's own version
 *   dependencies     { name: range } the runtime imports, with capi's own version ranges
 *   devDependencies  { name: range } for compiling (typescript, @types/*) and the Prisma CLI
 *   mounts           [{ importPath, exportName }]: MountFactory exports that src/main.ts
 *                    imports and hands to runServer (REST, GraphQL, ...), in order
 * Helper: `{{json value indent?}}` renders a value as JSON (indented continuation lines).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';
import { configFileNames, defaultConfigFiles, defaultPermissions, defaultPostgresUrl, defaultSqliteFilename, type ConfigFileName } from '../../templates/runtime/config.ts';
import type { PermissionModel } from '../../templates/runtime/permissions.ts';
import type { EmittedFile } from './files.ts';

export type ProjectDatabase = 'sqlite' | 'postgres';

/** A generated module whose export is a runtime `MountFactory`, imported by src/main.ts. */
export interface MountImport {
  /** Relative to src/, e.g. `./rest/index.ts`. */
  readonly importPath: string;
  readonly exportName: string;
}

export interface ProjectOptions {
  readonly database: ProjectDatabase;
  /** The content-types folder as it should appear in generated headers. */
  readonly source: string;
  /** Usually the output folder's name; turned into a valid npm package name. */
  readonly projectName: string;
  readonly mounts?: readonly MountImport[];
}

/** Only the content types' uid and kind matter here: the IR's `Model` and `ModelSchema` both fit. */
export type ProjectModel = PermissionModel;

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const templatesDir = join(repoRoot, 'templates', 'project');
const runtimeDir = join(repoRoot, 'templates', 'runtime');

/**
 * What compiling the project and running the Prisma CLI need. Run-time dependencies are read off
 * the runtime's imports, and their `@types/*` packages (when capi has one) join these.
 */
const buildDependencies = ['@types/node', 'prisma', 'typescript'] as const;
const prismaAdapter: Record<ProjectDatabase, string> = { sqlite: '@prisma/adapter-better-sqlite3', postgres: '@prisma/adapter-pg' };

/** Template file → emitted path and policy. README and .gitignore are the user's to extend. */
const templateOutputs: ReadonlyArray<{ template: string; path: string; policy: EmittedFile['policy'] }> = [
  { template: 'package.json.hbs', path: 'package.json', policy: 'owned' },
  { template: 'tsconfig.json.hbs', path: 'tsconfig.json', policy: 'owned' },
  { template: 'prisma.config.ts.hbs', path: 'prisma.config.ts', policy: 'owned' },
  { template: 'main.ts.hbs', path: 'src/main.ts', policy: 'owned' },
  { template: 'migrate.ts.hbs', path: 'src/migrate.ts', policy: 'owned' },
  { template: 'README.md.hbs', path: 'README.md', policy: 'create-once' },
  { template: 'gitignore.hbs', path: '.gitignore', policy: 'create-once' },
  // The user's part of the project (docs/extending.md): created once with commented examples.
  { template: 'extensions.ts.hbs', path: 'src/extensions/index.ts', policy: 'create-once' },
];

export function emitProject(model: ProjectModel, options: ProjectOptions): EmittedFile[] {
  const handlebars = createHandlebars();
  const context = templateContext(options);
  const rendered = templateOutputs.map(({ template, path, policy }): EmittedFile => {
    const render = handlebars.compile(readFileSync(join(templatesDir, template), 'utf8'), { noEscape: true, strict: true });
    return { path, contents: render(context), policy };
  });
  const files = [...rendered, ...configFiles(model, options.database), ...runtimeFiles()];
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export interface ProjectTemplateContext {
  readonly projectName: string;
  readonly database: ProjectDatabase;
  readonly sqlite: boolean;
  readonly databaseUrl: string;
  readonly source: string;
  readonly capiVersion: string;
  readonly dependencies: Readonly<Record<string, string>>;
  readonly devDependencies: Readonly<Record<string, string>>;
  readonly mounts: readonly MountImport[];
}

export function templateContext(options: ProjectOptions): ProjectTemplateContext {
  const capi = capiPackage();
  const runtime = importedPackages(runtimeFiles());
  return {
    projectName: packageName(options.projectName),
    database: options.database,
    sqlite: options.database === 'sqlite',
    databaseUrl: options.database === 'sqlite' ? `file:./${defaultSqliteFilename}` : defaultPostgresUrl,
    source: options.source,
    capiVersion: capi.version,
    dependencies: pick(capi, runtime),
    devDependencies: pick(capi, [...buildDependencies, ...typingsOf(capi, runtime), prismaAdapter[options.database]].sort()),
    mounts: options.mounts ?? [],
  };
}

function configFiles(model: ProjectModel, database: ProjectDatabase): EmittedFile[] {
  const defaults = defaultConfigFiles(database);
  return configFileNames.map((name: ConfigFileName): EmittedFile => {
    const json = name === 'permissions.json' ? defaultPermissions(model) : defaults[name];
    return { path: `config/${name}`, contents: `${JSON.stringify(json, null, 2)}\n`, policy: 'create-once' };
  });
}

/** Every file of templates/runtime except tests and their helpers (`test-*.ts`), byte for byte, under src/runtime/. */
function runtimeFiles(): EmittedFile[] {
  return listFiles(runtimeDir)
    .filter((path) => !path.endsWith('.test.ts') && !posixBasename(path).startsWith('test-'))
    .map((path) => ({ path: `src/runtime/${path}`, contents: readFileSync(join(runtimeDir, path), 'utf8'), policy: 'owned' as const }));
}

/** Packages the runtime imports (bare specifiers, not `node:` built-ins), so package.json cannot miss one. */
function importedPackages(files: readonly EmittedFile[]): string[] {
  const names = new Set<string>();
  for (const file of files) {
    for (const [, specifier = ''] of file.contents.matchAll(/^(?:import|export)[^'"]*?from '([^'.][^']*)'/gm)) {
      if (specifier.startsWith('node:')) continue;
      const parts = specifier.split('/');
      names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier));
    }
  }
  return [...names].sort();
}

/** `@types/<name>` for each package that ships without types and has them in capi's devDependencies. */
function typingsOf(capi: CapiPackage, packages: readonly string[]): string[] {
  return packages.map((name) => `@types/${name.replace(/^@([^/]+)\//, '$1__')}`).filter((types) => types in capi.devDependencies);
}

function posixBasename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

interface CapiPackage {
  readonly version: string;
  readonly dependencies: Readonly<Record<string, string>>;
  readonly devDependencies: Readonly<Record<string, string>>;
}

function capiPackage(): CapiPackage {
  const json = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Partial<CapiPackage>;
  return { version: json.version ?? '0.0.0', dependencies: json.dependencies ?? {}, devDependencies: json.devDependencies ?? {} };
}

/** The version ranges capi itself is tested with. A name capi does not depend on is a bug here. */
function pick(capi: CapiPackage, names: readonly string[]): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of names) {
    const range = capi.dependencies[name] ?? capi.devDependencies[name];
    if (range === undefined) throw new Error(`capi's package.json has no version for ${name}, which generated projects need`);
    picked[name] = range;
  }
  return picked;
}

/** npm package names are lower case, URL-safe and at most 214 characters. */
export function packageName(name: string): string {
  const cleaned = name
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[._-]+|[-]+$/g, '')
    .slice(0, 214);
  return cleaned === '' ? 'capi-api' : cleaned;
}

function createHandlebars(): typeof Handlebars {
  // An isolated instance, so that helpers registered here never leak into other emitters.
  const handlebars = Handlebars.create();
  handlebars.registerHelper('json', (value: unknown, ...rest: unknown[]) => {
    const indent = typeof rest[0] === 'number' ? rest[0] : 0;
    return JSON.stringify(value, null, 2).replace(/\n/g, `\n${' '.repeat(indent)}`);
  });
  return handlebars;
}
