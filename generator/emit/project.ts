/**
 * Emits the mostly-static skeleton of a generated project: package.json (+ package-lock.json),
 * tsconfig.json, prisma.config.ts, the two entry points, README.md, .gitignore, .env.example, a
 * Dockerfile and .dockerignore, the config/*.json files
 * (create-once: the user owns them after the first generation) and a verbatim copy of the
 * hand-written runtime (templates/runtime, without its tests) as src/runtime/.
 *
 * Template context of templates/project/*.hbs (handlebars, no HTML escaping, strict: a missing
 * field is an error rather than an empty string):
 *   projectName      npm package name derived from the output folder's name
 *   database         'sqlite' | 'postgres' | 'mysql'
 *   sqlite           database === 'sqlite' (handlebars has no equality test)
 *   databaseUrl      the default URL prisma.config.ts connects to when DATABASE_URL is unset
 *   databaseLabel    what the README says the project stores its data in
 *   adapter          { package, className, argument }: the Prisma driver adapter of prisma.config.ts
 *   source           the content-types folder, as labelled in generated headers
 *   capiVersion      capi's own version
 *   dependencies     { name: range } the runtime imports, with capi's own version ranges
 *   devDependencies  { name: range } for compiling (typescript, @types/*) and the Prisma CLI
 *   mounts           [{ importPath, exportName }]: MountFactory exports that src/main.ts
 *                    imports and hands to runServer (REST, GraphQL, ...), in order
 *   allowScripts     { name: boolean } npm 11's install-script approvals for every locked
 *                    package that has an install script (installScriptPolicy)
 *
 * Besides the templates, package-lock.json is emitted: cut out of capi's own (lockfile.ts), so
 * that `npm ci` works in the project and installs the versions capi is tested with.
 * Helper: `{{json value indent?}}` renders a value as JSON (indented continuation lines).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';
import { configFileNames, defaultConfigFiles, defaultPermissions, type ConfigFileName } from '../../templates/runtime/config.ts';
import { DATABASES, type DatabaseKind } from '../databases.ts';
import { renderEnvExample } from '../../templates/runtime/env.ts';
import type { EmittedFile } from './files.ts';
import { packagesWithInstallScripts, projectLockfile, type Lockfile, type ProjectManifest } from './lockfile.ts';

export type ProjectDatabase = DatabaseKind;

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

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const templatesDir = join(repoRoot, 'templates', 'project');
const runtimeDir = join(repoRoot, 'templates', 'runtime');
const contractDir = join(repoRoot, 'templates', 'contract');

/**
 * What compiling the project and running the Prisma CLI need. Run-time dependencies are read off
 * the runtime's imports, and their `@types/*` packages (when capi has one) join these.
 */
const buildDependencies = ['@types/node', 'prisma', 'typescript'] as const;

/**
 * npm 11 runs a dependency's install scripts only when package.json's `allowScripts` approves
 * them. Each package of the project's lockfile that has one is decided here, for a reason; a new
 * one stops generation until it is reviewed.
 */
export const installScriptPolicy: Readonly<Record<string, { readonly allow: boolean; readonly why: string }>> = {
  'better-sqlite3': { allow: true, why: 'installs (or compiles) its native SQLite binding' },
  sharp: { allow: true, why: 'checks its prebuilt libvips binding, and compiles one where no prebuilt exists' },
  '@prisma/engines': { allow: false, why: "downloads engine binaries from outside the npm registry; the project runs Prisma's JS engine" },
  prisma: { allow: false, why: 'its preinstall only checks the Node version' },
  '@scarf/scarf': { allow: false, why: 'install telemetry' },
  '@apollo/protobufjs': { allow: false, why: 'its postinstall only prints a notice' },
  esbuild: { allow: false, why: 'its postinstall only re-checks the platform binary that its optional dependency installs' },
};

