/**
 * Document writes in Strapi 5's version model (docs/architecture.md), each inside one
 * transaction opened by the caller:
 *
 * - A type with draft & publish is written through its draft: the body is validated as a draft
 *   and written to the draft row of the locale; publishing then validates that draft as a
 *   published version (required values, min lengths, unique, ...), deletes the previous
 *   published row and inserts a new one copied from the draft (a new row id, as in Strapi).
 * - A type without draft & publish has one row per locale, validated and written as published.
 * - A locale the document does not have yet is created by an update; its non-localized
 *   attributes come from the document's other locales unless the body gives them, and the
 *   non-localized attributes a write changes are copied to the other locales' versions of the
 *   same status.
 */
import { ApplicationError } from '../errors.ts';
import type { ContentTypeSchema, ModelSchema } from '../schema.ts';
import { assertBody, assertKnownKeys, assertReadableRelations } from './body-keys.ts';
import { hashPasswords, parseBody } from './body-parse.ts';
import type { ColumnValue, ScalarRules } from './body-scalars.ts';
import type { ParsedObject } from './body-types.ts';
import type { DeleteOptions, DocumentRef, WriteOptions } from './types.ts';
import { applyOwned, scalarColumns, updateColumns } from './write-apply.ts';
import { assertRelationTargets, checkFileTypes, checkLinkedRows, checkUnique } from './write-check.ts';
import type { Version, VersionStatus, WriteContext } from './write-context.ts';
import { deleteLinksToDocument, deleteVersionRows } from './write-delete.ts';
import { copyAttributes, copyVersion } from './publish-copy.ts';
import { loadVersionTree } from './publish-load.ts';
import { lockInverseOwners, mirrorInverseRelations } from './write-relations.ts';
import { resolveRowTargets } from './write-resolve.ts';
import { documentLockKey, insertRow, lockKey, quote } from './sql.ts';
import { storedInstant } from './values.ts';

export interface Hasher {
  (password: string): Promise<string>;
}

interface VersionRow {
  readonly id: number;
  readonly locale: string | null;
  readonly published: boolean;
  readonly createdAt: Date;
}

/** The locale a write targets: null without i18n, the default when none is asked. */
export function resolveLocale(ctx: Pick<WriteContext, 'i18n'>, schema: ContentTypeSchema, locale: string | undefined): string | null {
  if (!schema.localized) return null;
  const code = locale ?? ctx.i18n.defaultLocale;
  if (!ctx.i18n.locales.some((l) => l.code === code)) throw new ApplicationError("This locale doesn't exist");
  return code;
}

/** Validates the body's keys; runs before any transaction, as Strapi refuses them first. */
export function assertWritableBody(ctx: Pick<WriteContext, 'model'>, schema: ContentTypeSchema, data: unknown): Record<string, unknown> {
  assertBody(data);
  assertKnownKeys(ctx.model, schema.attributes, data, schema.localized);
  return data;
}

/**
 * Strapi's content-API input check, run by the REST and GraphQL actions before the write: the
 * body's keys, then its relations, refused when they target a type the caller may not read.
 */
export function assertCallerInput(model: ModelSchema, schema: ContentTypeSchema, data: unknown, canRead: (uid: string) => boolean): void {
  assertReadableRelations(model, schema.attributes, assertWritableBody({ model }, schema, data), canRead);
}

/**
 * Serialises writers of one document, and all writers of a type with unique values (checked,
 * then written). The type lock comes first: taken after a document lock, it could close a cycle
 * with a writer that holds it and waits for that document (inverse-side writes lock owners).
 */
export async function lockForWrite(ctx: WriteContext, schema: ContentTypeSchema, documentId: string): Promise<void> {
  const hasUnique = Object.values(schema.attributes).some((f) => f.kind === 'scalar' && (f.unique || f.type === 'uid'));
  if (hasUnique) await lockKey(ctx.db, `capi:unique:${schema.uid}`);
  await lockKey(ctx.db, documentLockKey(schema.uid, documentId));
}

export async function createDocument(ctx: WriteContext, hash: Hasher, schema: ContentTypeSchema, documentId: string, data: Record<string, unknown>, options: WriteOptions): Promise<DocumentRef> {
  const locale = resolveLocale(ctx, schema, options.locale);
  const written = await insertVersion(ctx, hash, schema, documentId, locale, data, ctx.now);
  if (schema.draftAndPublish && options.status === 'published') await publish(ctx, schema, documentId, locale, written.id);
  return ref(documentId, locale);
}

