/**
 * Database invariants of the storage layout (docs/architecture.md) that no sequence of requests
 * may break, checked with plain SQL on either database: every link row's owner and target exist,
 * every component row's parent exists, every media link's file and owner exist, no two documents
 * share a unique value among published versions of a locale (the empty string aside, as in Strapi), and a document has at most one
 * draft and one published version per locale. Each query returns offending rows; the report
 * lists them by invariant.
 */
import type { Queryable } from '../../templates/runtime/database.ts';
import type { ComponentSchema, ContentTypeSchema, ModelSchema } from '../../templates/runtime/schema.ts';
import { FILE_LINK_TABLE } from '../../templates/runtime/upload/file-schema.ts';

export interface InvariantViolation {
  readonly invariant: string;
  readonly rows: readonly unknown[];
}

const q = (name: string): string => `"${name}"`;
const TEXT_TYPES: ReadonlySet<string> = new Set(['string', 'text', 'richtext', 'email', 'uid', 'enumeration']);

interface Owner {
  readonly uid: string;
  readonly table: string;
  readonly attributes: ContentTypeSchema['attributes'] | ComponentSchema['attributes'];
}

function owners(model: ModelSchema): Owner[] {
  return [...Object.values(model.contentTypes), ...Object.values(model.components)];
}

/** The checks as named SQL statements; each returns the rows that break it (at most 10). */
export function invariantQueries(model: ModelSchema): { readonly invariant: string; readonly sql: string }[] {
  const queries: { invariant: string; sql: string }[] = [];
  const all = owners(model);
  for (const owner of all) {
    for (const [name, field] of Object.entries(owner.attributes)) {
      if (field.kind !== 'relation' || !field.owner) continue;
      const link = q(field.linkTable);
      queries.push({
        invariant: `${owner.uid}.${name}: link rows whose owner row is gone`,
        sql: `SELECT l.entity_id FROM ${link} l WHERE NOT EXISTS (SELECT 1 FROM ${q(owner.table)} o WHERE o.id = l.entity_id) LIMIT 10`,
      });
      const target = model.contentTypes[field.target];
      if (target !== undefined) {
        queries.push({
          invariant: `${owner.uid}.${name}: link rows whose target document is gone`,
          sql: `SELECT l.target_document_id FROM ${link} l WHERE NOT EXISTS (SELECT 1 FROM ${q(target.table)} t WHERE t.document_id = l.target_document_id) LIMIT 10`,
        });
      }
    }
  }
  for (const component of Object.values(model.components)) {
    const parents = all.map((parent) => `(c.entity_type = '${parent.uid}' AND EXISTS (SELECT 1 FROM ${q(parent.table)} p WHERE p.id = c.entity_id))`);
    queries.push({
      invariant: `${component.uid}: component rows whose parent row is gone`,
      sql: `SELECT c.id, c.entity_type, c.entity_id FROM ${q(component.table)} c WHERE NOT (${parents.join(' OR ')}) LIMIT 10`,
    });
  }
  const mediaParents = all.map((parent) => `(m.related_type = '${parent.uid}' AND EXISTS (SELECT 1 FROM ${q(parent.table)} p WHERE p.id = m.related_id))`);
  queries.push({
    invariant: 'media links whose owner row is gone',
    sql: `SELECT m.file_id, m.related_type, m.related_id FROM ${q(FILE_LINK_TABLE)} m WHERE NOT (${mediaParents.join(' OR ')}) LIMIT 10`,
  });
  queries.push({
    invariant: 'media links whose file is gone',
    sql: `SELECT m.file_id FROM ${q(FILE_LINK_TABLE)} m WHERE NOT EXISTS (SELECT 1 FROM files f WHERE f.id = m.file_id) LIMIT 10`,
  });
  for (const type of Object.values(model.contentTypes)) {
    const locale = type.localized ? ', locale' : '';
    queries.push({
      invariant: `${type.uid}: more than one draft or published version of a document in a locale`,
      sql: `SELECT document_id FROM ${q(type.table)} GROUP BY document_id${locale}, (published_at IS NULL) HAVING count(*) > 1 LIMIT 10`,
    });
    for (const [name, field] of Object.entries(type.attributes)) {
      if (field.kind !== 'scalar' || !(field.unique || field.type === 'uid')) continue;
      const column = q(field.column);
      // Strapi checks no uniqueness for an empty string (nor does capi): several may hold it.
      const nonEmpty = TEXT_TYPES.has(field.type) ? ` AND ${column} <> ''` : '';
      queries.push({
        invariant: `${type.uid}.${name}: a unique value held by several published documents`,
        sql: `SELECT ${column} AS value FROM ${q(type.table)} WHERE published_at IS NOT NULL AND ${column} IS NOT NULL${nonEmpty} GROUP BY ${column}${locale} HAVING count(DISTINCT document_id) > 1 LIMIT 10`,
      });
    }
  }
  return queries;
}

export async function checkInvariants(db: Queryable, model: ModelSchema): Promise<InvariantViolation[]> {
  const violations: InvariantViolation[] = [];
  for (const { invariant, sql } of invariantQueries(model)) {
    const rows = await db.query(sql);
    if (rows.length > 0) violations.push({ invariant, rows });
  }
  return violations;
}
