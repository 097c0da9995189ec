/**
 * `capi import` as a user runs it, in a child process, against a generated project (SQLite)
 * that already holds the fixture's content: damaged archives exit 1 (dry run too), hostile
 * archives (a gzip bomb, a 60 MB line, 50,000 files) are refused or read within a memory budget
 * (the JavaScript heap capped at 128 MB, peak RSS measured), and nothing in the database or the
 * upload folder changes when an import is refused.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Header } from 'tar';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { capi, scratch, type Result } from '../support/cli.ts';
import { conformanceDir, strapiExportDir } from '../support/fixtures.ts';
import { repoRoot } from '../support/model.ts';

const fixture = join(strapiExportDir, 'conformance-seed.tar');
const MiB = 1024 * 1024;
/** Peak RSS of a dry run of the fixture under the same heap cap is about 250 MB on this machine. */
const rssBudget = 400 * MiB;

/** A tar header block for a regular file. */
function header(path: string, size: number): Buffer {
  const block = Buffer.alloc(512);
  new Header({ path, size, mode: 0o644, type: 'File', mtime: new Date(0), uid: 0, gid: 0, uname: '', gname: '' }).encode(block, 0);
  return block;
}

function padding(size: number): Buffer {
  return Buffer.alloc((512 - (size % 512)) % 512);
}

/** The fixture's entries without its end-of-archive blocks, to append hostile entries to. */
function fixtureEntries(): Buffer {
  const tar = readFileSync(fixture);
  let last = tar.length - 1;
  while (last > 0 && tar[last] === 0) last--;
  return tar.subarray(0, Math.ceil((last + 1) / 512) * 512);
}

const endBlocks = Buffer.alloc(1024);

export interface ProjectState {
  readonly database: string;
  readonly uploads: Record<string, string>;
}

/** Every byte that matters: the SQLite file's hash and each file under the upload folder. */
export function projectState(project: string): ProjectState {
  const uploads: Record<string, string> = {};
  const root = join(project, 'public', 'uploads');
  const walk = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else uploads[relative(root, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
    }
  };
  walk(root);
  return {
    database: createHash('sha256')
      .update(readFileSync(join(project, 'data.db')))
      .digest('hex'),
    uploads,
  };
}