/** Template file → emitted path and policy. README and .gitignore are the user's to extend. */
const templateOutputs: ReadonlyArray<{ template: string; path: string; policy: EmittedFile['policy'] }> = [
  { template: 'package.json.hbs', path: 'package.json', policy: 'owned' },
  { template: 'tsconfig.json.hbs', path: 'tsconfig.json', policy: 'owned' },
  { template: 'prisma.config.ts.hbs', path: 'prisma.config.ts', policy: 'owned' },
  { template: 'main.ts.hbs', path: 'src/main.ts', policy: 'owned' },
  { template: 'migrate.ts.hbs', path: 'src/migrate.ts', policy: 'owned' },
  { template: 'README.md.hbs', path: 'README.md', policy: 'create-once' },
  { template: 'gitignore.hbs', path: '.gitignore', policy: 'create-once' },
  // Deployment (docs/deployment.md): the user's to adapt, like the README.
  { template: 'Dockerfile.hbs', path: 'Dockerfile', policy: 'create-once' },
  { template: 'dockerignore.hbs', path: '.dockerignore', policy: 'create-once' },
  // Static files (strapi::public), as in a new Strapi project; public/ is also where the image
  // finds them.
  { template: 'robots.txt.hbs', path: 'public/robots.txt', policy: 'create-once' },
  // The user's part of the project (docs/extending.md): created once with commented examples.
  { template: 'extensions.ts.hbs', path: 'src/extensions/index.ts', policy: 'create-once' },
];

