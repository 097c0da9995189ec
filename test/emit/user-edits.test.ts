/** package.json keeps what the user added across regenerations; capi's own keys stay capi's. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EmittedFile } from '../../generator/emit/files.ts';
import { keepUserEdits, mergePackageJson } from '../../generator/user-edits.ts';

const emitted = `${JSON.stringify({ name: 'api', scripts: { start: 'node dist/main.js', build: 'tsc' }, dependencies: { express: '^5.1.0' }, devDependencies: { typescript: '^5.9.0' } }, null, 2)}\n`;

describe('mergePackageJson', () => {
  it('is the emitted file when nothing was added', () => {
    expect(mergePackageJson(emitted, emitted)).toBe(emitted);
  });

  it("keeps the user's dependencies, scripts and top-level keys; capi's entries win", () => {
    const user = JSON.stringify({
      name: 'api',
      scripts: { start: 'node --inspect dist/main.js', lint: 'eslint src' },
      dependencies: { express: '^4.0.0', zod: '^3.0.0' },
      devDependencies: { typescript: '^5.9.0', vitest: '^4.0.0' },
      prettier: { semi: false },
    });
    expect(JSON.parse(mergePackageJson(user, emitted))).toEqual({
      name: 'api',
      scripts: { start: 'node dist/main.js', build: 'tsc', lint: 'eslint src' },
      dependencies: { express: '^5.1.0', zod: '^3.0.0' },
      devDependencies: { typescript: '^5.9.0', vitest: '^4.0.0' },
      prettier: { semi: false },
    });
  });

  it('replaces a package.json that is not a JSON object', () => {
    expect(mergePackageJson('{ not json', emitted)).toBe(emitted);
    expect(mergePackageJson('[1, 2]', emitted)).toBe(emitted);
  });
});

describe('keepUserEdits and the lockfile', () => {
  const lock: EmittedFile = { path: 'package-lock.json', contents: '{}\n', policy: 'owned' };
  const withPackageJson = (contents: string | undefined): EmittedFile[] => {
    const dir = mkdtempSync(join(tmpdir(), 'capi-edits-'));
    try {
      if (contents !== undefined) writeFileSync(join(dir, 'package.json'), contents);
      return keepUserEdits(dir, [{ path: 'package.json', contents: emitted, policy: 'owned' }, lock]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it("owns package-lock.json while the project's dependencies are capi's", () => {
    expect(withPackageJson(undefined)[1]).toEqual(lock);
    expect(withPackageJson(JSON.stringify({ name: 'api', scripts: { lint: 'eslint' }, dependencies: { express: '^4.0.0' } }))[1]).toEqual(lock);
  });

  it('leaves package-lock.json to the user once they add a dependency of their own', () => {
    for (const added of [{ dependencies: { zod: '^3.0.0' } }, { devDependencies: { vitest: '^4.0.0' } }, { optionalDependencies: { 'pg-native': '^3.0.0' } }]) {
      expect(withPackageJson(JSON.stringify({ name: 'api', ...added }))[1]).toEqual({ ...lock, policy: 'create-once' });
    }
  });

  it("keeps the user's install-script approvals beside capi's, and their denials over capi's approvals", () => {
    const ours = `${JSON.stringify({ name: 'api', allowScripts: { sharp: true, prisma: false } }, null, 2)}\n`;
    const user = JSON.stringify({ name: 'api', allowScripts: { sharp: false, canvas: true } });
    expect(JSON.parse(mergePackageJson(user, ours))).toEqual({ name: 'api', allowScripts: { sharp: false, prisma: false, canvas: true } });
  });
});
