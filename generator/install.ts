/**
 * The generated project's dependencies, before it is compiled. Inside capi's repository, or in a
 * project that installed capi, Node and tsc find them in a node_modules folder above --out (capi
 * depends on everything a generated project needs, @types included). Anywhere else they are
 * copied from capi's own installation, or installed into --out with npm, from npm's cache when it
 * has them.
 */
import { execFile } from 'node:child_process';
import { constants, cpSync, existsSync, mkdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { read } from './write.ts';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

export class InstallError extends Error {
  override readonly name = 'InstallError';
}

/** The packages of `out/package.json` that resolution from `out` would not find, sorted. */
export function missingDependencies(out: string): string[] {
  const json = read(join(out, 'package.json'));
  if (json === undefined) return [];
  const manifest = JSON.parse(json) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  const names = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
  const folders = nodeModulesAbove(out);
  return names.filter((name) => !folders.some((folder) => existsSync(join(folder, name, 'package.json')))).sort();
}

/** Every node_modules folder Node would look in from `dir`, nearest first. */
function nodeModulesAbove(dir: string): string[] {
  const folders: string[] = [];
  for (let current = dir; ; current = dirname(current)) {
    folders.push(join(current, 'node_modules'));
    if (dirname(current) === current) return folders;
  }
}

/**
 * What to run in `out` to install: `npm ci` when the project's lockfile names exactly the
 * dependencies of its package.json (npm ci refuses anything else), else `npm install`, which
 * brings the lockfile up to date: a dependency added to package.json by hand, say.
 */
export function installCommand(out: string): readonly string[] {
  return lockfileMatches(out) ? ['ci'] : ['install'];
}

type DependencyLists = { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };

function lockfileMatches(out: string): boolean {
  const manifest = read(join(out, 'package.json'));
  const lockfile = read(join(out, 'package-lock.json'));
  if (manifest === undefined || lockfile === undefined) return false;
  try {
    const wanted = JSON.parse(manifest) as DependencyLists;
    const locked = ((JSON.parse(lockfile) as { packages?: Record<string, DependencyLists> }).packages ?? {})[''] ?? {};
    return sameRanges(wanted.dependencies, locked.dependencies) && sameRanges(wanted.devDependencies, locked.devDependencies);
  } catch {
    return false;
  }
}

function sameRanges(a: Record<string, string> = {}, b: Record<string, string> = {}): boolean {
  const names = Object.keys(a);
  return names.length === Object.keys(b).length && names.every((name) => a[name] === b[name]);
}

interface LockedPackage {
  readonly version?: string;
  readonly optional?: boolean;
  readonly bin?: Record<string, string>;
}

/**
 * The project's dependencies copied out of the node_modules folder capi itself was installed
 * into (`capiModules`), when it holds every package of the project's lockfile at its locked
 * version: the lockfile is cut out of capi's (emit/lockfile.ts), so the installed tree has the
 * same paths, and copying it takes seconds where `npm ci` took 72. Copied, not linked: the
 * project must not change capi's files when it later installs or rebuilds something. Returns how
 * many packages were copied, or undefined when one is missing (an optional one of another
 * platform aside) or the project already has a node_modules folder, for npm to settle.
 */
export function copyFromCapi(out: string, capiModules: string): number | undefined {
  const target = join(out, 'node_modules');
  const lockfile = read(join(out, 'package-lock.json'));
  if (lockfile === undefined || existsSync(target)) return undefined;
  const locked = Object.entries((JSON.parse(lockfile) as { packages?: Record<string, LockedPackage> }).packages ?? {}).filter(([path]) => path.startsWith('node_modules/'));
  const root = dirname(capiModules);
  const present: [string, LockedPackage][] = [];
  for (const [path, entry] of locked) {
    const manifest = read(join(root, path, 'package.json'));
    if (manifest === undefined && entry.optional === true) continue;
    if (manifest === undefined || (JSON.parse(manifest) as { version?: string }).version !== entry.version) return undefined;
    present.push([path, entry]);
  }
  // Into a folder of its own first: an interrupted copy leaves no node_modules that looks whole.
  const staging = `${target}.capi-copy`;
  rmSync(staging, { recursive: true, force: true });
  // A package's own nested node_modules comes with it.
  const topLevel = present.filter(([path]) => path.lastIndexOf('node_modules/') === 0);
  for (const [path] of topLevel) cpSync(join(root, path), join(staging, path.slice('node_modules/'.length)), { recursive: true, verbatimSymlinks: true, mode: constants.COPYFILE_FICLONE });
  for (const [path, entry] of topLevel) {
    for (const [name, file] of Object.entries(entry.bin ?? {})) {
      mkdirSync(join(staging, '.bin'), { recursive: true });
      symlinkSync(join('..', path.slice('node_modules/'.length), file), join(staging, '.bin', name));
    }
  }
  renameSync(staging, target);
  return present.length;
}

/** The node_modules folder capi's own dependencies were installed into (typescript is one of them). */
export function capiModules(): string {
  return dirname(dirname(require.resolve('typescript/package.json')));
}

/**
 * Installs the project's dependencies: copied from capi's installation when it has them all,
 * else with npm, preferring its cache (CAPI_INSTALL=npm always uses npm). Returns what was done,
 * for the step `capi generate` shows as `install`.
 */
export async function installDependencies(out: string, outLabel: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  if (env.CAPI_INSTALL !== 'npm' && copyFromCapi(out, capiModules()) !== undefined) return "copied from capi's installation";
  const command = installCommand(out);
  const args = [...command, '--no-audit', '--no-fund', '--prefer-offline'];
  try {
    await run(npmExecutable(), args, { cwd: out, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, npm_config_update_notifier: 'false' } });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? String(error);
    const reason =
      stderr
        .split('\n')
        .filter((line) => /error/i.test(line))
        .slice(-3)
        .join('\n') ||
      stderr.trim().split('\n').at(-1) ||
      String(error);
    throw new InstallError(`npm ${command.join(' ')} failed in ${outLabel}:\n${reason}\nfix what it says, then run: cd ${outLabel} && npm ${command.join(' ')} && npm run build`);
  }
  return `npm ${command.join(' ')}`;
}

/** npm beside the running node (Node's own installs put it there), else the one on PATH. */
function npmExecutable(): string {
  const beside = join(dirname(process.execPath), 'npm');
  return existsSync(beside) ? beside : 'npm';
}
