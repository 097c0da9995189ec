/**
 * Storage end to end, on SQLite and PostgreSQL: generate, migrate from empty, store rows in every
 * kind of table, edit the content types (a field, a relation, a component), regenerate, migrate
 * again, and find every row still there. Then boot the server on that database.
 */
import { readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capi, copyExample, node, scratch, startServer } from '../support/cli.ts';
import { clients, createServerDatabase, type Client } from '../support/databases.ts';
import type { TestDatabase } from '../support/postgres.ts';
import { connect } from '../support/sql.ts';

/** A timestamp literal: MySQL takes it without the zone suffix (its sessions run in UTC). */
const nowOf = (client: Client): string => (client === 'mysql' ? `'2026-01-01 00:00:00.000'` : `'2026-01-01T00:00:00.000Z'`);

const seedOf = (NOW: string): string => `
INSERT INTO authors (id, document_id, name, created_at, updated_at, published_at) VALUES (1, 'aaaaaaaaaaaaaaaaaaaaaaaa', 'Ada', ${NOW}, ${NOW}, ${NOW});
INSERT INTO articles (id, document_id, title, reading_time, created_at, updated_at, published_at) VALUES (1, 'bbbbbbbbbbbbbbbbbbbbbbbb', 'Hello', 3, ${NOW}, ${NOW}, NULL);
INSERT INTO articles (id, document_id, title, reading_time, created_at, updated_at, published_at) VALUES (2, 'bbbbbbbbbbbbbbbbbbbbbbbb', 'Hello', 3, ${NOW}, ${NOW}, ${NOW});
INSERT INTO articles_author_lnk (entity_id, target_document_id, ord, inverse_ord) VALUES (1, 'aaaaaaaaaaaaaaaaaaaaaaaa', 1, 1), (2, 'aaaaaaaaaaaaaaaaaaaaaaaa', 1, 1);
INSERT INTO components_shared_seos (entity_type, entity_id, entity_field, entity_ord, meta_title, meta_description) VALUES ('api::article.article', 2, 'seo', 0, 'Meta', 'Description');
INSERT INTO files (id, document_id, name, hash, ext, mime, size, url, provider, created_at, updated_at, published_at) VALUES (1, 'cccccccccccccccccccccccc', 'a.png', 'a_123', '.png', 'image/png', 1.5, '/uploads/a_123.png', 'local', ${NOW}, ${NOW}, ${NOW});
INSERT INTO files_related_mph (file_id, related_type, related_id, field, ord) VALUES (1, 'api::article.article', 2, 'cover', 1);
`;

const COUNTS = `SELECT
  (SELECT COUNT(*) FROM articles) AS articles,
  (SELECT COUNT(*) FROM authors) AS authors,
  (SELECT COUNT(*) FROM articles_author_lnk) AS links,
  (SELECT COUNT(*) FROM components_shared_seos) AS seos,
  (SELECT COUNT(*) FROM files_related_mph) AS media`;

function editContentTypes(dir: string): void {
  const articlePath = join(dir, 'article.json');
  const article = JSON.parse(readFileSync(articlePath, 'utf8'));
  article.attributes.subtitle = { type: 'string' };
  article.attributes.reviewer = { type: 'relation', relation: 'manyToOne', target: 'api::author.author' };
  article.attributes.callout = { type: 'component', repeatable: false, component: 'shared.callout' };
  writeFileSync(articlePath, JSON.stringify(article, null, 2));
  mkdirSync(join(dir, 'components/shared'), { recursive: true });
  writeFileSync(
    join(dir, 'components/shared/callout.json'),
    JSON.stringify(
      { collectionName: 'components_shared_callouts', info: { displayName: 'Callout' }, options: {}, attributes: { text: { type: 'text' }, tone: { type: 'enumeration', enum: ['info', 'warning'] } } },
      null,
      2,
    ),
  );
}

describe.each(clients)('storage on %s', (client) => {
  const space = scratch(`storage-${client}`);
  const types = copyExample(join(space.dir, 'content-types'));
  const out = join(space.dir, 'out');
  let database: TestDatabase | undefined;
  let url = '';
  const env = (): NodeJS.ProcessEnv => ({ DATABASE_URL: url, NODE_ENV: 'production' });

  beforeAll(async () => {
    if (client !== 'sqlite') {
      database = await createServerDatabase(client);
      url = database.url;
    } else {
      url = `file:${join(space.dir, 'data.db')}`;
    }
    const generated = await capi(['generate', '--content-types', types, '--out', out, '--database', client]);
    expect(generated.stderr).toContain('created 0001_init');
    expect(generated.code).toBe(0);
  });

  afterAll(async () => {
    await database?.drop();
    space.dispose();
  });

  it('applies the migrations to an empty database, then none the second time', async () => {
    const first = await node(['dist/migrate.js'], { cwd: out, env: env() });
    expect(first.stderr + first.stdout).toContain('0001_init');
    expect(first.code).toBe(0);
    const second = await node(['dist/migrate.js'], { cwd: out, env: env() });
    expect(second.code).toBe(0);
    expect(second.stderr + second.stdout).not.toContain('applied 0001_init');
  });

  it('regenerates an edited model into an additive migration that keeps every row', async () => {
    const sql = await connect(client, url);
    try {
      await sql.run(seedOf(nowOf(client)));
      const before = await sql.all(COUNTS);
      editContentTypes(types);
      const regenerated = await capi(['generate', '--content-types', types, '--out', out]);
      expect(regenerated.code).toBe(0);
      const migrations = readdirSync(join(out, 'prisma/migrations')).filter((m) => m !== 'migration_lock.toml');
      expect(migrations).toEqual(['0001_init', '0002_add_articles_subtitle_and_more']);
      const script = readFileSync(join(out, 'prisma/migrations/0002_add_articles_subtitle_and_more/migration.sql'), 'utf8');
      expect(script).toContain('components_shared_callouts');
      expect(script).toContain('articles_reviewer_lnk');

      const migrated = await node(['dist/migrate.js'], { cwd: out, env: env() });
      expect(migrated.code).toBe(0);
      expect(await sql.all(COUNTS)).toEqual(before);
      const [article] = await sql.all('SELECT title, reading_time, subtitle FROM articles WHERE id = 2');
      expect(article).toEqual({ title: 'Hello', reading_time: 3, subtitle: null });
      await sql.run(`INSERT INTO articles_reviewer_lnk (entity_id, target_document_id) VALUES (2, 'aaaaaaaaaaaaaaaaaaaaaaaa')`);
      await sql.run(`INSERT INTO components_shared_callouts (entity_type, entity_id, entity_field, entity_ord, text, tone) VALUES ('api::article.article', 2, 'callout', 0, 'Note', 'info')`);
    } finally {
      await sql.close();
    }
  });

  it('boots, answers /_health and gives the Strapi error envelope for unknown routes', async () => {
    const server = await startServer(out, env());
    try {
      expect(server.output()).toMatch(new RegExp(`listening on http://127\\.0\\.0\\.1:\\d+ \\(database: ${client}`));
      const health = await fetch(`${server.url}/_health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok', database: client });
      const missing = await fetch(`${server.url}/api/nothing-here`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
    } finally {
      await server.stop();
    }
  });
});