/** Null when the document has no version at all. */
export async function updateDocument(
  ctx: WriteContext,
  hash: Hasher,
  schema: ContentTypeSchema,
  documentId: string,
  data: Record<string, unknown>,
  options: WriteOptions,
): Promise<DocumentRef | null> {
  const locale = resolveLocale(ctx, schema, options.locale);
  const versions = await versionsOf(ctx, schema, documentId);
  if (versions.length === 0) return null;
  const dp = schema.draftAndPublish;
  const target = versions.find((v) => v.locale === locale && (!dp || !v.published));
  let rowId: number;
  let plan: ParsedObject;
  if (target !== undefined) {
    plan = await validateBody(ctx, hash, schema, documentId, locale, data, 'update');
    const system: [string, Date][] = [['updated_at', ctx.now], ...(dp ? [] : ([['published_at', ctx.now]] as [string, Date][]))];
    await updateColumns(ctx, schema.table, target.id, [...scalarColumns(plan), ...system]);
    await applyOwned(ctx, { schema, id: target.id, version: version(schema, documentId, locale, dp ? 'draft' : 'published') }, plan, false);
    rowId = target.id;
  } else {
    const written = await insertVersion(ctx, hash, schema, documentId, locale, data, versions[0]!.createdAt, sharedFrom(schema, data));
    plan = written.plan;
    rowId = written.id;
    const sibling = versions.find((v) => v.locale !== locale && (!dp || !v.published));
    const missing = new Set(nonLocalized(schema).filter((name) => !plan.values.has(name)));
    if (sibling !== undefined && missing.size > 0) await copyAttributes(ctx.db, ctx.model, schema, sibling.id, rowId, missing);
  }
  const changedShared = new Set([...plan.values.keys()].filter((name) => schema.attributes[name]?.localized === false));
  await syncLocales(ctx, schema, documentId, locale, rowId, dp ? 'draft' : 'published', changedShared);
  if (dp && options.status === 'published') await publish(ctx, schema, documentId, locale, rowId);
  return ref(documentId, locale);
}

/** False when there was nothing to delete. */
export async function deleteDocument(ctx: WriteContext, schema: ContentTypeSchema, documentId: string, options: DeleteOptions): Promise<boolean> {
  let sql = `SELECT id FROM ${quote(schema.table)} WHERE document_id = ?`;
  const params: string[] = [documentId];
  if (schema.localized && options.locale !== '*') {
    sql += ' AND locale = ?';
    params.push(options.locale ?? ctx.i18n.defaultLocale);
  }
  const rows = await ctx.db.query<{ id: number | string }>(sql, params);
  if (rows.length === 0) return false;
  await deleteVersionRows(
    ctx.db,
    ctx.model,
    schema,
    rows.map((r) => Number(r.id)),
  );
  await deleteLinksToDocument(ctx.db, ctx.model, schema, documentId);
  return true;
}

/** The document of a single type, if it has one. */
export async function singleDocumentId(ctx: WriteContext, schema: ContentTypeSchema): Promise<string | undefined> {
  const rows = await ctx.db.query<{ document_id: string }>(`SELECT document_id FROM ${quote(schema.table)} ORDER BY id LIMIT 1`);
  return rows[0]?.document_id;
}

async function versionsOf(ctx: WriteContext, schema: ContentTypeSchema, documentId: string): Promise<VersionRow[]> {
  const rows = await ctx.db.query<{ id: number | string; locale?: string; published_at: unknown; created_at: unknown }>(
    `SELECT id, created_at, published_at${schema.localized ? ', locale' : ''} FROM ${quote(schema.table)} WHERE document_id = ? ORDER BY id`,
    [documentId],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    locale: r.locale ?? null,
    published: r.published_at !== null,
    createdAt: storedInstant(r.created_at),
  }));
}

/**
 * Inserts the version a body describes: the draft of a draft & publish type, the only row of
 * another. Absent attributes take their defaults, except the `shared` ones (a new locale takes
 * those from the document's other locales).
 */
async function insertVersion(
  ctx: WriteContext,
  hash: Hasher,
  schema: ContentTypeSchema,
  documentId: string,
  locale: string | null,
  data: Record<string, unknown>,
  createdAt: Date,
  shared?: (name: string) => boolean,
): Promise<{ id: number; plan: ParsedObject }> {
  let plan = await validateBody(ctx, hash, schema, documentId, locale, data, 'creation');
  if (shared !== undefined) plan = { uid: plan.uid, values: new Map([...plan.values].filter(([name]) => !shared(name))) };
  const dp = schema.draftAndPublish;
  const columns: [string, ColumnValue][] = [
    ['document_id', documentId],
    ...scalarColumns(plan),
    ['created_at', createdAt],
    ['updated_at', ctx.now],
    ['published_at', dp ? null : ctx.now],
    ...(locale === null ? [] : ([['locale', locale]] as [string, string][])),
  ];
  const id = await insertRow(
    ctx.db,
    schema.table,
    columns.map(([c]) => c),
    columns.map(([, v]) => v),
  );
  await applyOwned(ctx, { schema, id, version: version(schema, documentId, locale, dp ? 'draft' : 'published') }, plan, true);
  return { id, plan };
}

