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

  async function expectRefused(archive: string, message: RegExp, options: { maxLineBytes?: number } = {}): Promise<void> {
    const uploads = path(`uploads-${Math.random().toString(36).slice(2)}`);
    const error = await runImport(ctx.db, ctx.model, uploads, { archive, ...options }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArchiveError);
    expect((error as Error).message).toMatch(message);
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

  it('copies an asset no file row names, with a note', async () => {
    const extra = path('orphan.tar');
    await rewriteArchive(fixtureArchive, extra, undefined, [['assets/uploads/orphan_1234.png', Buffer.from('not referenced')]]);
    const report = await runImport(ctx.db, ctx.model, path('u3'), { archive: extra, dryRun: true });
    expect(report.problems).toEqual([]);
    expect(report.counts.assets).toBe(fixtureTotals.assets + 1);
    expect(report.notes).toContain('1 asset file(s) belong to no file row; they are copied all the same');
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
    await expectRefused(fixtureArchive, /^schemas\/schemas_00001\.jsonl:1: line longer than 0 MB$/, { maxLineBytes: 1000 });
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
    await expectRefused(path('truncated.tar'), /damaged|truncated|unexpected end/i);
  });
});
