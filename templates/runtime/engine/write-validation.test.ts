/**
 * Body validation, rule by rule, with Strapi 5's exact messages and paths: every problem at
 * once, and nothing written when there is one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejection } from '../../../test/support/rejection.ts';
import { clients, openExampleDatabase, type ExampleDatabase } from '../../../test/support/example-db.ts';
import type { Database } from '../database.ts';
import type { ErrorBody } from '../errors.ts';
import type { ModelSchema, ScalarField } from '../schema.ts';
import { isPasswordHash, verifyPassword } from './password.ts';
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
const A = 'api::article.article';
const P = 'api::product.product';
const T = 'api::tag.tag';

/** The example model with constraints the example does not use, on columns that exist. */
function constrainedModel(model: ModelSchema): ModelSchema {
  const product = model.contentTypes[P]!;
  const attr = (name: string): ScalarField => product.attributes[name] as ScalarField;
  return {
    ...model,
    contentTypes: {
      ...model.contentTypes,
      [P]: {
        ...product,
        attributes: {
          ...product.attributes,
          summary: { ...attr('summary'), minLength: 5, regex: '^[A-Z]' },
          weight: { ...attr('weight'), min: 0.5, max: 100 },
          stock: { ...attr('stock'), max: 1000 },
          contactEmail: { ...attr('contactEmail'), unique: true },
        },
      },
    },
  };
}

