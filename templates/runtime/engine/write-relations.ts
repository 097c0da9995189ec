/**
 * Relation writes on link tables (`entity_id` = owning row, `target_document_id`, `ord`,
 * `inverse_ord`).
 *
 * Owning side: the row's own links are rewritten to the new list, `ord` following its order.
 * A new link takes the `inverse_ord` another version of the same document already has for that
 * target (so the target's list keeps one order across the owner's versions), else goes last in
 * the target's list. A one-to-one relation takes its target away from any other document.
 *
 * Inverse (mappedBy) side: the links live in the owner's table, so writing `author.articles`
 * rewrites, for each listed article, the link rows of its versions, keeping `inverse_ord` in the
 * order given. Which versions: as Strapi connects them, the same status when both types have
 * draft & publish, every version when the writing side has none, and the relation's locale.
 */
import type { Queryable } from '../database.ts';
import type { ContentTypeSchema, RelationField } from '../schema.ts';
import type { RelationInput } from './body-relations.ts';
import type { RelationUse } from './body-types.ts';
import type { Owner, Version, WriteContext } from './write-context.ts';
import { nextList } from './write-order.ts';
import { contentTypeOf, isContentType } from './write-schema.ts';
import { isRowId } from '../column-domains.ts';
import { deleteRows, documentLockKey, fragment, inIds, joinFragments, keyShare, lockKey, quote } from './sql.ts';

interface LinkRow {
  readonly id: number | string;
  readonly target_document_id: string;
}

export async function writeRelation(ctx: WriteContext, owner: Owner, field: RelationField, input: RelationInput, fresh: boolean): Promise<void> {
  if (field.owner) await writeOwningSide(ctx, owner, field, input, fresh);
  else await writeInverseSide(ctx, owner.version, field, input);
}

async function writeOwningSide(ctx: WriteContext, owner: Owner, field: RelationField, input: RelationInput, fresh: boolean): Promise<void> {
  const db = ctx.db;
  const table = quote(field.linkTable);
  const current = fresh ? [] : await db.query<LinkRow>(`SELECT id, target_document_id FROM ${table} WHERE entity_id = ? ORDER BY ord, id`, [owner.id]);
  let next = nextList(
    current.map((row) => row.target_document_id),
    input,
  );
  if (field.cardinality === 'one') next = next.slice(-1);
  const keep = new Set(next);
  const stale = current.filter((row) => !keep.has(row.target_document_id)).map((row) => row.id);
  if (stale.length > 0) await deleteRows(db, table, stale);
  const existing = new Set(current.map((row) => row.target_document_id));
  for (const [index, target] of next.entries()) {
    if (existing.has(target)) {
      await db.execute(`UPDATE ${table} SET ord = ? WHERE entity_id = ? AND target_document_id = ?`, [index + 1, owner.id, target]);
      continue;
    }
    if (isOneToOne(ctx, field) && isContentType(owner.schema)) await takeTargetFromOthers(db, owner, field, target);
    const inverseOrd = field.inverse === undefined ? 0 : await inverseOrdFor(db, owner, field, target);
    await db.execute(`INSERT INTO ${table} (entity_id, target_document_id, ord, inverse_ord) VALUES (?, ?, ?, ?)`, [owner.id, target, index + 1, inverseOrd]);
  }
}

function isOneToOne(ctx: WriteContext, field: RelationField): boolean {
  if (field.cardinality !== 'one' || field.inverse === undefined) return false;
  const inverse = contentTypeOf(ctx.model, field.target).attributes[field.inverse];
  return inverse?.kind === 'relation' && inverse.cardinality === 'one';
}

/** One-to-one: the target can be linked from one document only. */
async function takeTargetFromOthers(db: Queryable, owner: Owner, field: RelationField, target: string): Promise<void> {
  await db.execute(`DELETE FROM ${quote(field.linkTable)} WHERE target_document_id = ? AND entity_id IN (SELECT id FROM ${quote(owner.schema.table)} WHERE document_id <> ?)`, [
    target,
    owner.version.documentId,
  ]);
}

async function inverseOrdFor(db: Queryable, owner: Owner, field: RelationField, target: string): Promise<number> {
  const table = quote(field.linkTable);
  if (isContentType(owner.schema)) {
    const sibling = await db.query<{ inverse_ord: number | string }>(
      `SELECT l.inverse_ord FROM ${table} l JOIN ${quote(owner.schema.table)} o ON o.id = l.entity_id WHERE l.target_document_id = ? AND o.document_id = ? LIMIT 1`,
      [target, owner.version.documentId],
    );
    if (sibling[0] !== undefined) return Number(sibling[0].inverse_ord);
  }
  const last = await db.query<{ n: number | string | null }>(`SELECT MAX(inverse_ord) AS n FROM ${table} WHERE target_document_id = ?`, [target]);
  return Number(last[0]?.n ?? 0) + 1;
}

interface InverseLink {
  readonly id: number | string;
  readonly entity_id: number | string;
  readonly document_id: string;
}

