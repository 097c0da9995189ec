/**
 * `capi generate --out DIR` with DIR outside the repository, where no node_modules folder above
 * it holds the generated project's dependencies: capi installs them with npm (from npm's cache
 * when it can) and builds; with --no-install, or when npm fails, it says exactly what to run.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { missingDependencies } from '../../generator/install.ts';
import { capi, grant, outsideScratch, startServer } from '../support/cli.ts';
import { writeNoteType } from '../support/note-model.ts';

const space = outsideScratch('outside');
const types = writeNoteType(join(space.dir, 'content-types'));
afterAll(() => space.dispose());

// The generated project has its own package-lock.json (cut out of capi's), so the install is `npm ci`.
describe('capi generate --out outside the repository', () => {
  const out = join(space.dir, 'api');

  it('with --no-install: writes the project, does not build it and prints the commands to run', async () => {
    const result = await capi(['generate', '--content-types', types, '--out', out, '--no-install']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('created 0001_init');
    expect(result.stderr).toMatch(/dependencies are not installed \(.+\); not built\./);
    expect(result.stderr).toContain(`next: cd ${out} && npm ci && npm start`);
    expect(result.stderr).not.toContain('✓ build');
    expect(existsSync(join(out, 'package.json'))).toBe(true);
    expect(existsSync(join(out, 'dist'))).toBe(false);
    expect(missingDependencies(out)).toContain('typescript');
  });

  it("when npm cannot install (offline with an empty cache): exit 1, npm's reason and the commands to run", async () => {
    const offline = join(space.dir, 'offline');
    const cache = join(space.dir, 'empty-npm-cache');
    mkdirSync(cache);
    const result = await capi(['generate', '--content-types', types, '--out', offline], undefined, { CAPI_INSTALL: 'npm', npm_config_cache: cache, npm_config_offline: 'true' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`capi: npm ci failed in ${offline}:`);
    expect(result.stderr).toMatch(/ENOTCACHED|cache mode is 'only-if-cached'/);
    expect(result.stderr).toContain(`run: cd ${offline} && npm ci && npm run build`);
    expect(existsSync(join(offline, 'dist'))).toBe(false);
  });

  it('by default: installs the dependencies into --out, builds, and the project boots', { timeout: 900_000 }, async () => {
    const result = await capi(['generate', '--content-types', types, '--out', out]);
    // capi's own installation (this repository's node_modules) has every package: copied, no npm.
    expect(result.stderr).toMatch(/✓ install +copied from capi's installation: \d+ packages were missing/);
    expect(result.stderr).toMatch(/✓ build +tsc, strict, 0 errors/);
    expect(result.code).toBe(0);
    expect(missingDependencies(out)).toEqual([]);
    expect(existsSync(join(out, 'node_modules', 'better-sqlite3'))).toBe(true);
    grant(out, 'public', ['api::note.note.find']);
    const server = await startServer(out, { DATABASE_URL: `file:${join(space.dir, 'data.db')}` });
    try {
      const notes = await fetch(`${server.url}/api/notes`);
      expect(notes.status).toBe(200);
      expect(await notes.json()).toEqual({ data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } });
    } finally {
      await server.stop();
    }
    // Installed once: the next run finds them and only builds.
    const again = await capi(['generate', '--content-types', types, '--out', out]);
    expect(again.code).toBe(0);
    expect(again.stderr).not.toContain('✓ install');
    expect(again.stderr).toMatch(/✓ build/);
  });
});