/** Non-localized attributes a new locale's body leaves out: they come from another locale. */
function sharedFrom(schema: ContentTypeSchema, data: Record<string, unknown>): (name: string) => boolean {
  return (name) => schema.attributes[name]?.localized === false && !Object.hasOwn(data, name);
}

/**
 * Validates a body the way Strapi does before writing it: keys are already known to be
 * attributes; relation targets must exist (thrown alone, first); then every other problem at
 * once. What the body links to is locked against deletion until the write ends. A draft & publish type's body is validated as a draft (its publication is validated
 * when publishing).
 */
async function validateBody(
  ctx: WriteContext,
  hash: Hasher,
  schema: ContentTypeSchema,
  documentId: string,
  locale: string | null,
  data: Record<string, unknown>,
  mode: ScalarRules['mode'],
): Promise<ParsedObject> {
  const result = parseBody(ctx.model, schema, data, { isDraft: schema.draftAndPublish, mode });
  await lockInverseOwners(ctx, result.relations);
  await assertRelationTargets(ctx.db, ctx.model, ctx.i18n, { schema, locale }, result.relations);
  const linked = await checkLinkedRows(ctx.db, ctx.model, result.relations, result.media, result.issues);
  checkFileTypes(result.media, linked.mimes, result.issues);
  if (!schema.draftAndPublish) await checkUnique(ctx.db, { schema, locale }, documentId, result.unique, result.issues);
  result.issues.throwIfAny(Object.keys(schema.attributes));
  return hashPasswords(resolveRowTargets(result.data, linked.documents), hash);
}

/**
 * Publishes the draft `draftId`: validates it as a published version, replaces the locale's
 * published row by a copy of the draft, and copies its non-localized attributes to the other
 * locales' published versions.
 */
async function publish(ctx: WriteContext, schema: ContentTypeSchema, documentId: string, locale: string | null, draftId: number): Promise<void> {
  const tree = await loadVersionTree(ctx.db, ctx.model, schema, draftId);
  const result = parseBody(ctx.model, schema, tree, { isDraft: false, mode: 'creation', stored: true });
  await checkUnique(ctx.db, { schema, locale }, documentId, result.unique, result.issues);
  result.issues.throwIfAny(Object.keys(schema.attributes));
  const old = (await versionsOf(ctx, schema, documentId)).filter((v) => v.published && v.locale === locale).map((v) => v.id);
  await deleteVersionRows(ctx.db, ctx.model, schema, old);
  const published = await copyVersion(ctx.db, ctx.model, schema, draftId, { updatedAt: ctx.now, publishedAt: ctx.now });
  await mirrorInverseRelations(ctx, version(schema, documentId, locale, 'published'));
  await syncLocales(ctx, schema, documentId, locale, published, 'published', new Set(nonLocalized(schema)));
}

/** Copies `names` (non-localized attributes) from `fromId` to the document's other locales' versions of `status`. */
async function syncLocales(ctx: WriteContext, schema: ContentTypeSchema, documentId: string, locale: string | null, fromId: number, status: VersionStatus, names: ReadonlySet<string>): Promise<void> {
  if (!schema.localized || names.size === 0) return;
  const others = (await versionsOf(ctx, schema, documentId)).filter((v) => v.locale !== locale && v.published === (status === 'published'));
  for (const other of others) {
    await copyAttributes(ctx.db, ctx.model, schema, fromId, other.id, names);
    await updateColumns(ctx, schema.table, other.id, [['updated_at', ctx.now]]);
  }
}

function nonLocalized(schema: ContentTypeSchema): string[] {
  return Object.entries(schema.attributes)
    .filter(([, field]) => !field.localized && !(field.kind === 'relation' && !field.owner))
    .map(([name]) => name);
}

function version(schema: ContentTypeSchema, documentId: string, locale: string | null, status: VersionStatus): Version {
  return { schema, documentId, status, locale };
}

function ref(documentId: string, locale: string | null): DocumentRef {
  return locale === null ? { documentId } : { documentId, locale };
}