export function emitProject(options: ProjectOptions): EmittedFile[] {
  const handlebars = createHandlebars();
  // capi's lockfile is 1.7 MB of JSON: read once, for the allowScripts of package.json and the cut.
  const capiLock = capiLockfile();
  const context = templateContext(options, capiLock);
  const rendered = templateOutputs.map(({ template, path, policy }): EmittedFile => {
    const render = handlebars.compile(readFileSync(join(templatesDir, template), 'utf8'), { noEscape: true, strict: true });
    return { path, contents: render(context), policy };
  });
  const manifest = rendered.find((file) => file.path === 'package.json');
  if (manifest === undefined) throw new Error('package.json.hbs is missing from templateOutputs');
  const lockfile: EmittedFile = { path: 'package-lock.json', contents: `${JSON.stringify(projectLockfile(capiLock, parseManifest(manifest.contents)), null, 2)}\n`, policy: 'owned' };
  // .env.example is derived from the runtime's table of variables: regenerated, never edited.
  const envExample: EmittedFile = { path: '.env.example', contents: renderEnvExample(), policy: 'owned' };
  const files = [...rendered, lockfile, envExample, ...configFiles(options.database), ...runtimeFiles()];
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export interface ProjectTemplateContext {
  readonly projectName: string;
  readonly database: ProjectDatabase;
  readonly sqlite: boolean;
  readonly databaseUrl: string;
  readonly databaseLabel: string;
  /** The Prisma driver adapter prisma.config.ts opens. */
  readonly adapter: { readonly package: string; readonly className: string; readonly argument: string };
  readonly source: string;
  readonly capiVersion: string;
  readonly dependencies: Readonly<Record<string, string>>;
  readonly devDependencies: Readonly<Record<string, string>>;
  readonly mounts: readonly MountImport[];
  readonly allowScripts: Readonly<Record<string, boolean>>;
}

export function templateContext(options: ProjectOptions, capiLock: Lockfile = capiLockfile()): ProjectTemplateContext {
  const capi = capiPackage();
  const runtime = importedPackages(runtimeFiles());
  const dependencies = pick(capi, runtime);
  const devDependencies = pick(capi, [...buildDependencies, ...typingsOf(capi, runtime), DATABASES[options.database].prismaAdapter].sort());
  const projectName = packageName(options.projectName);
  const locked = projectLockfile(capiLock, { name: projectName, version: projectVersion, dependencies, devDependencies });
  return {
    projectName,
    database: options.database,
    sqlite: options.database === 'sqlite',
    databaseUrl: DATABASES[options.database].defaultUrl,
    databaseLabel: DATABASES[options.database].readmeLabel,
    adapter: { package: DATABASES[options.database].prismaAdapter, className: DATABASES[options.database].prismaAdapterClass, argument: DATABASES[options.database].prismaAdapterArgument },
    source: options.source,
    capiVersion: capi.version,
    dependencies,
    devDependencies,
    mounts: options.mounts ?? [],
    allowScripts: allowScriptsFor(packagesWithInstallScripts(locked)),
  };
}

/** The version package.json.hbs gives every generated project. */
const projectVersion = '0.1.0';

/** `allowScripts` for these packages, from installScriptPolicy; throws for one it has not reviewed. */
export function allowScriptsFor(names: readonly string[]): Record<string, boolean> {
  const allowed: Record<string, boolean> = {};
  for (const name of names) {
    const policy = installScriptPolicy[name];
    if (policy === undefined) throw new Error(`${name} has an install script that installScriptPolicy (generator/emit/project.ts) has not reviewed`);
    allowed[name] = policy.allow;
  }
  return allowed;
}

/**
 * capi's own lockfile. npm leaves package-lock.json out of published tarballs, so an installed
 * capi reads npm-shrinkwrap.json (the published form of the same file) when it has one.
 */
function capiLockfile(): Lockfile {
  for (const name of ['package-lock.json', 'npm-shrinkwrap.json']) {
    const path = join(repoRoot, name);
    if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8')) as Lockfile;
  }
  throw new Error(`capi has neither package-lock.json nor npm-shrinkwrap.json in ${repoRoot}: the generated project's lockfile is cut out of it`);
}

function parseManifest(contents: string): ProjectManifest {
  const json = JSON.parse(contents) as ProjectManifest;
  return { name: json.name, version: json.version, dependencies: json.dependencies, devDependencies: json.devDependencies, ...(json.engines === undefined ? {} : { engines: json.engines }) };
}

function configFiles(database: ProjectDatabase): EmittedFile[] {
  const defaults = defaultConfigFiles(database);
  return configFileNames.map((name: ConfigFileName): EmittedFile => {
    const json = name === 'permissions.json' ? defaultPermissions() : defaults[name];
    return { path: `config/${name}`, contents: `${JSON.stringify(json, null, 2)}\n`, policy: 'create-once' };
  });
}

/**
 * Every file of templates/runtime and of templates/contract (the tables the runtime reads) except
 * tests and their helpers (`test-*.ts`), byte for byte, under src/runtime/ and src/contract/.
 */
function runtimeFiles(): EmittedFile[] {
  return [...copied(runtimeDir, 'src/runtime'), ...copied(contractDir, 'src/contract')];
}

function copied(dir: string, into: string): EmittedFile[] {
  return listFiles(dir)
    .filter((path) => !path.endsWith('.test.ts') && !posixBasename(path).startsWith('test-'))
    .map((path) => ({ path: `${into}/${path}`, contents: readFileSync(join(dir, path), 'utf8'), policy: 'owned' as const }));
}

/**
 * Packages the runtime imports (bare specifiers, not `node:` built-ins), so package.json cannot
 * miss one: statically, and with `import('...')` (what is loaded only when configured, such as
 * the OpenTelemetry exporters).
 */
function importedPackages(files: readonly EmittedFile[]): string[] {
  const names = new Set<string>();
  for (const file of files) {
    for (const [, specifier = ''] of file.contents.matchAll(/(?:^(?:import|export)[^'"]*?from |\bimport\()'([^'.][^']*)'/gm)) {
      if (specifier.startsWith('node:')) continue;
      const parts = specifier.split('/');
      names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier));
    }
  }
  return [...names].sort();
}

/** `@types/<name>` for each package that ships without types and has them among capi's own dependencies. */
function typingsOf(capi: CapiPackage, packages: readonly string[]): string[] {
  return packages.map((name) => `@types/${name.replace(/^@([^/]+)\//, '$1__')}`).filter((types) => types in capi.dependencies || types in capi.devDependencies);
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

export interface CapiPackage {
  readonly version: string;
  readonly dependencies: Readonly<Record<string, string>>;
  readonly devDependencies: Readonly<Record<string, string>>;
}

export function capiPackage(): CapiPackage {
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
