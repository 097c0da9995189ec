/**
 * `indexes` (Strapi's experimental key): accepted with columns of the type's own table, by
 * attribute or column name or a system column, and turned into Prisma @@index lines beside the
 * indexes every unique field, uid and link table gets.
 */
import { describe, expect, it } from 'vitest';
import { emitPrismaSchema } from '../../generator/emit/prisma.ts';
import { loadModelFrom } from '../support/model.ts';
import { contentType, problems, single, writeModel, type Json } from './helpers.ts';

const post = (indexes: Json, extra: { [key: string]: Json } = {}): Record<string, Json> => ({
  'post.json': contentType(
    'post',
    {
      title: { type: 'string' },
      readingTime: { type: 'integer' },
      slug: { type: 'uid', targetField: 'title' },
      code: { type: 'string', unique: true },
      body: { type: 'text', unique: true },
      author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author' },
    },
    { indexes, ...extra },
  ),
  ...single('author', { name: { type: 'string' } }),
});

describe('schema indexes', () => {
  it('accept attribute names, column names and system columns', () => {
    expect(problems(post([{ columns: ['reading_time', 'created_at'] }, { name: 'posts_title_idx', columns: ['title'] }, { columns: ['publishedAt'] }]))).toEqual([]);
  });

  it('reject a column the table does not have, with a suggestion', () => {
    expect(problems(post([{ columns: ['reading_tme'] }]))).toEqual([
      'post.json #/indexes/0/columns/0: index column "reading_tme" is not a column of api::post.post\n    fix: did you mean "reading_time"?',
    ]);
    expect(problems(post([{ columns: ['locale'] }]))).toHaveLength(1);
  });

  it('reject a relation, which has no column in the table (its link table is indexed already)', () => {
    expect(problems(post([{ columns: ['author'] }]))).toEqual([
      'post.json #/indexes/0/columns/0: index column "author" is a relation attribute, which has no column in the table of api::post.post\n    fix: index scalar attributes only; relations are indexed already',
    ]);
  });

  it('reject a malformed entry (no columns, an unknown key)', () => {
    expect(problems(post([{ name: 'x' }]))).toEqual([
      'post.json #/indexes/0/columns: missing required key "columns"\n    fix: add "columns": indexed columns, in order: attribute names or their column names, or document_id, locale, published_at, created_at, updated_at',
    ]);
    // Strapi reads an index's type: not an ignored key, a refused one.
    expect(problems(post([{ columns: ['title'], type: 'unique' }]))).toEqual([
      'post.json #/indexes/0/type: "type" is not supported by capi\n    fix: remove "type": capi creates plain indexes; a "unique" attribute is kept unique among documents by the server',
    ]);
  });

  it('become @@index lines; unique fields, uids and link ord columns are indexed without asking', () => {
    const model = loadModelFrom(writeModel(post([{ columns: ['reading_time', 'created_at'] }, { name: 'posts_title_idx', columns: ['title'] }])));
    const prisma = emitPrismaSchema(model, 'sqlite', 'test');
    const block = prisma.slice(prisma.indexOf('model Post {'), prisma.indexOf('}', prisma.indexOf('model Post {')));
    expect(block.match(/@@index\(.*\)/g)).toEqual([
      '@@index([documentId, publishedAt])',
      '@@index([slug])',
      '@@index([code])',
      '@@index([readingTime, createdAt])',
      '@@index([title], map: "posts_title_idx")',
    ]);
    // A unique text is not indexed: its values may not fit a B-tree entry.
    expect(block).not.toContain('@@index([body])');
    const link = prisma.slice(prisma.indexOf('model PostAuthorLink {'));
    expect(link).toContain('@@index([entityId, ord])');
    expect(link).toContain('@@index([targetDocumentId, inverseOrd])');
  });

  it('on MySQL, single-column indexes get a descending sort twin and link indexes by target hold the owner', () => {
    const model = loadModelFrom(writeModel(post([{ columns: ['reading_time', 'created_at'] }, { name: 'posts_title_idx', columns: ['title'] }])));
    const prisma = emitPrismaSchema(model, 'mysql', 'test');
    const block = prisma.slice(prisma.indexOf('model Post {'), prisma.indexOf('}', prisma.indexOf('model Post {')));
    expect(block.match(/@@index\(.*\)/g)).toEqual([
      '@@index([documentId, publishedAt])',
      '@@index([slug])',
      '@@index([code])',
      '@@index([readingTime, createdAt])',
      '@@index([title], map: "posts_title_idx")',
      '@@index([slug(sort: Desc), id])',
      '@@index([code(sort: Desc), id])',
      '@@index([title(sort: Desc), id])',
    ]);
    const link = prisma.slice(prisma.indexOf('model PostAuthorLink {'));
    expect(link).toContain('@@index([targetDocumentId, inverseOrd, entityId])');
    expect(link).not.toContain('@@index([targetDocumentId, inverseOrd])');
  });
});
