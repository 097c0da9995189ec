/**
 * The generated project's package-lock.json and npm 11 install-script approvals: the lockfile is
 * cut out of capi's with npm's own flags, `npm ci` accepts it (offline, from the npm cache) and
 * refuses it once package.json disagrees, and no installed package has an unreviewed install
 * script, in the generated project or in capi.
 */
import { DATABASES } from '../../generator/databases.ts';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagesWithInstallScripts, projectLockfile, LockfileError, type Lockfile, type LockedPackage } from '../../generator/emit/lockfile.ts';
import { allowScriptsFor, emitProject } from '../../generator/emit/project.ts';
import { capi } from '../support/cli.ts';
import { repoRoot } from '../support/model.ts';

const execute = promisify(execFile);
/** The environment without the npm_* variables `npx vitest` sets (an empty `npm_config_allow_scripts` among them), as a user's shell has it. */
const shellEnv: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
const npmEnv = { ...shellEnv, npm_config_offline: 'true', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };

/** Installs run offline, from the npm cache; `install-scripts ls` must not (offline, npm 11.19 also lists `prepare` scripts, which never run for registry packages). */
async function npm(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = npmEnv): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await execute('npm', [...args], { cwd, env, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, output: (e.stdout ?? '') + (e.stderr ?? '') };
  }
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const capiLock = readJson<Lockfile>(join(repoRoot, 'package-lock.json'));
const capiManifest = readJson<{ name: string; version: string; dependencies: Record<string, string>; devDependencies: Record<string, string>; allowScripts: Record<string, boolean> }>(
  join(repoRoot, 'package.json'),
);

const withoutFlags = ({ dev: _d, optional: _o, devOptional: _do, peer: _p, ...rest }: LockedPackage): LockedPackage => rest;

