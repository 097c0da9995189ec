/**
 * Relations of every kind, read back from the link tables: to-one and to-many owning sides,
 * connect / disconnect / set with positions, the inverse (mappedBy) side, one-to-one, a self
 * relation and a relation inside a component.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, openExampleDatabase, type ExampleDatabase } from '../../../test/support/example-db.ts';
import { ValidationError } from '../errors.ts';
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

describe.each(clients)('relations on %s', (client) => {
  let ctx: ExampleDatabase;
  let engine: WriteEngine;
  const tags: string[] = [];
  let ada = '';
  let alan = '';

  beforeAll(async () => {
    ctx = await openExampleDatabase(client);
    engine = createWriteEngine({ db: ctx.db, model: ctx.model, i18n });
    for (let i = 0; i < 6; i++) tags.push((await engine.create(T, { name: `t${i}` }, published)).documentId);
    ada = (await engine.create(AU, { name: 'Ada' }, published)).documentId;
    alan = (await engine.create(AU, { name: 'Alan' }, published)).documentId;
  });
  afterAll(async () => ctx?.close());

  /** Version rows of a document: [draft id, published id] for D&P types. */
  async function rows(table: string, documentId: string): Promise<{ id: number; published: boolean }[]> {
    const result = await ctx.db.query<{ id: number | string; published_at: unknown }>(`SELECT id, published_at FROM ${table} WHERE document_id = ? ORDER BY id`, [documentId]);
    return result.map((r) => ({ id: Number(r.id), published: r.published_at !== null }));
  }
  async function draftRow(table: string, documentId: string): Promise<number> {
    return (await rows(table, documentId)).find((r) => !r.published)!.id;
  }
  async function publishedRow(table: string, documentId: string): Promise<number> {
    return (await rows(table, documentId)).find((r) => r.published)!.id;
  }
  /** Targets of a row in a link table, in `ord` order. */
  async function targets(linkTable: string, entityId: number): Promise<string[]> {
    const result = await ctx.db.query<{ target_document_id: string }>(`SELECT target_document_id FROM ${linkTable} WHERE entity_id = ? ORDER BY ord, id`, [entityId]);
    return result.map((r) => r.target_document_id);
  }
  async function ords(linkTable: string, entityId: number): Promise<number[]> {
    const result = await ctx.db.query<{ ord: number }>(`SELECT ord FROM ${linkTable} WHERE entity_id = ? ORDER BY ord`, [entityId]);
    return result.map((r) => Number(r.ord));
  }
  /** Owner documents linking to a target, in `inverse_ord` order, with the owner rows' status. */
  async function inverse(linkTable: string, ownerTable: string, target: string): Promise<string[]> {
    const result = await ctx.db.query<{ document_id: string; published_at: unknown; inverse_ord: number }>(
      `SELECT o.document_id, o.published_at, l.inverse_ord FROM ${linkTable} l JOIN ${ownerTable} o ON o.id = l.entity_id WHERE l.target_document_id = ? ORDER BY l.inverse_ord, o.id`,
      [target],
    );
    return result.map((r) => `${r.document_id}:${r.published_at === null ? 'draft' : 'published'}:${Number(r.inverse_ord)}`);
  }
  const name = (documentId: string): string => {
    const i = tags.indexOf(documentId);
    return i === -1 ? documentId : `t${i}`;
  };
  const tagNames = async (entityId: number): Promise<string[]> => (await targets('articles_tags_lnk', entityId)).map(name);

  describe('to-one, owning side', () => {
    it('sets, replaces and clears the target of each version', async () => {
      const { documentId } = await engine.create(A, { title: 'To one', author: ada }, published);
      expect(await targets('articles_author_lnk', await draftRow('articles', documentId))).toEqual([ada]);
      expect(await targets('articles_author_lnk', await publishedRow('articles', documentId))).toEqual([ada]);

      await engine.update(A, documentId, { author: { connect: [alan] } }, draft);
      expect(await targets('articles_author_lnk', await draftRow('articles', documentId))).toEqual([alan]);
      expect(await targets('articles_author_lnk', await publishedRow('articles', documentId))).toEqual([ada]);

      await engine.update(A, documentId, { author: { disconnect: [ada] } }, draft);
      expect(await targets('articles_author_lnk', await draftRow('articles', documentId))).toEqual([alan]);
      await engine.update(A, documentId, { author: { disconnect: [{ documentId: alan }] } }, draft);
      expect(await targets('articles_author_lnk', await draftRow('articles', documentId))).toEqual([]);

      await engine.update(A, documentId, { author: { documentId: ada } }, published);
      expect(await targets('articles_author_lnk', await publishedRow('articles', documentId))).toEqual([ada]);
      await engine.update(A, documentId, { author: null }, published);
      expect(await targets('articles_author_lnk', await draftRow('articles', documentId))).toEqual([]);
      expect(await targets('articles_author_lnk', await publishedRow('articles', documentId))).toEqual([]);
    });

    it('keeps links when the body leaves the relation out', async () => {
      const { documentId } = await engine.create(A, { title: 'Keep', author: ada, tags: [tags[0]] }, published);
      await engine.update(A, documentId, { title: 'Keep 2' }, published);
      const row = await publishedRow('articles', documentId);
      expect(await targets('articles_author_lnk', row)).toEqual([ada]);
      expect(await tagNames(row)).toEqual(['t0']);
    });

    it("appends to the target's list (inverse_ord), and keeps the place across the owner's versions", async () => {
      const author = (await engine.create(AU, { name: 'Grace' }, published)).documentId;
      const first = (await engine.create(A, { title: 'G1', author }, published)).documentId;
      const second = (await engine.create(A, { title: 'G2', author }, draft)).documentId;
      await engine.update(A, first, { title: 'G1 again' }, published);
      expect(await inverse('articles_author_lnk', 'articles', author)).toEqual([`${first}:draft:1`, `${first}:published:1`, `${second}:draft:2`]);
    });
  });

  describe('to-many, owning side', () => {
    it('sets the list in input order', async () => {
      const { documentId } = await engine.create(A, { title: 'Many', tags: [tags[2], tags[0], tags[1]] }, draft);
      const row = await draftRow('articles', documentId);
      expect(await tagNames(row)).toEqual(['t2', 't0', 't1']);
      expect(await ords('articles_tags_lnk', row)).toEqual([1, 2, 3]);
      await engine.update(A, documentId, { tags: [tags[1], tags[3]] }, draft);
      expect(await tagNames(row)).toEqual(['t1', 't3']);
      await engine.update(A, documentId, { tags: { set: [{ documentId: tags[4] }] } }, draft);
      expect(await tagNames(row)).toEqual(['t4']);
      await engine.update(A, documentId, { tags: [] }, draft);
      expect(await tagNames(row)).toEqual([]);
    });

    it('connects at positions and disconnects', async () => {
      const { documentId } = await engine.create(A, { title: 'Positions', tags: [tags[0], tags[1]] }, draft);
      const row = await draftRow('articles', documentId);
      await engine.update(A, documentId, { tags: { connect: [tags[2]] } }, draft);
      expect(await tagNames(row)).toEqual(['t0', 't1', 't2']);
      await engine.update(A, documentId, { tags: { connect: [{ documentId: tags[3], position: { start: true } }] } }, draft);
      expect(await tagNames(row)).toEqual(['t3', 't0', 't1', 't2']);
      await engine.update(A, documentId, { tags: { connect: [{ documentId: tags[4], position: { before: tags[1] } }] } }, draft);
      expect(await tagNames(row)).toEqual(['t3', 't0', 't4', 't1', 't2']);
      await engine.update(A, documentId, { tags: { connect: [{ documentId: tags[5], position: { after: tags[3] } }] } }, draft);
      expect(await tagNames(row)).toEqual(['t3', 't5', 't0', 't4', 't1', 't2']);
      // Connecting a connected document moves it.
      await engine.update(
        A,
        documentId,
        {
          tags: {
            connect: [
              { documentId: tags[2], position: { start: true } },
              { documentId: tags[3], position: { end: true } },
            ],
          },
        },
        draft,
      );
      expect(await tagNames(row)).toEqual(['t2', 't5', 't0', 't4', 't1', 't3']);
      await engine.update(A, documentId, { tags: { disconnect: [tags[5], { documentId: tags[0] }], connect: [] } }, draft);
      expect(await tagNames(row)).toEqual(['t2', 't4', 't1', 't3']);
      expect(await ords('articles_tags_lnk', row)).toEqual([1, 2, 3, 4]);
      // set wins over connect and disconnect.
      await engine.update(A, documentId, { tags: { set: [tags[0]], connect: [tags[1]], disconnect: [tags[0]] } }, draft);
      expect(await tagNames(row)).toEqual(['t0']);
    });

    it('places items relative to items of the same connect list, whatever their order', async () => {
      const { documentId } = await engine.create(A, { title: 'Forward', tags: [tags[0]] }, draft);
      const row = await draftRow('articles', documentId);
      await engine.update(
        A,
        documentId,
        {
          tags: {
            connect: [
              { documentId: tags[1], position: { before: tags[2] } },
              { documentId: tags[2], position: { start: true } },
              { documentId: tags[3], position: { after: tags[1] } },
            ],
          },
        },
        draft,
      );
      expect(await tagNames(row)).toEqual(['t1', 't3', 't2', 't0']);
    });

    it("refuses impossible positions with Strapi's messages", async () => {
      const { documentId } = await engine.create(A, { title: 'Bad positions', tags: [tags[0]] }, draft);
      const attempt = (connect: unknown[]) => engine.update(A, documentId, { tags: { connect } }, draft);
      await expect(attempt([{ documentId: tags[1], position: { before: tags[2] } }])).rejects.toThrow(
        `There was a problem connecting relation with id ${tags[1]} at position {"before":"${tags[2]}"}. The relation with id ${tags[2]} needs to be connected first.`,
      );
      await expect(attempt([tags[1], tags[1]])).rejects.toThrow(`The relation with id ${tags[1]} is already connected. You cannot connect the same relation twice.`);
      await expect(
        attempt([
          { documentId: tags[1], position: { before: tags[2] } },
          { documentId: tags[2], position: { after: tags[1] } },
        ]),
      ).rejects.toThrow(/^A circular reference was found in the connect array/);
      await expect(attempt([{ documentId: tags[1], position: { before: tags[2] } }])).rejects.toBeInstanceOf(ValidationError);
      expect(await tagNames(await draftRow('articles', documentId))).toEqual(['t0']);
    });
  });

  describe('inverse (mappedBy) side', () => {
    it("writes the owners' link rows, in every version of a draft & publish owner, in the given order", async () => {
      const a1 = (await engine.create(A, { title: 'I1', author: ada }, published)).documentId;
      const a2 = (await engine.create(A, { title: 'I2' }, draft)).documentId;
      const author = (await engine.create(AU, { name: 'Inverse', articles: [a2, a1] }, published)).documentId;
      expect(await inverse('articles_author_lnk', 'articles', author)).toEqual([`${a2}:draft:1`, `${a1}:draft:2`, `${a1}:published:2`]);
      // a1's author was Ada: a to-one owning side holds one target.
      expect(await targets('articles_author_lnk', await publishedRow('articles', a1))).toEqual([author]);

      // Positions stay 1..n.
      await engine.update(AU, author, { articles: { disconnect: [a2] } }, published);
      expect(await inverse('articles_author_lnk', 'articles', author)).toEqual([`${a1}:draft:1`, `${a1}:published:1`]);
      await engine.update(AU, author, { articles: { connect: [{ documentId: a2, position: { start: true } }] } }, published);
      expect(await inverse('articles_author_lnk', 'articles', author)).toEqual([`${a2}:draft:1`, `${a1}:draft:2`, `${a1}:published:2`]);
      await engine.update(AU, author, { articles: [] }, published);
      expect(await inverse('articles_author_lnk', 'articles', author)).toEqual([]);
    });

    it("adds to a many-to-many owner's list without touching its other targets", async () => {
      const article = (await engine.create(A, { title: 'M2M', tags: [tags[0], tags[1]] }, published)).documentId;
      await engine.update(T, tags[5]!, { articles: [article] }, published);
      expect(await tagNames(await draftRow('articles', article))).toEqual(['t0', 't1', 't5']);
      expect(await tagNames(await publishedRow('articles', article))).toEqual(['t0', 't1', 't5']);
      await engine.update(T, tags[5]!, { articles: { disconnect: [article] } }, published);
      expect(await tagNames(await publishedRow('articles', article))).toEqual(['t0', 't1']);
    });
  });

  it('mirrors inverse links onto published owners when both types have draft & publish', async () => {
    const author = ctx.model.contentTypes[AU]!;
    const model = { ...ctx.model, contentTypes: { ...ctx.model.contentTypes, [AU]: { ...author, draftAndPublish: true } } };
    const dp = createWriteEngine({ db: ctx.db, model, i18n });
    const article = (await dp.create(A, { title: 'Mirrored' }, published)).documentId;
    const writer = (await dp.create(AU, { name: 'Drafty', articles: [article] }, draft)).documentId;
    expect(await inverse('articles_author_lnk', 'articles', writer)).toEqual([`${article}:draft:1`]);
    await dp.update(AU, writer, {}, published);
    expect(await inverse('articles_author_lnk', 'articles', writer)).toEqual([`${article}:draft:1`, `${article}:published:1`]);
    await dp.update(AU, writer, { articles: [] }, published);
    expect(await inverse('articles_author_lnk', 'articles', writer)).toEqual([]);
  });

  describe('one-to-one', () => {
    it('takes the target away from the document that had it, from either side', async () => {
      const product = (await engine.create(P, { name: 'Featured', slug: 'featured' }, published)).documentId;
      const a = (await engine.create(A, { title: 'OA', featuredProduct: product }, published)).documentId;
      const b = (await engine.create(A, { title: 'OB', featuredProduct: product }, published)).documentId;
      expect(await inverse('articles_featured_product_lnk', 'articles', product)).toEqual([`${b}:draft:1`, `${b}:published:1`]);
      expect(await targets('articles_featured_product_lnk', await publishedRow('articles', a))).toEqual([]);
      await engine.update(P, product, { reviewArticle: a }, published);
      expect((await inverse('articles_featured_product_lnk', 'articles', product)).map((s) => s.split(':')[0])).toEqual([a, a]);
      await engine.update(P, product, { reviewArticle: null }, published);
      expect(await inverse('articles_featured_product_lnk', 'articles', product)).toEqual([]);
    });
  });

  it('writes a self relation', async () => {
    const one = (await engine.create(P, { name: 'Self one', slug: 'self-one' }, published)).documentId;
    const two = (await engine.create(P, { name: 'Self two', slug: 'self-two', relatedProducts: [one] }, published)).documentId;
    await engine.update(P, one, { relatedProducts: { connect: [one, { documentId: two, position: { start: true } }] } }, published);
    expect(await targets('products_related_products_lnk', await publishedRow('products', one))).toEqual([two, one]);
    expect(await targets('products_related_products_lnk', await publishedRow('products', two))).toEqual([one]);
  });

  it('writes relations inside components, per version', async () => {
    const target = (await engine.create(A, { title: 'Card target' }, published)).documentId;
    const { documentId } = await engine.create(A, { title: 'With card', blocks: [{ __component: 'shared.article-card', title: 'Next', article: target }] }, published);
    for (const row of await rows('articles', documentId)) {
      const cards = await ctx.db.query<{ id: number }>("SELECT id FROM components_shared_article_cards WHERE entity_type = 'api::article.article' AND entity_id = ?", [row.id]);
      expect(cards).toHaveLength(1);
      expect(await targets('components_shared_article_cards_article_lnk', cards[0]!.id)).toEqual([target]);
    }
  });

  it('links a localized type to a type without i18n (target locale "null")', async () => {
    const category = (await engine.create('api::category.category', { name: 'Cat' }, published)).documentId;
    const page = (await engine.create('api::page.page', { title: 'Page', category }, { status: 'published', locale: 'fr' })).documentId;
    const pageRows = await ctx.db.query<{ id: number }>('SELECT id FROM pages WHERE document_id = ?', [page]);
    for (const row of pageRows) expect(await targets('pages_category_lnk', row.id)).toEqual([category]);
    await expect(engine.update('api::page.page', page, { category: 'nonexistentcategoryxxxxx' }, { status: 'draft', locale: 'fr' })).rejects.toThrow(
      'Document with id "nonexistentcategoryxxxxx", locale "null" not found',
    );
  });
});
