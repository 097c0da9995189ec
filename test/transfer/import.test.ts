/**
 * The import's guarantees, on SQLite and PostgreSQL, with the real Strapi export: the dry run's
 * report, refusal of a project with content (and --force replacing it), refusal of mismatched
 * schemas (and --allow-missing), and all-or-nothing: a failure in the middle of the writing
 * pass, or when files are moved into place, leaves the database and the upload folder as before.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ModelSchema } from '../../templates/runtime/schema.ts';
import type { I18nConfig } from '../../templates/runtime/config.ts';
import { localeEntities, readLocaleIdentities } from '../../templates/runtime/rest/locales.ts';
import { archiveEntries } from '../../templates/runtime/transfer/archive-reader.ts';
import { ImportRefusedError } from '../../templates/runtime/transfer/import.ts';
import { clients, openExampleDatabase, type ExampleDatabase } from '../support/example-db.ts';
import { fixtureArchive, fixtureTotals, rewriteArchive, runImport, scratchDir, snapshot, sum } from './support.ts';

function uploadedNames(uploadDir: string): string[] {
  return existsSync(uploadDir)
    ? readdirSync(uploadDir)
        .filter((n) => !n.startsWith('.'))
        .sort()
    : [];
}

function fileContents(uploadDir: string, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, readFileSync(join(uploadDir, name), 'utf8')]));
}

function workFolders(uploadDir: string): string[] {
  return existsSync(join(uploadDir, '.tmp')) ? readdirSync(join(uploadDir, '.tmp')) : [];
}

describe.each(clients)('capi import on %s', (client) => {
  let ctx: ExampleDatabase;
  let scratch: { dir: string; dispose: () => void };
  let uploads: string;

  beforeEach(async () => {
    ctx = await openExampleDatabase(client);
    scratch = scratchDir('capi-import');
    uploads = join(scratch.dir, 'uploads');
  });

  afterEach(async () => {
    await ctx.close();
    scratch.dispose();
  });

  it('dry run: counts every type, lists what is left out and why, writes nothing', async () => {
    const statements: string[] = [];
    const off = ctx.db.onQuery((e) => statements.push(e.sql));
    const report = await runImport(ctx.db, ctx.model, uploads, { dryRun: true });
    off();
    expect(report.written).toBe(false);
    expect(report.problems).toEqual([]);
    expect(report.strapiVersion).toBe('5.54.0');
    expect(report.counts.entities).toEqual({
      'api::about.about': 1,
      'api::article.article': 13,
      'api::author.author': 3,
      'api::category.category': 4,
      'api::global.global': 1,
      'api::internal-note.internal-note': 2,
      'api::page.page': 10,
      'api::product.product': 5,
      'api::tag.tag': 30,
      'plugin::upload.file': 6,
      'plugin::users-permissions.role': 2,
      'plugin::users-permissions.user': 2,
    });
    expect(sum(report.counts.components)).toBe(fixtureTotals.components);
    expect(report.counts.links['api::article.article.tags']).toBe(13);
    expect(report.counts.links['shared.slider.files']).toBe(6);
    expect(report.counts.assets).toBe(fixtureTotals.assets);
    expect(report.counts.skipped['plugin::users-permissions.permission']).toEqual({ count: 59, reason: 'capi keeps role permissions in config/permissions.json' });
    expect(report.counts.skipped['plugin::i18n.locale']?.count).toBe(2);
    expect(report.notes.some((n) => n.startsWith('configuration ('))).toBe(true);
    // Only reads: whether the project is empty.
    expect(statements.every((sql) => sql.startsWith('SELECT'))).toBe(true);
    expect(uploadedNames(uploads)).toEqual([]);
  });

  it('writes rows and links many at a time: one INSERT per table and column list, and one per link without an inverse position', async () => {
    const inserts: string[] = [];
    const off = ctx.db.onQuery((e) => {
      if (e.sql.startsWith('INSERT INTO')) inserts.push(e.sql);
    });
    await runImport(ctx.db, ctx.model, uploads);
    off();
    const single = inserts.filter((sql) => sql.includes('SELECT COALESCE(MAX(inverse_ord), 0) + 1'));
    // Strapi gives no target-side position for one-to-one and one-way relations: product.category
    // (3), page.category (4), product.relatedProducts (3), shared.article-card.article (2),
    // article.featuredProduct (4).
    expect(single).toHaveLength(16);
    // One more: the row that says, after a kill, that the transaction committed (placement-journal.ts).
    expect(inserts.filter((sql) => sql.includes('capi_committed_changes'))).toHaveLength(1);
    // And one for the ids of the archive's locales (rest/locales.ts).
    expect(inserts.filter((sql) => sql.includes('capi_locale_ids'))).toHaveLength(1);
    expect(inserts.length - single.length - 2).toBe(MULTI_ROW_INSERTS);
  });

  it('refuses rows in a locale the project does not configure, and notes roles without permissions', async () => {
    const report = await runImport(ctx.db, ctx.model, uploads, { dryRun: true, locales: ['en'], roles: ['public'] });
    expect(report.problems).toEqual([
      { kind: 'error', message: 'api::page.page: locale "fr" is not one of config/plugins.json i18n.locales (en)', where: expect.stringMatching(/^entities\/entities_00001\.jsonl:\d+$/), count: 5 },
      // The refused rows' links: each problem said once, with how often and where first.
      { kind: 'error', message: 'api::page.page.category: links from rows that are not in the archive (or were refused)', where: 'links/links_00001.jsonl:235', count: 2 },
    ]);
    expect(report.notes).toEqual(
      expect.arrayContaining([
        'locales of the archive missing from config/plugins.json i18n.locales: fr',
        'roles without permissions in config/permissions.json (their users may do nothing until you add them): authenticated',
      ]),
    );
  });

  it("keeps the documentIds of the export's locales and of each document's locale versions", async () => {
    const report = await runImport(ctx.db, ctx.model, uploads);
    expect(report.written).toBe(true);
    // The archive's locale rows (plugin::i18n.locale): Strapi's ids, served for the configured codes.
    const archived = (await readJsonLines(fixtureArchive)).filter((line) => line.type === 'plugin::i18n.locale');
    expect(archived.map((line) => line.data['code'])).toEqual(['en', 'fr']);
    const served = localeEntities(i18n, new Date(), await readLocaleIdentities(ctx.db));
    expect(served.map(({ code, id, documentId }) => ({ code, id, documentId }))).toEqual(archived.map((line) => ({ code: line.data['code'], id: line.id, documentId: line.data['documentId'] })));
    // Every locale version of a page keeps the documentId it had in the archive.
    const pages = archivedPages(await readJsonLines(fixtureArchive));
    const rows = await ctx.db.query<{ id: number | string; document_id: string; locale: string }>('SELECT id, document_id, locale FROM pages ORDER BY id');
    expect(rows.map((r) => [Number(r.id), r.document_id, r.locale])).toEqual(pages);
    expect(new Set(pages.filter(([, documentId]) => pages.filter(([, other]) => other === documentId).length > 1).map(([, , locale]) => locale))).toEqual(new Set(['en', 'fr']));

    // An archive without locale rows leaves none behind (--force replaces the content they went with).
    const bare = join(scratch.dir, 'no-locales.tar');
    await rewriteArchive(fixtureArchive, bare, (path, content) =>
      path.startsWith('entities/')
        ? Buffer.from(
            content
              .toString()
              .split('\n')
              .filter((line) => !line.includes('"plugin::i18n.locale"'))
              .join('\n'),
          )
        : content,
    );
    await runImport(ctx.db, ctx.model, uploads, { archive: bare, force: true });
    expect((await readLocaleIdentities(ctx.db)).size).toBe(0);
    expect(localeEntities(i18n, new Date(), await readLocaleIdentities(ctx.db)).map((l) => l.documentId)).not.toContain(archived[0]!.data['documentId']);
  });

  it("keeps Strapi's fractional relation orders in order (renumbered 1..n)", async () => {
    // Article 9's tags are tag 1, 2, 3 at positions 1, 2, 3; in tag 3's list, articles 3 and 4
    // come first, then 9 and 10. Reordered as Strapi may store it: tag 3 at 1.5, article 9 at 0.5.
    const archive = join(scratch.dir, 'fractional.tar');
    await rewriteArchive(fixtureArchive, archive, (path, content) => {
      if (path !== 'links/links_00001.jsonl') return content;
      const lines = content
        .toString()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { left: { type: string; field?: string; ref: number; pos?: number }; right: { ref: number; pos?: number } });
      for (const line of lines) {
        if (line.left.type === 'api::article.article' && line.left.field === 'tags' && line.left.ref === 9 && line.right.ref === 3) {
          line.left.pos = 1.5;
          line.right.pos = 0.5;
        }
      }
      return Buffer.from(lines.map((l) => JSON.stringify(l)).join('\n'));
    });
    await runImport(ctx.db, ctx.model, uploads, { archive });
    const tags = new Map((await ctx.db.query<{ id: number | string; document_id: string }>('SELECT id, document_id FROM tags')).map((t) => [t.document_id, Number(t.id)]));
    const article9 = await ctx.db.query<{ target_document_id: string; ord: number | string }>('SELECT target_document_id, ord FROM articles_tags_lnk WHERE entity_id = 9 ORDER BY ord');
    expect(article9.map((l) => [tags.get(l.target_document_id), Number(l.ord)])).toEqual([
      [1, 1],
      [3, 2],
      [2, 3],
    ]);
    const tag3 = [...tags].find(([, id]) => id === 3)![0];
    const inverse = await ctx.db.query<{ entity_id: number | string; inverse_ord: number | string }>(
      'SELECT entity_id, inverse_ord FROM articles_tags_lnk WHERE target_document_id = ? ORDER BY inverse_ord, entity_id',
      [tag3],
    );
    expect(inverse.map((l) => [Number(l.entity_id), Number(l.inverse_ord)])).toEqual([
      [9, 1],
      [3, 2],
      [4, 2],
      [10, 3],
    ]);
  });

  it('imports, then refuses to import again into a project with content; --force replaces it', async () => {
    const first = await runImport(ctx.db, ctx.model, uploads);
    expect(first.written).toBe(true);
    expect(sum(first.counts.entities)).toBe(fixtureTotals.entities);
    const before = await snapshot(ctx.db, ctx.model);
    expect(before['articles']).toHaveLength(13);

    const refused = await runImport(ctx.db, ctx.model, uploads).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ImportRefusedError);
    expect((refused as ImportRefusedError).report.problems.map((p) => p.message)).toEqual([`the project already has content (${countRows(before)} rows): --force replaces it`]);
    expect(await snapshot(ctx.db, ctx.model)).toEqual(before);

    // Content made after the import disappears with --force; the archive's comes back whole.
    const at = new Date('2025-01-01T00:00:00.000Z');
    await ctx.db.execute(`INSERT INTO tags (document_id, name, created_at, updated_at, published_at) VALUES ('extra0000000000000000000', 'extra', ?, ?, ?)`, [at, at, at]);
    writeFileSync(join(uploads, 'red_12fe9cd221.png'), 'changed since');
    const forced = await runImport(ctx.db, ctx.model, uploads, { force: true });
    expect(forced.written).toBe(true);
    expect(await snapshot(ctx.db, ctx.model)).toEqual(before);
    expect(readFileSync(join(uploads, 'red_12fe9cd221.png')).subarray(1, 4).toString()).toBe('PNG');
    expect(uploadedNames(uploads)).toHaveLength(fixtureTotals.assets);
    expect(workFolders(uploads)).toEqual([]);
  });

  it('lists every schema difference, both ways, and refuses them unless --allow-missing', async () => {
    const { 'api::tag.tag': _tag, ...contentTypes } = ctx.model.contentTypes;
    const product = ctx.model.contentTypes['api::product.product']!;
    const model: ModelSchema = {
      ...ctx.model,
      contentTypes: {
        ...contentTypes,
        'api::product.product': {
          ...product,
          attributes: { ...product.attributes, barcode: { kind: 'scalar', type: 'string', column: 'barcode', required: false, private: false, localized: false, unique: false } },
        },
      },
    };
    const report = await runImport(ctx.db, model, uploads, { dryRun: true });
    expect(report.problems.filter((p) => p.kind === 'difference').map((p) => p.message)).toEqual(
      expect.arrayContaining([
        'api::tag.tag: in the archive, not in the project',
        'api::product.product.barcode: in the project, not in the archive',
        'api::tag.tag: rows in the archive, type not in the project',
        'api::tag.tag: links in the archive, type not in the project',
      ]),
    );
    expect(report.problems.find((p) => p.message === 'api::tag.tag: rows in the archive, type not in the project')).toMatchObject({
      count: 30,
      where: expect.stringMatching(/^entities\/entities_00001\.jsonl:\d+$/),
    });
    expect(report.problems.every((p) => p.kind === 'difference')).toBe(true);

    await expect(runImport(ctx.db, model, uploads)).rejects.toBeInstanceOf(ImportRefusedError);
    expect(countRows(await snapshot(ctx.db, ctx.model))).toBe(0);

    // Accepted: everything else comes in, the tags (and links to them) stay out.
    const accepted = await runImport(ctx.db, model, uploads, { allowMissing: true });
    expect(accepted.written).toBe(true);
    expect(accepted.counts.entities['api::tag.tag']).toBeUndefined();
    expect(accepted.counts.entities['api::article.article']).toBe(13);
    const rows = await snapshot(ctx.db, ctx.model);
    expect(rows['tags']).toEqual([]);
    expect(rows['articles_tags_lnk']).toEqual([]);
  });

  /**
   * An import --force in a child process, killed with SIGKILL at a test pause point, then the next
   * import (a dry run, which settles what a dead import left before it reads anything). Before its
   * commit the change is undone; after it (before its journal is removed), kept.
   */
  it.each([
    ['store', 'before its commit (one file stored)', 'the original files are back, the rows unchanged'],
    ['commit', 'after its commit, before its journal is removed', 'the new files and the new rows are both kept'],
  ] as const)(
    'an import --force killed at "%s", %s, is settled by the next import: %s',
    async (point, _moment, _outcome) => {
      await runImport(ctx.db, ctx.model, uploads);
      const names = uploadedNames(uploads);
      const imported = { rows: await snapshot(ctx.db, ctx.model), files: fileContents(uploads, names) };
      // The project's own bytes and rows, so that the archive's are told apart.
      for (const name of names) writeFileSync(join(uploads, name), `the project's own ${name}`);
      await ctx.db.execute(`UPDATE files SET alternative_text = 'the project''s own'`);
      const own = { rows: await snapshot(ctx.db, ctx.model), files: fileContents(uploads, names) };

      const paused = join(scratch.dir, 'paused');
      const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'import-child.ts'), JSON.stringify(ctx.config), uploads], {
        env: { ...process.env, CAPI_IMPORT_TEST_PAUSE: paused, CAPI_IMPORT_TEST_PAUSE_AT: point },
        stdio: 'ignore',
      });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await vi.waitFor(() => expect(existsSync(paused)).toBe(true), { timeout: 30_000, interval: 50 });
      child.kill('SIGKILL');
      await exited;
      expect(workFolders(uploads)).toHaveLength(1);

      const next = await runImport(ctx.db, ctx.model, uploads, { dryRun: true });
      expect(next.problems.map((problem) => problem.message)).toEqual([expect.stringMatching(/^the project already has content/)]);
      const expected = point === 'store' ? own : imported;
      expect({ rows: await snapshot(ctx.db, ctx.model), files: fileContents(uploads, names) }).toEqual(expected);
      expect(uploadedNames(uploads)).toEqual(names);
      expect(workFolders(uploads)).toEqual([]);
      expect(await ctx.db.query('SELECT id FROM capi_committed_changes')).toEqual([]);
    },
    60_000,
  );

  describe('rows that break the storage invariants together are refused before commit, naming them', () => {
    type Line = { type?: string; id?: number; data?: Record<string, unknown>; left?: { field?: string } };
    /** Rewrites the fixture's entity or link lines with `edit`, which may add lines. */
    async function edited(name: string, stage: 'entities' | 'links', edit: (lines: Line[]) => Line[]): Promise<string> {
      const archive = join(scratch.dir, `${name}.tar`);
      await rewriteArchive(fixtureArchive, archive, (path, content) => {
        if (path !== `${stage}/${stage}_00001.jsonl`) return content;
        const lines = content
          .toString()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Line);
        return Buffer.from(
          edit(lines)
            .map((l) => JSON.stringify(l))
            .join('\n'),
        );
      });
      return archive;
    }
    const row = (lines: Line[], type: string, id: number): Line => lines.find((l) => l.type === type && l.id === id)!;
    const cases: ReadonlyArray<readonly [string, 'entities' | 'links', (lines: Line[]) => Line[], string]> = [
      [
        'two published rows of one document',
        'entities',
        (lines) => [...lines, { ...row(lines, 'api::tag.tag', 1), id: 9001 }],
        'api::tag.tag: document kme8sgfcyaujcfkv6sn73usc has 2 published versions (rows 1 and 9001); a document has one of each per locale',
      ],
      [
        'two drafts of one document and locale',
        'entities',
        (lines) => lines.map((l) => (l.type === 'api::article.article' && (l.id === 1 || l.id === 2) ? { ...l, data: { ...l.data, publishedAt: null } } : l)),
        'api::article.article: document lh1c5ibmwg6kv44vl5u4d9mv has 2 draft versions (rows 1 and 2); a document has one of each per locale',
      ],
      [
        'a unique value held by two documents',
        'entities',
        (lines) => lines.map((l) => (l.type === 'api::tag.tag' && l.id === 2 ? { ...l, data: { ...l.data, name: 'tag-01' } } : l)),
        'api::tag.tag.name: the unique value "tag-01" is held by 2 published documents (rows 1 and 2)',
      ],
      [
        'two users with one email',
        'entities',
        (lines) => {
          const ada = row(lines, 'plugin::users-permissions.user', 1);
          return [...lines, { ...ada, id: 9002, data: { ...ada.data, documentId: 'zzzzzzzzzzzzzzzzzzzzzzzz', username: 'ada2', email: 'ADA@example.com' } }];
        },
        'plugin::users-permissions.user.email: 2 users have the email "ada@example.com" (compared lower-cased) (rows 1 and 9002); one could not sign in',
      ],
      [
        'two users with one username',
        'entities',
        (lines) => {
          const ada = row(lines, 'plugin::users-permissions.user', 1);
          return [...lines, { ...ada, id: 9003, data: { ...ada.data, documentId: 'yyyyyyyyyyyyyyyyyyyyyyyy', email: 'other@example.com' } }];
        },
        'plugin::users-permissions.user.username: the unique value "ada" is held by 2 published documents (rows 1 and 9003)',
      ],
      ['a media link given twice', 'links', (lines) => [...lines, lines.find((l) => l.left?.field === 'related')!], 'api::author.author.avatar: file 1 is linked 2 times to row 1'],
    ];
    it.each(cases)('%s', async (name, stage, edit, message) => {
      await runImport(ctx.db, ctx.model, uploads);
      const before = await snapshot(ctx.db, ctx.model);
      const files = uploadedNames(uploads).map((n) => [n, readFileSync(join(uploads, n)).toString('base64')]);
      const archive = await edited(name.replace(/\W+/g, '-'), stage, edit);
      const refused = await runImport(ctx.db, ctx.model, uploads, { archive, force: true }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ImportRefusedError);
      expect((refused as ImportRefusedError).report.problems).toEqual([{ kind: 'error', message, count: 1 }]);
      expect(await snapshot(ctx.db, ctx.model)).toEqual(before);
      expect(uploadedNames(uploads).map((n) => [n, readFileSync(join(uploads, n)).toString('base64')])).toEqual(files);
      expect(workFolders(uploads)).toEqual([]);
    });
  });

  it('a failure in the middle of the links leaves the database and the upload folder as they were', async () => {
    // Rows are in, files staged, three link statements written: then the fourth fails.
    let linkStatements = 0;
    const off = ctx.db.onQuery((e) => {
      if (e.error !== undefined || !/^INSERT INTO "[a-z_]+(_lnk|_mph)"/.test(e.sql)) return;
      if (++linkStatements === 4) throw new Error('injected failure');
    });
    await expect(runImport(ctx.db, ctx.model, uploads)).rejects.toThrow('injected failure');
    off();
    expect(linkStatements).toBe(4);
    expect(countRows(await snapshot(ctx.db, ctx.model))).toBe(0);
    expect(uploadedNames(uploads)).toEqual([]);
    expect(workFolders(uploads)).toEqual([]);
  });

  it('a failure over existing content (--force) restores its rows and its files', async () => {
    await runImport(ctx.db, ctx.model, uploads);
    const before = await snapshot(ctx.db, ctx.model);
    const files = uploadedNames(uploads);
    const off = ctx.db.onQuery((e) => {
      if (e.error === undefined && e.sql.startsWith('INSERT INTO "articles_tags_lnk"')) throw new Error('injected failure');
    });
    await expect(runImport(ctx.db, ctx.model, uploads, { force: true })).rejects.toThrow('injected failure');
    off();
    expect(await snapshot(ctx.db, ctx.model)).toEqual(before);
    expect(uploadedNames(uploads)).toEqual(files);
    expect(workFolders(uploads)).toEqual([]);
  });

  it("a file or a folder in the way of the archive's files is refused before anything is written, and the dry run says so", async () => {
    const { mkdirSync } = await import('node:fs');
    mkdirSync(uploads, { recursive: true });
    // A stray file nobody's row owns, with a name the archive uses: never overwritten; a folder under another.
    writeFileSync(join(uploads, 'photo_6eadb8bb04.jpg'), 'not mine to replace');
    mkdirSync(join(uploads, 'red_12fe9cd221.png', 'inside'), { recursive: true });
    const expected = [
      "/uploads/red_12fe9cd221.png: a folder is where the archive's file goes: move it away",
      "/uploads/photo_6eadb8bb04.jpg: a file no file row owns is where the archive's file goes: move it away",
    ];
    const dryRun = await runImport(ctx.db, ctx.model, uploads, { dryRun: true });
    expect(dryRun.problems.map((p) => p.message)).toEqual(expected);
    const refused = await runImport(ctx.db, ctx.model, uploads).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ImportRefusedError);
    expect((refused as ImportRefusedError).report.problems.map((p) => p.message)).toEqual(expected);
    expect(uploadedNames(uploads)).toEqual(['photo_6eadb8bb04.jpg', 'red_12fe9cd221.png']);
    expect(readdirSync(join(uploads, 'red_12fe9cd221.png'))).toEqual(['inside']);
    expect(countRows(await snapshot(ctx.db, ctx.model))).toBe(0);
    expect(readFileSync(join(uploads, 'photo_6eadb8bb04.jpg'), 'utf8')).toBe('not mine to replace');
    expect(workFolders(uploads)).toEqual([]);
  });

  it('an upload folder that is a file is refused with a sentence, not a stack trace', async () => {
    writeFileSync(uploads, 'a file where the upload folder goes');
    const refused = await runImport(ctx.db, ctx.model, uploads).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ImportRefusedError);
    expect((refused as ImportRefusedError).report.problems.map((p) => p.message)).toEqual([`the upload folder ${uploads} is a file, not a folder: move it away`]);
    expect(readFileSync(uploads, 'utf8')).toBe('a file where the upload folder goes');
    expect(countRows(await snapshot(ctx.db, ctx.model))).toBe(0);
    // Its work folder's place taken by a file, likewise.
    const { mkdirSync, rmSync } = await import('node:fs');
    rmSync(uploads);
    mkdirSync(uploads);
    writeFileSync(join(uploads, '.tmp'), 'a file where the work folders go');
    const tmp = await runImport(ctx.db, ctx.model, uploads, { dryRun: true });
    expect(tmp.problems.map((p) => p.message)).toEqual([`the upload folder ${join(uploads, '.tmp')} is a file, not a folder: move it away`]);
    expect(readFileSync(join(uploads, '.tmp'), 'utf8')).toBe('a file where the work folders go');
  });
});