describe('capi import in a child process', () => {
  let work: { dir: string; dispose: () => void };
  let project: string;

  const env = (): NodeJS.ProcessEnv => ({ DATABASE_URL: `file:${join(project, 'data.db')}` });

  async function runImport(archive: string, flags: readonly string[] = []): Promise<Result & { memory: { maxRss: number; peakHeap: number } }> {
    const report = join(work.dir, 'memory.json');
    const result = await capi(['import', archive, '--project', project, ...flags], undefined, {
      ...env(),
      NODE_OPTIONS: `--max-old-space-size=128 --require ${join(import.meta.dirname, 'peak-memory.cjs')}`,
      CAPI_TEST_PEAK_MEMORY: report,
    });
    return { ...result, memory: JSON.parse(readFileSync(report, 'utf8')) as { maxRss: number; peakHeap: number } };
  }

  beforeAll(async () => {
    work = scratch('import-cli');
    project = join(work.dir, 'project');
    const generated = await capi(['generate', '--content-types', join(conformanceDir, 'content-types'), '--out', project, '--database', 'sqlite', '--skip-build', '--quiet']);
    if (generated.code !== 0) throw new Error(generated.stderr);
    const plugins = join(project, 'config', 'plugins.json');
    const config = JSON.parse(readFileSync(plugins, 'utf8')) as { i18n: { locales: string[] } };
    config.i18n.locales = ['en', 'fr'];
    writeFileSync(plugins, JSON.stringify(config));
    const imported = await capi(['import', fixture, '--project', project], undefined, env());
    if (imported.code !== 0) throw new Error(imported.stderr);
  }, 120_000);

  afterAll(() => work.dispose());

  it('a damaged archive exits 1 with the reason, dry run and --force alike, and changes nothing', async () => {
    const gzipped = gzipSync(readFileSync(fixture));
    const cut = join(work.dir, 'cut.tar.gz');
    writeFileSync(cut, gzipped.subarray(0, Math.floor(gzipped.length * 0.6)));
    const before = projectState(project);
    for (const flags of [['--dry-run'], ['--force']]) {
      const result = await runImport(cut, flags);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('capi: the archive is damaged: unexpected end of file (Z_BUF_ERROR)');
      expect(result.stderr).not.toMatch(/imported \d+ entries|nothing written/);
    }
    expect(projectState(project)).toEqual(before);
  }, 60_000);

  it('a gzip bomb (a 1 GiB file in 1 MB) is refused at its header, and within a budget when the file limit is raised', async () => {
    const zeros = gzipSync(Buffer.alloc(16 * MiB));
    const bomb = join(work.dir, 'bomb.tar.gz');
    writeFileSync(bomb, Buffer.concat([gzipSync(Buffer.concat([fixtureEntries(), header('assets/uploads/bomb_0123456789.bin', 1024 * MiB)])), ...Array<Buffer>(64).fill(zeros), gzipSync(endBlocks)]));
    expect(statSync(bomb).size).toBeLessThan(2 * MiB);
    const before = projectState(project);

    const refused = await runImport(bomb, ['--force']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "capi: assets/uploads/bomb_0123456789.bin: over the import's limit on the largest asset file, in bytes (209715200); raise it with --max-file-bytes or CAPI_IMPORT_MAX_FILE_BYTES",
    );

    const total = await runImport(bomb, ['--force', '--max-file-bytes', String(2048 * MiB), '--max-total-bytes', String(100 * MiB)]);
    expect(total.code).toBe(1);
    expect(total.stderr).toContain("capi: the archive: over the import's limit on the decompressed size of the whole archive, in bytes (104857600)");
    expect(total.memory.maxRss).toBeLessThan(rssBudget);
    expect(projectState(project)).toEqual(before);
  }, 90_000);

  it('a 60 MB line is refused at the line limit without being held, and the heap stays under its cap', async () => {
    const line = Buffer.from(`[${'0,'.repeat(30 * MiB)}0]\n`);
    const archive = join(work.dir, 'long-line.tar');
    writeFileSync(archive, Buffer.concat([fixtureEntries(), header('configuration/configuration_00002.jsonl', line.length), line, padding(line.length), endBlocks]));
    const before = projectState(project);
    const result = await runImport(archive, ['--force']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("capi: configuration/configuration_00002.jsonl:1: over the import's limit on the longest JSON line, in bytes (16777216)");
    expect(result.memory.maxRss).toBeLessThan(rssBudget);
    expect(projectState(project)).toEqual(before);
  }, 60_000);

  it('an import --force killed while it stores files is undone by the next import: the original files are back, the database unchanged', async () => {
    const uploads = join(project, 'public', 'uploads');
    const names = Object.keys(projectState(project).uploads).filter((name) => !name.startsWith('.'));
    // Bytes of the project's own, so that the archive's versions are told apart.
    for (const name of names) writeFileSync(join(uploads, name), `the project's own ${name}`);
    const before = projectState(project);
    const marker = join(work.dir, 'paused');
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'capi.mjs'), 'import', fixture, '--project', project, '--force'], {
      env: { ...process.env, ...env(), CAPI_IMPORT_TEST_PAUSE: marker },
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await vi.waitFor(() => expect(existsSync(marker)).toBe(true), { timeout: 60_000, interval: 100 });
    child.kill('SIGKILL');
    await exited;
    // Killed with one file replaced by the archive's, the rest not yet.
    const replaced = names.filter((name) => readFileSync(join(uploads, name), 'utf8') !== `the project's own ${name}`);
    expect(replaced).toHaveLength(1);

    const next = await capi(['import', fixture, '--project', project, '--dry-run'], undefined, env());
    expect(next.code).toBe(1);
    expect(next.stdout).toMatch(/^error: the project already has content \(\d+ rows\): --force replaces it$/m);
    expect(projectState(project)).toEqual(before);
  }, 120_000);

  it('50,000 files no row names are read within the budget and not written', async () => {
    const files = Array.from({ length: 50_000 }, (_, i) => Buffer.concat([header(`assets/uploads/orphan_${i}.txt`, 1), Buffer.from('x'), padding(1)]));
    const archive = join(work.dir, 'many-files.tar.gz');
    writeFileSync(archive, gzipSync(Buffer.concat([fixtureEntries(), ...files, endBlocks])));
    const before = projectState(project);
    const result = await runImport(archive, ['--force']);
    expect(result.stderr).toMatch(/imported 79 entries, 40 components, 83 links, 7 files/);
    expect(result.stdout).toContain('note: 50000 asset file(s) belong to no file row; they are not copied');
    expect(result.code).toBe(0);
    expect(result.memory.maxRss).toBeLessThan(rssBudget);
    // The same content again: the rows are rewritten as they were, and no file is added.
    expect(Object.keys(projectState(project).uploads).sort()).toEqual(Object.keys(before.uploads).sort());
  }, 90_000);
});