describe('cutting a lockfile out of another', () => {
  it("reproduces npm's own lockfile, flags included, when the root is capi itself", () => {
    const again = projectLockfile(capiLock, capiManifest);
    expect(Object.keys(again.packages).sort()).toEqual(Object.keys(capiLock.packages).sort());
    for (const [location, entry] of Object.entries(capiLock.packages)) {
      if (location !== '') expect(again.packages[location], location).toEqual(entry);
    }
  });

  const lock = (packages: Record<string, LockedPackage>): Lockfile => ({ name: 'x', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': {}, ...packages } });
  const manifest = (dependencies: Record<string, string>, devDependencies: Record<string, string> = {}) => ({ name: 'p', version: '0.1.0', dependencies, devDependencies });

  it('keeps what the root reaches, resolves nested copies first and recomputes dev, optional, devOptional and peer', () => {
    const source = lock({
      'node_modules/app': {
        version: '1.0.0',
        dependencies: { shared: '^1', lib: '^1' },
        optionalDependencies: { native: '^1' },
        peerDependencies: { host: '^1', maybe: '^1' },
        peerDependenciesMeta: { maybe: { optional: true } },
      },
      'node_modules/app/node_modules/lib': { version: '1.5.0' },
      'node_modules/lib': { version: '2.0.0', dev: true },
      'node_modules/shared': { version: '1.0.0' },
      'node_modules/native': { version: '1.0.0', hasInstallScript: true, optional: true },
      'node_modules/host': { version: '1.0.0', dependencies: { shared: '^1' } },
      'node_modules/maybe': { version: '1.0.0' },
      'node_modules/tool': { version: '1.0.0', dependencies: { native: '^1' } },
      'node_modules/unrelated': { version: '1.0.0' },
    });
    const cut = projectLockfile(source, manifest({ app: '^1' }, { tool: '^1' }));
    expect(cut.packages['']).toEqual({ name: 'p', version: '0.1.0', dependencies: { app: '^1' }, devDependencies: { tool: '^1' } });
    expect(Object.keys(cut.packages).sort()).toEqual([
      '',
      'node_modules/app',
      'node_modules/app/node_modules/lib',
      'node_modules/host',
      'node_modules/native',
      'node_modules/shared',
      'node_modules/tool',
    ]);
    expect(cut.packages['node_modules/app']).toEqual(withoutFlags(source.packages['node_modules/app'] ?? {}));
    expect(cut.packages['node_modules/tool']).toMatchObject({ dev: true });
    // Optional for the app, required by a dev tool: only a dev install without optionals leaves it out.
    expect(cut.packages['node_modules/native']).toEqual({ version: '1.0.0', hasInstallScript: true, devOptional: true });
    expect(cut.packages['node_modules/host']).toEqual({ version: '1.0.0', dependencies: { shared: '^1' }, peer: true });
    expect(cut.packages['node_modules/shared']).toEqual({ version: '1.0.0' });
    expect(packagesWithInstallScripts(cut)).toEqual(['native']);
  });

  it('names a dependency missing from the source, and skips a missing optional one', () => {
    const source = lock({ 'node_modules/app': { version: '1.0.0', dependencies: { gone: '^1' }, optionalDependencies: { absent: '^1' } } });
    expect(() => projectLockfile(source, manifest({ app: '^1' }))).toThrow(new LockfileError("capi's package-lock.json has no gone (needed by app); run npm install in capi"));
    expect(Object.keys(projectLockfile(lock({ 'node_modules/app': { version: '1.0.0', optionalDependencies: { absent: '^1' } } }), manifest({ app: '^1' })).packages)).toEqual([
      '',
      'node_modules/app',
    ]);
  });
});

describe('the emitted lockfile', () => {
  it.each(['sqlite', 'postgres', 'mysql'] as const)('locks exactly the %s project’s package.json, with capi’s entries', (database) => {
    const files = new Map(emitProject({ database, source: '../content-types/', projectName: `lock-${database}` }).map((f) => [f.path, f.contents]));
    const manifest = JSON.parse(files.get('package.json') ?? '{}') as { name: string; dependencies: Record<string, string>; devDependencies: Record<string, string> };
    const lock = JSON.parse(files.get('package-lock.json') ?? '{}') as Lockfile;
    expect(lock.packages['']).toMatchObject({ name: manifest.name, dependencies: manifest.dependencies, devDependencies: manifest.devDependencies });
    const adapter = `node_modules/${DATABASES[database].prismaAdapter}`;
    expect(lock.packages[adapter]).toMatchObject({ dev: true });
    // The runtime's own packages are production ones.
    expect(lock.packages['node_modules/express']?.dev).toBeUndefined();
    for (const [location, entry] of Object.entries(lock.packages)) {
      if (location !== '') expect(withoutFlags(entry), location).toEqual(withoutFlags(capiLock.packages[location] ?? {}));
    }
  });
});

describe('install scripts (npm 11 allowScripts)', () => {
  it('stops generation at a package whose install script nobody has reviewed', () => {
    expect(allowScriptsFor(['sharp', 'better-sqlite3'])).toEqual({ sharp: true, 'better-sqlite3': true });
    expect(() => allowScriptsFor(['left-pad-postinstall'])).toThrow(/left-pad-postinstall has an install script that installScriptPolicy/);
  });

  it("decides every install script in capi's own lockfile, as it decides the generated project's", () => {
    // From the lockfile rather than `npm install-scripts ls`: capi's node_modules is shared by
    // worktrees, and npm reads it differently once its hidden lockfile is older than the folder.
    expect(capiManifest.allowScripts).toEqual(allowScriptsFor(packagesWithInstallScripts(capiLock)));
    expect(Object.keys(capiManifest.allowScripts).sort()).toEqual(packagesWithInstallScripts(capiLock));
  });
});

describe('npm ci in a generated project', () => {
  const work = mkdtempSync(join(tmpdir(), 'capi-lock-'));
  const project = join(work, 'project');
  beforeAll(async () => {
    const generated = await capi(['generate', '--out', project, '--skip-build', '--quiet']);
    expect(generated.code, generated.stderr).toBe(0);
  }, 120_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('emits a lockfile whose root is the package.json and whose packages are capi’s, at capi’s versions', () => {
    const manifest = readJson<{
      name: string;
      version: string;
      engines: Record<string, string>;
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
      allowScripts: Record<string, boolean>;
    }>(join(project, 'package.json'));
    const lock = readJson<Lockfile>(join(project, 'package-lock.json'));
    expect(lock).toMatchObject({ name: manifest.name, version: manifest.version, lockfileVersion: 3, requires: true });
    expect(lock.packages['']).toEqual({ name: manifest.name, version: manifest.version, dependencies: manifest.dependencies, devDependencies: manifest.devDependencies, engines: manifest.engines });
    for (const [location, entry] of Object.entries(lock.packages)) {
      if (location !== '') expect(withoutFlags(entry), location).toEqual(withoutFlags(capiLock.packages[location] ?? {}));
    }
    expect(manifest.allowScripts).toEqual(allowScriptsFor(packagesWithInstallScripts(lock)));
    expect(manifest.allowScripts).toMatchObject({ 'better-sqlite3': true, sharp: true, '@prisma/engines': false });
  });

  it('installs with npm ci, the whole tree consistent and no install script unreviewed', async () => {
    const installed = await npm(['ci', '--ignore-scripts'], project);
    expect(installed.code, installed.output).toBe(0);
    const tree = await npm(['ls', '--all'], project);
    expect(tree.code, tree.output).toBe(0);
    // Other platforms' optional binaries (sharp's, for one) are rightly absent.
    expect(tree.output).not.toMatch(/invalid|extraneous|UNMET (?!OPTIONAL)/);
    const scripts = await npm(['install-scripts', 'ls'], project, shellEnv);
    expect(scripts.output).toContain('No packages with unreviewed install scripts.');
  }, 300_000);

  it('is refused by npm ci once package.json asks for something else', async () => {
    const changed = join(work, 'changed');
    cpSync(project, changed, { recursive: true, filter: (path) => !path.includes('node_modules') });
    // A dependency the lockfile lacks, on a local path so that npm needs no registry (the test runs
    // offline, and a fresh machine's cache holds tarballs, not the registry's metadata).
    mkdirSync(join(changed, 'vendor', 'extra'), { recursive: true });
    writeFileSync(join(changed, 'vendor', 'extra', 'package.json'), JSON.stringify({ name: 'extra', version: '1.0.0' }));
    const manifest = readJson<{ dependencies: Record<string, string> }>(join(changed, 'package.json'));
    manifest.dependencies.extra = 'file:vendor/extra';
    writeFileSync(join(changed, 'package.json'), JSON.stringify(manifest, null, 2));
    const refused = await npm(['ci', '--ignore-scripts'], changed);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/package\.json and package-lock\.json .* are not in sync|can only install packages when your package\.json and package-lock\.json/);
  }, 120_000);
});
