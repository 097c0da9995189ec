/**
 * Components (single, repeatable, nested), dynamic zones and media: how they are stored, how an
 * update replaces them (the old rows removed deeply) and how an absent key keeps them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, openExampleDatabase, type ExampleDatabase } from '../../../test/support/example-db.ts';
import type { WriteEngine, WriteOptions } from './types.ts';
import { createWriteEngine } from './write.ts';
import { modelTables } from './write-schema.ts';

const i18n = { defaultLocale: 'en', locales: [{ code: 'en', name: 'English (en)' }] };
const published: WriteOptions = { status: 'published' };
const draft: WriteOptions = { status: 'draft' };
const A = 'api::article.article';
const P = 'api::product.product';

describe.each(clients)('components, dynamic zones and media on %s', (client) => {
  let ctx: ExampleDatabase;
  let engine: WriteEngine;
  const files: number[] = [];

  beforeAll(async () => {
    ctx = await openExampleDatabase(client);
    engine = createWriteEngine({ db: ctx.db, model: ctx.model, i18n });
    const now = new Date('2026-01-01T00:00:00.000Z');
    for (let i = 0; i < 4; i++) {
      const rows = await ctx.db.query<{ id: number }>(
        `INSERT INTO files (document_id, name, hash, mime, size, url, provider, created_at, updated_at, published_at)
         VALUES (?, ?, ?, 'image/png', 1, ?, 'local', ?, ?, ?) RETURNING id`,
        [`imagefile${i}`.padEnd(24, 'x'), `${i}.png`, `h${i}`, `/uploads/${i}.png`, now, now, now],
      );
      files.push(Number(rows[0]!.id));
    }
  });
  afterAll(async () => ctx?.close());

  const counts = async (): Promise<Record<string, number>> => {
    const out: Record<string, number> = {};
    for (const table of modelTables(ctx.model)) out[table] = Number((await ctx.db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))[0]!.n);
    return out;
  };
  const rowId = async (table: string, documentId: string, status: 'draft' | 'published' = 'published'): Promise<number> => {
    const rows = await ctx.db.query<{ id: number }>(`SELECT id FROM ${table} WHERE document_id = ? AND published_at IS ${status === 'draft' ? '' : 'NOT '}NULL`, [documentId]);
    return Number(rows[0]!.id);
  };
  const mediaOf = async (type: string, id: number, field: string): Promise<number[]> =>
    (await ctx.db.query<{ file_id: number }>('SELECT file_id FROM files_related_mph WHERE related_type = ? AND related_id = ? AND field = ? ORDER BY ord', [type, id, field])).map((r) =>
      Number(r.file_id),
    );

  it('stores repeatable components with nested components and media, and replaces them on update', async () => {
    const { documentId } = await engine.create(
      P,
      {
        name: 'Variants',
        slug: 'variants',
        variants: [
          { sku: 'A', image: files[0], dimensions: { width: 1 } },
          { sku: 'B', image: files[1] },
        ],
      },
      published,
    );
    const id = await rowId('products', documentId);
    const variants = await ctx.db.query<{ id: number; sku: string; entity_ord: number; entity_field: string }>(
      "SELECT id, sku, entity_ord, entity_field FROM components_product_variants WHERE entity_type = 'api::product.product' AND entity_id = ? ORDER BY entity_ord",
      [id],
    );
    expect(variants.map((v) => [v.sku, Number(v.entity_ord), v.entity_field])).toEqual([
      ['A', 0, 'variants'],
      ['B', 1, 'variants'],
    ]);
    expect(await mediaOf('product.variant', variants[0]!.id, 'image')).toEqual([files[0]]);
    const dims = await ctx.db.query<{ width: number; unit: string }>("SELECT width, unit FROM components_product_dimensions WHERE entity_type = 'product.variant' AND entity_id = ?", [
      variants[0]!.id,
    ]);
    expect(dims.map((d) => [Number(d.width), d.unit])).toEqual([[1, 'cm']]);

    const before = await counts();
    await engine.update(P, documentId, { variants: [{ sku: 'C' }] }, published);
    const after = await counts();
    expect(after.components_product_variants).toBe(before.components_product_variants! - 1);
    expect(after.components_product_dimensions).toBe(before.components_product_dimensions! - 1);
    expect(after.files_related_mph).toBe(before.files_related_mph! - 2);
    // An absent key keeps the value.
    await engine.update(P, documentId, { summary: 'kept' }, published);
    expect(await counts()).toEqual(after);
    await engine.update(P, documentId, { variants: [] }, published);
    expect(await ctx.db.query("SELECT id FROM components_product_variants WHERE entity_type = 'api::product.product' AND entity_id = ?", [id])).toEqual([]);
  });

  it('replaces and clears a single component deeply', async () => {
    const { documentId } = await engine.create(
      A,
      { title: 'Seo', seo: { metaTitle: 'a', metaDescription: 'b', shareImage: files[2], metaSocial: [{ socialNetwork: 'Twitter' }, { socialNetwork: 'Facebook' }] } },
      draft,
    );
    const id = await rowId('articles', documentId, 'draft');
    const seoOf = async () => ctx.db.query<{ id: number; meta_title: string }>("SELECT id, meta_title FROM components_shared_seos WHERE entity_type = 'api::article.article' AND entity_id = ?", [id]);
    const [first] = await seoOf();
    await engine.update(A, documentId, { seo: { metaTitle: 'c', metaDescription: 'd' } }, draft);
    const [second] = await seoOf();
    expect(second!.meta_title).toBe('c');
    expect(second!.id).not.toBe(first!.id);
    expect(await ctx.db.query("SELECT id FROM components_shared_meta_socials WHERE entity_type = 'shared.seo' AND entity_id = ?", [first!.id])).toEqual([]);
    expect(await mediaOf('shared.seo', first!.id, 'shareImage')).toEqual([]);
    await engine.update(A, documentId, { seo: null }, draft);
    expect(await seoOf()).toEqual([]);
  });

  it('stores dynamic zones across component tables in one order, and replaces them', async () => {
    const { documentId } = await engine.create(
      A,
      {
        title: 'Zone',
        blocks: [
          { __component: 'shared.quote', title: 'q1' },
          { __component: 'shared.slider', files: [files[3], files[1]] },
          { __component: 'shared.quote', title: 'q2' },
          { __component: 'shared.media', file: files[0] },
        ],
      },
      draft,
    );
    const id = await rowId('articles', documentId, 'draft');
    const entries = await ctx.db.query<{ kind: string; entity_ord: number }>(
      `SELECT 'quote' AS kind, entity_ord FROM components_shared_quotes WHERE entity_type = 'api::article.article' AND entity_id = ? AND entity_field = 'blocks'
       UNION ALL SELECT 'slider', entity_ord FROM components_shared_sliders WHERE entity_type = 'api::article.article' AND entity_id = ?
       UNION ALL SELECT 'media', entity_ord FROM components_shared_media WHERE entity_type = 'api::article.article' AND entity_id = ?
       ORDER BY entity_ord`,
      [id, id, id],
    );
    expect(entries.map((e) => `${e.kind}:${Number(e.entity_ord)}`)).toEqual(['quote:0', 'slider:1', 'quote:2', 'media:3']);
    const slider = await ctx.db.query<{ id: number }>("SELECT id FROM components_shared_sliders WHERE entity_type = 'api::article.article' AND entity_id = ?", [id]);
    expect(await mediaOf('shared.slider', slider[0]!.id, 'files')).toEqual([files[3], files[1]]);

    const before = await counts();
    await engine.update(A, documentId, { blocks: [{ __component: 'shared.rich-text', body: 'only' }] }, draft);
    const after = await counts();
    expect(after.components_shared_quotes).toBe(before.components_shared_quotes! - 2);
    expect(after.components_shared_sliders).toBe(before.components_shared_sliders! - 1);
    expect(after.components_shared_media).toBe(before.components_shared_media! - 1);
    expect(after.components_shared_rich_texts).toBe(before.components_shared_rich_texts! + 1);
    expect(after.files_related_mph).toBe(before.files_related_mph! - 3);
  });

  it('replaces media lists in the given order and clears them with null or []', async () => {
    const { documentId } = await engine.create(P, { name: 'Gallery', slug: 'gallery', gallery: [files[2], files[0], files[1]], manual: { id: files[3] } }, published);
    const id = await rowId('products', documentId);
    expect(await mediaOf(P, id, 'gallery')).toEqual([files[2], files[0], files[1]]);
    expect(await mediaOf(P, id, 'manual')).toEqual([files[3]]);
    await engine.update(P, documentId, { gallery: [String(files[1])] }, published);
    expect(await mediaOf(P, id, 'gallery')).toEqual([files[1]]);
    expect(await mediaOf(P, id, 'manual')).toEqual([files[3]]);
    await engine.update(P, documentId, { gallery: [], manual: null }, published);
    expect(await mediaOf(P, id, 'gallery')).toEqual([]);
    expect(await mediaOf(P, id, 'manual')).toEqual([]);
  });

  it("gives the published version its own copies: changing the draft's components leaves them alone", async () => {
    const { documentId } = await engine.create(A, { title: 'Own copies', cover: files[0], blocks: [{ __component: 'shared.slider', files: [files[1]] }] }, published);
    const pub = await rowId('articles', documentId);
    await engine.update(A, documentId, { cover: files[2], blocks: [{ __component: 'shared.slider', files: [files[3]] }] }, draft);
    expect(await mediaOf(A, pub, 'cover')).toEqual([files[0]]);
    const slider = await ctx.db.query<{ id: number }>("SELECT id FROM components_shared_sliders WHERE entity_type = 'api::article.article' AND entity_id = ?", [pub]);
    expect(await mediaOf('shared.slider', slider[0]!.id, 'files')).toEqual([files[1]]);
  });
});
