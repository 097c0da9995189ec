/**
 * `npm run bench:transfer -- [--entries 100000] [--assets 200] [--asset-kb 512] [--database sqlite|postgres]`:
 * generates a synthetic Strapi data-transfer archive for the example model (streamed to disk:
 * authors, categories, tags, then articles with a draft and a published row each, an SEO
 * component and two dynamic-zone entries, author/category/tags links and a cover; files with
 * their asset bytes), imports it into an empty database in a child process and reports the
 * time of each pass and that process's peak RSS, then exports it back and reports the same.
 * Figures go to docs/migrating-from-strapi.md; not part of `npm test`.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { model } from '../generated/src/model.ts';
import { openDatabase } from '../templates/runtime/database.ts';
import { ArchiveWriter } from '../templates/runtime/transfer/archive-writer.ts';
import { exportArchive } from '../templates/runtime/transfer/export.ts';
import { importArchive } from '../templates/runtime/transfer/import.ts';
import { archiveSchemas } from '../templates/runtime/transfer/schema-export.ts';
import { emitPrismaSchema } from '../generator/emit/prisma.ts';
import { diffSchemas } from '../generator/migrations.ts';
import { exampleContentTypes, loadModelFrom, repoRoot } from '../test/support/model.ts';
import { createTestDatabase } from '../test/support/postgres.ts';

const { values } = parseArgs({
  options: {
    entries: { type: 'string', default: '100000' },
    assets: { type: 'string', default: '200' },
    'asset-kb': { type: 'string', default: '512' },
    database: { type: 'string', default: 'sqlite' },
    // Internal: the child process that measures one import or export.
    measure: { type: 'string' },
    archive: { type: 'string' },
    url: { type: 'string' },
    uploads: { type: 'string' },
  },
});

const workDir = join(repoRoot, 'tmp', 'bench-transfer');

if (values.measure !== undefined) await measure(values.measure);
else await main();

async function main(): Promise<void> {
  const entries = Number(values.entries);
  const assets = Number(values.assets);
  const assetBytes = Number(values['asset-kb']) * 1024;
  const database = values.database === 'postgres' ? 'postgres' : 'sqlite';
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  const archive = join(workDir, 'synthetic.tar');
  const started = performance.now();
  const lines = await writeSyntheticArchive(archive, entries, assets, assetBytes);
  const generateMs = performance.now() - started;
  const size = statSync(archive).size;
  process.stdout.write(`archive: ${lines.entities} entities, ${lines.links} links, ${assets} assets, ${(size / 1024 / 1024).toFixed(0)} MB, written in ${(generateMs / 1000).toFixed(1)} s\n`);

  const pg = database === 'postgres' ? await createTestDatabase('capi_bench_transfer') : undefined;
  const url = pg?.url ?? `file:${join(workDir, 'bench.db')}`;
  const db = await openDatabase(database === 'postgres' ? { client: 'postgres', url, label: 'bench', pool: { max: 2 } } : { client: 'sqlite', filename: join(workDir, 'bench.db'), label: 'bench.db' });
  await db.exec(await diffSchemas(undefined, emitPrismaSchema(loadModelFrom(exampleContentTypes), database, 'content-types/'), database));
  await db.close();
  try {
    for (const step of ['import', 'export'] as const) {
      const child = spawnSync(
        process.execPath,
        ['--import', 'tsx', join(import.meta.dirname, 'transfer.ts'), '--measure', step, '--archive', archive, '--url', url, '--uploads', join(workDir, 'uploads'), '--database', database],
        {
          encoding: 'utf8',
          cwd: repoRoot,
        },
      );
      if (child.status !== 0) throw new Error(`${step} failed:\n${child.stderr}`);
      process.stdout.write(child.stdout);
    }
  } finally {
    await pg?.drop();
  }
}

/** Runs one import or export and prints its time and this process's peak RSS. */
async function measure(step: string): Promise<void> {
  const database = values.database === 'postgres' ? 'postgres' : 'sqlite';
  const url = values.url ?? '';
  const db = await openDatabase(database === 'postgres' ? { client: 'postgres', url, label: 'bench', pool: { max: 2 } } : { client: 'sqlite', filename: url.slice('file:'.length), label: 'bench.db' });
  const stages: Record<string, number> = {};
  let last = performance.now();
  const started = last;
  try {
    if (step === 'import') {
      const report = await importArchive({
        archive: values.archive ?? '',
        db,
        model,
        uploadDir: values.uploads ?? '',
        locales: ['en', 'fr'],
        roles: ['public', 'authenticated'],
        allowMissing: false,
        progress: (event) => {
          if (!event.finished) return;
          const now = performance.now();
          stages[event.stage] = now - last;
          last = now;
        },
      });
      if (report.problems.length > 0) throw new Error(JSON.stringify(report.problems));
    } else {
      await exportArchive({ file: join(workDir, 'exported.tar'), db, model, uploadDir: values.uploads ?? '', compress: true });
    }
  } finally {
    await db.close();
  }
  const total = performance.now() - started;
  const maxRssMb = process.resourceUsage().maxRSS / 1024;
  const detail = Object.entries(stages)
    .map(([stage, ms]) => `${stage} ${(ms / 1000).toFixed(1)} s`)
    .join(', ');
  process.stdout.write(`${step} (${database}): ${(total / 1000).toFixed(1)} s${detail ? ` (${detail})` : ''}, peak RSS ${maxRssMb.toFixed(0)} MB\n`);
}

