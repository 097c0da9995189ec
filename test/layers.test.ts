/**
 * Tests use fixtures, not the committed output: no test or test helper refers to generated/ by
 * path (an import, a file read, a URL), except the tests whose subject is that output. The
 * import rule is in .dependency-cruiser.cjs (`npm run check:deps`); this covers what it cannot
 * see, paths handed to readFileSync, join or new URL. docs/architecture.md, "Layers and their rules".
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './support/model.ts';

/**
 * The tests of the committed output itself, the same list as COMMITTED_OUTPUT_TESTS in
 * .dependency-cruiser.cjs: is generated/ up to date, do the committed client's types hold, does
 * the front-end example build against the committed client (client.test.ts runs it, and types
 * the client it loads from a fresh project by the committed one).
 */
const COMMITTED_OUTPUT_TESTS = new Set(['test/cli/committed.test.ts', 'test/client/types.check.ts', 'test/client/example.ts', 'test/http/client.test.ts', 'test/layers.test.ts']);

const TEST_SOURCE = /(\.test\.ts|\.check\.ts|^test-[^/]*\.ts)$/;

/** Ways a source can point at generated/: a relative path, a path segment after the repository root, a URL. */
const GENERATED_REFERENCES: readonly RegExp[] = [/(\.\.[/\\])+generated[/\\]/, /\brepoRoot\s*,\s*['"`]generated['"`]/, /\brepoRoot\b[^\n]*['"`]generated[/\\]/];

function refersToGenerated(text: string): boolean {
  return GENERATED_REFERENCES.some((pattern) => pattern.test(text));
}

/** Every file under test/, and the tests and test helpers beside the runtime. */
function testSources(): string[] {
  const under = (folder: string, keep: (name: string) => boolean) =>
    readdirSync(join(repoRoot, folder), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.(ts|mts|mjs|js)$/.test(entry.name) && keep(entry.name))
      .map((entry) => relative(repoRoot, join(entry.parentPath, entry.name)).split('\\').join('/'));
  const inTest = under('test', () => true).filter((path) => !path.startsWith('test/fixtures/') && !path.startsWith('test/golden/'));
  return [...inTest, ...under(join('templates', 'runtime'), (name) => TEST_SOURCE.test(name))];
}

describe('tests use fixtures, not the committed generated/', () => {
  it('recognises the ways of pointing at generated/', () => {
    expect(refersToGenerated("import { model } from '../../../generated/src/model.ts';")).toBe(true);
    expect(refersToGenerated("readFileSync(join(repoRoot, 'generated', 'openapi.json'), 'utf8')")).toBe(true);
    expect(refersToGenerated("new URL('../../../generated/src/graphql/schema.graphql', import.meta.url)")).toBe(true);
    expect(refersToGenerated("resolve(repoRoot, 'generated/src/model.ts')")).toBe(true);
    expect(refersToGenerated("const options = { projectName: 'generated' }; // the generated project")).toBe(false);
    expect(refersToGenerated("capi(['generate', '--out', join(scratch, 'generated')])")).toBe(false);
  });

  it('no test outside the committed-output tests refers to generated/', () => {
    const files = testSources();
    expect(files).toContain('test/support/example-db.ts');
    expect(files).toContain('templates/runtime/graphql/test-plan.ts');
    expect(files).toContain('templates/runtime/query/params.test.ts');
    const offenders = files.filter((path) => !COMMITTED_OUTPUT_TESTS.has(path) && refersToGenerated(readFileSync(join(repoRoot, path), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('the allow-list names files that exist', () => {
    const files = new Set(testSources());
    expect([...COMMITTED_OUTPUT_TESTS].filter((path) => !files.has(path))).toEqual([]);
  });
});
