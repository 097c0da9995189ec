/** package.json keeps what the user added across regenerations; capi's own keys stay capi's. */
import { describe, expect, it } from 'vitest';
import { mergePackageJson } from '../../generator/user-edits.ts';

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
