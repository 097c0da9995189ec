/**
 * The suite runs on a clone with nothing beside it: no test, test support, runtime, generator or
 * benchmark source reads the shared project folder beside the clone; they read the copies under
 * test/fixtures/ and bench/ that `npm run fixtures:refresh` makes. The refresh script, which
 * copies from there, and this file, which spells out what it looks for, are the exceptions.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conformanceDir, conformanceGoldenDir, strapiExportDir } from './support/fixtures.ts';
import { repoRoot } from './support/model.ts';

/** Folders whose sources are checked (test fixtures are data: they are checked as well). */
const CHECKED = ['bench', 'bin', 'generator', 'templates', 'test', 'scripts'];
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs|json|sh)$/;
const ALLOWED = new Set(['scripts/refresh-fixtures.mjs', 'test/standalone.test.ts']);

const UP_SHARED = ['..', 'shared'].join('/');

/** Ways a source can point at the shared folder: a relative path, path segments, or a URL. */
const SHARED_REFERENCES: readonly RegExp[] = [
  /\.\.[/\\]+shared\b/,
  /['"`]\.\.['"`]\s*,\s*['"`]shared['"`]/,
  /['"`]shared['"`]\s*,\s*['"`](conformance|bench|spec|hooks)['"`]/,
  /\bshared[/\\](conformance|bench|spec|hooks)\b/,
];

function refersToShared(text: string): boolean {
  return SHARED_REFERENCES.some((pattern) => pattern.test(text));
}

function sources(): string[] {
  return CHECKED.flatMap((folder) =>
    readdirSync(join(repoRoot, folder), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && SOURCE.test(entry.name))
      .map((entry) => relative(repoRoot, join(entry.parentPath, entry.name)).split('\\').join('/'))
      .filter((path) => !ALLOWED.has(path)),
  );
}

describe('the repository tests standalone', () => {
  it('recognises every way of pointing at the shared folder', () => {
    // The samples are assembled so that this file does not itself read as pointing there.
    expect(refersToShared(`resolve(repoRoot, '..', 'shared', ` + `'conformance')`)).toBe(true);
    expect(refersToShared(`new URL('../../${UP_SHARED}/conformance/golden', import.meta.url)`)).toBe(true);
    expect(refersToShared(`resolve(import.meta.dirname, '../../../${UP_SHARED}/conformance/golden')`)).toBe(true);
    expect(refersToShared("join(root, 'shared', 'bench', 'shapes.mjs')")).toBe(true);
    expect(refersToShared(`cat $ROOT/${UP_SHARED}/bench/README.md`)).toBe(true);
    expect(refersToShared("{ __component: 'shared.quote' } components_shared_seos components/shared/seo.ts")).toBe(false);
  });

  it('no source outside the refresh script refers to the shared folder', () => {
    const files = sources();
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain('test/conformance/harness.ts');
    expect(files.filter((path) => refersToShared(readFileSync(join(repoRoot, path), 'utf8')))).toEqual([]);
  });

  it('the fixtures the tests read are in the repository', () => {
    const cases = JSON.parse(readFileSync(join(conformanceDir, 'cases.json'), 'utf8')) as { name: string }[];
    const golden = new Set(readdirSync(conformanceGoldenDir));
    expect(cases.length).toBeGreaterThan(100);
    expect(cases.filter((c) => !golden.has(`${c.name}.json`)).map((c) => c.name)).toEqual([]);
    expect(golden).toContain('_schema.graphql');
    for (const tool of ['seed.mjs', 'run-cases.mjs', 'compare.mjs']) expect(readdirSync(conformanceDir)).toContain(tool);
    expect(readdirSync(join(conformanceDir, 'content-types')).filter((file) => file.endsWith('.json')).length).toBeGreaterThan(5);
    expect(readdirSync(strapiExportDir).sort()).toEqual(['README.md', 'conformance-seed.tar', 'seed-map.json']);
    expect(readdirSync(join(repoRoot, 'bench'))).toContain('shapes.mjs');
  });
});
