/**
 * capi as users get it from npm: its package.json, what `npm pack` puts in the tarball, and the
 * tarball installed into an empty folder, where `npx capi generate` must generate a project that
 * builds with the dependencies installed beside capi and boots.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { templateContext } from '../../generator/emit/project.ts';
import { DATABASE_KINDS } from '../../templates/contract/database.ts';
import { command, outsideScratch, startServer } from '../support/cli.ts';
import { repoRoot } from '../support/model.ts';
import { writeNoteType } from '../support/note-model.ts';

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly bin: Record<string, string>;
  readonly files: readonly string[];
  readonly engines: { readonly node: string };
  readonly dependencies: Record<string, string>;
}

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Manifest;

describe('package.json', () => {
  it('is named capi-gen (capi belongs to another package on npm) and installs the command capi', () => {
    expect(manifest.name).toBe('capi-gen');
    expect(manifest.bin).toEqual({ capi: 'bin/capi.mjs' });
    expect(manifest.engines.node).toBe('>=20.19');
  });

  it.each(DATABASE_KINDS)("depends on every package a generated %s project needs, with the same range, so a project generated inside the user's project builds without its own install", (database) => {
    const context = templateContext({ database, source: 'content-types/', projectName: 'api' });
    for (const [name, range] of Object.entries({ ...context.dependencies, ...context.devDependencies })) {
      expect({ name, range: manifest.dependencies[name] }).toEqual({ name, range });
    }
  });
});

interface PackedFile {
  readonly path: string;
}

describe('npm pack', () => {
  it('holds the command, generator, templates, schemas, docs, README, LICENSE and the lockfile as npm-shrinkwrap.json, and no tests, fixtures or generated output', async () => {
    // prepack copies package-lock.json (which npm never packs) to npm-shrinkwrap.json: the
    // generated project's lockfile is cut out of it (generator/emit/lockfile.ts); postpack removes it.
    const packed = await command('npm', ['pack', '--dry-run', '--json'], { cwd: repoRoot });
    expect(packed.code).toBe(0);
    const [report] = JSON.parse(packed.stdout) as [{ files: PackedFile[] }];
    const paths = report.files.map((f) => f.path);
    for (const path of [
      'package.json',
      'README.md',
      'LICENSE',
      'bin/capi.mjs',
      'bin/capi.ts',
      'bin/develop.ts',
      'generator/generate.ts',
      'generator/prisma/offline.config.ts',
      'templates/project/package.json.hbs',
      'templates/runtime/main.ts',
      'schemas/content-type.schema.json',
      'docs/extending.md',
    ]) {
      expect(paths).toContain(path);
    }
    const tops = new Set(paths.map((p) => p.split('/')[0]));
    expect([...tops].sort()).toEqual(['LICENSE', 'README.md', 'bin', 'docs', 'generator', 'npm-shrinkwrap.json', 'package.json', 'schemas', 'templates']);
    expect(existsSync(join(repoRoot, 'npm-shrinkwrap.json'))).toBe(false);
    expect(paths.filter((p) => p.endsWith('.test.ts') || /(^|\/)test-[^/]*$/.test(p))).toEqual([]);
  });
});

describe('the packed tarball, installed into an empty folder', () => {
  const space = outsideScratch('pack');
  afterAll(() => space.dispose());

  it('runs `npx capi --version` and `npx capi generate`, whose project builds and boots', { timeout: 900_000 }, async () => {
    const packed = await command('npm', ['pack', '--pack-destination', space.dir], { cwd: repoRoot });
    expect(packed.code).toBe(0);
    const tarball = join(space.dir, `capi-gen-${manifest.version}.tgz`);
    expect(existsSync(tarball)).toBe(true);

    const project = join(space.dir, 'project');
    writeNoteType(join(project, 'content-types'));
    writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'my-api', private: true }, null, 2)}\n`);
    const installed = await command('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: project });
    expect(installed.stderr).not.toMatch(/npm error/);
    expect(installed.code).toBe(0);

    const version = await command('npx', ['capi', '--version'], { cwd: project });
    expect(version.stdout).toBe(`${manifest.version}\n`);

    const generated = await command('npx', ['capi', 'generate', '--out', 'api'], { cwd: project });
    expect(generated.stderr).toContain('capi generate content-types → api');
    expect(generated.stderr).toContain('created 0001_init');
    // The project's dependencies resolve from project/node_modules, where capi's are.
    expect(generated.stderr).not.toContain('✓ install');
    expect(generated.stderr).toMatch(/✓ build +tsc, strict, 0 errors/);
    expect(generated.code).toBe(0);

    // A new project opens no content: the installed CLI opens the notes to anyone.
    const granted = await command('npx', ['capi', 'permissions', 'grant', 'public', 'api::note.note.find', '--project', 'api'], { cwd: project });
    expect(granted.stderr).toContain('public may now: api::note.note.find');
    const server = await startServer(join(project, 'api'), { DATABASE_URL: `file:${join(space.dir, 'data.db')}` });
    try {
      expect((await fetch(`${server.url}/_health`)).status).toBe(200);
      expect((await fetch(`${server.url}/api/notes`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