/** Streams a synthetic archive to disk; returns how many lines it wrote. */
async function writeSyntheticArchive(file: string, entries: number, assets: number, assetBytes: number): Promise<{ entities: number; links: number }> {
  const archive = new ArchiveWriter(file, false);
  const schemas = archive.lines('schemas');
  for (const schema of archiveSchemas(model)) await schemas.write(schema);
  await schemas.close();

  const now = new Date('2025-01-01T00:00:00.000Z').toISOString();
  const doc = (prefix: string, n: number): string => `${prefix}${String(n).padStart(24 - prefix.length, '0')}`;
  const authors = Math.max(1, Math.floor(entries / 100));
  const categories = Math.max(1, Math.floor(entries / 100));
  const tags = Math.max(3, Math.floor(entries / 20));
  const files = assets;
  const articles = Math.max(0, Math.floor((entries - authors - categories - tags - files) / 2));
  const out = archive.lines('entities');
  let componentId = 0;
  for (let id = 1; id <= files; id++) {
    const hash = `bench_${id}`;
    await out.write({
      type: 'plugin::upload.file',
      id,
      data: {
        documentId: doc('f', id),
        name: `${hash}.bin`,
        alternativeText: null,
        caption: null,
        focalPoint: null,
        width: null,
        height: null,
        formats: null,
        hash,
        ext: '.bin',
        mime: 'application/octet-stream',
        size: assetBytes / 1000,
        url: `/uploads/${hash}.bin`,
        previewUrl: null,
        provider: 'local',
        provider_metadata: null,
        folderPath: '/1',
        createdAt: now,
        updatedAt: now,
        publishedAt: now,
        locale: null,
      },
    });
  }
  for (let id = 1; id <= authors; id++)
    await out.write({
      type: 'api::author.author',
      id,
      data: { documentId: doc('a', id), name: `Author ${id}`, email: `author${id}@example.com`, bio: 'A writer.', createdAt: now, updatedAt: now, publishedAt: now, locale: null },
    });
  for (let id = 1; id <= categories; id++)
    await out.write({
      type: 'api::category.category',
      id,
      data: { documentId: doc('c', id), name: `Category ${id}`, slug: `category-${id}`, description: null, createdAt: now, updatedAt: now, publishedAt: now, locale: null },
    });
  for (let id = 1; id <= tags; id++)
    await out.write({ type: 'api::tag.tag', id, data: { documentId: doc('t', id), name: `tag-${id}`, weight: id % 10, createdAt: now, updatedAt: now, publishedAt: now, locale: null } });
  for (let n = 1; n <= articles; n++) {
    for (const published of [false, true]) {
      const id = n * 2 - (published ? 0 : 1);
      const seo = { id: ++componentId, metaTitle: `Article ${n}`, metaDescription: 'Lorem ipsum dolor sit amet, consectetur adipiscing elit.', metaSocial: [] };
      const blocks = [
        { id: componentId, __component: 'shared.quote', title: 'Ada', body: 'That brain of mine is more than merely mortal.' },
        { id: componentId, __component: 'shared.rich-text', body: `# Article ${n}\n\n${'Some text. '.repeat(40)}` },
      ];
      await out.write({
        type: 'api::article.article',
        id,
        data: {
          documentId: doc('r', n),
          title: `Article ${n}`,
          description: 'A synthetic article',
          slug: `article-${n}`,
          readingTime: n % 15,
          featured: n % 7 === 0,
          createdAt: now,
          updatedAt: now,
          publishedAt: published ? now : null,
          locale: null,
          blocks,
          seo,
        },
      });
    }
  }
  await out.close();

  const bytes = randomBytes(Math.min(assetBytes, 1024 * 1024));
  for (let id = 1; id <= files; id++) {
    const content = assetBytes <= bytes.length ? bytes.subarray(0, assetBytes) : Buffer.alloc(assetBytes, bytes);
    await archive.file(`assets/uploads/bench_${id}.bin`, content);
  }

  const links = archive.lines('links');
  for (let n = 1; n <= articles; n++) {
    for (const id of [n * 2 - 1, n * 2]) {
      await links.write({
        kind: 'relation.basic',
        relation: 'manyToOne',
        left: { type: 'api::article.article', ref: id, field: 'author' },
        right: { type: 'api::author.author', ref: (n % authors) + 1, field: 'articles', pos: Math.ceil(n / authors) },
      });
      await links.write({
        kind: 'relation.basic',
        relation: 'manyToOne',
        left: { type: 'api::article.article', ref: id, field: 'category' },
        right: { type: 'api::category.category', ref: (n % categories) + 1, field: 'articles', pos: Math.ceil(n / categories) },
      });
      for (let k = 0; k < 3; k++) {
        await links.write({
          kind: 'relation.basic',
          relation: 'manyToMany',
          left: { type: 'api::article.article', ref: id, field: 'tags', pos: k + 1 },
          right: { type: 'api::tag.tag', ref: ((n + k * 7) % tags) + 1, field: 'articles', pos: Math.ceil(n / tags) },
        });
      }
      if (files > 0)
        await links.write({
          kind: 'relation.morph',
          relation: 'morphToMany',
          left: { type: 'plugin::upload.file', field: 'related', ref: (n % files) + 1 },
          right: { type: 'api::article.article', ref: id, field: 'cover', pos: 1 },
        });
    }
  }
  await links.close();
  await archive.lines('configuration').close();
  await archive.file('metadata.json', Buffer.from(JSON.stringify({ createdAt: now, strapi: { version: '5.54.0' } })));
  await archive.finish();
  return { entities: files + authors + categories + tags + articles * 2, links: links.count };
}
