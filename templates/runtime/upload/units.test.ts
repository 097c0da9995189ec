/**
 * The upload plugin's pure pieces: hashes, name and path safety, type sniffing, serialization,
 * format rules and the upload folder's undoable moves.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatsFor } from './formats.ts';
import { bytesToKilobytes, generateHash, slugifyBaseName } from './hash.ts';
import { canonicalMime, isMimeAllowed, sniffText, verifyContentType } from './mime.ts';
import { parseFileInfo } from './multipart.ts';
import { parseFileId } from './repository.ts';
import { isStoredFileName, PathEscapeError, plainExtension, resolveInside, sanitizeFileName, servedInline, storedNameFromUrl, uploadResponseHeaders } from './safety.ts';
import { serializeFile, toIsoTimestamp } from './serialize.ts';
import { LocalProvider } from './provider-local.ts';
import type { UploadProvider } from './provider.ts';
import { UploadFolder, workDirOwner } from './storage.ts';
import { removeStored, storeFiles } from './stored-files.ts';

const scratch = mkdtempSync(join(tmpdir(), 'capi-upload-units-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('hashes and sizes', () => {
  it('slugs base names as Strapi does (separator _, case kept)', () => {
    expect(slugifyBaseName('large-gradient')).toBe('large_gradient');
    expect(slugifyBaseName('red')).toBe('red');
    expect(slugifyBaseName('My Photo 2024')).toBe('My_Photo_2024');
    expect(slugifyBaseName('fooBar')).toBe('foo_Bar');
    expect(slugifyBaseName('Crème brûlée & Café')).toBe('Creme_brulee_and_Cafe');
    expect(slugifyBaseName('  --weird__name!!  ')).toBe('weird_name');
    expect(slugifyBaseName('Straße')).toBe('Strasse');
    expect(slugifyBaseName('日本')).toBe('');
    expect(slugifyBaseName('a'.repeat(300))).toHaveLength(100);
  });

  it('ends every hash with 10 random hex characters', () => {
    expect(generateHash('large-gradient')).toMatch(/^large_gradient_[0-9a-f]{10}$/);
    expect(generateHash('日本')).toMatch(/^file_[0-9a-f]{10}$/);
    expect(generateHash('x')).not.toBe(generateHash('x'));
  });

  it('reports kilobytes of 1000 bytes with 2 decimals', () => {
    expect(bytesToKilobytes(20_010)).toBe(20.01);
    expect(bytesToKilobytes(92_247)).toBe(92.25);
    expect(bytesToKilobytes(99)).toBe(0.1);
    expect(bytesToKilobytes(0)).toBe(0);
  });
});

describe('names and paths', () => {
  it('sanitizes display names', () => {
    expect(sanitizeFileName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFileName('C:\\photos\\a.png')).toBe('a.png');
    expect(sanitizeFileName('..')).toBe('file');
    expect(sanitizeFileName('')).toBe('file');
    expect(sanitizeFileName('.hidden.png')).toBe('hidden.png');
    expect(sanitizeFileName('a..b.png')).toBe('a.b.png');
    expect(sanitizeFileName('bad\u0000\u001f\u007fname.png')).toBe('badname.png');
    expect(sanitizeFileName('evil\u202egnp.exe')).toBe('evilgnp.exe');
    expect(sanitizeFileName('  spaced.png  ')).toBe('spaced.png');
    const long = sanitizeFileName(`${'é'.repeat(300)}.jpeg`);
    expect(long).toHaveLength(255);
    expect(long.endsWith('.jpeg')).toBe(true);
  });

  it('keeps only plain extensions', () => {
    expect(plainExtension('a.png')).toBe('.png');
    expect(plainExtension('a.tar.gz')).toBe('.gz');
    expect(plainExtension('png')).toBeUndefined();
    expect(plainExtension('a.p ng')).toBeUndefined();
    expect(plainExtension('a.')).toBeUndefined();
  });

  it('resolves only single safe segments strictly inside the root', () => {
    const root = join(scratch, 'root');
    expect(resolveInside(root, 'a_1.png')).toBe(join(root, 'a_1.png'));
    for (const name of ['', '.', '..', '../x', 'a/b', 'a\\b', '/etc/passwd', '.tmp', 'a..png', 'x\u0000.png']) {
      expect(() => resolveInside(root, name), name).toThrow(PathEscapeError);
    }
    expect(isStoredFileName('thumbnail_red_0123456789.png')).toBe(true);
  });

  it('reads stored names back from local URLs only', () => {
    expect(storedNameFromUrl('/uploads/red_0123456789.png')).toBe('red_0123456789.png');
    expect(storedNameFromUrl('/uploads/../secret')).toBeUndefined();
    expect(storedNameFromUrl('/uploads/a/b.png')).toBeUndefined();
    expect(storedNameFromUrl('https://cdn.example.com/a.png')).toBeUndefined();
  });

  it('serves only passive types inline', () => {
    for (const name of ['a.png', 'a.JPG', 'a.pdf', 'a.mp4', 'a.txt']) expect(servedInline(name), name).toBe(true);
    for (const name of ['a.svg', 'a.html', 'a.htm', 'a.xml', 'a.js', 'a.json', 'a', 'a.xhtml', 'a.zip']) expect(servedInline(name), name).toBe(false);
    expect(uploadResponseHeaders('a.svg')).toEqual({
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'",
      'Cross-Origin-Resource-Policy': 'cross-origin',
      'Content-Disposition': 'attachment',
    });
  });

  it('parses numeric ids only', () => {
    expect(parseFileId('12')).toBe(12);
    for (const value of ['0', '-1', 'abc', '1e3', '1.0', '99999999999', '', undefined, 12]) expect(parseFileId(value), String(value)).toBeUndefined();
  });
});

describe('types', () => {
  it('normalizes and folds aliases', () => {
    expect(canonicalMime('Image/JPG; q=1')).toBe('image/jpeg');
    expect(canonicalMime('')).toBe('application/octet-stream');
    expect(canonicalMime('not a type')).toBe('application/octet-stream');
  });

  it('matches allowed types and wildcards', () => {
    expect(isMimeAllowed('image/png', null)).toBe(true);
    expect(isMimeAllowed('image/png', ['image/*'])).toBe(true);
    expect(isMimeAllowed('image/jpg', ['image/jpeg'])).toBe(true);
    expect(isMimeAllowed('application/pdf', ['image/*', 'text/plain'])).toBe(false);
    expect(isMimeAllowed('imagex/png', ['image/*'])).toBe(false);
  });

  it('recognises SVG and HTML by their markup', () => {
    const sniff = (text: string): string => sniffText(Buffer.from(text));
    expect(sniff('<svg xmlns="http://www.w3.org/2000/svg"/>')).toBe('svg');
    expect(sniff('\ufeff<?xml version="1.0"?>\n<!-- c -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n<svg>')).toBe('svg');
    expect(sniff('<!DOCTYPE svg [ <!ENTITY a "b"> ]><svg>')).toBe('svg');
    expect(sniff('<x:svg xmlns:x="http://www.w3.org/2000/svg">')).toBe('svg');
    expect(sniff('<!doctype html><p>')).toBe('html');
    expect(sniff('  <script>alert(1)</script>')).toBe('html');
    expect(sniff('<?xml version="1.0"?><note/>')).toBe('xml');
    expect(sniff('plain text')).toBe('text');
    expect(sniffText(Uint8Array.from([1, 0, 2]))).toBe('binary');
  });

  it('checks declared types against the content', async () => {
    const file = (name: string, content: string | Buffer): string => {
      const path = join(scratch, name);
      writeFileSync(path, content);
      return path;
    };
    const csv = file('a.csv', 'a,b\n1,2\n');
    expect(await verifyContentType(csv, 'text/csv', 'a.csv')).toBe('text/csv');
    const xml = file('a.xml', '<?xml version="1.0"?><note/>');
    expect(await verifyContentType(xml, 'application/xml', 'a.xml')).toBe('application/xml');
    const svg = file('a.svg', '<?xml version="1.0"?><svg/>');
    expect(await verifyContentType(svg, 'image/svg+xml', 'a.svg')).toBe('image/svg+xml');
    await expect(verifyContentType(svg, 'application/xml', 'a.svg')).rejects.toThrow(/does not match its type application\/xml \(it is image\/svg\+xml\)/);
    const pdf = file('a.pdf', '%PDF-1.1\n%%EOF\n');
    expect(await verifyContentType(pdf, 'application/x-pdf', 'a.pdf')).toBe('application/x-pdf');
    await expect(verifyContentType(csv, 'application/pdf', 'a.csv')).rejects.toThrow(/does not match/);
  });
});

describe('fileInfo', () => {
  it('reads every shape clients send', () => {
    expect(parseFileInfo(undefined, 2)).toEqual([{}, {}]);
    expect(parseFileInfo('{"name":"a","caption":null,"folder":3}', 1)).toEqual([{ name: 'a', caption: null }]);
    expect(parseFileInfo(['{"caption":"a"}', '{"caption":"b"}'], 2)).toEqual([{ caption: 'a' }, { caption: 'b' }]);
    expect(parseFileInfo({ alternativeText: 'x' }, 1)).toEqual([{ alternativeText: 'x' }]);
    expect(parseFileInfo('[{"caption":"a"}]', 3)).toEqual([{ caption: 'a' }, {}, {}]);
    expect(parseFileInfo('', 1)).toEqual([{}]);
  });

  it('reports bad entries the way Strapi words them', () => {
    expect(() => parseFileInfo('{"caption":[1]}', 1)).toThrow('fileInfo.caption must be a `string` type, but the final value was: `[1]`.');
    expect(() => parseFileInfo('[{"name":1}]', 1)).toThrow('fileInfo.0.name must be a `string` type');
    expect(() => parseFileInfo('{oops', 1)).toThrow('fileInfo is not valid JSON');
  });
});

describe('serialization', () => {
  it('reads PostgreSQL timestamps as ISO strings', () => {
    expect(toIsoTimestamp('2025-01-02 03:04:05.678+00')).toBe('2025-01-02T03:04:05.678Z');
    expect(toIsoTimestamp('2025-01-02 05:04:05.6+02')).toBe('2025-01-02T03:04:05.600Z');
    expect(toIsoTimestamp('2025-01-02T03:04:05.678Z')).toBe('2025-01-02T03:04:05.678Z');
    expect(toIsoTimestamp('2025-01-02 03:04:05')).toBe('2025-01-02T03:04:05.000Z');
    expect(toIsoTimestamp(new Date(0))).toBe('1970-01-01T00:00:00.000Z');
    expect(toIsoTimestamp(null)).toBeNull();
    expect(toIsoTimestamp('yesterday')).toBeNull();
  });

  it('gives the same JSON for a SQLite row and a PostgreSQL row', () => {
    const thumbnail = {
      name: 'thumbnail_a.png',
      hash: 'thumbnail_a_0123456789',
      ext: '.png',
      mime: 'image/png',
      path: null,
      width: 245,
      height: 153,
      size: 92.25,
      sizeInBytes: 92247,
      url: '/uploads/thumbnail_a_0123456789.png',
    };
    const base = {
      id: 3,
      document_id: 'abcdefghijklmnopqrstuvwx',
      name: 'a.png',
      alternative_text: null,
      caption: 'c',
      focal_point: null,
      width: 320,
      height: 200,
      hash: 'a_0123456789',
      ext: '.png',
      mime: 'image/png',
      url: '/uploads/a_0123456789.png',
      preview_url: null,
      provider: 'local',
      provider_metadata: null,
      folder_path: '/',
      published_at: null,
    };
    const sqlite = serializeFile({ ...base, size: 20.01, formats: JSON.stringify({ thumbnail }), created_at: '2025-01-02T03:04:05.678Z', updated_at: '2025-01-02T03:04:05.678Z' });
    // JSONB: keys by length; NUMERIC and TIMESTAMPTZ as text.
    const jsonb = Object.fromEntries(Object.entries(thumbnail).sort(([a], [b]) => a.length - b.length || (a < b ? -1 : 1)));
    const postgres = serializeFile({
      ...base,
      size: '20.010000000000000000000000000000',
      formats: { thumbnail: jsonb },
      created_at: '2025-01-02 03:04:05.678+00',
      updated_at: '2025-01-02 03:04:05.678+00',
    });
    expect(JSON.stringify(postgres)).toBe(JSON.stringify(sqlite));
    expect(sqlite).toMatchObject({ id: 3, size: 20.01, createdAt: '2025-01-02T03:04:05.678Z', publishedAt: null, formats: { thumbnail } });
    expect(Object.keys(sqlite)).not.toContain('folderPath');
  });

  it('returns formats null when there are none', () => {
    expect(serializeFile({ formats: null }).formats).toBeNull();
    expect(serializeFile({ formats: '{}' }).formats).toBeNull();
  });
});

describe('format rules', () => {
  it('makes each format only for images larger than it', () => {
    const names = (w: number, h: number): string[] => formatsFor(w, h).map((f) => f.name);
    expect(names(320, 200)).toEqual(['thumbnail']);
    expect(names(245, 156)).toEqual([]);
    expect(names(246, 100)).toEqual(['thumbnail']);
    expect(names(100, 157)).toEqual(['thumbnail']);
    expect(names(500, 500)).toEqual(['thumbnail']);
    expect(names(501, 10)).toEqual(['thumbnail', 'small']);
    expect(names(10, 1001)).toEqual(['thumbnail', 'large', 'medium', 'small']);
  });
});

describe('the upload folder', () => {
  const setup = (): { folder: UploadFolder; local: LocalProvider; work: string } => {
    const root = mkdtempSync(join(scratch, 'uploads-'));
    const folder = UploadFolder.openSync(root);
    const work = join(folder.tmpRoot, 'work-test');
    mkdirSync(work, { recursive: true });
    return { folder, local: new LocalProvider(folder), work };
  };

  it('never overwrites, and takes back what it placed when one move fails', async () => {
    const { folder, local, work } = setup();
    writeFileSync(join(work, 'a'), 'A');
    writeFileSync(join(work, 'b'), 'B');
    writeFileSync(folder.pathOf('taken.png'), 'existing');
    await expect(
      storeFiles(local, [
        { stagedPath: join(work, 'a'), fileName: 'new.png' },
        { stagedPath: join(work, 'b'), fileName: 'taken.png' },
      ]),
    ).rejects.toThrow(/EEXIST/);
    expect(existsSync(folder.pathOf('new.png'))).toBe(false);
    expect(readFileSync(folder.pathOf('taken.png'), 'utf8')).toBe('existing');
  });

  it('displaces files for a replacement and restores them on undo', async () => {
    const { folder, local, work } = setup();
    writeFileSync(folder.pathOf('x.png'), 'old');
    writeFileSync(folder.pathOf('thumbnail_x.png'), 'old thumb');
    writeFileSync(join(work, 'new'), 'new');
    const backupDir = join(work, 'displaced');
    mkdirSync(backupDir);
    const placement = await storeFiles(local, [{ stagedPath: join(work, 'new'), fileName: 'x.png' }], { names: ['x.png', 'thumbnail_x.png', 'missing.png'], backupDir });
    expect(readFileSync(folder.pathOf('x.png'), 'utf8')).toBe('new');
    expect(existsSync(folder.pathOf('thumbnail_x.png'))).toBe(false);
    await placement.undo();
    expect(readFileSync(folder.pathOf('x.png'), 'utf8')).toBe('old');
    expect(readFileSync(folder.pathOf('thumbnail_x.png'), 'utf8')).toBe('old thumb');
  });

  it('is one loop over any provider: a failing put takes back what was stored and restores what was displaced', async () => {
    const { work } = setup();
    // A provider in memory whose third put fails: the loop, not the provider, must undo.
    const objects = new Map<string, string>([
      ['keep.png', 'old keep'],
      ['gone.png', 'old gone'],
    ]);
    let puts = 0;
    const memory: UploadProvider = {
      name: 'memory',
      urlOf: (name) => `memory:${name}`,
      storedName: () => undefined,
      put: async (name, path, _mime, mode) => {
        if (++puts === 3) throw new Error('simulated put failure');
        if (mode === 'create' && objects.has(name)) throw new Error('exists');
        objects.set(name, readFileSync(path, 'utf8'));
      },
      copyOut: async (name, path) => {
        const bytes = objects.get(name);
        if (bytes === undefined) return null;
        writeFileSync(path, bytes, { flag: 'wx' });
        return { mime: 'image/png' };
      },
      delete: async (name) => void objects.delete(name),
    };
    for (const name of ['keep', 'new', 'third']) writeFileSync(join(work, name), `new ${name}`);
    const backupDir = join(work, 'memory-backup');
    mkdirSync(backupDir);
    const files = ['keep', 'new', 'third'].map((name) => ({ stagedPath: join(work, name), fileName: `${name}.png` }));
    await expect(storeFiles(memory, files, { names: ['keep.png', 'gone.png'], backupDir })).rejects.toThrow('simulated put failure');
    expect(Object.fromEntries(objects)).toEqual({ 'keep.png': 'old keep', 'gone.png': 'old gone' });
  });

  it('refuses names that would leave the folder, and removes missing files quietly', async () => {
    const { local, work } = setup();
    writeFileSync(join(work, 'a'), 'A');
    await expect(storeFiles(local, [{ stagedPath: join(work, 'a'), fileName: '../escape.png' }])).rejects.toThrow(PathEscapeError);
    expect(await removeStored(local, ['nothing-here.png'])).toEqual([]);
    expect(await removeStored(local, ['../../etc/passwd'])).toEqual(['../../etc/passwd']);
  });

  it('names work folders after their process, and sweeps those of processes that are gone', async () => {
    const { folder, work } = setup();
    const mine = await folder.createWorkDir();
    const owner = workDirOwner(basename(mine.path));
    expect(owner?.pid).toBe(process.pid);
    const host = owner?.host ?? '';
    const made = (name: string): string => {
      mkdirSync(join(folder.tmpRoot, name, 'nested'), { recursive: true });
      writeFileSync(join(folder.tmpRoot, name, 'nested', 'partial'), 'partial');
      return name;
    };
    const dead = made(`work-${host}-4000001-aaaaaa`);
    const alive = made(`work-${host}-4000002-bbbbbb`);
    const otherHost = made('work-elsewhere-4000001-cccccc');
    const running = (pid: number): boolean => pid === 4000002;

    // This process is still running and made `mine` after it started: only the dead one goes.
    expect((await folder.sweep({ isRunning: running })).sort()).toEqual([dead]);
    expect(existsSync(mine.path) && existsSync(join(folder.tmpRoot, alive)) && existsSync(join(folder.tmpRoot, otherHost)) && existsSync(work)).toBe(true);

    // A process restarted with the same pid (pid 1 in a container) sweeps its previous run's folders.
    expect(await folder.sweep({ isRunning: running, startedAt: Date.now() + 1000 })).toEqual([basename(mine.path)]);

    // A day later, whatever is left is stale, whoever made it.
    const tomorrow = Date.now() + 2 * 24 * 60 * 60 * 1000;
    expect((await folder.sweep({ isRunning: running, now: tomorrow })).sort()).toEqual([alive, otherHost, 'work-test'].sort());
    expect(readdirSync(folder.tmpRoot)).toEqual([]);
  });

  it('asks the system whether a process runs when not told', async () => {
    const { folder } = setup();
    const mine = basename((await folder.createWorkDir()).path);
    const prefix = mine.replace(/-\d+-[^-]+$/, '');
    // A process that has exited (its pid is not reused this quickly), and one that runs.
    const exited = `${prefix}-${spawnSync(process.execPath, ['-e', '0']).pid}-dddddd`;
    const running = `${prefix}-${process.ppid}-eeeeee`;
    mkdirSync(join(folder.tmpRoot, exited));
    mkdirSync(join(folder.tmpRoot, running));
    expect(await folder.sweep()).toEqual([exited]);
    expect(readdirSync(folder.tmpRoot).sort()).toEqual([mine, running, 'work-test'].sort());
  });
});
