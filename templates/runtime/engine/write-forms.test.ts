/**
 * The forms of relation, media and component values Strapi 5 accepts in a write, beyond plain
 * documentIds: row ids (`5`, `"5"`, `{ id: 5 }`), `status`, `options.strict`, media
 * `connect`/`disconnect`/`set`, component instances named by id, and required attributes of
 * new component instances on every write.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejection } from '../../../test/support/rejection.ts';
import { clients, openExampleDatabase, type ExampleDatabase } from '../../../test/support/example-db.ts';
import type { WriteEngine, WriteOptions } from './types.ts';
import { createWriteEngine } from './write.ts';

const i18n = {
  defaultLocale: 'en',
  locales: [
    { code: 'en', name: 'English (en)' },
    { code: 'fr', name: 'French (fr)' },
  ],
};
const published: WriteOptions = { status: 'published' };
const draft: WriteOptions = { status: 'draft' };
const A = 'api::article.article';
const AU = 'api::author.author';
const T = 'api::tag.tag';
const P = 'api::product.product';

describe.each(clients)('write forms on %s', (client) => {
  let ctx: ExampleDatabase;
  let engine: WriteEngine;
  const tags: string[] = [];
  const tagRows: number[] = [];
  const files: number[] = [];

  beforeAll(async () => {
    ctx = await openExampleDatabase(client);
    engine = createWriteEngine({ db: ctx.db, model: ctx.model, i18n });
    for (let i = 0; i < 6; i++) {
      const { documentId } = await engine.create(T, { name: `t${i}` }, published);
      tags.push(documentId);
      tagRows.push(Number((await ctx.db.query<{ id: number }>('SELECT id FROM tags WHERE document_id = ?', [documentId]))[0]!.id));
    }
    const now = new Date('2026-01-01T00:00:00.000Z');
    for (let i = 0; i < 4; i++) {
      const rows = await ctx.db.query<{ id: number }>(
        `INSERT INTO files (document_id, name, hash, mime, size, url, provider, created_at, updated_at, published_at)
         VALUES (?, ?, ?, 'image/png', 1, ?, 'local', ?, ?, ?) RETURNING id`,
        [`file${i}`.padEnd(24, 'x'), `f${i}.png`, `f${i}`, `/uploads/f${i}.png`, now, now, now],
      );
      files.push(Number(rows[0]!.id));
    }
  });
  afterAll(async () => ctx?.close());

  const name = (documentId: string): string => `t${tags.indexOf(documentId)}`;
  async function draftRow(table: string, documentId: string): Promise<number> {
    const rows = await ctx.db.query<{ id: number }>(`SELECT id FROM ${table} WHERE document_id = ? AND published_at IS NULL`, [documentId]);
    return Number(rows[0]!.id);
  }
  async function onlyRow(table: string, documentId: string): Promise<number> {
    const rows = await ctx.db.query<{ id: number }>(`SELECT id FROM ${table} WHERE document_id = ?`, [documentId]);
    expect(rows).toHaveLength(1);
    return Number(rows[0]!.id);
  }
  async function articleTags(documentId: string): Promise<string[]> {
    const rows = await ctx.db.query<{ target_document_id: string }>('SELECT target_document_id FROM articles_tags_lnk WHERE entity_id = ? ORDER BY ord, id', [await draftRow('articles', documentId)]);
    return rows.map((r) => name(r.target_document_id));
  }
  async function mediaOf(type: string, id: number, field: string): Promise<number[]> {
    const rows = await ctx.db.query<{ file_id: number }>('SELECT file_id FROM files_related_mph WHERE related_type = ? AND related_id = ? AND field = ? ORDER BY ord, id', [type, id, field]);
    return rows.map((r) => files.indexOf(Number(r.file_id)));
  }

  describe('relation targets by row id', () => {
    it('takes a number, a string of digits and { id } as the row of a target, in plain lists, set and connect', async () => {
      const { documentId } = await engine.create(A, { title: 'By id', tags: [tagRows[0], String(tagRows[1]), { id: tagRows[2] }] }, draft);
      expect(await articleTags(documentId)).toEqual(['t0', 't1', 't2']);
      await engine.update(A, documentId, { tags: { connect: [{ id: tagRows[3], position: { before: tags[0] } }] } }, draft);
      expect(await articleTags(documentId)).toEqual(['t3', 't0', 't1', 't2']);
      await engine.update(A, documentId, { tags: { set: [{ id: tagRows[5] }, tags[4]] } }, draft);
      expect(await articleTags(documentId)).toEqual(['t5', 't4']);
      const { documentId: single } = await engine.create(A, { title: 'To one by id', author: null, tags: { connect: tagRows[1] } }, draft);
      expect(await articleTags(single)).toEqual(['t1']);
    });

    it('takes every shorthand of a to-one relation, keeping the last of several targets', async () => {
      const authors: { documentId: string; id: number }[] = [];
      for (const name of ['Ann', 'Bob', 'Cy']) {
        const { documentId } = await engine.create(AU, { name }, published);
        authors.push({ documentId, id: await onlyRow('authors', documentId) });
      }
      const [ann, bob, cy] = authors as [(typeof authors)[0], (typeof authors)[0], (typeof authors)[0]];
      const authorOf = async (article: string): Promise<string | undefined> => {
        const rows = await ctx.db.query<{ target_document_id: string }>('SELECT target_document_id FROM articles_author_lnk WHERE entity_id = ?', [await draftRow('articles', article)]);
        return rows[0]?.target_document_id;
      };
      const { documentId } = await engine.create(A, { title: 'To one', author: ann.id }, draft);
      const cases: [unknown, string | undefined][] = [
        [{ id: bob.id }, bob.documentId],
        [{ documentId: cy.documentId }, cy.documentId],
        [[ann.documentId, bob.documentId], bob.documentId],
        [{ set: [{ id: cy.id }, ann.documentId] }, ann.documentId],
        [{ connect: { documentId: bob.documentId } }, bob.documentId],
        [{ connect: [cy.id, ann.id] }, ann.documentId],
        [{ disconnect: [cy.documentId] }, ann.documentId],
        [{ disconnect: [{ id: ann.id }] }, undefined],
        [String(cy.id), cy.documentId],
        [[], undefined],
        [bob.documentId, bob.documentId],
        [null, undefined],
      ];
      for (const [value, expected] of cases) {
        await engine.update(A, documentId, { author: value }, draft);
        expect(await authorOf(documentId), JSON.stringify(value)).toBe(expected);
      }
    });

    it('disconnects by row id, and ignores what is not connected or does not exist', async () => {
      const { documentId } = await engine.create(A, { title: 'Disconnect', tags: [tags[0], tags[1], tags[2]] }, draft);
      await engine.update(A, documentId, { tags: { disconnect: [{ id: tagRows[1] }, tags[4], 999999, { id: 2147483648 }] } }, draft);
      expect(await articleTags(documentId)).toEqual(['t0', 't2']);
    });

    it("counts row ids that name nothing, with Strapi's message, and writes nothing", async () => {
      const { documentId } = await engine.create(A, { title: 'Missing rows', tags: [tags[0]] }, draft);
      expect(await rejection(engine.update(A, documentId, { tags: { connect: [999991, { id: 999992 }, tagRows[1], 99999999999] } }, draft))).toEqual({
        status: 400,
        name: 'ValidationError',
        message: '3 relation(s) of type api::tag.tag associated with this entity do not exist',
        details: { errors: [{ path: [], message: '3 relation(s) of type api::tag.tag associated with this entity do not exist', name: 'ValidationError' }] },
      });
      expect(await articleTags(documentId)).toEqual(['t0']);
    });

    it('looks targets up with one statement per target type and form, locked against deletion on PostgreSQL', async () => {
      const lookups = async (tagsValue: unknown): Promise<string[]> => {
        const seen: string[] = [];
        const stop = ctx.db.onQuery((event) => {
          if (/^SELECT\b/.test(event.sql) && event.sql.includes('FROM "tags"')) seen.push(event.sql);
        });
        try {
          await engine.create(A, { title: 'Lookups', tags: tagsValue }, draft);
        } finally {
          stop();
        }
        return seen;
      };
      const few = await lookups([tagRows[0], tags[1]]);
      const many = await lookups([tagRows[0], String(tagRows[1]), { id: tagRows[2] }, tags[3], { documentId: tags[4] }, { documentId: tags[5], locale: 'fr' }]);
      expect(few).toHaveLength(2);
      expect(many).toHaveLength(2);
      for (const sql of many) expect(sql.endsWith(' FOR KEY SHARE')).toBe(client === 'postgres');
    });

    it('counts ids no row can have as missing, and refuses values that cannot be ids as a wrong shape', async () => {
      expect(await rejection(engine.create(A, { title: 'Bad', tags: [0, -3, { id: '-4' }, '99999999999999999999', tagRows[0]] }, draft))).toMatchObject({
        message: '4 relation(s) of type api::tag.tag associated with this entity do not exist',
      });
      for (const bad of [{ id: 1.5 }, { id: 'abc' }, 1.5, true, {}]) {
        expect(await rejection(engine.create(A, { title: 'Bad', tags: [bad] }, draft))).toMatchObject({ status: 400, details: { errors: [{ path: ['tags'] }] } });
      }
    });
  });

  describe('positions and options.strict', () => {
    it('refuses an anchor that is not connected in strict mode (the default), appends the item otherwise', async () => {
      const { documentId } = await engine.create(A, { title: 'Strict', tags: [tags[0]] }, draft);
      const positioned = { connect: [{ documentId: tags[1], position: { after: tags[2] } }] };
      expect(await rejection(engine.update(A, documentId, { tags: positioned }, draft))).toMatchObject({
        status: 400,
        name: 'ValidationError',
        message: expect.stringContaining(`The relation with id ${tags[2]} needs to be connected first.`),
      });
      expect(await rejection(engine.update(A, documentId, { tags: { ...positioned, options: { strict: true } } }, draft))).toMatchObject({ status: 400 });
      await engine.update(A, documentId, { tags: { ...positioned, options: { strict: false } } }, draft);
      expect(await articleTags(documentId)).toEqual(['t0', 't1']);
      // The anchor must still exist: a documentId that names nothing is "not found" in any mode.
      expect(await rejection(engine.update(A, documentId, { tags: { options: { strict: false }, connect: [{ documentId: tags[3], position: { before: 'ghost' } }] } }, draft))).toMatchObject({
        message: 'Document with id "ghost", locale "null" not found',
      });
      expect(await rejection(engine.update(A, documentId, { tags: { options: { strict: 'no' }, connect: [tags[3]] } }, draft))).toMatchObject({ status: 400 });
    });

    it('places start, end, before and after as Strapi does, and refuses connecting one document twice', async () => {
      const { documentId } = await engine.create(
        A,
        {
          title: 'Positions',
          tags: {
            connect: [
              { documentId: tags[0], position: { start: true } },
              { documentId: tags[1], position: { start: true } },
              { documentId: tags[2], position: { after: tags[0] } },
            ],
          },
        },
        draft,
      );
      expect(await articleTags(documentId)).toEqual(['t1', 't0', 't2']);
      await engine.update(
        A,
        documentId,
        {
          tags: {
            connect: [
              { documentId: tags[0], position: { before: tags[1] } },
              { documentId: tags[3], position: { end: true } },
            ],
          },
        },
        draft,
      );
      expect(await articleTags(documentId)).toEqual(['t0', 't1', 't2', 't3']);
      expect(
        await rejection(
          engine.update(
            A,
            documentId,
            {
              tags: {
                connect: [
                  { documentId: tags[0], position: { end: true } },
                  { documentId: tags[0], position: { start: true } },
                ],
              },
            },
            draft,
          ),
        ),
      ).toMatchObject({ status: 400, name: 'ValidationError' });
    });
  });

  describe('status of a draft & publish target', () => {
    it("checks { status: 'published' } from a type without draft & publish against published versions", async () => {
      const { documentId: draftOnly } = await engine.create(A, { title: 'Draft only' }, draft);
      const { documentId: live } = await engine.create(A, { title: 'Live' }, published);
      expect(await rejection(engine.create(AU, { name: 'Writer', articles: [{ documentId: draftOnly, status: 'published' }] }, published))).toMatchObject({
        message: `Document with id "${draftOnly}", locale "null" not found`,
      });
      const { documentId: author } = await engine.create(AU, { name: 'Writer', articles: [{ documentId: live, status: 'published' }, { documentId: draftOnly }] }, published);
      const linked = await ctx.db.query<{ document_id: string }>(
        'SELECT DISTINCT o.document_id FROM articles_author_lnk l JOIN articles o ON o.id = l.entity_id WHERE l.target_document_id = ? ORDER BY o.document_id',
        [author],
      );
      expect(linked.map((r) => r.document_id)).toEqual([draftOnly, live].sort());
    });
  });

  describe('media operations', () => {
    it('connects, disconnects and sets files of a multiple media field', async () => {
      const { documentId } = await engine.create(P, { name: 'Media ops', slug: 'media-ops', gallery: { connect: [files[0], { id: files[1] }] } }, published);
      const row = await onlyRow('products', documentId);
      expect(await mediaOf(P, row, 'gallery')).toEqual([0, 1]);
      await engine.update(P, documentId, { gallery: { connect: [files[2], files[0]], disconnect: [files[1], files[3], 999999] } }, published);
      expect(await mediaOf(P, row, 'gallery')).toEqual([2, 0]);
      await engine.update(P, documentId, { gallery: { set: [files[3]] } }, published);
      expect(await mediaOf(P, row, 'gallery')).toEqual([3]);
      await engine.update(P, documentId, { gallery: { disconnect: [{ id: files[3] }] } }, published);
      expect(await mediaOf(P, row, 'gallery')).toEqual([]);
    });

    it('replaces a single media on connect and clears it on disconnect', async () => {
      const { documentId } = await engine.create(P, { name: 'Single ops', slug: 'single-ops', manual: { connect: [files[0]] } }, published);
      const row = await onlyRow('products', documentId);
      await engine.update(P, documentId, { manual: { connect: [{ id: files[1] }] } }, published);
      expect(await mediaOf(P, row, 'manual')).toEqual([1]);
      await engine.update(P, documentId, { manual: { disconnect: [files[1]] } }, published);
      expect(await mediaOf(P, row, 'manual')).toEqual([]);
      expect(await rejection(engine.update(P, documentId, { manual: { set: [files[0], files[1]] } }, published))).toMatchObject({ message: 'manual must be a single file, got 2' });
    });

    it('counts connected files that do not exist, not disconnected ones', async () => {
      const { documentId } = await engine.create(P, { name: 'Missing files', slug: 'missing-files' }, published);
      expect(await rejection(engine.update(P, documentId, { gallery: { connect: [files[0], 999998], disconnect: [999997] } }, published))).toMatchObject({
        message: '1 relation(s) of type plugin::upload.file associated with this entity do not exist',
      });
    });
  });

  describe('components', () => {
    async function variants(productRow: number): Promise<{ id: number; sku: string | null; color: string | null }[]> {
      return ctx.db.query<{ id: number; sku: string | null; color: string | null }>(
        "SELECT id, sku, color FROM components_product_variants WHERE entity_type = 'api::product.product' AND entity_id = ? ORDER BY entity_ord",
        [productRow],
      );
    }

    it('checks required attributes of new instances on update of a type without draft & publish', async () => {
      const { documentId } = await engine.create(P, { name: 'Required compo', slug: 'required-compo', variants: [{ sku: 'A' }] }, published);
      const row = await onlyRow('products', documentId);
      expect(await rejection(engine.update(P, documentId, { variants: [{ color: 'red' }] }, published))).toMatchObject({
        status: 400,
        name: 'ValidationError',
        message: 'variants[0].sku must be defined.',
        details: { errors: [{ path: ['variants', '0', 'sku'] }] },
      });
      expect(await rejection(engine.update(P, documentId, { variants: [{ sku: null }] }, published))).toMatchObject({ details: { errors: [{ path: ['variants', '0', 'sku'] }] } });
      expect((await variants(row)).map((v) => v.sku)).toEqual(['A']);
    });

    it('updates an instance named by its id in place, keeping what the body leaves out', async () => {
      const { documentId } = await engine.create(P, { name: 'Patch compo', slug: 'patch-compo', variants: [{ sku: 'A', color: 'red' }, { sku: 'B' }] }, published);
      const row = await onlyRow('products', documentId);
      const [a, b] = await variants(row);
      await engine.update(P, documentId, { variants: [{ id: b!.id, color: 'blue' }, { id: String(a!.id) }, { sku: 'C' }] }, published);
      const after = await variants(row);
      expect(after.slice(0, 2)).toEqual([
        { id: b!.id, sku: 'B', color: 'blue' },
        { id: a!.id, sku: 'A', color: 'red' },
      ]);
      expect(after[2]).toMatchObject({ sku: 'C' });
      // A named instance is validated as an update: a required value cannot be removed.
      expect(await rejection(engine.update(P, documentId, { variants: [{ id: a!.id, sku: null }] }, published))).toMatchObject({
        details: { errors: [{ path: ['variants', '0', 'sku'] }] },
      });
    });

    it("refuses a component id the entry does not hold, with Strapi's message", async () => {
      const { documentId: other } = await engine.create(P, { name: 'Other', slug: 'other', variants: [{ sku: 'O' }] }, published);
      const foreign = (await variants(await onlyRow('products', other)))[0]!.id;
      const { documentId } = await engine.create(P, { name: 'Owner', slug: 'owner', variants: [{ sku: 'X' }] }, published);
      const own = (await variants(await onlyRow('products', documentId)))[0]!.id;
      for (const value of [[{ id: foreign, sku: 'stolen' }], [{ id: own }, { id: own }], [{ id: 'abc', sku: 'x' }], [{ id: null, sku: 'x' }]]) {
        expect(await rejection(engine.update(P, documentId, { variants: value }, published))).toEqual({
          status: 400,
          name: 'ApplicationError',
          message: 'Some of the provided components in variants are not related to the entity',
          details: {},
        });
      }
      expect((await variants(await onlyRow('products', other)))[0]).toMatchObject({ id: foreign, sku: 'O' });
      // An id on creation is ignored: the instance is new.
      const { documentId: created } = await engine.create(P, { name: 'Ids ignored', slug: 'ids-ignored', variants: [{ id: foreign, sku: 'N' }] }, published);
      expect((await variants(await onlyRow('products', created)))[0]!.id).not.toBe(foreign);
    });

    it('refuses a dynamic zone entry of another entry, or of another component', async () => {
      const { documentId: other } = await engine.create(A, { title: 'Other', blocks: [{ __component: 'shared.quote', title: 'q' }] }, draft);
      const { documentId } = await engine.create(A, { title: 'Mine', blocks: [{ __component: 'shared.quote', title: 'mine' }] }, draft);
      const quoteOf = async (doc: string): Promise<number> =>
        Number((await ctx.db.query<{ id: number }>("SELECT id FROM components_shared_quotes WHERE entity_type = 'api::article.article' AND entity_id = ?", [await draftRow('articles', doc)]))[0]!.id);
      const mine = await quoteOf(documentId);
      expect(await rejection(engine.update(A, documentId, { blocks: [{ __component: 'shared.quote', id: await quoteOf(other) }] }, draft))).toMatchObject({
        name: 'ApplicationError',
        message: 'Some of the provided components in blocks are not related to the entity',
      });
      expect(await rejection(engine.update(A, documentId, { blocks: [{ __component: 'shared.rich-text', id: mine }] }, draft))).toMatchObject({ name: 'ApplicationError' });
      await engine.update(A, documentId, { blocks: [{ __component: 'shared.quote', id: mine, body: 'kept' }] }, draft);
      expect(await quoteOf(documentId)).toBe(mine);
    });

    it("names a draft & publish entry's instances by the draft's ids, not the published version's", async () => {
      const { documentId } = await engine.create(A, { title: 'Seo ids', seo: { metaTitle: 'T', metaDescription: 'D' } }, published);
      const seoIds = await ctx.db.query<{ id: number; published: boolean }>(
        `SELECT c.id, a.published_at IS NOT NULL AS published FROM components_shared_seos c JOIN articles a ON a.id = c.entity_id
         WHERE c.entity_type = 'api::article.article' AND a.document_id = ?`,
        [documentId],
      );
      const draftSeo = Number(seoIds.find((r) => !r.published)!.id);
      const publishedSeo = Number(seoIds.find((r) => Boolean(r.published))!.id);
      expect(await rejection(engine.update(A, documentId, { seo: { id: publishedSeo, metaTitle: 'X' } }, draft))).toMatchObject({
        name: 'ApplicationError',
        message: 'Some of the provided components in seo are not related to the entity',
      });
      await engine.update(A, documentId, { seo: { id: draftSeo, metaTitle: 'Renamed' } }, published);
      const titles = await ctx.db.query<{ meta_title: string }>(
        `SELECT c.meta_title FROM components_shared_seos c JOIN articles a ON a.id = c.entity_id WHERE c.entity_type = 'api::article.article' AND a.document_id = ? ORDER BY a.id`,
        [documentId],
      );
      expect(titles.map((t) => t.meta_title)).toEqual(['Renamed', 'Renamed']);
    });

    it('lets drafts of a draft & publish type lack required component values, and enforces them on publish', async () => {
      const { documentId } = await engine.create(A, { title: 'Seo draft', seo: { metaTitle: 'T', metaDescription: 'D' } }, draft);
      await engine.update(A, documentId, { seo: { metaDescription: 'only' } }, draft);
      expect(await rejection(engine.update(A, documentId, {}, published))).toMatchObject({
        status: 400,
        // Publishing validates the stored draft, where the missing value is a null.
        message: 'seo.metaTitle must be a `string` type, but the final value was: `null`.',
      });
      await engine.update(A, documentId, { seo: { metaTitle: 'T2', metaDescription: 'D2' } }, published);
    });
  });
});
