/**
 * The conformance seed (test/fixtures/conformance/seed.mjs) replayed as engine calls: every write
 * Strapi accepted must be accepted, and leave the rows the version layout promises.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, openExampleDatabase, type ExampleDatabase } from '../../../test/support/example-db.ts';
import type { Database } from '../database.ts';
import type { WriteEngine, WriteOptions } from './types.ts';
import { createWriteEngine } from './write.ts';
import { modelTables } from './write-schema.ts';

const i18n = {
  defaultLocale: 'en',
  locales: [
    { code: 'en', name: 'English (en)' },
    { code: 'fr', name: 'French (fr)' },
  ],
};
const published: WriteOptions = { status: 'published' };
const draft: WriteOptions = { status: 'draft' };

async function insertFile(db: Database, name: string, mime: string): Promise<number> {
  const now = new Date('2026-01-01T00:00:00.000Z');
  const rows = await db.query<{ id: number | string }>(
    `INSERT INTO files (document_id, name, hash, ext, mime, size, url, provider, created_at, updated_at, published_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'local', ?, ?, ?) RETURNING id`,
    [`file${name.replace(/\W/g, '').padEnd(20, 'x')}`.slice(0, 24), name, `h_${name}`, '.' + name.split('.').pop(), mime, 1.5, `/uploads/${name}`, now, now, now],
  );
  return Number(rows[0]!.id);
}

async function count(db: Database, sql: string, params: (string | number)[] = []): Promise<number> {
  const rows = await db.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM (${sql}) AS sub`, params);
  return Number(rows[0]!.n);
}

describe.each(clients)('the conformance seed on %s', (client) => {
  let ctx: ExampleDatabase;
  let engine: WriteEngine;
  const docs: Record<string, string> = {};
  const media: Record<string, number> = {};

  beforeAll(async () => {
    ctx = await openExampleDatabase(client);
    engine = createWriteEngine({ db: ctx.db, model: ctx.model, i18n });
  });
  afterAll(async () => ctx?.close());

  const doc = (label: string): string => {
    const id = docs[label];
    if (id === undefined) throw new Error(`unknown label ${label}`);
    return id;
  };
  const file = (label: string): number => {
    const id = media[label];
    if (id === undefined) throw new Error(`unknown media ${label}`);
    return id;
  };
  const create = async (label: string, uid: string, data: Record<string, unknown>, options: WriteOptions = published): Promise<void> => {
    docs[label] = (await engine.create(uid, data, options)).documentId;
  };
  const update = async (label: string, uid: string, data: Record<string, unknown>, options: WriteOptions = published): Promise<void> => {
    expect(await engine.update(uid, doc(label), data, options)).not.toBeNull();
  };

  it('uploads (as rows) and creates every document', async () => {
    media['img-red'] = await insertFile(ctx.db, 'red.png', 'image/png');
    media['img-green'] = await insertFile(ctx.db, 'green.png', 'image/png');
    media['img-blue'] = await insertFile(ctx.db, 'blue.png', 'image/png');
    media['img-large'] = await insertFile(ctx.db, 'large-gradient.png', 'image/png');
    media['img-photo'] = await insertFile(ctx.db, 'photo.jpg', 'image/jpeg');
    media['doc-manual'] = await insertFile(ctx.db, 'manual.pdf', 'application/pdf');

    const C = 'api::category.category';
    await create('cat-news', C, { name: 'News', slug: 'news', description: 'Company news and announcements' });
    await create('cat-tech', C, { name: 'Tech', slug: 'tech', description: 'Technology deep dives' });
    await create('cat-food', C, { name: 'Food', slug: 'food', description: null });
    await create('cat-empty', C, { name: 'Empty', slug: 'empty', description: 'A category without articles' });

    const AU = 'api::author.author';
    await create('author-ada', AU, { name: 'Ada Lovelace', email: 'ada@example.com', bio: 'First programmer.', avatar: file('img-red') });
    await create('author-alan', AU, { name: 'Alan Turing', email: 'alan@example.com', bio: 'Computability and codebreaking.', avatar: file('img-photo') });
    await create('author-grace', AU, { name: 'Grace Hopper', email: null, bio: null });

    for (let i = 1; i <= 30; i++) {
      const n = String(i).padStart(2, '0');
      await create(`tag-${n}`, 'api::tag.tag', { name: `tag-${n}`, weight: (i * 7) % 31 });
    }

    const P = 'api::product.product';
    await create('product-alpha', P, {
      name: 'Alpha Widget',
      slug: 'alpha-widget',
      summary: 'The first widget.\nTwo lines.',
      details: '# Alpha\n\n**Bold** markdown with a [link](https://example.com).',
      notes: [
        {
          type: 'paragraph',
          children: [
            { type: 'text', text: 'Alpha notes ' },
            { type: 'text', text: 'bold', bold: true },
          ],
        },
        { type: 'heading', level: 2, children: [{ type: 'text', text: 'Heading' }] },
      ],
      contactEmail: 'alpha@example.com',
      stock: 10,
      serialNumber: '1234567890123',
      price: 19.99,
      weight: 1.5,
      inStock: true,
      releaseDate: '2024-01-15',
      availableAt: '2024-01-15T10:30:00.000Z',
      openingTime: '09:30:00',
      size: 'small',
      specs: { color: 'red', tags: ['a', 'b'], nested: { n: 1, ok: true, nothing: null } },
      internalCode: 'ALPHA-INTERNAL',
      secret: 'alpha-secret-password',
      gallery: [file('img-red'), file('img-green'), file('img-large')],
      manual: file('doc-manual'),
      variants: [
        { sku: 'ALPHA-RED', color: 'red', price: 19.99, image: file('img-red'), dimensions: { width: 10, height: 20.5, depth: 3, unit: 'cm' } },
        { sku: 'ALPHA-BLUE', color: 'blue', price: 21.5, image: file('img-blue'), dimensions: { width: 4, height: 8, depth: 1.25, unit: 'in' } },
      ],
      category: doc('cat-tech'),
    });
    await create('product-beta', P, {
      name: 'Beta Gadget',
      slug: 'beta-gadget',
      summary: 'Out of stock gadget',
      contactEmail: 'beta@example.com',
      stock: 0,
      serialNumber: '42',
      price: 5.5,
      weight: 0.125,
      inStock: false,
      releaseDate: '2023-06-01',
      availableAt: '2023-06-01T00:00:00.000Z',
      openingTime: '18:45:30',
      size: 'large',
      specs: [1, 2, 3],
      internalCode: 'BETA-INTERNAL',
      gallery: [file('img-photo')],
      variants: [{ sku: 'BETA-ONE', color: 'black', price: 5.5, dimensions: { width: 1, height: 1, depth: 1 } }],
      category: doc('cat-food'),
    });
    await create('product-gamma', P, { name: 'Gamma Tool', slug: 'gamma-tool' });
    await create('product-delta', P, {
      name: 'Delta Device',
      slug: 'delta-device',
      summary: 'Premium device',
      details: 'Plain *markdown*.',
      contactEmail: 'delta@example.com',
      stock: 100,
      serialNumber: '-12345678901',
      price: 99.95,
      weight: 0.25,
      inStock: true,
      releaseDate: '2025-03-10',
      availableAt: '2025-03-10T08:00:00.000Z',
      openingTime: '07:00:00',
      size: 'x_large',
      specs: { color: 'silver', ports: 4 },
      category: doc('cat-news'),
    });
    await create('product-epsilon', P, {
      name: 'Epsilon Engine',
      slug: 'epsilon-engine',
      summary: 'Engine with a zero price',
      contactEmail: 'sales@epsilon.example.com',
      stock: 3,
      serialNumber: '0',
      price: 0,
      weight: 10,
      inStock: true,
      releaseDate: '2022-12-31',
      availableAt: '2022-12-31T23:59:59.000Z',
      openingTime: '00:00:00',
      size: 'medium',
      specs: null,
    });
    await update('product-alpha', P, { relatedProducts: [doc('product-beta'), doc('product-gamma')] });
    await update('product-delta', P, { relatedProducts: [doc('product-alpha')] });

    const A = 'api::article.article';
    await create('article-second', A, {
      title: 'Second Steps',
      slug: 'second-steps',
      description: 'Following up on the first post',
      author: doc('author-ada'),
      category: doc('cat-tech'),
      tags: [doc('tag-02')],
      readingTime: 3,
      featured: false,
      blocks: [{ __component: 'shared.quote', title: 'Ada', body: 'That brain of mine is more than merely mortal.' }],
    });
    await create('article-third', A, {
      title: 'Third Time Lucky',
      slug: 'third-time-lucky',
      description: null,
      author: doc('author-alan'),
      category: doc('cat-tech'),
      tags: [doc('tag-03'), doc('tag-04')],
      featuredProduct: doc('product-beta'),
      readingTime: 12,
      featured: true,
      cover: file('img-photo'),
      seo: { metaTitle: 'Third', metaDescription: 'Third article SEO' },
    });
    await create('article-food', A, {
      title: 'Food For Thought',
      slug: 'food-for-thought',
      description: 'Cooking with code',
      author: doc('author-alan'),
      category: doc('cat-food'),
      readingTime: 7,
      featured: false,
      blocks: [
        { __component: 'shared.rich-text', body: '## Recipe\n\n1. Boil\n2. Serve' },
        { __component: 'shared.media', file: file('img-photo') },
      ],
    });
    await create('article-lonely', A, { title: 'Lonely Article', slug: 'lonely-article', description: 'No relations at all' });
    await create('article-hello', A, {
      title: 'Hello World',
      slug: 'hello-world',
      description: 'First post of the blog',
      author: doc('author-ada'),
      category: doc('cat-news'),
      tags: [doc('tag-01'), doc('tag-02'), doc('tag-03')],
      featuredProduct: doc('product-alpha'),
      cover: file('img-large'),
      readingTime: 5,
      featured: true,
      seo: {
        metaTitle: 'Hello World SEO',
        metaDescription: 'The hello world article',
        shareImage: file('img-blue'),
        metaSocial: [
          { socialNetwork: 'Facebook', title: 'Hello on Facebook', description: 'fb' },
          { socialNetwork: 'Twitter', title: 'Hello on Twitter', description: 'tw' },
        ],
      },
      blocks: [
        { __component: 'shared.rich-text', body: '# Hello\n\nWelcome to **the** blog.' },
        { __component: 'shared.quote', title: 'Grace', body: 'The most dangerous phrase is: we have always done it this way.' },
        { __component: 'shared.media', file: file('img-red') },
        { __component: 'shared.slider', files: [file('img-green'), file('img-blue')] },
        { __component: 'shared.article-card', title: 'Read next', image: file('img-large'), article: doc('article-second') },
      ],
    });
    await create(
      'article-draft-only',
      A,
      {
        title: 'Draft Only Notes',
        slug: 'draft-only-notes',
        description: 'Never published',
        author: doc('author-grace'),
        category: doc('cat-news'),
        tags: [doc('tag-05')],
        readingTime: 1,
      },
      draft,
    );
    await create('article-modified', A, {
      title: 'Modified After Publish',
      slug: 'modified-after-publish',
      description: 'Published version',
      author: doc('author-grace'),
      category: doc('cat-food'),
      readingTime: 9,
    });
    await update('article-modified', A, { title: 'Modified After Publish (draft)', description: 'Draft version', readingTime: 10 }, draft);

    docs.global = (
      await engine.putSingle(
        'api::global.global',
        {
          siteName: 'Conformance Site',
          siteDescription: 'A site used to record Strapi 5 behavior',
          favicon: file('img-blue'),
          defaultSeo: {
            metaTitle: 'Conformance',
            metaDescription: 'Default SEO',
            shareImage: file('img-large'),
            metaSocial: [{ socialNetwork: 'Twitter', title: 'Site on Twitter' }],
          },
        },
        published,
      )
    ).documentId;
    docs.about = (
      await engine.putSingle(
        'api::about.about',
        {
          title: 'About us',
          blocks: [
            { __component: 'shared.quote', title: 'Motto', body: 'Record, replay, compare.' },
            { __component: 'shared.rich-text', body: 'We **test** things.' },
            { __component: 'shared.media', file: file('img-green') },
            { __component: 'shared.slider', files: [file('img-red'), file('img-green')] },
          ],
        },
        published,
      )
    ).documentId;

    const PG = 'api::page.page';
    await create('page-home', PG, {
      title: 'Home',
      slug: 'home',
      body: 'Welcome home.',
      sortOrder: 1,
      theme: 'light',
      seo: { metaTitle: 'Home', metaDescription: 'Home page' },
      category: doc('cat-news'),
    });
    await update(
      'page-home',
      PG,
      {
        title: 'Accueil',
        slug: 'accueil',
        body: 'Bienvenue.',
        sortOrder: 1,
        theme: 'light',
        seo: { metaTitle: 'Accueil', metaDescription: "Page d'accueil" },
        category: doc('cat-news'),
      },
      { status: 'published', locale: 'fr' },
    );
    await create('page-contact', PG, { title: 'Contact', slug: 'contact', body: 'Write to us.', sortOrder: 2, theme: 'dark' });
    await update('page-contact', PG, { title: 'Contactez-nous', slug: 'contactez-nous', body: 'Écrivez-nous.', sortOrder: 2, theme: 'dark' }, { status: 'draft', locale: 'fr' });
    await create(
      'page-legal',
      PG,
      { title: 'Mentions légales', slug: 'mentions-legales', body: 'Texte légal.', sortOrder: 3, theme: 'light' },
      {
        status: 'published',
        locale: 'fr',
      },
    );
    await create('page-upcoming', PG, { title: 'Upcoming', slug: 'upcoming', body: 'Soon.', sortOrder: 4 }, draft);

    const N = 'api::internal-note.internal-note';
    await create('note-plan', N, { title: 'Secret plan', body: 'World domination.' });
    await create('note-budget', N, { title: 'Budget', body: null });
  });

  it('stores one row per version: drafts and published rows of D&P types, one row otherwise', async () => {
    expect(await count(ctx.db, 'SELECT id FROM categories')).toBe(4);
    expect(await count(ctx.db, 'SELECT id FROM tags')).toBe(30);
    expect(await count(ctx.db, 'SELECT id FROM products WHERE published_at IS NOT NULL')).toBe(5);
    // 7 drafts, 6 published (all but article-draft-only)
    expect(await count(ctx.db, 'SELECT id FROM articles WHERE published_at IS NULL')).toBe(7);
    expect(await count(ctx.db, 'SELECT id FROM articles WHERE published_at IS NOT NULL')).toBe(6);
    const pages = await ctx.db.query<{ document_id: string; locale: string; published: number | boolean }>(
      'SELECT document_id, locale, CASE WHEN published_at IS NULL THEN 0 ELSE 1 END AS published FROM pages ORDER BY id',
    );
    const shape = (label: string) =>
      pages
        .filter((p) => p.document_id === doc(label))
        .map((p) => `${p.locale}:${Number(p.published) ? 'published' : 'draft'}`)
        .sort();
    expect(shape('page-home')).toEqual(['en:draft', 'en:published', 'fr:draft', 'fr:published']);
    expect(shape('page-contact')).toEqual(['en:draft', 'en:published', 'fr:draft']);
    expect(shape('page-legal')).toEqual(['fr:draft', 'fr:published']);
    expect(shape('page-upcoming')).toEqual(['en:draft']);
  });

  it('keeps the draft of article-modified apart from its published version', async () => {
    const rows = await ctx.db.query<{ title: string; description: string; reading_time: number; published: number }>(
      'SELECT title, description, reading_time, CASE WHEN published_at IS NULL THEN 0 ELSE 1 END AS published FROM articles WHERE document_id = ? ORDER BY id',
      [doc('article-modified')],
    );
    expect(rows.map((r) => [r.title, r.description, Number(r.reading_time), Number(r.published)])).toEqual([
      ['Modified After Publish (draft)', 'Draft version', 10, 0],
      ['Modified After Publish', 'Published version', 9, 1],
    ]);
  });

  it('gives each version of article-hello its own components, media and links', async () => {
    const versions = await ctx.db.query<{ id: number }>('SELECT id FROM articles WHERE document_id = ? ORDER BY id', [doc('article-hello')]);
    expect(versions).toHaveLength(2);
    for (const { id } of versions) {
      const tags = await ctx.db.query<{ target_document_id: string; ord: number }>('SELECT target_document_id, ord FROM articles_tags_lnk WHERE entity_id = ? ORDER BY ord', [id]);
      expect(tags.map((t) => t.target_document_id)).toEqual([doc('tag-01'), doc('tag-02'), doc('tag-03')]);
      const seo = await ctx.db.query<{ id: number }>("SELECT id FROM components_shared_seos WHERE entity_type = 'api::article.article' AND entity_id = ?", [id]);
      expect(seo).toHaveLength(1);
      const socials = await ctx.db.query<{ title: string }>("SELECT title FROM components_shared_meta_socials WHERE entity_type = 'shared.seo' AND entity_id = ? ORDER BY entity_ord", [seo[0]!.id]);
      expect(socials.map((s) => s.title)).toEqual(['Hello on Facebook', 'Hello on Twitter']);
      const cover = await ctx.db.query<{ file_id: number }>("SELECT file_id FROM files_related_mph WHERE related_type = 'api::article.article' AND related_id = ? AND field = 'cover'", [id]);
      expect(cover.map((c) => Number(c.file_id))).toEqual([file('img-large')]);
      const slider = await ctx.db.query<{ id: number }>("SELECT id FROM components_shared_sliders WHERE entity_type = 'api::article.article' AND entity_id = ?", [id]);
      const files = await ctx.db.query<{ file_id: number }>("SELECT file_id FROM files_related_mph WHERE related_type = 'shared.slider' AND related_id = ? ORDER BY ord", [slider[0]!.id]);
      expect(files.map((f) => Number(f.file_id))).toEqual([file('img-green'), file('img-blue')]);
      const card = await ctx.db.query<{ id: number; entity_ord: number }>("SELECT id, entity_ord FROM components_shared_article_cards WHERE entity_type = 'api::article.article' AND entity_id = ?", [
        id,
      ]);
      expect(Number(card[0]!.entity_ord)).toBe(4);
      const link = await ctx.db.query<{ target_document_id: string }>('SELECT target_document_id FROM components_shared_article_cards_article_lnk WHERE entity_id = ?', [card[0]!.id]);
      expect(link.map((l) => l.target_document_id)).toEqual([doc('article-second')]);
    }
  });

  it('stores every scalar type of product-alpha in its column format', async () => {
    const [row] = await ctx.db.query<Record<string, unknown>>('SELECT * FROM products WHERE document_id = ?', [doc('product-alpha')]);
    expect(row).toBeDefined();
    expect(String(row!.serial_number)).toBe('1234567890123');
    expect(Number(row!.price)).toBe(19.99);
    expect(String(row!.release_date).slice(0, 10)).toBe('2024-01-15');
    expect(String(row!.opening_time)).toMatch(/^09:30:00(\.000)?$/);
    expect(row!.secret).toMatch(/^\$2[ab]\$10\$/); // bcrypt, as Strapi stores passwords
    expect(row!.internal_code).toBe('ALPHA-INTERNAL');
    const specs = typeof row!.specs === 'string' ? JSON.parse(row!.specs) : row!.specs;
    expect(specs).toEqual({ color: 'red', tags: ['a', 'b'], nested: { n: 1, ok: true, nothing: null } });
    const variants = await ctx.db.query<{ id: number; sku: string }>(
      "SELECT id, sku FROM components_product_variants WHERE entity_type = 'api::product.product' AND entity_id = ? ORDER BY entity_ord",
      [row!.id as number],
    );
    expect(variants.map((v) => v.sku)).toEqual(['ALPHA-RED', 'ALPHA-BLUE']);
    const units = await ctx.db.query<{ unit: string }>(
      "SELECT d.unit FROM components_product_dimensions d JOIN components_product_variants v ON v.id = d.entity_id WHERE d.entity_type = 'product.variant' AND v.entity_id = ? ORDER BY v.entity_ord",
      [row!.id as number],
    );
    expect(units.map((u) => u.unit)).toEqual(['cm', 'in']);
    // product-beta gave no unit: the default applies inside components too.
    const beta = await ctx.db.query<{ unit: string }>(
      'SELECT d.unit FROM components_product_dimensions d JOIN components_product_variants v ON v.id = d.entity_id JOIN products p ON p.id = v.entity_id WHERE p.document_id = ?',
      [doc('product-beta')],
    );
    expect(beta.map((u) => u.unit)).toEqual(['cm']);
    const related = await ctx.db.query<{ target_document_id: string }>('SELECT target_document_id FROM products_related_products_lnk WHERE entity_id = ? ORDER BY ord', [row!.id as number]);
    expect(related.map((r) => r.target_document_id)).toEqual([doc('product-beta'), doc('product-gamma')]);
  });

  it('keeps the non-localized attributes of page versions in sync', async () => {
    const rows = await ctx.db.query<{ locale: string; sort_order: number; theme: string }>('SELECT locale, sort_order, theme FROM pages WHERE document_id = ?', [doc('page-contact')]);
    expect(new Set(rows.map((r) => `${Number(r.sort_order)}:${r.theme}`))).toEqual(new Set(['2:dark']));
  });

  it('leaves no orphan: every component row, media link and link row has its owner', async () => {
    for (const table of modelTables(ctx.model)) expect(await count(ctx.db, `SELECT * FROM ${table}`)).toBeGreaterThanOrEqual(0);
    for (const component of Object.values(ctx.model.components)) {
      for (const owner of [...Object.values(ctx.model.contentTypes), ...Object.values(ctx.model.components)]) {
        const orphans = await count(ctx.db, `SELECT c.id FROM ${component.table} c WHERE c.entity_type = ? AND NOT EXISTS (SELECT 1 FROM ${owner.table} o WHERE o.id = c.entity_id)`, [owner.uid]);
        expect(orphans).toBe(0);
      }
    }
  });
});
