/**
 * Builds the example front end (examples/front-end) as its README says a user would: the client
 * package compiled (client/dist), installed by path (npm links a `file:` dependency, so a
 * symlink in node_modules is what `npm install` leaves), then `tsc --strict`.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../support/model.ts';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

export const exampleDir = join(repoRoot, 'examples', 'front-end');

/** Runs tsc; resolves with its output, rejects with it when it fails. */
export async function tsc(args: readonly string[], cwd: string): Promise<string> {
  const bin = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
  try {
    const { stdout } = await run(process.execPath, [bin, ...args], { cwd, maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    throw new Error(`tsc ${args.join(' ')} failed:\n${(error as { stdout?: string }).stdout ?? String(error)}`);
  }
}

/** Links a client package into `<dir>/node_modules/generated-client`, as `npm install <path>` does. */
function install(clientDir: string, dir: string): void {
  const link = join(dir, 'node_modules', 'generated-client');
  rmSync(link, { recursive: true, force: true });
  mkdirSync(dirname(link), { recursive: true });
  symlinkSync(clientDir, link, 'dir');
}

/**
 * Type-checks examples/front-end in place with --strict against generated/client, compiled
 * first (its dist/ is build output). The only test that writes into generated/ or examples/.
 */
export async function checkExample(): Promise<string> {
  const clientDir = join(repoRoot, 'generated', 'client');
  await tsc(['-p', join(clientDir, 'tsconfig.json')], clientDir);
  install(clientDir, exampleDir);
  return tsc(['-p', join(exampleDir, 'tsconfig.json'), '--strict', '--noEmit'], exampleDir);
}

/**
 * Copies the example into `workDir`, installs the (compiled) client package at `clientDir` and
 * compiles with --strict; returns the folder of the compiled script.
 */
export async function buildExample(clientDir: string, workDir: string): Promise<string> {
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  for (const entry of ['src', 'tsconfig.json', 'package.json']) cpSync(join(exampleDir, entry), join(workDir, entry), { recursive: true });
  install(clientDir, workDir);
  await tsc(['-p', join(workDir, 'tsconfig.json'), '--strict'], workDir);
  return join(workDir, 'dist');
}
