/**
 * The storage invariants no write, delete or race may break, checked on a database of any model:
 * every relation link points at a document that exists and is held by a row that exists, every
 * media link at a file and an owner row that exist, every component row has its owner row.
 * Returns one line per broken invariant (with the count of rows that break it); empty is good.
 */
import type { Queryable } from '../../templates/runtime/database.ts';
import type { ModelSchema } from '../../templates/runtime/schema.ts';
import { FILE_LINK_TABLE, uploadFileSchema } from '../../templates/runtime/upload/file-schema.ts';
import { owningRelations, schemaOf } from '../../templates/runtime/engine/write-schema.ts';

const q = (name: string): string => `"${name.replace(/"/g, '""')}"`;

async function count(db: Queryable, sql: string, params: readonly string[] = []): Promise<number> {
  const rows = await db.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${sql}`, params);
  return Number(rows[0]?.n ?? 0);
}

export async function brokenInvariants(db: Queryable, model: ModelSchema): Promise<string[]> {
  const broken: string[] = [];
  const report = (n: number, what: string): void => {
    if (n > 0) broken.push(`${n} ${what}`);
  };
  for (const { owner, name, field } of owningRelations(model)) {
    const link = q(field.linkTable);
    const target = q(schemaOf(model, field.target).table);
    report(await count(db, `${link} l WHERE NOT EXISTS (SELECT 1 FROM ${target} t WHERE t.document_id = l.target_document_id)`), `${field.linkTable} rows (${owner.uid}.${name}) point at a missing document`);
    report(await count(db, `${link} l WHERE NOT EXISTS (SELECT 1 FROM ${q(owner.table)} o WHERE o.id = l.entity_id)`), `${field.linkTable} rows have no owner row`);
  }
  const owners = [...Object.values(model.contentTypes), ...Object.values(model.components)];
  for (const component of Object.values(model.components)) {
    const known = owners.map((o) => o.uid);
    report(await count(db, `${q(component.table)} c WHERE c.entity_type NOT IN (${known.map(() => '?').join(', ')})`, known), `${component.table} rows have an unknown owner type`);
    for (const owner of owners) {
      report(
        await count(db, `${q(component.table)} c WHERE c.entity_type = ? AND NOT EXISTS (SELECT 1 FROM ${q(owner.table)} o WHERE o.id = c.entity_id)`, [owner.uid]),
        `${component.table} rows of ${owner.uid} have no owner row`,
      );
    }
  }
  const files = q(uploadFileSchema.table);
  const links = q(FILE_LINK_TABLE);
  report(await count(db, `${links} m WHERE NOT EXISTS (SELECT 1 FROM ${files} f WHERE f.id = m.file_id)`), `${FILE_LINK_TABLE} rows point at a missing file`);
  for (const owner of owners) {
    report(
      await count(db, `${links} m WHERE m.related_type = ? AND NOT EXISTS (SELECT 1 FROM ${q(owner.table)} o WHERE o.id = m.related_id)`, [owner.uid]),
      `${FILE_LINK_TABLE} rows of ${owner.uid} have no owner row`,
    );
  }
  return broken;
}
