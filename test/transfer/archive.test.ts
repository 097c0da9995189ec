/**
 * What the import accepts as an archive: a plain or a gzipped tar (told apart by the gzip magic
 * bytes, whatever the file's name), and nothing hostile or broken: a name climbing out of the
 * archive, an asset name that is not one plain file name, a line beyond the size limit, a line
 * that is not JSON, a file that is no tar, a truncated archive. Each is a clear error naming the
 * entry (and line), and nothing is written. The rows themselves are checked by import.test.ts.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArchiveError } from '../../templates/runtime/transfer/archive-reader.ts';
import { ImportRefusedError, type ImportOptions } from '../../templates/runtime/transfer/import.ts';
import type { ImportReport } from '../../templates/runtime/transfer/report.ts';
import { ImportLimitError } from '../../templates/runtime/transfer/limits.ts';
import { openExampleDatabase, type ExampleDatabase } from '../support/example-db.ts';
import { fixtureArchive, fixtureTotals, rewriteArchive, runImport, scratchDir, snapshot, sum } from './support.ts';

describe('archives capi import reads', () => {
  let ctx: ExampleDatabase;
  let scratch: { dir: string; dispose: () => void };

  beforeAll(async () => {
    ctx = await openExampleDatabase('sqlite');
    scratch = scratchDir('capi-archive');
  });

  afterAll(async () => {
    await ctx.close();
    scratch.dispose();
  });

  const path = (name: string): string => join(scratch.dir, name);

  async function expectRefused(archive: string, message: RegExp, options: Partial<ImportOptions> = {}, type: new (...args: never[]) => Error = ArchiveError): Promise<void> {
    const uploads = path(`uploads-${Math.random().toString(36).slice(2)}`);
    for (const dryRun of [true, false]) {
      const error = await runImport(ctx.db, ctx.model, uploads, { archive, dryRun, ...options }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(type);
      expect((error as Error).message).toMatch(message);
    }
    const rows = await snapshot(ctx.db, ctx.model);
    expect(Object.values(rows).every((table) => table.length === 0)).toBe(true);
    expect(existsSync(uploads) ? readdirSync(uploads).filter((n) => n !== '.tmp') : []).toEqual([]);
  }

  it('reads a gzipped archive like the plain one, whatever its name', async () => {
    const gzipped = path('export.tar');
    writeFileSync(gzipped, gzipSync(readFileSync(fixtureArchive)));
    const plain = await runImport(ctx.db, ctx.model, path('u1'), { dryRun: true });
    const fromGzip = await runImport(ctx.db, ctx.model, path('u2'), { archive: gzipped, dryRun: true });
    expect(fromGzip.counts).toEqual(plain.counts);
    expect(sum(fromGzip.counts.entities)).toBe(fixtureTotals.entities);
    expect(fromGzip.problems).toEqual([]);
  });

  it('leaves out an asset no file row names, with a note', async () => {
    const extra = path('orphan.tar');
    await rewriteArchive(fixtureArchive, extra, undefined, [['assets/uploads/orphan_1234.png', Buffer.from('not referenced')]]);
    const report = await runImport(ctx.db, ctx.model, path('u3'), { archive: extra, dryRun: true });
    expect(report.problems).toEqual([]);
    expect(report.counts.assets).toBe(fixtureTotals.assets);
    expect(report.notes).toContain('1 asset file(s) belong to no file row; they are not copied');
    const written = await runImport(ctx.db, ctx.model, path('u3'), { archive: extra });
    expect(written.written).toBe(true);
    expect(readdirSync(path('u3')).filter((n) => n !== '.tmp')).toHaveLength(fixtureTotals.assets);
    expect(existsSync(path('u3/orphan_1234.png'))).toBe(false);
    await ctx.close();
    ctx = await openExampleDatabase('sqlite');
  });

  it('refuses an entry whose path leaves the archive', async () => {
    const hostile = path('traversal.tar');
    await rewriteArchive(fixtureArchive, hostile, undefined, [['assets/uploads/../../../escaped.txt', Buffer.from('gotcha')]]);
    await expectRefused(hostile, /refusing the archive entry "assets\/uploads\/\.\.\/\.\.\/\.\.\/escaped\.txt": its path leaves the archive/);
    expect(existsSync(join(scratch.dir, '..', 'escaped.txt'))).toBe(false);
  });

  it('refuses an asset whose name is not one plain file name', async () => {
    const hostile = path('dotfile.tar');
    await rewriteArchive(fixtureArchive, hostile, undefined, [['assets/uploads/.htaccess', Buffer.from('Options +ExecCGI')]]);
    await expectRefused(hostile, /assets\/uploads\/\.htaccess: refusing the asset name "\.htaccess"/);
  });

  it('refuses a line longer than the limit, naming the file and line', async () => {
    await expectRefused(
      fixtureArchive,
      /^schemas\/schemas_00001\.jsonl:1: over the import's limit on the longest JSON line, in bytes \(1000\); raise it with --max-line-bytes or CAPI_IMPORT_MAX_LINE_BYTES if the archive is trusted$/,
      { limits: { maxLineBytes: 1000 } },
      ImportLimitError,
    );
  });

  it('refuses an archive with more entries or lines than its budget, naming the limit and how to raise it', async () => {
    // The fixture has 19 entries and 514 lines (schemas, rows, links, configuration items).
    await expectRefused(
      fixtureArchive,
      /^the archive: over the import's limit on the number of entries \(files\) in the archive \(18\); raise it with --max-entries or CAPI_IMPORT_MAX_ENTRIES/,
      { limits: { maxEntries: 18 } },
      ImportLimitError,
    );
    await expectRefused(
      fixtureArchive,
      /^links\/links_00001\.jsonl:\d+: over the import's limit on the number of JSON lines .* \(300\); raise it with --max-lines/,
      { limits: { maxLines: 300 } },
      ImportLimitError,
    );
    await expectRefused(
      fixtureArchive,
      /^assets\/uploads\/thumbnail_large_gradient_767c8976de\.png: over the import's limit on the largest asset file, in bytes \(50000\)/,
      { limits: { maxFileBytes: 50_000 } },
      ImportLimitError,
    );
    await expectRefused(
      fixtureArchive,
      /^the archive: over the import's limit on the decompressed size of the whole archive, in bytes \(100000\)/,
      { limits: { maxTotalBytes: 100_000 } },
      ImportLimitError,
    );
    const within = await runImport(ctx.db, ctx.model, path('u-within'), { dryRun: true, limits: { maxEntries: 19, maxLines: 514, maxFileBytes: 92_247 } });
    expect(within.problems).toEqual([]);
  });

  it('keeps the report bounded when every bad line is different: 1,000 problems and skipped types listed, the rest counted together', async () => {
    const file = path('distinct.tar');
    const lines = Array.from({ length: 3000 }, (_, i) => `{"type":"api::nope-${i}.nope","id":1,"data":{}}\n{"type":"admin::thing-${i}","id":1,"data":{}}`).join('\n');
    await rewriteArchive(fixtureArchive, file, (entry, content) => (entry === 'entities/entities_00001.jsonl' ? Buffer.concat([content, Buffer.from(`\n${lines}\n`)]) : content));
    const report = await runImport(ctx.db, ctx.model, path('u-distinct'), { archive: file, dryRun: true });
    expect(report.problems).toHaveLength(1001);
    expect(report.problems.at(-1)).toMatchObject({ kind: 'difference', message: 'more differences, not listed one by one', count: 2000 });
    expect(Object.keys(report.counts.skipped)).toHaveLength(1001);
    expect(report.counts.skipped['other types and fields']?.count).toBeGreaterThan(2000);
  });

  it('refuses a line that is not JSON, late in the archive, before writing anything', async () => {
    const broken = path('bad-json.tar');
    await rewriteArchive(fixtureArchive, broken, (entry, content) => (entry === 'links/links_00001.jsonl' ? Buffer.concat([content, Buffer.from('{"kind": "relation.basic", oops\n')]) : content));
    await expectRefused(broken, /^links\/links_00001\.jsonl:289: not JSON/);
  });

  it('refuses a line that is JSON but not an entity', async () => {
    const broken = path('bad-entity.tar');
    await rewriteArchive(fixtureArchive, broken, (entry, content) =>
      entry === 'entities/entities_00001.jsonl' ? Buffer.concat([content, Buffer.from('\n{"type":"api::tag.tag","id":-1,"data":{}}\n')]) : content,
    );
    await expectRefused(broken, /^entities\/entities_00001\.jsonl:142: not an entity line \(\{ type, id, data \} with a row id from 1 to 2147483647\)$/);
  });

  it('refuses a file that is no tar (an encrypted export, say) and a truncated archive', async () => {
    writeFileSync(path('random.tar.gz.enc'), Buffer.from('Salted__ not a tar at all, this is ciphertext'.repeat(20)));
    await expectRefused(path('random.tar.gz.enc'), /neither a tar nor a gzipped tar archive \(an encrypted export\? run `strapi export --no-encrypt`\)/);
    const whole = readFileSync(fixtureArchive);
    writeFileSync(path('truncated.tar'), whole.subarray(0, Math.floor(whole.length / 2) + 100));
    await expectRefused(path('truncated.tar'), /^the archive is cut short: it ends inside an entry$/);
  });

  describe('values that would be changed silently or crash a walk are refused with the line', () => {
    const appended = (stage: 'entities' | 'links', line: Buffer): ((entry: string, content: Buffer) => Buffer) => {
      return (entry, content) => (entry === `${stage}/${stage}_00001.jsonl` ? Buffer.concat([content, Buffer.from('\n'), line, Buffer.from('\n')]) : content);
    };
    const entity = (data: string): Buffer =>
      Buffer.from(`{"type":"api::tag.tag","id":9999,"data":{"documentId":"deepdeepdeepdeepdeepdeep","name":"x","createdAt":"2025-01-01T00:00:00.000Z",${data}}}`);
    const cases: ReadonlyArray<readonly [string, 'entities' | 'links', Buffer, RegExp]> = [
      [
        'a value nested 10,000 levels deep',
        'entities',
        entity(`"name2":${'['.repeat(10_000)}${']'.repeat(10_000)}`),
        /^entities\/entities_00001\.jsonl:142: objects and arrays nested deeper than 128 levels$/,
      ],
      [
        'a __proto__ key',
        'entities',
        entity('"__proto__":{"polluted":true}'),
        /^entities\/entities_00001\.jsonl:142: refusing the key "__proto__" \(it would replace an object's prototype, not hold a value\)$/,
      ],
      [
        'a __proto__ key spelled with an escape',
        'links',
        Buffer.from(
          '{"kind":"relation.basic","relation":"manyToMany","left":{"type":"api::article.article","ref":1,"field":"tags","pos":1,"\\u005f_proto__":{}},"right":{"type":"api::tag.tag","ref":1}}',
        ),
        /^links\/links_00001\.jsonl:290: refusing the key "__proto__"/,
      ],
      [
        'bytes that are not UTF-8',
        'entities',
        Buffer.concat([Buffer.from('{"type":"api::tag.tag","id":9999,"data":{"name":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}}')]),
        /^entities\/entities_00001\.jsonl:142: not UTF-8 text/,
      ],
    ];
    it.each(cases)('%s', async (name, stage, line, message) => {
      const file = path(`${name.replace(/\W+/g, '-')}.tar`);
      await rewriteArchive(fixtureArchive, file, appended(stage, line));
      await expectRefused(file, message);
    });

    it('types named constructor and __proto__ are types the project lacks, not a crash', async () => {
      const file = path('constructor.tar');
      const lines = ['constructor', '__proto__', 'toString'].map((uid) => `{"type":"${uid}","id":1,"data":{"documentId":"aaaaaaaaaaaaaaaaaaaaaaaa","constructor":1}}`);
      const schemas = ['constructor', '__proto__'].map((uid) => `{"uid":"${uid}","modelType":"contentType","attributes":{"constructor":{"type":"string"},"__proto": {"type":"string"}}}`);
      const link =
        '{"kind":"relation.basic","relation":"manyToMany","left":{"type":"api::article.article","ref":1,"field":"constructor"},"right":{"type":"hasOwnProperty","ref":1,"field":"__proto__"}}';
      await rewriteArchive(fixtureArchive, file, (entry, content) => {
        if (entry === 'entities/entities_00001.jsonl') return Buffer.concat([content, Buffer.from(`\n${lines.join('\n')}\n`)]);
        if (entry === 'schemas/schemas_00001.jsonl') return Buffer.concat([content, Buffer.from(`\n${schemas.join('\n')}\n`)]);
        if (entry === 'links/links_00001.jsonl') return Buffer.concat([content, Buffer.from(`\n${link}\n`)]);
        return content;
      });
      const report = await runImport(ctx.db, ctx.model, path('u-constructor'), { archive: file, dryRun: true });
      expect(report.problems.map((p) => p.message)).toEqual([
        'constructor: rows in the archive, type not in the project',
        '__proto__: rows in the archive, type not in the project',
        'toString: rows in the archive, type not in the project',
        'hasOwnProperty: links in the archive, type not in the project',
        'constructor: in the archive, not in the project',
        '__proto__: in the archive, not in the project',
      ]);
      await expect(runImport(ctx.db, ctx.model, path('u-constructor'), { archive: file })).rejects.toBeInstanceOf(ImportRefusedError);
    });

    it('a link position an order column cannot hold is refused; one below 1 is renumbered, and the report says so', async () => {
      const edit = (pos: number) => (entry: string, content: Buffer) => {
        if (entry !== 'links/links_00001.jsonl') return content;
        const lines = content.toString().split('\n').filter(Boolean);
        const index = lines.findIndex((l) => l.includes('"field":"tags"'));
        const line = JSON.parse(lines[index]!) as { left: { pos: number } };
        line.left.pos = pos;
        lines[index] = JSON.stringify(line);
        return Buffer.from(lines.join('\n'));
      };
      await rewriteArchive(fixtureArchive, path('huge-pos.tar'), edit(1e12));
      const huge = await runImport(ctx.db, ctx.model, path('u-pos'), { archive: path('huge-pos.tar'), dryRun: true });
      expect(huge.problems.map((p) => p.message)).toEqual(['api::article.article.tags: a link position (1000000000000) outside the range an order column holds (±2147483647)']);
      await rewriteArchive(fixtureArchive, path('negative-pos.tar'), edit(-3));
      const negative = await runImport(ctx.db, ctx.model, path('u-pos'), { archive: path('negative-pos.tar'), dryRun: true });
      expect(negative.problems).toEqual([]);
      expect(negative.notes).toContain("1 relation position(s) were fractional or below 1, which capi's order columns do not hold: their lists keep their order, renumbered 1..n");
    });
  });

  describe('a damaged or cut archive is refused, never read as a shorter one', () => {
    const whole = (): Buffer => readFileSync(fixtureArchive);
    const gzipped = (): Buffer => gzipSync(whole());
    const cases: ReadonlyArray<readonly [string, () => Buffer, RegExp]> = [
      ['a gzip stream cut short', () => gzipped().subarray(0, Math.floor(gzipped().length * 0.6)), /^the archive is damaged: unexpected end of file \(Z_BUF_ERROR\)$/],
      ['a gzip stream missing its last bytes', () => gzipped().subarray(0, gzipped().length - 4), /^the archive is damaged: unexpected end of file/],
      [
        'a gzip stream with a bad CRC',
        () => {
          const gz = gzipped();
          return Buffer.concat([gz.subarray(0, gz.length - 8), Buffer.from([1, 2, 3, 4]), gz.subarray(gz.length - 4)]);
        },
        /^the archive is damaged: incorrect data check \(Z_DATA_ERROR\)$/,
      ],
      ['bytes after the gzip stream', () => Buffer.concat([gzipped(), Buffer.from('trailing garbage')]), /^the archive is damaged: incorrect header check \(Z_DATA_ERROR\)$/],
      ['bytes after the end of a tar', () => Buffer.concat([whole(), Buffer.from('trailing garbage')]), /^the archive is damaged: bytes follow its end-of-archive blocks$/],
      // The fixture ends with 1,024 empty bytes after its last entry (metadata.json): cut there, every entry is whole.
      ['a tar cut between two entries', () => whole().subarray(0, whole().length - 1024), /^the archive is cut short: it ends between two entries, without tar's end-of-archive blocks$/],
      ['a gzipped tar cut between two entries', () => gzipSync(whole().subarray(0, whole().length - 1024)), /^the archive is cut short: it ends between two entries/],
      [
        'a tar header that fails its checksum',
        () => {
          // The second entry's header: after the first's (schemas, 53,349 bytes in 105 blocks).
          const tar = Buffer.from(whole());
          tar[512 * 106 + 10] = 0x41;
          return tar;
        },
        /^the archive is damaged: a tar header fails its checksum$/,
      ],
    ];
    it.each(cases)('%s (dry run and import)', async (name, bytes, message) => {
      const file = path(`${name.replace(/\W+/g, '-')}.tar.gz`);
      writeFileSync(file, bytes());
      await expectRefused(file, message);
    });

    it('an archive whose stages are missing (cut before links/, written again whole) is refused naming them', async () => {
      const cut = path('no-links.tar');
      await rewriteArchive(fixtureArchive, cut, (entry, content) => (/^(links|configuration|assets)\//.test(entry) || entry === 'metadata.json' ? null : content));
      const uploads = path('u-no-links');
      for (const dryRun of [true, false]) {
        const outcome = await runImport(ctx.db, ctx.model, uploads, { archive: cut, dryRun, allowMissing: true }).catch((e: unknown) => e);
        const report = dryRun ? (outcome as ImportReport) : (outcome as ImportRefusedError).report;
        if (!dryRun) expect(outcome).toBeInstanceOf(ImportRefusedError);
        expect(report.written).toBe(false);
        expect(report.problems.filter((p) => p.kind === 'error').map((p) => p.message)).toEqual([
          'the archive has no links/, which strapi export always writes: it was cut short, or is not a strapi export archive',
          'the archive has no configuration/, which strapi export always writes: it was cut short, or is not a strapi export archive',
          'the archive has no metadata.json, which strapi export always writes: it was cut short, or is not a strapi export archive',
        ]);
      }
      expect(Object.values(await snapshot(ctx.db, ctx.model)).every((table) => table.length === 0)).toBe(true);
      expect(existsSync(uploads) ? readdirSync(uploads).filter((n) => n !== '.tmp') : []).toEqual([]);
    });
  });
});
