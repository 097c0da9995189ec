/**
 * Lookup indexes of unique attributes: every type that takes `unique` gets one, except those whose
 * contract entry says its values cannot be indexed (long text: a B-tree entry on PostgreSQL cannot
 * hold them, a LONGTEXT column on MySQL cannot be indexed at all).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emitPrismaSchema } from '../../generator/emit/prisma.ts';
import { DATABASE_KINDS } from '../../templates/contract/database.ts';
import { SCALAR_TYPE_NAMES, SCALAR_TYPE_SPECS } from '../../templates/contract/scalar-types.ts';
import { loadModelFrom } from '../support/model.ts';

const dir = mkdtempSync(join(tmpdir(), 'capi-indexes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One attribute per type that takes `unique`, named after its type, all unique. */
const UNIQUE_TYPES = SCALAR_TYPE_NAMES.filter((type) => Object.hasOwn(SCALAR_TYPE_SPECS[type].options, 'unique'));
const attributes = Object.fromEntries(UNIQUE_TYPES.map((type) => [`${type}Value`, { type, unique: true }]));
writeFileSync(
  join(dir, 'item.json'),
  JSON.stringify({ kind: 'collectionType', collectionName: 'items', info: { singularName: 'item', pluralName: 'items', displayName: 'Item' }, options: { draftAndPublish: false }, attributes }),
);
const model = loadModelFrom(dir);

describe('lookup indexes of unique attributes', () => {
  it.each(DATABASE_KINDS)('index every unique attribute but long text on %s', (database) => {
    const schema = emitPrismaSchema(model, database, 'content-types/');
    expect(UNIQUE_TYPES).toContain('text');
    for (const type of UNIQUE_TYPES) {
      expect(schema.includes(`@@index([${type}Value])`), type).toBe(type !== 'text');
    }
  });
});