async function writeInverseSide(ctx: WriteContext, version: Version, field: RelationField, input: RelationInput): Promise<void> {
  const db = ctx.db;
  const ownerType = contentTypeOf(ctx.model, field.target);
  const owningName = field.inverse;
  const owning = owningName === undefined ? undefined : ownerType.attributes[owningName];
  if (owning?.kind !== 'relation') throw new Error(`write engine: ${version.schema.uid} relation has no owning side`);
  const scope = ownerScope(ctx, version, ownerType);
  const table = quote(field.linkTable);
  const current = await db.query<InverseLink>(
    `SELECT l.id, l.entity_id, o.document_id FROM ${table} l JOIN ${quote(ownerType.table)} o ON o.id = l.entity_id
     WHERE l.target_document_id = ?${scope.sql} ORDER BY l.inverse_ord, l.id`,
    [version.documentId, ...scope.params],
  );
  const currentDocuments = [...new Set(current.map((row) => row.document_id))];
  let next = nextList(currentDocuments, input);
  if (field.cardinality === 'one') next = next.slice(-1);
  // These rows belong to other documents: queue behind their own writers, in one global order
  // so that two inverse-side writes cannot wait on each other.
  for (const documentId of [...new Set([...currentDocuments, ...next])].sort()) await lockKey(db, documentLockKey(ownerType.uid, documentId));
  const keep = new Set(next);
  const stale = current.filter((row) => !keep.has(row.document_id)).map((row) => row.id);
  if (stale.length > 0) await deleteRows(db, table, stale);
  const linked = new Set(current.map((row) => Number(row.entity_id)));
  for (const [index, documentId] of next.entries()) {
    // Locked like a relation target: the link rows written next reference these rows.
    const rows = await db.query<{ id: number | string }>(`SELECT o.id FROM ${quote(ownerType.table)} o WHERE o.document_id = ?${scope.sql}${keyShare(db)}`, [documentId, ...scope.params]);
    for (const row of rows.map((r) => Number(r.id))) {
      if (linked.has(row)) {
        await db.execute(`UPDATE ${table} SET inverse_ord = ? WHERE entity_id = ? AND target_document_id = ?`, [index + 1, row, version.documentId]);
        continue;
      }
      // The owning side holds one target: linking it here replaces what it pointed at.
      if (owning.cardinality === 'one') await db.execute(`DELETE FROM ${table} WHERE entity_id = ?`, [row]);
      const ord = owning.cardinality === 'one' ? 1 : await nextOrd(db, field.linkTable, row);
      await db.execute(`INSERT INTO ${table} (entity_id, target_document_id, ord, inverse_ord) VALUES (?, ?, ?, ?)`, [row, version.documentId, ord, index + 1]);
    }
  }
}

/**
 * An inverse-side write rewrites link rows of the documents it names, so it queues behind their
 * writers (the document lock, in one global order). It takes those locks before it reads and
 * locks their rows as relation targets: the other way round, a writer of one of them that
 * replaces a row (publishing) would wait for this write's row lock while this write waits for
 * its document lock. Row ids are looked up without a lock here; the checks that follow lock them.
 */
export async function lockInverseOwners(ctx: WriteContext, uses: readonly RelationUse[]): Promise<void> {
  const keys = new Set<string>();
  for (const use of uses) {
    if (use.field.owner) continue;
    const ownerType = contentTypeOf(ctx.model, use.field.target);
    for (const ref of use.documents) keys.add(documentLockKey(ownerType.uid, ref.documentId));
    const ids = [...use.rows, ...use.optionalRows].map((r) => r.id).filter(isRowId);
    if (ids.length === 0) continue;
    const select = joinFragments([fragment(`SELECT DISTINCT document_id FROM ${quote(ownerType.table)} WHERE `), inIds(ctx.db.dialect, 'id', ids, 'integer')], '');
    const rows = await ctx.db.query<{ document_id: string }>(select.sql, select.params);
    for (const row of rows) keys.add(documentLockKey(ownerType.uid, row.document_id));
  }
  for (const key of [...keys].sort()) await lockKey(ctx.db, key);
}

/**
 * Publishing a draft & publish document whose inverse relations point at draft & publish owners:
 * the owners' published versions get the links their drafts have to it, as Strapi links the
 * published versions of both sides when publishing.
 */
export async function mirrorInverseRelations(ctx: WriteContext, published: Version): Promise<void> {
  const draft: Version = { ...published, status: 'draft' };
  for (const field of Object.values(published.schema.attributes)) {
    if (field.kind !== 'relation' || field.owner) continue;
    const ownerType = contentTypeOf(ctx.model, field.target);
    if (!ownerType.draftAndPublish || !published.schema.draftAndPublish) continue;
    const scope = ownerScope(ctx, draft, ownerType);
    const linked = await ctx.db.query<{ document_id: string }>(
      `SELECT o.document_id FROM ${quote(field.linkTable)} l JOIN ${quote(ownerType.table)} o ON o.id = l.entity_id
       WHERE l.target_document_id = ?${scope.sql} ORDER BY l.inverse_ord, l.id`,
      [draft.documentId, ...scope.params],
    );
    const refs = [...new Set(linked.map((r) => r.document_id))].map((documentId) => ({ documentId }));
    await writeInverseSide(ctx, published, field, { kind: 'set', refs });
  }
}

async function nextOrd(db: Queryable, linkTable: string, entityId: number): Promise<number> {
  const last = await db.query<{ n: number | string | null }>(`SELECT MAX(ord) AS n FROM ${quote(linkTable)} WHERE entity_id = ?`, [entityId]);
  return Number(last[0]?.n ?? 0) + 1;
}

/** Which versions of the owning type a write from the inverse side touches (SQL on alias `o`). */
function ownerScope(ctx: WriteContext, version: Version, ownerType: ContentTypeSchema): { sql: string; params: string[] } {
  let sql = '';
  const params: string[] = [];
  if (ownerType.localized) {
    sql += ' AND o.locale = ?';
    params.push(version.schema.localized && version.locale !== null ? version.locale : ctx.i18n.defaultLocale);
  }
  if (ownerType.draftAndPublish && version.schema.draftAndPublish) {
    sql += version.status === 'draft' ? ' AND o.published_at IS NULL' : ' AND o.published_at IS NOT NULL';
  }
  return { sql, params };
}
