/**
 * `capi export` on every database: the real Strapi export imported, exported again (gzipped
 * and plain), and the export imported into an empty project gives back every row of every table
 * (ids, documentIds, versions, locales, components with their order, links with both orders,
 * media links, users with their hashes) and every file, byte for byte. Link tables' own `id`
 * column is a surrogate key nothing reads; it is left out of the comparison.
 */
import { cpSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import BetterSqlite from 'better-sqlite3';
import { archiveEntries } from '../../templates/runtime/transfer/archive-reader.ts';
import { archiveFileName, exportArchive } from '../../templates/runtime/transfer/export.ts';
import { clients, openExampleDatabase, type Client, type ExampleDatabase } from '../support/example-db.ts';
import { adminUrl as mysqlAdminUrl } from '../support/mysql.ts';
import { adminUrl as postgresAdminUrl } from '../support/postgres.ts';
import { fixtureArchive, fixtureTotals, runImport, scratchDir, snapshot, sum } from './support.ts';

/** A command line client of a server database: argv that runs `sql` in the database `name`. */
const serverClients: Record<Exclude<Client, 'sqlite'>, { readonly current: string; command(name: string, sql: string): readonly [string, string[]] }> = {
  postgres: {
    current: 'SELECT current_database() AS name',
    command(name, sql) {
      const url = new URL(postgresAdminUrl);
      url.pathname = `/${name}`;
      return ['psql', [url.toString(), '-v', 'ON_ERROR_STOP=1', '-c', sql]];
    },
  },
  mysql: {
    current: 'SELECT DATABASE() AS name',
    command(name, sql) {
      const url = new URL(mysqlAdminUrl);
      return ['mysql', ['-h', url.hostname, '-P', url.port || '3306', '-u', decodeURIComponent(url.username), name, '-e', `SET SESSION sql_mode = 'ANSI_QUOTES'; ${sql}`]];
    },
  },
};

/**
 * A synchronous write through another connection (another process for a server database: its
 * command line client), so that it can run inside a query listener, between two statements of
 * the export.
 */
async function concurrentWriter(ctx: ExampleDatabase, sql: string): Promise<() => void> {
  if (ctx.client === 'sqlite') {
    const [main] = await ctx.db.query<{ file: string }>("SELECT file FROM pragma_database_list WHERE name = 'main'");
    return () => {
      const other = new BetterSqlite(main!.file);
      try {
        other.prepare(sql).run();
      } finally {
        other.close();
      }
    };
  }
  const server = serverClients[ctx.client];
  const [current] = await ctx.db.query<{ name: string }>(server.current);
  const [command, args] = server.command(current!.name, sql);
  return () => {
    const ran = spawnSync(command, args, { encoding: 'utf8' });
    if (ran.status !== 0) throw new Error(ran.stderr);
  };
}

/** The first line of the fixture's `prefix` files that `match` accepts. */
async function fixtureLine(prefix: string, match: (line: Record<string, unknown>) => boolean): Promise<unknown> {
  for await (const item of archiveEntries(fixtureArchive)) {
    const chunks: Buffer[] = [];
    for await (const chunk of item.entry as AsyncIterable<Buffer>) chunks.push(chunk);
    if (!item.path.startsWith(prefix)) continue;
    const found = Buffer.concat(chunks)
      .toString()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find(match);
    if (found !== undefined) return found;
  }
  return undefined;
}

describe('the archive file name', () => {
  it('appends .tar.gz (or .tar without compression) as strapi export does, unless the name ends so', () => {
    expect(archiveFileName('backup', true)).toBe('backup.tar.gz');
    expect(archiveFileName('backup', false)).toBe('backup.tar');
    expect(archiveFileName('backup.tar', true)).toBe('backup.tar.gz');
    expect(archiveFileName('backup.tar', false)).toBe('backup.tar');
    expect(archiveFileName('backup.tar.gz', true)).toBe('backup.tar.gz');
    expect(archiveFileName('backup.tgz', true)).toBe('backup.tgz');
    expect(archiveFileName('dir.v2/backup-2026', true)).toBe('dir.v2/backup-2026.tar.gz');
  });
});

describe.each(clients)('capi export on %s', (client) => {
  let source: ExampleDatabase;
  let scratch: { dir: string; dispose: () => void };
  const uploads = (name: string): string => join(scratch.dir, name);

  beforeAll(async () => {
    source = await openExampleDatabase(client);
    scratch = scratchDir('capi-export');
    await runImport(source.db, source.model, uploads('source'));
  });

  afterAll(async () => {
    await source.close();
    scratch.dispose();
  });

  it.each([true, false])('round-trips every table and file exactly (compressed: %s)', async (compress) => {
    const result = await exportArchive({ file: join(scratch.dir, `backup-${compress}.tar`), db: source.db, model: source.model, uploadDir: uploads('source'), compress });
    expect(result.file).toBe(join(scratch.dir, `backup-${compress}.tar${compress ? '.gz' : ''}`));
    expect(result).toMatchObject({ entities: fixtureTotals.entities, assets: fixtureTotals.assets, missingAssets: [] });
    expect(
      readFileSync(result.file)
        .subarray(0, 2)
        .equals(Buffer.from([0x1f, 0x8b])),
    ).toBe(compress);

    const target = await openExampleDatabase(client);
    try {
      const report = await runImport(target.db, target.model, uploads(`target-${compress}`), { archive: result.file });
      expect(report.problems).toEqual([]);
      expect(sum(report.counts.entities)).toBe(fixtureTotals.entities);
      expect(sum(report.counts.links)).toBe(fixtureTotals.links);
      expect(await snapshot(target.db, target.model)).toEqual(await snapshot(source.db, source.model));
      const names = readdirSync(uploads('source'))
        .filter((n) => !n.startsWith('.'))
        .sort();
      expect(
        readdirSync(uploads(`target-${compress}`))
          .filter((n) => !n.startsWith('.'))
          .sort(),
      ).toEqual(names);
      for (const name of names) expect(readFileSync(join(uploads(`target-${compress}`), name)).equals(readFileSync(join(uploads('source'), name)))).toBe(true);
    } finally {
      await target.close();
    }
  });

  it('splits JSON Lines into parts of the given size, which the import reads in order', async () => {
    const result = await exportArchive({ file: join(scratch.dir, 'parts.tar'), db: source.db, model: source.model, uploadDir: uploads('source'), compress: false, partBytes: 4096 });
    const parts: string[] = [];
    for await (const item of archiveEntries(result.file)) {
      if (item.kind === 'jsonl') parts.push(item.path);
      item.entry.resume();
    }
    expect(parts.filter((p) => p.startsWith('entities/')).length).toBeGreaterThan(5);
    expect(parts).toContain('entities/entities_00002.jsonl');
    expect(parts).toContain('links/links_00002.jsonl');
    const target = await openExampleDatabase(client);
    try {
      await runImport(target.db, target.model, uploads('parts-target'), { archive: result.file });
      expect(await snapshot(target.db, target.model)).toEqual(await snapshot(source.db, source.model));
    } finally {
      await target.close();
    }
  });

  it('exports the rows of files missing from the upload folder, says which, and the import then reports them', async () => {
    cpSync(uploads('source'), uploads('partial'), { recursive: true });
    rmSync(join(uploads('partial'), 'manual_a5e19695ec.pdf'));
    const result = await exportArchive({ file: join(scratch.dir, 'partial.tar'), db: source.db, model: source.model, uploadDir: uploads('partial'), compress: false });
    expect(result.missingAssets).toEqual(['manual_a5e19695ec.pdf']);
    expect(result.assets).toBe(fixtureTotals.assets - 1);
    const target = await openExampleDatabase(client);
    try {
      const report = await runImport(target.db, target.model, uploads('partial-target'), { archive: result.file, dryRun: true });
      expect(report.problems).toEqual([
        { kind: 'difference', message: "the file /uploads/manual_a5e19695ec.pdf is not in the archive's assets", where: expect.stringMatching(/^entities\/entities_00001\.jsonl:\d+$/), count: 1 },
      ]);
    } finally {
      await target.close();
    }
  });

  it('exports one snapshot: a row another process writes during the export is not in it, and the writer is not blocked', async () => {
    const insert = `INSERT INTO tags (document_id, name, created_at, updated_at, published_at) VALUES ('snapshot0000000000000000', 'written during export', '2025-01-01 00:00:00', '2025-01-01 00:00:00', '2025-01-01 00:00:00')`;
    const writeElsewhere = await concurrentWriter(source, insert);
    let wrote = false;
    // Right after the export's first read (its snapshot is taken), another connection commits a row.
    const off = source.db.onQuery((event) => {
      if (wrote || !event.sql.startsWith('SELECT')) return;
      wrote = true;
      writeElsewhere();
    });
    try {
      const result = await exportArchive({ file: join(scratch.dir, 'snapshot.tar'), db: source.db, model: source.model, uploadDir: uploads('source'), compress: false });
      expect(wrote).toBe(true);
      const [row] = await source.db.query<{ n: number | string }>("SELECT COUNT(*) AS n FROM tags WHERE name = 'written during export'");
      expect(Number(row?.n)).toBe(1);
      const target = await openExampleDatabase(client);
      try {
        const report = await runImport(target.db, target.model, uploads('snapshot-target'), { archive: result.file, dryRun: true });
        expect(report.counts.entities['api::tag.tag']).toBe(30);
      } finally {
        await target.close();
      }
    } finally {
      off();
      await source.db.execute("DELETE FROM tags WHERE name = 'written during export'");
    }
  });

  it("writes Strapi's layout and line formats", async () => {
    const result = await exportArchive({ file: join(scratch.dir, 'layout.tar'), db: source.db, model: source.model, uploadDir: uploads('source'), compress: false });
    const paths: string[] = [];
    const entities = new Map<string, unknown>();
    let link: unknown;
    for await (const item of archiveEntries(result.file)) {
      paths.push(item.path);
      const chunks: Buffer[] = [];
      for await (const chunk of item.entry as AsyncIterable<Buffer>) chunks.push(chunk);
      const text = Buffer.concat(chunks).toString();
      if (item.path.startsWith('entities/')) {
        for (const line of text
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { type: string; id: number }))
          entities.set(`${line.type}:${line.id}`, line);
      }
      if (item.path.startsWith('links/'))
        link = text
          .split('\n')
          .map((l) => (l ? (JSON.parse(l) as { left: { field: string; ref: number; pos: number } }) : undefined))
          .find((l) => l?.left.field === 'tags' && l.left.ref === 3 && l.left.pos === 2);
    }
    expect(paths).toEqual(
      expect.arrayContaining([
        'schemas/schemas_00001.jsonl',
        'entities/entities_00001.jsonl',
        'links/links_00001.jsonl',
        'configuration/configuration_00001.jsonl',
        'metadata.json',
        'assets/uploads/red_12fe9cd221.png',
        'assets/metadata/red_12fe9cd221.png.json',
      ]),
    );
    // Rows exactly as Strapi wrote them: every scalar type, timestamps, locales, components and
    // dynamic-zone entries inline with their ids, users with their hashes, files with their formats.
    for (const [type, id] of [
      ['api::article.article', 3],
      ['api::product.product', 1],
      ['api::page.page', 2],
      ['api::about.about', 1],
      ['plugin::users-permissions.user', 1],
      ['plugin::upload.file', 4],
    ] as const) {
      const strapi = await fixtureLine('entities/', (l) => l['type'] === type && l['id'] === id);
      expect(strapi).toMatchObject({ type, id });
      expect(entities.get(`${type}:${id}`)).toEqual(strapi);
    }
    expect(link).toEqual({
      kind: 'relation.basic',
      relation: 'manyToMany',
      left: { type: 'api::article.article', ref: 3, field: 'tags', pos: 2 },
      right: { type: 'api::tag.tag', ref: 4, field: 'articles', pos: 1 },
    });
  });
});
