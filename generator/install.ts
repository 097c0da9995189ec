/**
 * The generated project's dependencies, before it is compiled. Inside capi's repository, or in a
 * project that installed capi, Node and tsc find them in a node_modules folder above --out (capi
 * depends on everything a generated project needs, @types included). Anywhere else they are
 * installed into --out with npm, from npm's cache when it has them.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { read } from './write.ts';

const run = promisify(execFile);

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

/** Installs the project's dependencies with npm, preferring its cache; the step `capi generate` shows as `install`. */
export async function installDependencies(out: string, outLabel: string): Promise<string> {
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
