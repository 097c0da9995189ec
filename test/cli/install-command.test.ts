/**
 * Which npm command `capi generate` runs where a project's dependencies are missing: `npm ci`
 * only when the lockfile names exactly package.json's dependencies (npm ci refuses anything
 * else), `npm install` otherwise.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { installCommand } from '../../generator/install.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function project(manifest: object, lockfile?: object): string {
  const dir = mkdtempSync(join(tmpdir(), 'capi-install-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
  if (lockfile !== undefined) writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(lockfile));
  return dir;
}

const dependencies = { express: '^5.1.0' };
const devDependencies = { typescript: '^7.0.2' };
const lockOf = (deps: object, devDeps: object) => ({ lockfileVersion: 3, packages: { '': { dependencies: deps, devDependencies: devDeps } } });

describe('installCommand', () => {
  it('is npm ci when the lockfile matches package.json', () => {
    expect(installCommand(project({ dependencies, devDependencies }, lockOf(dependencies, devDependencies)))).toEqual(['ci']);
  });

  it('is npm install when a dependency was added to package.json by hand, changed, or there is no lockfile', () => {
    expect(installCommand(project({ dependencies: { ...dependencies, 'left-pad': '^1.3.0' }, devDependencies }, lockOf(dependencies, devDependencies)))).toEqual(['install']);
    expect(installCommand(project({ dependencies: { express: '^5.2.0' }, devDependencies }, lockOf(dependencies, devDependencies)))).toEqual(['install']);
    expect(installCommand(project({ dependencies, devDependencies }))).toEqual(['install']);
    expect(installCommand(project({ dependencies, devDependencies }, { lockfileVersion: 3 }))).toEqual(['install']);
  });
});
