import { describe, expect, it } from 'vitest';
import { emitPrismaSchema } from '../generator/emit/prisma.ts';
import { DataLossError, findDataLoss, isEmptyScript, migrationName, planMigration, readLayout } from '../generator/migrations.ts';
import { exampleContentTypes, loadModelFrom } from './support/model.ts';

const schema = emitPrismaSchema(loadModelFrom(exampleContentTypes), 'sqlite', 'content-types/');
const withColumn = schema.replace('  readingTime         Int?', '  subtitle            String?                      @map("subtitle")\n  readingTime         Int?');
const withoutColumn = schema.replace(/\n {2}readingTime .*/, '');
const retyped = schema.replace(/readingTime {9}Int\?/, 'readingTime         String?');
const withoutTags = schema.replace(/\/\/\/ api::article\.article\.tags[\s\S]*?\n\}\n/, '').replace(/\n {2}tags_lnk .*/, '');

describe('readLayout', () => {
  it('reads tables and their columns, skipping relation fields', () => {
    const layout = readLayout(schema);
    const articles = layout.get('articles');
    expect(articles?.model).toBe('Article');
    expect([...(articles?.columns.keys() ?? [])]).toEqual(['id', 'document_id', 'title', 'description', 'slug', 'reading_time', 'featured', 'created_at', 'updated_at', 'published_at']);
    expect(layout.get('articles_tags_lnk')?.columns.has('entity')).toBe(false);
    expect(layout.get('files')?.columns.get('alternative_text')).toEqual({ type: 'String', field: 'UploadFile.alternativeText' });
  });
});

describe('findDataLoss', () => {
  it('finds nothing in an additive change', () => expect(findDataLoss(schema, withColumn)).toEqual([]));
  it('names a dropped column', () => expect(findDataLoss(schema, withoutColumn)).toEqual(['column "articles"."reading_time" (Article.readingTime) would be dropped with its values']));
  it('names a dropped table', () => expect(findDataLoss(schema, withoutTags)).toEqual(['table "articles_tags_lnk" (model ArticleTagsLink) would be dropped with all its rows']));
  it('names a changed column type', () =>
    expect(findDataLoss(schema, retyped)).toEqual(['column "articles"."reading_time" (Article.readingTime) would change type from Int to String; values that do not convert are lost']));
});

describe('migrationName', () => {
  it('names the first migration init', () => expect(migrationName(1, undefined, schema)).toBe('0001_init'));
  it('names a change after what it adds', () => expect(migrationName(2, schema, withColumn)).toBe('0002_add_articles_subtitle'));
  it('names a change after what it drops', () => expect(migrationName(12, schema, withoutColumn)).toBe('0012_drop_articles_reading_time'));
});

describe('isEmptyScript', () => {
  it('treats comments only as empty', () => expect(isEmptyScript('-- This is an empty migration.\n\n')).toBe(true));
  it('sees a statement', () => expect(isEmptyScript('-- AlterTable\nALTER TABLE "a" ADD COLUMN "b" TEXT;\n')).toBe(false));
});

describe('planMigration (runs the Prisma CLI offline)', () => {
  it('creates the initial migration from an empty database', async () => {
    const migration = await planMigration({ previous: undefined, next: schema, database: 'sqlite', existing: [], acceptDataLoss: false });
    expect(migration?.name).toBe('0001_init');
    expect(migration?.sql).toContain('CREATE TABLE "articles"');
  });

  it('creates an additive migration for a new column', async () => {
    const migration = await planMigration({ previous: schema, next: withColumn, database: 'sqlite', existing: ['0001_init'], acceptDataLoss: false });
    expect(migration?.name).toBe('0002_add_articles_subtitle');
    expect(migration?.sql).toMatch(/"subtitle" TEXT/);
  });

  it('creates nothing when the schema did not change', async () => {
    expect(await planMigration({ previous: schema, next: schema, database: 'sqlite', existing: ['0001_init'], acceptDataLoss: false })).toBeUndefined();
  });

  it('refuses a destructive change without acceptDataLoss, saying what would be lost', async () => {
    const attempt = planMigration({ previous: schema, next: withoutColumn, database: 'sqlite', existing: ['0001_init'], acceptDataLoss: false });
    await expect(attempt).rejects.toBeInstanceOf(DataLossError);
    await expect(attempt).rejects.toThrow('column "articles"."reading_time" (Article.readingTime) would be dropped with its values');
  });

  it('creates the destructive migration when data loss is accepted', async () => {
    const migration = await planMigration({ previous: schema, next: withoutColumn, database: 'sqlite', existing: ['0001_init'], acceptDataLoss: true });
    expect(migration?.name).toBe('0002_drop_articles_reading_time');
  });

  it('writes PostgreSQL SQL for a PostgreSQL schema', async () => {
    const pg = emitPrismaSchema(loadModelFrom(exampleContentTypes), 'postgres', 'content-types/');
    const migration = await planMigration({ previous: undefined, next: pg, database: 'postgres', existing: [], acceptDataLoss: false });
    expect(migration?.sql).toContain('"id" SERIAL NOT NULL');
    expect(migration?.sql).toContain('TIMESTAMPTZ(3)');
  });
});
