/**
 * What the project's storage promises (docs/architecture.md) and an archive could break, checked
 * by the writing pass inside its transaction, before anything is committed: every line was fine
 * on its own, but rows together may not be. Each check is one SQL statement returning the
 * offending groups (at most 10 each), so memory does not grow with the archive, and the same SQL
 * runs on SQLite, PostgreSQL and MySQL/MariaDB.
 */
import type { Queryable } from '../database.ts';
import { quote } from '../engine/sql.ts';
import type { ContentTypeSchema, ModelSchema } from '../schema.ts';
import { FILE_LINK_TABLE } from '../upload/file-schema.ts';
import { USER_UID } from '../users/store.ts';

/** Text types whose empty string may repeat in a unique attribute, as Strapi allows it. */
const textTypes: ReadonlySet<string> = new Set(['string', 'text', 'richtext', 'email', 'uid', 'enumeration']);

type Row = Record<string, unknown>;

interface Check {
  readonly sql: string;
  /** The sentence for one offending group. */
  readonly describe: (row: Row) => string;
}

/** `rows 3 and 17`, `rows 3, 40 and others`: which rows of the archive to look at. */
function rows(row: Row): string {
  return `rows ${String(row['first'])} and ${String(row['last'])}${Number(row['n']) > 2 ? ' among others' : ''}`;
}

function inLocale(type: ContentTypeSchema, row: Row): string {
  return type.localized ? ` in locale ${String(row['locale'])}` : '';
}

function checksOf(type: ContentTypeSchema): Check[] {
  const table = quote(type.table);
  const locale = type.localized ? ', locale' : '';
  const state = `CASE WHEN published_at IS NULL THEN 'draft' ELSE 'published' END`;
  const checks: Check[] = [
    {
      sql: `SELECT document_id${locale}, ${state} AS state, COUNT(*) AS n, MIN(id) AS first, MAX(id) AS last FROM ${table}
        GROUP BY document_id${locale}, ${state} HAVING COUNT(*) > 1`,
      describe: (row) =>
        `${type.uid}: document ${String(row['document_id'])} has ${String(row['n'])} ${String(row['state'])} versions${inLocale(type, row)} (${rows(row)}); a document has one of each per locale`,
    },
  ];
  for (const [name, field] of Object.entries(type.attributes)) {
    if (field.kind !== 'scalar' || !(field.unique || field.type === 'uid')) continue;
    const column = quote(field.column);
    const nonEmpty = textTypes.has(field.type) ? ` AND ${column} <> ''` : '';
    checks.push({
      sql: `SELECT ${column} AS value${locale}, COUNT(DISTINCT document_id) AS n, MIN(id) AS first, MAX(id) AS last FROM ${table}
        WHERE published_at IS NOT NULL AND ${column} IS NOT NULL${nonEmpty} GROUP BY ${column}${locale} HAVING COUNT(DISTINCT document_id) > 1`,
      describe: (row) => `${type.uid}.${name}: the unique value ${JSON.stringify(row['value'])} is held by ${String(row['n'])} published documents${inLocale(type, row)} (${rows(row)})`,
    });
  }
  if (type.uid === USER_UID) checks.push(...userChecks(type));
  return checks;
}

/** Users sign in by email (compared lower-cased) or username: each must name one account. */
function userChecks(type: ContentTypeSchema): Check[] {
  const checks: Check[] = [];
  for (const [name, lower] of [
    ['email', true],
    ['username', false],
  ] as const) {
    const field = type.attributes[name];
    // A unique attribute compared as stored is the check above already.
    if (field?.kind !== 'scalar' || (field.unique && !lower)) continue;
    const value = lower ? `LOWER(${quote(field.column)})` : quote(field.column);
    checks.push({
      sql: `SELECT ${value} AS value, COUNT(*) AS n, MIN(id) AS first, MAX(id) AS last FROM ${quote(type.table)} WHERE ${quote(field.column)} IS NOT NULL GROUP BY ${value} HAVING COUNT(*) > 1`,
      describe: (row) =>
        `${type.uid}.${name}: ${String(row['n'])} users have the ${name} ${JSON.stringify(row['value'])}${lower ? ' (compared lower-cased)' : ''} (${rows(row)}); one could not sign in`,
    });
  }
  return checks;
}

const mediaCheck: Check = {
  sql: `SELECT file_id, related_type, related_id, field, COUNT(*) AS n FROM ${quote(FILE_LINK_TABLE)}
    GROUP BY file_id, related_type, related_id, field HAVING COUNT(*) > 1`,
  describe: (row) => `${String(row['related_type'])}.${String(row['field'])}: file ${String(row['file_id'])} is linked ${String(row['n'])} times to row ${String(row['related_id'])}`,
};

/** Every broken invariant, one sentence per offending group (at most 10 per check). */
export async function brokenInvariants(db: Queryable, model: ModelSchema): Promise<string[]> {
  const found: string[] = [];
  for (const check of [...Object.values(model.contentTypes).flatMap(checksOf), mediaCheck]) {
    const offending = await db.query<Row>(`${check.sql} ORDER BY 1 LIMIT 10`);
    found.push(...offending.map(check.describe));
  }
  return found;
}
