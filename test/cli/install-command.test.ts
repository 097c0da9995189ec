/**
 * How `capi generate` installs a project's missing dependencies: copied from capi's own
 * installation when it holds every locked package at its version; else `npm ci` when the
 * lockfile names exactly package.json's dependencies (npm ci refuses anything else), `npm
 * install` otherwise.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyFromCapi, installCommand } from '../../generator/install.ts';

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

describe('copyFromCapi', () => {
  /** A node_modules folder as capi's installation would have it: `name@version` with an index.js. */
  function capiInstall(packages: Record<string, string>): string {
    const root = mkdtempSync(join(tmpdir(), 'capi-installed-'));
    dirs.push(root);
    for (const [name, version] of Object.entries(packages)) {
      mkdirSync(join(root, 'node_modules', name, 'bin'), { recursive: true });
      writeFileSync(join(root, 'node_modules', name, 'package.json'), JSON.stringify({ name, version }));
      writeFileSync(join(root, 'node_modules', name, 'bin', 'cli.js'), `// ${name}`);
    }
    return join(root, 'node_modules');
  }
  const locked = (packages: Record<string, { version: string; optional?: boolean; bin?: Record<string, string> }>) => ({
    lockfileVersion: 3,
    packages: { '': {}, ...Object.fromEntries(Object.entries(packages).map(([name, entry]) => [`node_modules/${name}`, entry])) },
  });

  it('copies every locked package and links its commands into node_modules/.bin', () => {
    const modules = capiInstall({ express: '5.1.0', '@scope/tool': '1.2.3' });
    const out = project({}, locked({ express: { version: '5.1.0' }, '@scope/tool': { version: '1.2.3', bin: { tool: 'bin/cli.js' } }, 'other-platform': { version: '1.0.0', optional: true } }));
    expect(copyFromCapi(out, modules)).toBe(2);
    expect(readFileSync(join(out, 'node_modules', '@scope', 'tool', 'bin', 'cli.js'), 'utf8')).toBe('// @scope/tool');
    expect(readlinkSync(join(out, 'node_modules', '.bin', 'tool'))).toBe(join('..', '@scope', 'tool', 'bin', 'cli.js'));
    expect(readFileSync(join(out, 'node_modules', '.bin', 'tool'), 'utf8')).toBe('// @scope/tool');
    // A copy: writing into the project's tree leaves capi's alone.
    writeFileSync(join(out, 'node_modules', 'express', 'bin', 'cli.js'), 'changed');
    expect(readFileSync(join(modules, 'express', 'bin', 'cli.js'), 'utf8')).toBe('// express');
  });

  it('copies nothing when a package is missing or at another version, or node_modules exists: npm settles those', () => {
    const modules = capiInstall({ express: '5.1.0' });
    const missing = project({}, locked({ express: { version: '5.1.0' }, 'left-pad': { version: '1.3.0' } }));
    expect(copyFromCapi(missing, modules)).toBeUndefined();
    expect(existsSync(join(missing, 'node_modules'))).toBe(false);
    expect(copyFromCapi(project({}, locked({ express: { version: '5.2.0' } })), modules)).toBeUndefined();
    const installed = project({}, locked({ express: { version: '5.1.0' } }));
    mkdirSync(join(installed, 'node_modules'));
    expect(copyFromCapi(installed, modules)).toBeUndefined();
  });
});