/**
 * Multi-row INSERTs for the fixture's 79 rows, 40 components and 67 positioned links (instead of
 * 186): one per table and column list, at most 100 rows each, and queued rows are written before
 * each single-row link statement (which reads the table).
 */
const MULTI_ROW_INSERTS = 26;

const i18n: I18nConfig = {
  defaultLocale: 'en',
  locales: [
    { code: 'en', name: 'English (en)' },
    { code: 'fr', name: 'French (fr)' },
  ],
};

interface ArchiveLine {
  readonly type: string;
  readonly id: number;
  readonly data: Record<string, unknown>;
}

/** The entity lines of an archive. */
async function readJsonLines(archive: string): Promise<ArchiveLine[]> {
  const lines: ArchiveLine[] = [];
  for await (const item of archiveEntries(archive)) {
    const chunks: Buffer[] = [];
    for await (const chunk of item.entry as AsyncIterable<Buffer>) chunks.push(chunk);
    if (!item.path.startsWith('entities/')) continue;
    for (const text of Buffer.concat(chunks).toString().split('\n')) if (text.trim() !== '') lines.push(JSON.parse(text) as ArchiveLine);
  }
  return lines;
}

/** [id, documentId, locale] of the archive's pages, by id. */
function archivedPages(lines: readonly ArchiveLine[]): Array<[number, string, string]> {
  return lines
    .filter((line) => line.type === 'api::page.page')
    .map((line): [number, string, string] => [line.id, String(line.data['documentId']), String(line.data['locale'])])
    .sort((a, b) => a[0] - b[0]);
}

function countRows(tables: Record<string, unknown[]>): number {
  return Object.entries(tables)
    .filter(([table]) => table !== 'up_roles' && !table.endsWith('_lnk') && table !== 'files_related_mph')
    .reduce((n, [, rows]) => n + rows.length, 0);
}
