/**
 * Test data for the read engine, written with plain INSERTs in the storage layout of
 * docs/architecture.md (not through the write engine, so read tests do not depend on it): the
 * shape of test/fixtures/conformance/seed.mjs — files, categories, authors, 30 tags, products with
 * every scalar, articles with draft and published versions, localized pages, single types —
 * plus a bulk generator for query-count tests.
 *
 * Values are given by attribute name and mapped to columns through the model, so the seed reads
 * like the conformance seed. Only runtime modules are imported: this file is copied into
 * generated projects with the rest of the runtime.
 */
import type { Queryable, SqlValue } from '../database.ts';
import type { Filter, FilterValue, ListQuery, Operator, SortItem } from '../query/types.ts';
import { SCALAR_TYPES } from '../../contract/scalar-types.ts';
import type { ComponentSchema, ContentTypeSchema, Field, ModelSchema, ScalarType } from '../schema.ts';
import { FILE_LINK_TABLE } from '../upload/file-schema.ts';
import { fragment, insertReturningId, marks } from './sql.ts';

export type SeedValue = string | number | boolean | null | readonly unknown[] | { readonly [key: string]: unknown };

/** A component instance: scalars by attribute name, plus nested media, relations, components. */
export interface SeedComponent {
  readonly [attribute: string]: SeedValue | SeedComponent | readonly SeedComponent[] | SeedRef | undefined;
}

/** A relation value (target document labels) or a media value (file labels). */
export interface SeedRef {
  readonly ref: 'doc' | 'file';
  readonly labels: readonly string[];
}

export const docs = (...labels: string[]): SeedRef => ({ ref: 'doc', labels });
export const files = (...labels: string[]): SeedRef => ({ ref: 'file', labels });

/** A dynamic zone entry. */
export type SeedZoneEntry = SeedComponent & { readonly __component: string };

export interface SeedVersion {
  readonly status: 'draft' | 'published';
  readonly locale?: string;
  /** Defaults to one shared by the document's versions, as publishing leaves it. */
  readonly updatedAt?: Date;
  readonly data: SeedComponent;
}

export interface Seeded {
  /** documentId by label. */
  readonly doc: Readonly<Record<string, string>>;
  /** File row id by label. */
  readonly file: Readonly<Record<string, number>>;
  /** File documentId by label. */
  readonly fileDoc: Readonly<Record<string, string>>;
  /** File hash by label. */
  readonly fileHash: Readonly<Record<string, string>>;
  /** Row ids of every version of a document, by label, in insertion order. */
  readonly rows: Readonly<Record<string, readonly number[]>>;
}

interface OwnerSchema {
  readonly uid: string;
  readonly table: string;
  readonly attributes: Readonly<Record<string, Field>>;
}

/** A scalar seed value as its column takes it: JSON as text, timestamps as Dates (as the write engine binds them). */
function columnValue(type: ScalarType, value: SeedValue): SqlValue {
  if (value === null) return null;
  const body = SCALAR_TYPES[type].body;
  if (body === 'json' || body === 'blocks') return JSON.stringify(value);
  if (body === 'datetime' && typeof value === 'string') return new Date(value);
  return value as SqlValue;
}

export class Seeder {
  readonly doc: Record<string, string> = {};
  readonly file: Record<string, number> = {};
  readonly fileDoc: Record<string, string> = {};
  readonly fileHash: Record<string, string> = {};
  readonly rows: Record<string, number[]> = {};
  #clock = Date.parse('2024-05-01T10:00:00.000Z');
  #documents = 0;
  /** Next inverse_ord per (link table, target document). */
  #inverse = new Map<string, number>();

  constructor(
    readonly db: Queryable,
    readonly model: ModelSchema,
  ) {}