async function rowCounts(db: Database, model: ModelSchema): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of modelTables(model)) {
    const rows = await db.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${table}`);
    counts[table] = Number(rows[0]!.n);
  }
  return counts;
}

describe.each(clients)('body validation on %s', (client) => {
  let ctx: ExampleDatabase;
  let engine: WriteEngine;
  let model: ModelSchema;
  let pdf: number;
  let png: number;

  beforeAll(async () => {
    ctx = await openExampleDatabase(client);
    model = constrainedModel(ctx.model);
    engine = createWriteEngine({ db: ctx.db, model, i18n });
    const now = new Date('2026-01-01T00:00:00.000Z');
    const file = async (name: string, mime: string): Promise<number> => {
      const rows = await ctx.db.query<{ id: number }>(
        `INSERT INTO files (document_id, name, hash, mime, size, url, provider, created_at, updated_at, published_at)
         VALUES (?, ?, ?, ?, 1, ?, 'local', ?, ?, ?) RETURNING id`,
        [`f${name.replace(/\W/g, '')}`.padEnd(24, 'x'), name, name, mime, `/uploads/${name}`, now, now, now],
      );
      return Number(rows[0]!.id);
    };
    pdf = await file('manual.pdf', 'application/pdf');
    png = await file('red.png', 'image/png');
  });
  afterAll(async () => ctx?.close());

  /** Runs a write that must fail, and checks that no table changed. */
  async function refused(write: () => Promise<unknown>): Promise<ErrorBody> {
    const before = await rowCounts(ctx.db, model);
    const body = await rejection(write());
    expect(await rowCounts(ctx.db, model)).toEqual(before);
    return body;
  }

  describe('keys', () => {
    it('refuses a body that is not an object', async () => {
      for (const data of [null, 'x', 3, [{ title: 'a' }]]) {
        expect(await refused(() => engine.create(A, data, published))).toMatchObject({ status: 400, message: 'Missing "data" payload in the request body' });
      }
    });

    it('refuses an unknown key with its attribute path', async () => {
      expect(await refused(() => engine.create(A, { title: 'a', nope: 1 }, published))).toEqual({
        status: 400,
        name: 'ValidationError',
        message: 'Invalid key nope',
        details: { key: 'nope', source: 'body' },
      });
      expect(await refused(() => engine.create(A, { title: 'a', seo: { metaTitle: 'm', nope: 1 } }, published))).toMatchObject({
        message: 'Invalid key nope at seo',
        details: { key: 'nope', path: 'seo', source: 'body' },
      });
      expect(await refused(() => engine.create(P, { name: 'n', slug: 'n', variants: [{ sku: 'a', dimensions: { bad: 1 } }] }, published))).toMatchObject({
        message: 'Invalid key bad at variants.dimensions',
      });
      expect(await refused(() => engine.create(A, { blocks: [{ __component: 'shared.quote', nope: 1 }] }, draft))).toMatchObject({ message: 'Invalid key nope at blocks' });
    });

    it('refuses system fields, ignores publishedAt', async () => {
      for (const key of ['id', 'documentId', 'createdAt', 'updatedAt', 'locale']) {
        expect(await refused(() => engine.create(A, { title: 'a', [key]: 'x' }, published))).toMatchObject({ message: `Invalid key ${key}`, details: { key } });
      }
      const ref = await engine.create(A, { title: 'Ignored publishedAt', publishedAt: '2020-01-01T00:00:00.000Z' }, draft);
      const rows = await ctx.db.query<{ published_at: unknown }>('SELECT published_at FROM articles WHERE document_id = ?', [ref.documentId]);
      expect(rows).toEqual([{ published_at: null }]);
    });
  });

  describe('required', () => {
    it('is enforced on a published version of a draft & publish type, as the null the draft holds', async () => {
      const expected = {
        status: 400,
        name: 'ValidationError',
        message: 'title must be a `string` type, but the final value was: `null`.',
        details: { errors: [{ path: ['title'], message: 'title must be a `string` type, but the final value was: `null`.', name: 'ValidationError', value: null }] },
      };
      expect(await refused(() => engine.create(A, { title: null }, published))).toEqual(expected);
      expect(await refused(() => engine.create(A, { description: 'no title' }, published))).toEqual(expected);
    });

    it('is not enforced on drafts', async () => {
      const ref = await engine.create(A, { description: 'a draft without title' }, draft);
      const rows = await ctx.db.query<{ title: unknown }>('SELECT title FROM articles WHERE document_id = ?', [ref.documentId]);
      expect(rows).toEqual([{ title: null }]);
      // Publishing that draft later validates it.
      expect(await refused(() => engine.update(A, ref.documentId, { description: 'publish me' }, published))).toMatchObject({
        message: 'title must be a `string` type, but the final value was: `null`.',
      });
      const after = await ctx.db.query<{ description: string }>('SELECT description FROM articles WHERE document_id = ?', [ref.documentId]);
      expect(after).toEqual([{ description: 'a draft without title' }]);
    });

    it('says "must be defined" for a missing value of a type without draft & publish, a type error for null', async () => {
      expect(await refused(() => engine.create('api::author.author', { bio: 'x' }, published))).toMatchObject({
        message: 'name must be defined.',
        details: { errors: [{ path: ['name'], message: 'name must be defined.', name: 'ValidationError' }] },
      });
      expect(await refused(() => engine.create('api::author.author', { name: null }, published))).toMatchObject({
        message: 'name must be a `string` type, but the final value was: `null`.',
      });
      const ada = await engine.create('api::author.author', { name: 'Ada' }, published);
      // An update may leave a required value out, not null it.
      expect(await engine.update('api::author.author', ada.documentId, { bio: 'b' }, published)).toEqual({ documentId: ada.documentId });
      expect(await refused(() => engine.update('api::author.author', ada.documentId, { name: null }, published))).toMatchObject({
        message: 'name must be a `string` type, but the final value was: `null`.',
      });
    });

    it('checks required attributes inside components, with their paths', async () => {
      expect(await refused(() => engine.create(A, { title: 't', seo: { metaTitle: 'm' } }, published))).toMatchObject({
        message: 'seo.metaDescription must be a `string` type, but the final value was: `null`.',
        details: { errors: [{ path: ['seo', 'metaDescription'] }] },
      });
      expect(await refused(() => engine.putSingle('api::global.global', { siteName: 's', siteDescription: 'd', defaultSeo: { metaTitle: 'm' } }, published))).toMatchObject({
        message: 'defaultSeo.metaDescription must be defined.',
        details: { errors: [{ path: ['defaultSeo', 'metaDescription'] }] },
      });
      expect(await refused(() => engine.create(P, { name: 'Req', slug: 'req', variants: [{ sku: 'a' }, { color: 'red' }] }, published))).toMatchObject({
        message: 'variants[1].sku must be defined.',
        details: { errors: [{ path: ['variants', '1', 'sku'] }] },
      });
    });
  });

  describe('types and constraints', () => {
    const product = (extra: Record<string, unknown>): Record<string, unknown> => ({ name: `P ${Math.random()}`, slug: `p-${Math.random().toString(36).slice(2)}`, ...extra });
    const cases: [string, Record<string, unknown>, string, unknown][] = [
      ['maxLength', { name: 'x'.repeat(61) }, 'name must be at most 60 characters', 'x'.repeat(61)],
      ['minLength', { summary: 'Abc' }, 'summary must be at least 5 characters', 'Abc'],
      ['regex', { summary: 'lower case' }, 'summary must match the following: "/^[A-Z]/"', 'lower case'],
      ['string type', { summary: 12 }, 'summary must be a `string` type, but the final value was: `12`.', 12],
      ['integer min', { stock: -1 }, 'stock must be greater than or equal to 0', -1],
      ['integer max', { stock: 1001 }, 'stock must be less than or equal to 1000', 1001],
      ['integer', { stock: 1.5 }, 'stock must be an integer', 1.5],
      ['number cast', { stock: 'abc' }, 'stock must be a `number` type, but the final value was: `NaN` (cast from the value `"abc"`).', null],
      ['float min', { weight: 0.1 }, 'weight must be greater than or equal to 0.5', 0.1],
      ['float max', { weight: 101 }, 'weight must be less than or equal to 100', 101],
      ['decimal', { price: true }, 'price must be a `number` type, but the final value was: `NaN` (cast from the value `true`).', null],
      ['boolean', { inStock: 'yes' }, 'inStock must be a `boolean` type, but the final value was: `"yes"`.', 'yes'],
      ['enumeration', { size: 'huge' }, 'size must be one of the following values: small, medium, large, x_large, ', 'huge'],
      ['enumeration cast', { size: 3 }, 'size must be one of the following values: small, medium, large, x_large, ', '3'],
      ['email', { contactEmail: 'not-an-email' }, 'contactEmail must be a valid email', 'not-an-email'],
      ['empty email', { contactEmail: '' }, 'contactEmail cannot be empty', ''],
      ['biginteger', { serialNumber: '12a' }, 'serialNumber must be a `biginteger` type, but the final value was: `"12a"`.', '12a'],
      // What the column can hold (column-domains.ts), the same strict answer on both databases.
      ['biginteger range', { serialNumber: '9223372036854775808' }, 'serialNumber must be an integer between -9223372036854775808 and 9223372036854775807', '9223372036854775808'],
      ['decimal overflow', { price: 1e300 }, 'price must be a number with at most 35 digits before the decimal point', 1e300],
      ['text with NUL', { name: 'a\u0000b' }, 'name must be text without NUL (\\u0000) characters', 'a\u0000b'],
      ['json with NUL', { specs: { 'k\u0000': 1 } }, 'specs must be text without NUL (\\u0000) characters', '{"k\\u0000":1}'],
      ['date year 0', { releaseDate: '0000-01-01' }, 'releaseDate must be a `date` type, but the final value was: `"0000-01-01"`.', '0000-01-01'],
      ['date past 9999', { releaseDate: '10000-01-01' }, 'releaseDate must be a `date` type, but the final value was: `"10000-01-01"`.', '10000-01-01'],
      ['datetime past 9999', { availableAt: 253402300800000 }, 'availableAt must be a date between the years 1 and 9999', '+010000-01-01T00:00:00.000Z'],
      ['date', { releaseDate: '2024-02-30' }, 'releaseDate must be a `date` type, but the final value was: `"2024-02-30"`.', '2024-02-30'],
      ['datetime', { availableAt: 'tomorrow' }, 'availableAt must be a `datetime` type, but the final value was: `"tomorrow"`.', 'tomorrow'],
      ['time', { openingTime: '24:00:00' }, 'openingTime must be a `time` type, but the final value was: `"24:00:00"`.', '24:00:00'],
      ['uid', { slug: 'not a slug' }, 'slug must match the following: "/^[A-Za-z0-9-_.~]*$/"', 'not a slug'],
      ['blocks', { notes: 'text' }, 'notes must be a `array` type, but the final value was: `"text"`.', 'text'],
      ['repeatable null', { variants: null }, 'variants must be a `array` type, but the final value was: `null`.', null],
      ['component type', { variants: ['x'] }, 'variants[0] must be a `object` type, but the final value was: `"x"`.', 'x'],
    ];
    it.each(cases)('%s', async (_name, extra, message, value) => {
      const body = await refused(() => engine.create(P, product(extra), published));
      const key = Object.keys(extra)[0]!;
      expect(body).toEqual({
        status: 400,
        name: 'ValidationError',
        message,
        details: { errors: [{ path: key === 'variants' && message.includes('[0]') ? [key, '0'] : [key], message, name: 'ValidationError', value }] },
      });
    });

    it('checks block nodes', async () => {
      const body = await refused(() => engine.create(P, product({ notes: [{ type: 'paragraph', children: [] }, { type: 'nope' }] }), published));
      expect(body.details).toEqual({
        errors: [
          { path: ['notes', '0', 'children'], message: 'Paragraph node children must have at least one Text or Link node', name: 'ValidationError', value: [] },
          { path: ['notes', '1'], message: 'Block node is of invalid type', name: 'ValidationError', value: { type: 'nope' } },
        ],
      });
    });

    it("casts as yup does and stores the column's format", async () => {
      const ref = await engine.create(
        P,
        product({
          stock: ' 12 ',
          inStock: 'false',
          price: '5.25',
          serialNumber: 42,
          releaseDate: '2024-05-06T10:00:00Z',
          availableAt: '2024-05-06T12:00:00+02:00',
          openingTime: '08:05:09.5',
          specs: 'a json string',
        }),
        published,
      );
      const [row] = await ctx.db.query<Record<string, unknown>>('SELECT * FROM products WHERE document_id = ?', [ref.documentId]);
      expect(Number(row!.stock)).toBe(12);
      expect(Boolean(Number(row!.in_stock) || row!.in_stock === true)).toBe(false);
      expect(Number(row!.price)).toBe(5.25);
      expect(String(row!.serial_number)).toBe('42');
      expect(String(row!.release_date)).toBe('2024-05-06');
      expect(new Date(String(row!.available_at).replace(' ', 'T').replace(/\+00$/, 'Z')).toISOString()).toBe('2024-05-06T10:00:00.000Z');
      expect(String(row!.opening_time)).toMatch(/^08:05:09\.5(00)?$/);
      // SQLite and MySQL hand JSON back as its text, PostgreSQL parsed.
      expect(client === 'postgres' ? row!.specs : JSON.parse(String(row!.specs))).toBe('a json string');
    });

    it('checks drafts for types and maximums only', async () => {
      expect(await refused(() => engine.create(A, { description: 'x'.repeat(81) }, draft))).toMatchObject({ message: 'description must be at most 80 characters' });
      expect(await refused(() => engine.create(A, { readingTime: 'soon' }, draft))).toMatchObject({
        message: 'readingTime must be a `number` type, but the final value was: `NaN` (cast from the value `"soon"`).',
      });
      await engine.create(A, { slug: 'not a uid but a draft' }, draft);
    });
  });

  describe('every problem at once', () => {
    it('reports all failing paths in schema order, with "N errors occurred"', async () => {
      const body = await refused(() =>
        engine.create(
          P,
          {
            stock: -5,
            name: 'x'.repeat(61),
            slug: 'ok',
            variants: [{ sku: 'ok' }, { sku: 5, dimensions: { unit: 'mm' } }],
            size: 'huge',
            gallery: [999999],
          },
          published,
        ),
      );
      expect(body.message).toBe('6 errors occurred');
      expect(body.details).toEqual({
        errors: [
          { path: [], message: '1 relation(s) of type plugin::upload.file associated with this entity do not exist', name: 'ValidationError' },
          { path: ['name'], message: 'name must be at most 60 characters', name: 'ValidationError', value: 'x'.repeat(61) },
          { path: ['stock'], message: 'stock must be greater than or equal to 0', name: 'ValidationError', value: -5 },
          { path: ['size'], message: 'size must be one of the following values: small, medium, large, x_large, ', name: 'ValidationError', value: 'huge' },
          { path: ['variants', '1', 'sku'], message: 'variants[1].sku must be a `string` type, but the final value was: `5`.', name: 'ValidationError', value: 5 },
          {
            path: ['variants', '1', 'dimensions', 'unit'],
            message: 'variants[1].dimensions.unit must be one of the following values: cm, in, ',
            name: 'ValidationError',
            value: 'mm',
          },
        ],
      });
    });

    it('reports dynamic zone entries by index', async () => {
      const body = await refused(() =>
        engine.create(A, { title: 't', blocks: [{ __component: 'shared.quote', title: 'ok' }, { __component: 'shared.rich-text', body: 5 }, { __component: 'shared.seo' }, {}] }, published),
      );
      expect(body.details).toEqual({
        errors: [
          { path: ['blocks', '1', 'body'], message: 'blocks[1].body must be a `string` type, but the final value was: `5`.', name: 'ValidationError', value: 5 },
          {
            path: ['blocks', '2', '__component'],
            message: 'blocks[2].__component must be one of the following values: shared.media, shared.quote, shared.rich-text, shared.slider, shared.article-card',
            name: 'ValidationError',
            value: 'shared.seo',
          },
          { path: ['blocks', '3', '__component'], message: 'blocks[3].__component is a required field', name: 'ValidationError' },
        ],
      });
    });
  });

  describe('unique', () => {
    it('refuses a value another document uses, not one the document itself uses', async () => {
      const first = await engine.create(T, { name: 'unique-tag' }, published);
      expect(await refused(() => engine.create(T, { name: 'unique-tag' }, published))).toEqual({
        status: 400,
        name: 'ValidationError',
        message: 'This attribute must be unique',
        details: { errors: [{ path: ['name'], message: 'This attribute must be unique', name: 'ValidationError', value: 'unique-tag' }] },
      });
      expect(await engine.update(T, first.documentId, { name: 'unique-tag', weight: 3 }, published)).toEqual({ documentId: first.documentId });
      const second = await engine.create(T, { name: 'other-tag' }, published);
      expect(await refused(() => engine.update(T, second.documentId, { name: 'unique-tag' }, published))).toMatchObject({ message: 'This attribute must be unique' });
    });

    it('checks published versions only: drafts may share a value until one is published', async () => {
      const one = await engine.create(A, { title: 'One', slug: 'same-slug' }, published);
      const two = await engine.create(A, { title: 'Two', slug: 'same-slug' }, draft);
      expect(await refused(() => engine.update(A, two.documentId, {}, published))).toMatchObject({
        message: 'This attribute must be unique',
        details: { errors: [{ path: ['slug'] }] },
      });
      // Republishing the document that holds the value is fine.
      expect(await engine.update(A, one.documentId, { title: 'One again' }, published)).toEqual({ documentId: one.documentId });
    });

    it('reports unique with other problems, in order', async () => {
      await engine.create(P, { name: 'Mail One', slug: 'mail-one', contactEmail: 'taken@example.com' }, published);
      const body = await refused(() => engine.create(P, { name: 'Mail Two', slug: 'mail one', contactEmail: 'taken@example.com' }, published));
      expect(body.details).toMatchObject({
        errors: [
          { path: ['slug'], message: 'slug must match the following: "/^[A-Za-z0-9-_.~]*$/"' },
          { path: ['contactEmail'], message: 'This attribute must be unique' },
        ],
      });
    });
  });

  describe('relations and media', () => {
    it("refuses an unknown relation target alone, with Strapi's message", async () => {
      expect(await refused(() => engine.create(A, { title: null, author: 'nosuchdocumentidxxxxxxxx' }, published))).toEqual({
        status: 400,
        name: 'ValidationError',
        message: 'Document with id "nosuchdocumentidxxxxxxxx", locale "null" not found',
        details: {},
      });
      expect(await refused(() => engine.create(A, { tags: { connect: [{ documentId: 'missing', position: { start: true } }] } }, draft))).toMatchObject({
        message: 'Document with id "missing", locale "null" not found',
      });
      expect(await refused(() => engine.create(A, { blocks: [{ __component: 'shared.article-card', article: 'ghost' }] }, draft))).toMatchObject({
        message: 'Document with id "ghost", locale "null" not found',
      });
    });

    it('refuses relation values of the wrong shape', async () => {
      expect(await refused(() => engine.create(A, { tags: { add: ['x'] } }, draft))).toMatchObject({
        message: 'tags must be a documentId, an array of documentIds, or an object with connect, disconnect or set',
        details: { errors: [{ path: ['tags'] }] },
      });
      // A to-one relation given several targets keeps the last, as Strapi does: only that one is looked up.
      expect(await refused(() => engine.create(A, { author: ['a', 'b'] }, draft))).toMatchObject({ message: 'Document with id "b", locale "null" not found' });
    });

    it('counts missing files like Strapi, and enforces allowedTypes', async () => {
      expect(await refused(() => engine.create(P, { name: 'M1', slug: 'm1', gallery: [png, 999998, '999997', { id: 999998 }, 'abc'] }, published))).toMatchObject({
        message: '3 relation(s) of type plugin::upload.file associated with this entity do not exist',
        details: { errors: [{ path: [] }] },
      });
      expect(await refused(() => engine.create(P, { name: 'M2', slug: 'm2', gallery: [png, pdf] }, published))).toEqual({
        status: 400,
        name: 'ValidationError',
        message: 'gallery must be a file of the following types: images (got application/pdf)',
        details: { errors: [{ path: ['gallery'], message: 'gallery must be a file of the following types: images (got application/pdf)', name: 'ValidationError', value: pdf }] },
      });
      expect(await refused(() => engine.create(P, { name: 'M3', slug: 'm3', manual: [png, pdf] }, published))).toMatchObject({ message: 'manual must be a single file, got 2' });
      // files: anything that is not an image, video or audio; images are allowed there too.
      await engine.create(P, { name: 'M4', slug: 'm4', manual: String(pdf), gallery: { id: png } }, published);
    });
  });

  describe('defaults, passwords, private attributes', () => {
    it('applies defaults on creation only', async () => {
      const ref = await engine.create(P, { name: 'Defaults', slug: 'defaults', variants: [{ sku: 'v', dimensions: { width: 1 } }] }, published);
      const [row] = await ctx.db.query<{ id: number; in_stock: unknown; size: string }>('SELECT id, in_stock, size FROM products WHERE document_id = ?', [ref.documentId]);
      expect(Boolean(row!.in_stock)).toBe(true);
      expect(row!.size).toBe('medium');
      await ctx.db.execute('UPDATE products SET size = NULL WHERE id = ?', [row!.id]);
      await engine.update(P, ref.documentId, { summary: 'Updated' }, published);
      const [after] = await ctx.db.query<{ size: unknown }>('SELECT size FROM products WHERE document_id = ?', [ref.documentId]);
      expect(after!.size).toBeNull();
      const article = await engine.create(A, { title: 'Default featured' }, published);
      const featured = await ctx.db.query<{ featured: unknown }>('SELECT featured FROM articles WHERE document_id = ?', [article.documentId]);
      expect(featured.map((r) => Boolean(r.featured))).toEqual([false, false]);
    });

    it('stores passwords hashed, and accepts private attributes', async () => {
      const ref = await engine.create(P, { name: 'Secret', slug: 'secret', secret: 'p4ssw0rd', internalCode: 'INTERNAL' }, published);
      const [row] = await ctx.db.query<{ secret: string; internal_code: string }>('SELECT secret, internal_code FROM products WHERE document_id = ?', [ref.documentId]);
      expect(row!.internal_code).toBe('INTERNAL');
      expect(row!.secret).not.toContain('p4ssw0rd');
      expect(isPasswordHash(row!.secret)).toBe(true);
      expect(await verifyPassword('p4ssw0rd', row!.secret)).toBe(true);
      expect(await verifyPassword('wrong', row!.secret)).toBe(false);
    });
  });

  it('refuses a locale that is not configured', async () => {
    expect(await refused(() => engine.create('api::page.page', { title: 'x' }, { status: 'published', locale: 'de' }))).toMatchObject({
      name: 'ApplicationError',
      message: "This locale doesn't exist",
    });
  });
});
