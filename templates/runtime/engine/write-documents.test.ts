/**
 * Documents and their versions (conformance README items 10, 11, 17): what create, update,
 * publish, new locales, delete and single types do to the rows, timestamps included; deletes
 * leave no orphan in any table; concurrent writers do not corrupt.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, openExampleDatabase, type ExampleDatabase } from '../../../test/support/example-db.ts';
import type { Database } from '../database.ts';
import type { ModelSchema } from '../schema.ts';
import type { WriteEngine, WriteOptions } from './types.ts';
import { createWriteEngine } from './write.ts';
import { modelTables, owningRelations } from './write-schema.ts';

const i18n = {
  defaultLocale: 'en',
  locales: [
    { code: 'en', name: 'English (en)' },
    { code: 'fr', name: 'French (fr)' },
  ],
};
const published: WriteOptions = { status: 'published' };
const draft: WriteOptions = { status: 'draft' };
const fr = (status: 'draft' | 'published'): WriteOptions => ({ status, locale: 'fr' });
const A = 'api::article.article';
const PG = 'api::page.page';
const T = 'api::tag.tag';

async function rowCounts(db: Database, model: ModelSchema): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of modelTables(model)) {
    const rows = await db.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${table}`);
    counts[table] = Number(rows[0]!.n);
  }
  return counts;
}

/** Rows whose owner or target is gone: component rows, media links, link rows. Must be empty. */
async function orphans(db: Database, model: ModelSchema): Promise<string[]> {
  const found: string[] = [];
  const owners = [...Object.values(model.contentTypes), ...Object.values(model.components)];
  const check = async (label: string, sql: string, params: string[] = []): Promise<void> => {
    const rows = await db.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM (${sql}) AS sub`, params);
    if (Number(rows[0]!.n) > 0) found.push(label);
  };
  for (const component of Object.values(model.components)) {
    const known = owners.map((o) => `'${o.uid}'`).join(', ');
    await check(`${component.table}: unknown owner type`, `SELECT id FROM ${component.table} WHERE entity_type NOT IN (${known})`);
    for (const owner of owners) {
      await check(
        `${component.table} owned by a missing ${owner.uid}`,
        `SELECT c.id FROM ${component.table} c WHERE c.entity_type = ? AND NOT EXISTS (SELECT 1 FROM ${owner.table} o WHERE o.id = c.entity_id)`,
        [owner.uid],
      );
    }
  }
  for (const owner of owners) {
    await check(
      `files_related_mph of a missing ${owner.uid}`,
      `SELECT m.id FROM files_related_mph m WHERE m.related_type = ? AND NOT EXISTS (SELECT 1 FROM ${owner.table} o WHERE o.id = m.related_id)`,
      [owner.uid],
    );
  }
  for (const { field } of owningRelations(model)) {
    const target = model.contentTypes[field.target]!;
    await check(`${field.linkTable} to a missing ${target.uid}`, `SELECT l.id FROM ${field.linkTable} l WHERE NOT EXISTS (SELECT 1 FROM ${target.table} t WHERE t.document_id = l.target_document_id)`);
  }
  return found;
}

describe.each(clients)('documents and versions on %s', (client) => {
  let ctx: ExampleDatabase;
  let engine: WriteEngine;
  let tick = 0;
  /** A clock that moves one second per write, so timestamps tell writes apart. */
  const clock = (): Date => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++));
  const iso = (value: unknown): string =>
    (value instanceof Date
      ? value
      : new Date(
          String(value)
            .replace(' ', 'T')
            .replace(/([+-]\d\d)$/, '$1:00'),
        )
    ).toISOString();
  let image = 0;
  let tag = '';

  beforeAll(async () => {
    ctx = await openExampleDatabase(client);
    engine = createWriteEngine({ db: ctx.db, model: ctx.model, i18n, now: clock });
    const now = new Date('2026-01-01T00:00:00.000Z');
    const rows = await ctx.db.query<{ id: number }>(
      `INSERT INTO files (document_id, name, hash, mime, size, url, provider, created_at, updated_at, published_at)
       VALUES ('imagefileimagefileimagef', 'i.png', 'i', 'image/png', 1, '/uploads/i.png', 'local', ?, ?, ?) RETURNING id`,
      [now, now, now],
    );
    image = Number(rows[0]!.id);
    tag = (await engine.create(T, { name: 'docs-tag' }, published)).documentId;
  });
  afterAll(async () => ctx?.close());

  interface VersionRow {
    id: number;
    locale: string | null;
    published: boolean;
    title: string | null;
    createdAt: string;
    updatedAt: string;
    publishedAt: string | null;
  }
  async function versions(table: string, documentId: string): Promise<VersionRow[]> {
    const hasLocale = table === 'pages';
    const rows = await ctx.db.query<Record<string, unknown>>(`SELECT * FROM ${table} WHERE document_id = ? ORDER BY id`, [documentId]);
    return rows.map((r) => ({
      id: Number(r.id),
      locale: hasLocale ? (r.locale as string) : null,
      published: r.published_at !== null,
      title: (r.title ?? r.name ?? null) as string | null,
      createdAt: iso(r.created_at),
      updatedAt: iso(r.updated_at),
      publishedAt: r.published_at === null ? null : iso(r.published_at),
    }));
  }
  const fullArticle = (title: string): Record<string, unknown> => ({
    title,
    cover: image,
    tags: [tag],
    seo: { metaTitle: 'm', metaDescription: 'd', shareImage: image, metaSocial: [{ socialNetwork: 'Twitter', title: 'tw' }] },
    blocks: [
      { __component: 'shared.slider', files: [image] },
      { __component: 'shared.quote', title: 'q' },
    ],
  });

  describe('draft & publish', () => {
    it('create published writes a draft and a published copy, with their own components and links', async () => {
      const { documentId } = await engine.create(A, fullArticle('Both'), published);
      const [d, p] = await versions('articles', documentId);
      expect(d).toMatchObject({ published: false, title: 'Both', publishedAt: null });
      expect(p).toMatchObject({ published: true, title: 'Both' });
      expect(p!.id).toBeGreaterThan(d!.id);
      expect(p!.createdAt).toBe(d!.createdAt);
      expect(p!.publishedAt).toBe(p!.updatedAt);
      const seo = await ctx.db.query<{ id: number; entity_id: number }>(
        "SELECT id, entity_id FROM components_shared_seos WHERE entity_type = 'api::article.article' AND entity_id IN (?, ?) ORDER BY entity_id",
        [d!.id, p!.id],
      );
      expect(seo.map((s) => Number(s.entity_id))).toEqual([d!.id, p!.id]);
      expect(seo[0]!.id).not.toBe(seo[1]!.id);
      for (const s of seo) {
        const socials = await ctx.db.query("SELECT id FROM components_shared_meta_socials WHERE entity_type = 'shared.seo' AND entity_id = ?", [s.id]);
        expect(socials).toHaveLength(1);
        const share = await ctx.db.query("SELECT id FROM files_related_mph WHERE related_type = 'shared.seo' AND related_id = ? AND field = 'shareImage'", [s.id]);
        expect(share).toHaveLength(1);
      }
    });

    it('create draft writes the draft only; a type without draft & publish gets one published row', async () => {
      const { documentId } = await engine.create(A, { title: 'Draft only' }, draft);
      expect((await versions('articles', documentId)).map((v) => v.published)).toEqual([false]);
      const tagRef = await engine.create(T, { name: 'one-row' }, draft);
      const [row, ...rest] = await versions('tags', tagRef.documentId);
      expect(rest).toEqual([]);
      expect(row!.publishedAt).toBe(row!.updatedAt);
    });

    it('update draft changes the draft only', async () => {
      const { documentId } = await engine.create(A, fullArticle('Original'), published);
      const [d0, p0] = await versions('articles', documentId);
      await engine.update(A, documentId, { title: 'Changed draft', seo: { metaTitle: 'new', metaDescription: 'new' } }, draft);
      const [d1, p1] = await versions('articles', documentId);
      expect(d1).toMatchObject({ id: d0!.id, title: 'Changed draft', createdAt: d0!.createdAt });
      expect(d1!.updatedAt > d0!.updatedAt).toBe(true);
      expect(p1).toEqual(p0);
      const publishedSeo = await ctx.db.query<{ meta_title: string }>("SELECT meta_title FROM components_shared_seos WHERE entity_type = 'api::article.article' AND entity_id = ?", [p0!.id]);
      expect(publishedSeo).toEqual([{ meta_title: 'm' }]);
    });

    it('update published republishes: same draft row, the published row replaced by a new id', async () => {
      const { documentId } = await engine.create(A, fullArticle('Republish'), published);
      const before = await rowCounts(ctx.db, ctx.model);
      const [d0, p0] = await versions('articles', documentId);
      await engine.update(A, documentId, { title: 'Republished' }, published);
      const [d1, p1] = await versions('articles', documentId);
      expect(d1!.id).toBe(d0!.id);
      expect(p1!.id).toBeGreaterThan(p0!.id);
      expect(p1).toMatchObject({ title: 'Republished', createdAt: p0!.createdAt });
      expect(p1!.publishedAt! > p0!.publishedAt!).toBe(true);
      // The old published row's components, media and links went with it.
      expect(await rowCounts(ctx.db, ctx.model)).toEqual(before);
      expect(await orphans(ctx.db, ctx.model)).toEqual([]);
    });

    it('publishes what the draft holds, including earlier draft-only changes', async () => {
      const { documentId } = await engine.create(A, { title: 'Step 1', readingTime: 1 }, published);
      await engine.update(A, documentId, { readingTime: 2 }, draft);
      await engine.update(A, documentId, { title: 'Step 3' }, published);
      const rows = await ctx.db.query<{ title: string; reading_time: number }>('SELECT title, reading_time FROM articles WHERE document_id = ? AND published_at IS NOT NULL', [documentId]);
      expect(rows.map((r) => [r.title, Number(r.reading_time)])).toEqual([['Step 3', 2]]);
    });

    it('returns null for a document that does not exist', async () => {
      expect(await engine.update(A, 'nosuchdocumentxxxxxxxxxx', { title: 'x' }, published)).toBeNull();
    });
  });

  describe('i18n', () => {
    it('creates a missing locale on update, with the non-localized values of the other locales', async () => {
      const { documentId } = await engine.create(PG, { title: 'Home', sortOrder: 7, theme: 'dark', seo: { metaTitle: 'Home', metaDescription: 'h' } }, published);
      expect(await engine.update(PG, documentId, { title: 'Accueil' }, fr('published'))).toEqual({ documentId, locale: 'fr' });
      const rows = await ctx.db.query<{ locale: string; title: string; sort_order: number; theme: string; published_at: unknown }>(
        'SELECT locale, title, sort_order, theme, published_at FROM pages WHERE document_id = ? ORDER BY id',
        [documentId],
      );
      expect(rows.map((r) => [r.locale, r.title, Number(r.sort_order), r.theme, r.published_at === null ? 'draft' : 'published'])).toEqual([
        ['en', 'Home', 7, 'dark', 'draft'],
        ['en', 'Home', 7, 'dark', 'published'],
        ['fr', 'Accueil', 7, 'dark', 'draft'],
        ['fr', 'Accueil', 7, 'dark', 'published'],
      ]);
      const [en] = await versions('pages', documentId);
      for (const v of await versions('pages', documentId)) expect(v.createdAt).toBe(en!.createdAt);
      // seo is localized: the fr versions have none.
      const frRows = (await versions('pages', documentId)).filter((v) => v.locale === 'fr').map((v) => v.id);
      expect(await ctx.db.query(`SELECT id FROM components_shared_seos WHERE entity_type = 'api::page.page' AND entity_id IN (?, ?)`, frRows)).toEqual([]);
    });

    it('syncs non-localized attributes to the other locales, version status by status', async () => {
      const { documentId } = await engine.create(PG, { title: 'Sync', sortOrder: 1 }, published);
      await engine.update(PG, documentId, { title: 'Sync fr', sortOrder: 1 }, fr('published'));
      await engine.update(PG, documentId, { sortOrder: 2, title: 'Sync fr 2' }, fr('draft'));
      const state = async () =>
        (
          await ctx.db.query<{ locale: string; title: string; sort_order: number; published_at: unknown }>(
            'SELECT locale, title, sort_order, published_at FROM pages WHERE document_id = ? ORDER BY locale, published_at IS NULL DESC',
            [documentId],
          )
        ).map((r) => `${r.locale}:${r.published_at === null ? 'draft' : 'published'}:${r.title}:${Number(r.sort_order)}`);
      expect(await state()).toEqual(['en:draft:Sync:2', 'en:published:Sync:1', 'fr:draft:Sync fr 2:2', 'fr:published:Sync fr:1']);
      await engine.update(PG, documentId, { sortOrder: 3 }, published);
      expect(await state()).toEqual(['en:draft:Sync:3', 'en:published:Sync:3', 'fr:draft:Sync fr 2:3', 'fr:published:Sync fr:3']);
    });

    it('creates a document in a non-default locale', async () => {
      const { documentId, locale } = await engine.create(PG, { title: 'Mentions' }, fr('published'));
      expect(locale).toBe('fr');
      expect((await versions('pages', documentId)).map((v) => `${v.locale}:${v.published}`)).toEqual(['fr:false', 'fr:true']);
    });
  });

  describe('delete', () => {
    it('deletes one locale, the default one, or all, deeply', async () => {
      const before = await rowCounts(ctx.db, ctx.model);
      const { documentId } = await engine.create(PG, { title: 'Del', seo: { metaTitle: 'a', metaDescription: 'b', shareImage: image, metaSocial: [{ socialNetwork: 'Facebook' }] } }, published);
      await engine.update(PG, documentId, { title: 'Del fr', seo: { metaTitle: 'c', metaDescription: 'd' } }, fr('published'));
      expect(await engine.delete(PG, documentId, { locale: 'fr' })).toBe(true);
      expect((await versions('pages', documentId)).map((v) => v.locale)).toEqual(['en', 'en']);
      expect(await engine.delete(PG, documentId, { locale: 'fr' })).toBe(false);
      await engine.update(PG, documentId, { title: 'Del fr again' }, fr('draft'));
      expect(await engine.delete(PG, documentId, {})).toBe(true);
      expect((await versions('pages', documentId)).map((v) => v.locale)).toEqual(['fr']);
      expect(await engine.delete(PG, documentId, { locale: '*' })).toBe(true);
      expect(await versions('pages', documentId)).toEqual([]);
      expect(await rowCounts(ctx.db, ctx.model)).toEqual(before);
      expect(await orphans(ctx.db, ctx.model)).toEqual([]);
      expect(await engine.delete(PG, documentId, { locale: '*' })).toBe(false);
    });

    it('removes the links other documents hold to a deleted document, and what it owned', async () => {
      const before = await rowCounts(ctx.db, ctx.model);
      const author = (await engine.create('api::author.author', { name: 'Doomed', avatar: image }, published)).documentId;
      const doomedTag = (await engine.create(T, { name: 'doomed' }, published)).documentId;
      const article = (await engine.create(A, { ...fullArticle('Holder'), author, tags: [tag, doomedTag] }, published)).documentId;
      const card = (await engine.create(A, { title: 'Card', blocks: [{ __component: 'shared.article-card', article }] }, published)).documentId;
      await engine.delete('api::author.author', author, {});
      await engine.delete(T, doomedTag, {});
      expect(await orphans(ctx.db, ctx.model)).toEqual([]);
      const remaining = await ctx.db.query<{ target_document_id: string }>(
        'SELECT DISTINCT target_document_id FROM articles_tags_lnk WHERE entity_id IN (SELECT id FROM articles WHERE document_id = ?)',
        [article],
      );
      expect(remaining.map((r) => r.target_document_id)).toEqual([tag]);
      await engine.delete(A, article, {});
      expect(await ctx.db.query('SELECT id FROM components_shared_article_cards_article_lnk WHERE target_document_id = ?', [article])).toEqual([]);
      await engine.delete(A, card, {});
      expect(await rowCounts(ctx.db, ctx.model)).toEqual(before);
      expect(await orphans(ctx.db, ctx.model)).toEqual([]);
    });

    it('ignores the locale on a type without i18n', async () => {
      const { documentId } = await engine.create(A, { title: 'Any locale' }, published);
      expect(await engine.delete(A, documentId, { locale: 'fr' })).toBe(true);
      expect(await versions('articles', documentId)).toEqual([]);
    });
  });

  describe('single types', () => {
    it('putSingle creates the document once, then updates it; deleteSingle removes it', async () => {
      const before = await rowCounts(ctx.db, ctx.model);
      const first = await engine.putSingle('api::about.about', { title: 'About', blocks: [{ __component: 'shared.media', file: image }] }, published);
      const second = await engine.putSingle('api::about.about', { title: 'About 2' }, published);
      expect(second).toEqual(first);
      const rows = await versions('abouts', first.documentId);
      expect(rows.map((r) => r.title)).toEqual(['About 2']);
      const media = await ctx.db.query("SELECT id FROM components_shared_media WHERE entity_type = 'api::about.about'");
      expect(media).toHaveLength(1);
      expect(await engine.deleteSingle('api::about.about', {})).toBe(true);
      expect(await engine.deleteSingle('api::about.about', {})).toBe(false);
      expect(await rowCounts(ctx.db, ctx.model)).toEqual(before);
    });
  });

  describe('concurrent writers', () => {
    it('serialise on a document: every connect lands, positions stay a sequence', async () => {
      const names = Array.from({ length: 12 }, (_, i) => `conc-${i}`);
      const ids = [];
      for (const name of names) ids.push((await engine.create(T, { name }, published)).documentId);
      const { documentId } = await engine.create(A, { title: 'Concurrent' }, published);
      await Promise.all(ids.map((id, i) => engine.update(A, documentId, { tags: { connect: [id] }, readingTime: i }, i % 2 === 0 ? published : draft)));
      const [d] = await versions('articles', documentId);
      const links = await ctx.db.query<{ target_document_id: string; ord: number }>('SELECT target_document_id, ord FROM articles_tags_lnk WHERE entity_id = ? ORDER BY ord', [d!.id]);
      expect(new Set(links.map((l) => l.target_document_id))).toEqual(new Set(ids));
      expect(links.map((l) => Number(l.ord))).toEqual(ids.map((_, i) => i + 1));
      expect((await versions('articles', documentId)).filter((v) => v.published)).toHaveLength(1);
      expect(await orphans(ctx.db, ctx.model)).toEqual([]);
    });

    it('do not both take a unique value', async () => {
      const results = await Promise.allSettled(Array.from({ length: 6 }, () => engine.create(T, { name: 'race' }, published)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(String(r.reason)).toContain('This attribute must be unique');
    });

    it('create a single type once', async () => {
      await Promise.all(Array.from({ length: 5 }, (_, i) => engine.putSingle('api::global.global', { siteName: `s${i}`, siteDescription: 'd' }, published)));
      const rows = await ctx.db.query<{ document_id: string }>('SELECT DISTINCT document_id FROM globals');
      expect(rows).toHaveLength(1);
      expect(await ctx.db.query('SELECT id FROM globals')).toHaveLength(1);
    });
  });
});