  /** A distinct, increasing timestamp (a Date: timestamps are bound as Dates, as the runtime binds them). */
  tick(): Date {
    this.#clock += 1000;
    return new Date(this.#clock);
  }

  async insert(table: string, values: Readonly<Record<string, SqlValue>>): Promise<number> {
    const columns = Object.keys(values);
    const sql = `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${marks(columns.length)})`;
    return insertReturningId(
      this.db,
      fragment(
        sql,
        columns.map((c) => values[c] ?? null),
      ),
    );
  }

  /** A file; `thumbnail` adds a `formats.thumbnail` of that size, named as Strapi names it. */
  async addFile(
    label: string,
    values: { readonly name: string; readonly mime: string; readonly ext: string; readonly size: number } & Readonly<Record<string, unknown>>,
    thumbnail?: { readonly width: number; readonly height: number; readonly size: number; readonly sizeInBytes: number },
  ): Promise<number> {
    const now = this.tick();
    const hash = `${values.name.replace(/\W+/g, '_')}_${(Object.keys(this.file).length + 1).toString(16).padStart(10, '0')}`;
    const documentId = this.nextDocumentId();
    const formats =
      thumbnail === undefined
        ? undefined
        : {
            thumbnail: {
              name: `thumbnail_${values.name}`,
              hash: `thumbnail_${hash}`,
              ext: values.ext,
              mime: values.mime,
              path: null,
              url: `/uploads/thumbnail_${hash}${values.ext}`,
              ...thumbnail,
            },
          };
    const row: Record<string, SqlValue> = {
      document_id: documentId,
      hash,
      url: `/uploads/${hash}${values.ext}`,
      provider: 'local',
      folder_path: '/',
      created_at: now,
      updated_at: now,
      published_at: now,
    };
    for (const [key, value] of Object.entries({ ...values, formats })) {
      if (value === undefined) continue;
      row[snake(key)] = key === 'formats' || key === 'focalPoint' || key === 'providerMetadata' ? JSON.stringify(value) : (value as SqlValue);
    }
    const id = await this.insert('files', row);
    this.file[label] = id;
    this.fileDoc[label] = documentId;
    this.fileHash[label] = hash;
    return id;
  }

  /** Inserts the versions of one document (the same documentId), with their links and components. */
  async document(uid: string, label: string, versions: readonly SeedVersion[]): Promise<string> {
    const schema = this.contentType(uid);
    const documentId = this.doc[label] ?? this.nextDocumentId();
    this.doc[label] = documentId;
    const created = this.tick();
    // Publishing copies the draft, updated_at included: versions differ only when told so.
    const updated = this.tick();
    for (const version of versions) {
      const updatedAt = version.updatedAt ?? updated;
      const row: Record<string, SqlValue> = {
        document_id: documentId,
        created_at: created,
        updated_at: updatedAt,
        published_at: version.status === 'published' || !schema.draftAndPublish ? updatedAt : null,
        ...this.scalarColumns(schema, version.data),
      };
      if (schema.localized) row['locale'] = version.locale ?? 'en';
      const id = await this.insert(schema.table, row);
      (this.rows[label] ??= []).push(id);
      await this.children(schema, id, version.data);
    }
    return documentId;
  }

  /** Links owned by documents inserted later: call after every target exists. */
  async link(uid: string, label: string, attribute: string, targets: readonly string[]): Promise<void> {
    const schema = this.contentType(uid);
    const field = schema.attributes[attribute];
    if (field?.kind !== 'relation') throw new Error(`${uid}.${attribute} is not a relation`);
    for (const rowId of this.rows[label] ?? []) await this.links(field.linkTable, rowId, targets);
  }

  seeded(): Seeded {
    return { doc: this.doc, file: this.file, fileDoc: this.fileDoc, fileHash: this.fileHash, rows: this.rows };
  }

  private nextDocumentId(): string {
    this.#documents++;
    return `d${this.#documents.toString(36).padStart(23, '0')}`;
  }

  private contentType(uid: string): ContentTypeSchema {
    const schema = this.model.contentTypes[uid];
    if (schema === undefined) throw new Error(`unknown content type ${uid}`);
    return schema;
  }

  private component(uid: string): ComponentSchema {
    const schema = this.model.components[uid];
    if (schema === undefined) throw new Error(`unknown component ${uid}`);
    return schema;
  }

  private scalarColumns(schema: OwnerSchema, data: SeedComponent): Record<string, SqlValue> {
    const row: Record<string, SqlValue> = {};
    for (const [name, value] of Object.entries(data)) {
      const field = schema.attributes[name];
      if (field?.kind !== 'scalar' || value === undefined) continue;
      row[field.column] = columnValue(field.type, value as SeedValue);
    }
    return row;
  }

  /** Media links, relation links and component rows of one owner row. */
  private async children(schema: OwnerSchema, id: number, data: SeedComponent): Promise<void> {
    for (const [name, value] of Object.entries(data)) {
      const field = schema.attributes[name];
      if (field === undefined || value === undefined || value === null) continue;
      switch (field.kind) {
        case 'media': {
          const labels = (value as SeedRef).labels;
          for (const [ord, fileLabel] of labels.entries()) {
            const fileId = this.file[fileLabel];
            if (fileId === undefined) throw new Error(`unknown file ${fileLabel}`);
            await this.insert(FILE_LINK_TABLE, { file_id: fileId, related_type: schema.uid, related_id: id, field: name, ord: ord + 1 });
          }
          break;
        }
        case 'relation':
          if (field.owner) await this.links(field.linkTable, id, (value as SeedRef).labels);
          break;
        case 'component': {
          const items = Array.isArray(value) ? (value as readonly SeedComponent[]) : [value as SeedComponent];
          for (const [ord, item] of items.entries()) await this.componentRow(field.component, schema.uid, id, name, ord + 1, item);
          break;
        }
        case 'dynamiczone': {
          for (const [ord, entry] of (value as readonly SeedZoneEntry[]).entries()) {
            await this.componentRow(entry.__component, schema.uid, id, name, ord + 1, entry);
          }
          break;
        }
        case 'scalar':
          break;
      }
    }
  }

  private async componentRow(uid: string, ownerUid: string, ownerId: number, field: string, ord: number, data: SeedComponent): Promise<void> {
    const schema = this.component(uid);
    const id = await this.insert(schema.table, {
      entity_type: ownerUid,
      entity_id: ownerId,
      entity_field: field,
      entity_ord: ord,
      ...this.scalarColumns(schema, data),
    });
    await this.children(schema, id, data);
  }

  private async links(table: string, entityId: number, labels: readonly string[]): Promise<void> {
    for (const [ord, label] of labels.entries()) {
      const target = this.doc[label];
      if (target === undefined) throw new Error(`unknown document ${label}`);
      const key = `${table}|${target}`;
      const inverse = (this.#inverse.get(key) ?? 0) + 1;
      this.#inverse.set(key, inverse);
      await this.insert(table, { entity_id: entityId, target_document_id: target, ord: ord + 1, inverse_ord: inverse });
    }
  }
}

function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** Both versions of a published draft & publish document, with the same data and timestamps. */
export function published(data: SeedComponent, locale?: string): SeedVersion[] {
  return [
    { status: 'draft', data, ...(locale === undefined ? {} : { locale }) },
    { status: 'published', data, ...(locale === undefined ? {} : { locale }) },
  ];
}

const A = 'api::article.article';
const P = 'api::page.page';
const PRODUCT = 'api::product.product';

/** The conformance seed, in its shape and values (test/fixtures/conformance/seed.mjs). */
export async function seedConformance(db: Queryable, model: ModelSchema): Promise<Seeder> {
  const s = new Seeder(db, model);
  await s.addFile('img-red', { name: 'red.png', mime: 'image/png', ext: '.png', width: 4, height: 4, size: 0.1, alternativeText: 'A red square', caption: 'Red' });
  await s.addFile('img-green', { name: 'green.png', mime: 'image/png', ext: '.png', width: 4, height: 4, size: 0.1, alternativeText: 'A green square', caption: 'Green' });
  await s.addFile('img-blue', { name: 'blue.png', mime: 'image/png', ext: '.png', width: 6, height: 3, size: 0.1 });
  await s.addFile(
    'img-large',
    { name: 'large-gradient.png', mime: 'image/png', ext: '.png', width: 320, height: 200, size: 20.01, alternativeText: 'A gradient large enough for a thumbnail', caption: 'Gradient' },
    { width: 245, height: 153, size: 92.25, sizeInBytes: 92247 },
  );
  await s.addFile('img-photo', { name: 'photo.jpg', mime: 'image/jpeg', ext: '.jpg', width: 16, height: 12, size: 0.27, alternativeText: 'An orange photo', caption: 'Photo' });
  await s.addFile('doc-manual', { name: 'manual.pdf', mime: 'application/pdf', ext: '.pdf', size: 0.13, caption: 'Product manual' });

  const C = 'api::category.category';
  await s.document(C, 'cat-news', [{ status: 'published', data: { name: 'News', slug: 'news', description: 'Company news and announcements' } }]);
  await s.document(C, 'cat-tech', [{ status: 'published', data: { name: 'Tech', slug: 'tech', description: 'Technology deep dives' } }]);
  await s.document(C, 'cat-food', [{ status: 'published', data: { name: 'Food', slug: 'food', description: null } }]);
  await s.document(C, 'cat-empty', [{ status: 'published', data: { name: 'Empty', slug: 'empty', description: 'A category without articles' } }]);

  const AU = 'api::author.author';
  await s.document(AU, 'author-ada', [{ status: 'published', data: { name: 'Ada Lovelace', email: 'ada@example.com', bio: 'First programmer.', avatar: files('img-red') } }]);
  await s.document(AU, 'author-alan', [{ status: 'published', data: { name: 'Alan Turing', email: 'alan@example.com', bio: 'Computability and codebreaking.', avatar: files('img-photo') } }]);
  await s.document(AU, 'author-grace', [{ status: 'published', data: { name: 'Grace Hopper', email: null, bio: null } }]);

  for (let i = 1; i <= 30; i++) {
    const n = String(i).padStart(2, '0');
    await s.document('api::tag.tag', `tag-${n}`, [{ status: 'published', data: { name: `tag-${n}`, weight: (i * 7) % 31 } }]);
  }

  const notes = [
    {
      type: 'paragraph',
      children: [
        { type: 'text', text: 'Alpha notes ' },
        { type: 'text', text: 'bold', bold: true },
      ],
    },
    { type: 'heading', level: 2, children: [{ type: 'text', text: 'Heading' }] },
  ];
  await s.document(PRODUCT, 'product-alpha', [
    {
      status: 'published',
      data: {
        name: 'Alpha Widget',
        slug: 'alpha-widget',
        summary: 'The first widget.\nTwo lines.',
        details: '# Alpha\n\n**Bold** markdown with a [link](https://example.com).',
        notes,
        contactEmail: 'alpha@example.com',
        stock: 10,
        serialNumber: '1234567890123',
        price: 19.99,
        weight: 1.5,
        inStock: true,
        releaseDate: '2024-01-15',
        availableAt: '2024-01-15T10:30:00.000Z',
        openingTime: '09:30:00.000',
        size: 'small',
        specs: { color: 'red', tags: ['a', 'b'], nested: { n: 1, ok: true, nothing: null } },
        internalCode: 'ALPHA-INTERNAL',
        secret: '$2a$10$hashedhashedhashedhashedhashedhashedhashedhashe',
        gallery: files('img-red', 'img-green', 'img-large'),
        manual: files('doc-manual'),
        variants: [
          { sku: 'ALPHA-RED', color: 'red', price: 19.99, image: files('img-red'), dimensions: { width: 10, height: 20.5, depth: 3, unit: 'cm' } },
          { sku: 'ALPHA-BLUE', color: 'blue', price: 21.5, image: files('img-blue'), dimensions: { width: 4, height: 8, depth: 1.25, unit: 'in' } },
        ],
        category: docs('cat-tech'),
      },
    },
  ]);
  await s.document(PRODUCT, 'product-beta', [
    {
      status: 'published',
      data: {
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
        openingTime: '18:45:30.000',
        size: 'large',
        specs: [1, 2, 3],
        internalCode: 'BETA-INTERNAL',
        gallery: files('img-photo'),
        variants: [{ sku: 'BETA-ONE', color: 'black', price: 5.5, dimensions: { width: 1, height: 1, depth: 1, unit: 'cm' } }],
        category: docs('cat-food'),
      },
    },
  ]);
  await s.document(PRODUCT, 'product-gamma', [{ status: 'published', data: { name: 'Gamma Tool', slug: 'gamma-tool', inStock: true, size: 'medium' } }]);
  await s.document(PRODUCT, 'product-delta', [
    {
      status: 'published',
      data: {
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
        openingTime: '07:00:00.000',
        size: 'x_large',
        specs: { color: 'silver', ports: 4 },
        category: docs('cat-news'),
      },
    },
  ]);
  await s.document(PRODUCT, 'product-epsilon', [
    {
      status: 'published',
      data: {
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
        openingTime: '00:00:00.000',
        size: 'medium',
        specs: null,
      },
    },
  ]);
  await s.link(PRODUCT, 'product-alpha', 'relatedProducts', ['product-beta', 'product-gamma']);
  await s.link(PRODUCT, 'product-delta', 'relatedProducts', ['product-alpha']);

  await s.document(
    A,
    'article-second',
    published({
      title: 'Second Steps',
      slug: 'second-steps',
      description: 'Following up on the first post',
      author: docs('author-ada'),
      category: docs('cat-tech'),
      tags: docs('tag-02'),
      readingTime: 3,
      featured: false,
      blocks: [{ __component: 'shared.quote', title: 'Ada', body: 'That brain of mine is more than merely mortal.' }],
    }),
  );
  await s.document(
    A,
    'article-third',
    published({
      title: 'Third Time Lucky',
      slug: 'third-time-lucky',
      description: null,
      author: docs('author-alan'),
      category: docs('cat-tech'),
      tags: docs('tag-03', 'tag-04'),
      featuredProduct: docs('product-beta'),
      readingTime: 12,
      featured: true,
      cover: files('img-photo'),
      seo: { metaTitle: 'Third', metaDescription: 'Third article SEO' },
    }),
  );
  await s.document(
    A,
    'article-food',
    published({
      title: 'Food For Thought',
      slug: 'food-for-thought',
      description: 'Cooking with code',
      author: docs('author-alan'),
      category: docs('cat-food'),
      readingTime: 7,
      featured: false,
      blocks: [
        { __component: 'shared.rich-text', body: '## Recipe\n\n1. Boil\n2. Serve' },
        { __component: 'shared.media', file: files('img-photo') },
      ],
    }),
  );
  await s.document(A, 'article-lonely', published({ title: 'Lonely Article', slug: 'lonely-article', description: 'No relations at all', featured: false }));
  await s.document(
    A,
    'article-hello',
    published({
      title: 'Hello World',
      slug: 'hello-world',
      description: 'First post of the blog',
      author: docs('author-ada'),
      category: docs('cat-news'),
      tags: docs('tag-01', 'tag-02', 'tag-03'),
      featuredProduct: docs('product-alpha'),
      cover: files('img-large'),
      readingTime: 5,
      featured: true,
      seo: {
        metaTitle: 'Hello World SEO',
        metaDescription: 'The hello world article',
        shareImage: files('img-blue'),
        metaSocial: [
          { socialNetwork: 'Facebook', title: 'Hello on Facebook', description: 'fb' },
          { socialNetwork: 'Twitter', title: 'Hello on Twitter', description: 'tw' },
        ],
      },
      blocks: [
        { __component: 'shared.rich-text', body: '# Hello\n\nWelcome to **the** blog.' },
        { __component: 'shared.quote', title: 'Grace', body: 'The most dangerous phrase is: we have always done it this way.' },
        { __component: 'shared.media', file: files('img-red') },
        { __component: 'shared.slider', files: files('img-green', 'img-blue') },
        { __component: 'shared.article-card', title: 'Read next', image: files('img-large'), article: docs('article-second') },
      ],
    }),
  );
  await s.document(A, 'article-draft-only', [
    {
      status: 'draft',
      data: {
        title: 'Draft Only Notes',
        slug: 'draft-only-notes',
        description: 'Never published',
        author: docs('author-grace'),
        category: docs('cat-news'),
        tags: docs('tag-05'),
        readingTime: 1,
        featured: false,
      },
    },
  ]);
  // Published, then the draft changed: the two versions differ, and so do their updated_at.
  const modifiedPublished = {
    title: 'Modified After Publish',
    slug: 'modified-after-publish',
    description: 'Published version',
    author: docs('author-grace'),
    category: docs('cat-food'),
    readingTime: 9,
    featured: false,
  };
  const publishedAt = s.tick();
  await s.document(A, 'article-modified', [
    { status: 'draft', updatedAt: s.tick(), data: { ...modifiedPublished, title: 'Modified After Publish (draft)', description: 'Draft version', readingTime: 10 } },
    { status: 'published', updatedAt: publishedAt, data: modifiedPublished },
  ]);

  await s.document('api::global.global', 'global', [
    {
      status: 'published',
      data: {
        siteName: 'Conformance Site',
        siteDescription: 'A site used to record Strapi 5 behavior',
        favicon: files('img-blue'),
        defaultSeo: {
          metaTitle: 'Conformance',
          metaDescription: 'Default SEO',
          shareImage: files('img-large'),
          metaSocial: [{ socialNetwork: 'Twitter', title: 'Site on Twitter' }],
        },
      },
    },
  ]);
  await s.document('api::about.about', 'about', [
    {
      status: 'published',
      data: {
        title: 'About us',
        blocks: [
          { __component: 'shared.quote', title: 'Motto', body: 'Record, replay, compare.' },
          { __component: 'shared.rich-text', body: 'We **test** things.' },
          { __component: 'shared.media', file: files('img-green') },
          { __component: 'shared.slider', files: files('img-red', 'img-green') },
        ],
      },
    },
  ]);

  await s.document(P, 'page-home', [
    ...published({ title: 'Home', slug: 'home', body: 'Welcome home.', sortOrder: 1, theme: 'light', seo: { metaTitle: 'Home', metaDescription: 'Home page' }, category: docs('cat-news') }, 'en'),
    ...published(
      {
        title: 'Accueil',
        slug: 'accueil',
        body: 'Bienvenue.',
        sortOrder: 1,
        theme: 'light',
        seo: { metaTitle: 'Accueil', metaDescription: "Page d'accueil" },
        category: docs('cat-news'),
      },
      'fr',
    ),
  ]);
  await s.document(P, 'page-contact', [
    ...published({ title: 'Contact', slug: 'contact', body: 'Write to us.', sortOrder: 2, theme: 'dark' }, 'en'),
    { status: 'draft', locale: 'fr', data: { title: 'Contactez-nous', slug: 'contactez-nous', body: 'Écrivez-nous.', sortOrder: 2, theme: 'dark' } },
  ]);
  await s.document(P, 'page-legal', published({ title: 'Mentions légales', slug: 'mentions-legales', body: 'Texte légal.', sortOrder: 3, theme: 'light' }, 'fr'));
  await s.document(P, 'page-upcoming', [{ status: 'draft', locale: 'en', data: { title: 'Upcoming', slug: 'upcoming', body: 'Soon.', sortOrder: 4, theme: 'light' } }]);

  const N = 'api::internal-note.internal-note';
  await s.document(N, 'note-plan', [{ status: 'published', data: { title: 'Secret plan', body: 'World domination.' } }]);
  await s.document(N, 'note-budget', [{ status: 'published', data: { title: 'Budget', body: null } }]);
  return s;
}

/**
 * `count` published articles, each with an author, three tags, a cover, an seo component with a
 * share image and two meta socials, and one block of every kind with its media and relation.
 * Expects seedConformance's files, authors and tags.
 */
export async function seedManyArticles(s: Seeder, count: number, prefix = 'bulk'): Promise<void> {
  const authors = ['author-ada', 'author-alan', 'author-grace'];
  for (let i = 0; i < count; i++) {
    const n = String(i).padStart(4, '0');
    await s.document(
      A,
      `${prefix}-${n}`,
      published({
        title: `Bulk ${n}`,
        slug: `${prefix}-${n}`,
        description: `Bulk article ${n}`,
        readingTime: i % 17,
        featured: i % 2 === 0,
        author: docs(authors[i % authors.length]!),
        tags: docs(`tag-${String((i % 30) + 1).padStart(2, '0')}`, `tag-${String(((i + 7) % 30) + 1).padStart(2, '0')}`, `tag-${String(((i + 13) % 30) + 1).padStart(2, '0')}`),
        cover: files(i % 2 === 0 ? 'img-red' : 'img-large'),
        seo: {
          metaTitle: `Bulk SEO ${n}`,
          metaDescription: 'Bulk',
          shareImage: files('img-blue'),
          metaSocial: [
            { socialNetwork: 'Facebook', title: `fb ${n}` },
            { socialNetwork: 'Twitter', title: `tw ${n}` },
          ],
        },
        blocks: [
          { __component: 'shared.rich-text', body: `Body ${n}` },
          { __component: 'shared.quote', title: `Quote ${n}`, body: 'Said.' },
          { __component: 'shared.media', file: files('img-green') },
          { __component: 'shared.slider', files: files('img-red', 'img-photo') },
          { __component: 'shared.article-card', title: `Card ${n}`, image: files('img-photo'), article: docs('article-hello') },
        ],
      }),
    );
  }
}

// Query builders for tests: the validated ASTs the REST parser would produce.

export const cond = (attribute: string, operator: Operator, value: FilterValue): Filter => ({ kind: 'condition', attribute, operator, value });
export const eq = (attribute: string, value: FilterValue): Filter => cond(attribute, 'eq', value);
export const nested = (attribute: string, filter: Filter): Filter => ({ kind: 'nested', attribute, filter });
export const allOf = (...filters: Filter[]): Filter => ({ kind: 'and', filters });
export const anyOf = (...filters: Filter[]): Filter => ({ kind: 'or', filters });
export const not = (filter: Filter): Filter => ({ kind: 'not', filter });
export const asc = (path: string): SortItem => ({ path: path.split('.'), direction: 'asc' });
export const desc = (path: string): SortItem => ({ path: path.split('.'), direction: 'desc' });

/** A list query with the REST defaults (published, page 1 of 25, with count) and `query` over them. */
export function listQuery(query: Partial<ListQuery> = {}): ListQuery {
  return { status: 'published', populate: {}, sort: [], pagination: { kind: 'page', page: 1, pageSize: 25, withCount: true }, ...query };
}

/**
 * The conformance tools' normalization of a response (test/fixtures/conformance/README.md, "Cases,
 * templates and normalization"), so engine output compares with the recorded golden bodies.
 */
export function normalizeLikeConformance(value: unknown, seeded: Seeded, key?: string): unknown {
  if (Array.isArray(value)) return value.map((item) => normalizeLikeConformance(item, seeded));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalizeLikeConformance(v, seeded, k)]));
  }
  if (key === 'id' && typeof value === 'number') return '<id>';
  if ((key === 'createdAt' || key === 'updatedAt' || key === 'publishedAt') && typeof value === 'string') return '<timestamp>';
  if (key === 'documentId' && typeof value === 'string') {
    const doc = Object.entries(seeded.doc).find(([, id]) => id === value);
    if (doc !== undefined) return `<doc:${doc[0]}>`;
    const file = Object.entries(seeded.fileDoc).find(([, id]) => id === value);
    if (file !== undefined) return `<mediaDoc:${file[0]}>`;
  }
  if (typeof value === 'string') {
    let out = value;
    for (const [label, hash] of Object.entries(seeded.fileHash)) out = out.replaceAll(hash, `<hash:${label}>`);
    return out;
  }
  return value;
}
