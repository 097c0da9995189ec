/**
 * `capi export`: writes a project's content as a Strapi 5 data-transfer archive (the format
 * `strapi export --no-encrypt` writes and `strapi import` and `capi import` read): backups, and
 * the way back to Strapi. Rows are read in pages of `pageSize` by id, so memory is bounded by a
 * page and one JSON Lines part whatever the size of the project.
 *
 * Links name rows, capi's link tables name documents: each link is written to the version of the
 * target a read would return for the owner (same draft/published state, same locale), else to
 * the target's first row. Importing the archive into capi gives back the same documents and
 * links, in the same order.
 */
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Database, Queryable, Row } from '../database.ts';
import { inIds, quote } from '../engine/sql.ts';
import { decoder, formatTimestamp } from '../engine/values.ts';
import type { ComponentSchema, ContentTypeSchema, Field, JsonValue, ModelSchema } from '../schema.ts';
import { FILE_LINK_TABLE, UPLOAD_FILE_UID, uploadFileSchema } from '../upload/file-schema.ts';
import type { UploadProviderConfig } from '../upload/provider-config.ts';
import { createUploadProvider, type StoredEntry, type UploadProvider } from '../upload/provider.ts';
import { UploadFolder } from '../upload/storage.ts';
import { ArchiveWriter, type JsonlWriter } from './archive-writer.ts';
import type { ProgressListener } from './report.ts';
import { archiveSchemas } from './schema-export.ts';

/** The Strapi release whose archive format and behaviour capi follows. */
export const strapiFormatVersion = '5.54.0';
const pageSize = 1000;

export interface ExportOptions {
  readonly file: string;
  readonly db: Database;
  readonly model: ModelSchema;
  /** The local upload folder (`<project>/public/uploads`): the local provider's files, and the work folders. */
  readonly uploadDir: string;
  /** config/plugins.json `upload.config`: where the files are read from. Default: the local provider. */
  readonly uploadProvider?: UploadProviderConfig;
  readonly compress: boolean;
  /** Size at which a JSON Lines file is closed and the next one started (Strapi's maxSizeJsonl). */
  readonly partBytes?: number;
  readonly progress?: ProgressListener;
}

export interface ExportResult {
  readonly file: string;
  readonly entities: number;
  readonly links: number;
  readonly assets: number;
  /** Files whose content the upload provider does not have (their rows are exported all the same). */
  readonly missingAssets: readonly string[];
  readonly durationMs: number;
}

type OwnerSchema = ContentTypeSchema | ComponentSchema;

export async function exportArchive(options: ExportOptions): Promise<ExportResult> {
  const started = performance.now();
  const file = archiveFileName(options.file, options.compress);
  const archive = new ArchiveWriter(file, options.compress);
  try {
    const result = await inSnapshot(options.db, (view) => writeArchive({ ...options, db: view }, archive));
    await archive.finish();
    return { file, ...result, durationMs: Math.round(performance.now() - started) };
  } catch (error) {
    await archive.abort();
    await rm(file, { force: true });
    throw error;
  }
}

/**
 * The file an export writes for the name given: `.tar.gz` (or `.tar` with --no-compress) appended
 * unless the name already ends so, as `strapi export -f backup` writes `backup.tar.gz`.
 */
export function archiveFileName(given: string, compress: boolean): string {
  if (compress) return /\.(tar\.gz|tgz)$/i.test(given) ? given : /\.tar$/i.test(given) ? `${given}.gz` : `${given}.tar.gz`;
  return /\.tar$/i.test(given) ? given : `${given}.tar`;
}

/**
 * Runs the export's reads in one snapshot of the database, so that a backup of a live project is
 * consistent, without blocking its writers (`Dialect.snapshot`): a read-only REPEATABLE READ
 * transaction on PostgreSQL, a deferred (read) transaction on SQLite, whose WAL lets other
 * processes write.
 */
async function inSnapshot<T>(db: Database, read: (view: Queryable) => Promise<T>): Promise<T> {
  const { begin, end } = db.dialect.snapshot;
  return db.withConnection(async (connection) => {
    await connection.exec(begin);
    try {
      return await read(connection);
    } finally {
      await connection.exec(end);
    }
  });
}

async function writeArchive(options: Omit<ExportOptions, 'db'> & { readonly db: Queryable }, archive: ArchiveWriter): Promise<Omit<ExportResult, 'file' | 'durationMs'>> {
  const { db, model } = options;
  let done = 0;
  const tick = (): void => {
    if (++done % 500 === 0) options.progress?.({ stage: 'export', done });
  };
  const schemas = archive.lines('schemas', options.partBytes);
  for (const schema of archiveSchemas(model)) await schemas.write(schema);
  await schemas.close();

  const entities = archive.lines('entities', options.partBytes);
  for (const schema of [uploadFileSchema, ...Object.values(model.contentTypes)]) await exportRows(db, model, schema, entities, tick);
  await entities.close();

  const folder = UploadFolder.openSync(options.uploadDir);
  const provider = createUploadProvider(options.uploadProvider ?? { provider: 'local' }, folder);
  const work = await folder.createWorkDir();
  const missingAssets: string[] = [];
  let assets = 0;
  try {
    for await (const page of pages(db, uploadFileSchema.table)) {
      for (const row of page) {
        if (row['provider'] !== provider.name) {
          // Stored by another provider than the one configured (a project that switched): its bytes are not reachable here.
          missingAssets.push(`${String(row['hash'])}${String(row['ext'] ?? '')} (provider ${String(row['provider'])})`);
          continue;
        }
        for (const asset of fileAssets(db, provider, row)) {
          // Through the provider, so that an S3 project's objects are archived as a local one's files
          // are: a local file is hard-linked aside (no copy), an object downloaded, then streamed in.
          const copy = join(work.path, `asset-${assets}`);
          if ((await provider.copyOut(asset.name, copy)) === null) {
            missingAssets.push(asset.name);
            continue;
          }
          await archive.fromDisk(`assets/uploads/${asset.name}`, copy, (await stat(copy)).size);
          await rm(copy);
          await archive.file(`assets/metadata/${asset.name}.json`, Buffer.from(JSON.stringify(asset.metadata)));
          assets++;
          tick();
        }
      }
    }
  } finally {
    await work.remove();
    provider.close();
  }

  const links = archive.lines('links', options.partBytes);
  for (const owner of [...Object.values(model.contentTypes), ...Object.values(model.components)]) {
    for (const [name, field] of Object.entries(owner.attributes)) {
      if (field.kind === 'relation' && field.owner) await exportRelation(db, model, owner, name, field, links, tick);
    }
  }
  await exportMedia(db, links, tick);
  await links.close();
  await archive.lines('configuration', options.partBytes).close();
  await archive.file('metadata.json', Buffer.from(JSON.stringify({ createdAt: new Date().toISOString(), strapi: { version: strapiFormatVersion } }, null, 2)));
  options.progress?.({ stage: 'export', done, finished: true });
  return { entities: entities.count, links: links.count, assets, missingAssets };
}

/** Rows of a table in pages, by id. */
async function* pages(db: Queryable, table: string, where = ''): AsyncGenerator<Row[]> {
  let after = 0;
  for (;;) {
    const rows = await db.query(`SELECT * FROM ${quote(table)} WHERE id > ?${where} ORDER BY id LIMIT ${pageSize}`, [after]);
    if (rows.length === 0) return;
    yield rows;
    after = Number(rows.at(-1)?.['id']);
  }
}

async function exportRows(db: Queryable, model: ModelSchema, schema: ContentTypeSchema, out: JsonlWriter, tick: () => void): Promise<void> {
  for await (const page of pages(db, schema.table)) {
    const owned = await ownedValues(
      db,
      model,
      schema.uid,
      schema,
      page.map((r) => Number(r['id'])),
    );
    for (const row of page) {
      const id = Number(row['id']);
      const data: Record<string, unknown> = { documentId: row['document_id'] };
      Object.assign(data, scalarValues(db, schema, row));
      data['createdAt'] = formatTimestamp(row['created_at']);
      data['updatedAt'] = formatTimestamp(row['updated_at']);
      data['publishedAt'] = formatTimestamp(row['published_at']);
      data['locale'] = schema.localized ? row['locale'] : null;
      Object.assign(data, owned.get(id));
      await out.write({ type: schema.uid, id, data });
      tick();
    }
  }
}

function scalarValues(db: Queryable, schema: OwnerSchema, row: Row): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.attributes)) {
    if (field.kind !== 'scalar') continue;
    const raw = row[field.column];
    const decode = decoder(db.dialect, field.type);
    data[name] = raw === undefined ? null : decode === undefined ? (raw ?? null) : decode(raw);
  }
  return data;
}

/**
 * The components and dynamic zones of the rows `ids` of `ownerUid`, inline as Strapi writes them
 * (with their ids; dynamic-zone entries with `__component`), one query per component table and level.
 */
async function ownedValues(db: Queryable, model: ModelSchema, ownerUid: string, owner: OwnerSchema, ids: readonly number[]): Promise<Map<number, Record<string, unknown>>> {
  const result = new Map<number, Record<string, unknown>>();
  const entry = (id: number): Record<string, unknown> => {
    let values = result.get(id);
    if (values === undefined) result.set(id, (values = {}));
    return values;
  };
  for (const [name, field] of Object.entries(owner.attributes)) {
    if (field.kind !== 'component' && field.kind !== 'dynamiczone') continue;
    const uids = field.kind === 'component' ? [field.component] : field.components;
    const items: Array<{ ownerId: number; ord: number; rowId: number; value: Record<string, unknown> }> = [];
    for (const uid of uids) {
      const component = model.components[uid];
      if (component === undefined) continue;
      const list = inIds(db.dialect, 'entity_id', ids, 'integer');
      const rows = await db.query(`SELECT * FROM ${quote(component.table)} WHERE entity_type = ? AND entity_field = ? AND ${list.sql} ORDER BY entity_id, entity_ord, id`, [
        ownerUid,
        name,
        ...list.params,
      ]);
      const nested = await ownedValues(
        db,
        model,
        uid,
        component,
        rows.map((r) => Number(r['id'])),
      );
      for (const row of rows) {
        const rowId = Number(row['id']);
        const value: Record<string, unknown> = { id: rowId, ...scalarValues(db, component, row), ...nested.get(rowId) };
        if (field.kind === 'dynamiczone') value['__component'] = uid;
        items.push({ ownerId: Number(row['entity_id']), ord: Number(row['entity_ord']), rowId, value });
      }
    }
    items.sort((a, b) => a.ownerId - b.ownerId || a.ord - b.ord || a.rowId - b.rowId);
    for (const id of ids) entry(id)[name] = field.kind === 'component' && !field.repeatable ? null : [];
    for (const item of items) {
      const values = entry(item.ownerId);
      if (field.kind === 'component' && !field.repeatable) values[name] = item.value;
      else (values[name] as unknown[]).push(item.value);
    }
  }
  return result;
}

/** The original and the formats of a file row of the provider, with the metadata Strapi writes beside each. */
function fileAssets(db: Queryable, provider: UploadProvider, row: Row): Array<{ name: string; metadata: JsonValue }> {
  const data = scalarValues(db, uploadFileSchema, row);
  const entry = (values: Record<string, JsonValue>): StoredEntry => ({ hash: String(values['hash']), ext: typeof values['ext'] === 'string' ? values['ext'] : null, url: String(values['url']) });
  const main = provider.storedName(entry(data as Record<string, JsonValue>));
  const out: Array<{ name: string; metadata: JsonValue }> = [];
  const parsed = data['formats'] ?? null;
  const formats = (parsed ?? {}) as Record<string, Record<string, JsonValue>>;
  if (main !== undefined) out.push({ name: main, metadata: { id: Number(row['id']), documentId: String(row['document_id']), ...(data as Record<string, JsonValue>), formats: parsed as JsonValue } });
  for (const [type, format] of Object.entries(formats)) {
    const name = provider.storedName(entry(format));
    if (name !== undefined) out.push({ name, metadata: { ...format, type, id: Number(row['id']), mainHash: String(row['hash']) } });
  }
  return out;
}

async function exportRelation(db: Queryable, model: ModelSchema, owner: OwnerSchema, name: string, field: Field & { kind: 'relation' }, out: JsonlWriter, tick: () => void): Promise<void> {
  const target = field.target === UPLOAD_FILE_UID ? uploadFileSchema : model.contentTypes[field.target];
  if (target === undefined) return;
  const ownerType = 'draftAndPublish' in owner ? owner : undefined;
  const relation = relationKind(model, field);
  for await (const page of pages(db, field.linkTable)) {
    // The owner rows' state and locale decide which version of the target the link names.
    const ownerRows =
      ownerType === undefined
        ? new Map<number, Row>()
        : await rowsById(
            db,
            ownerType.table,
            page.map((l) => Number(l['entity_id'])),
          );
    const candidates = await versionsOf(db, target, [...new Set(page.map((l) => String(l['target_document_id'])))]);
    for (const link of page) {
      const ownerRow = ownerRows.get(Number(link['entity_id']));
      const targetId = pickVersion(candidates.get(String(link['target_document_id'])) ?? [], ownerRow, target.localized && ownerType?.localized === true);
      if (targetId === undefined) continue;
      await out.write({
        kind: owner.uid === target.uid ? 'relation.circular' : 'relation.basic',
        relation,
        left: { type: owner.uid, ref: Number(link['entity_id']), field: name, pos: Number(link['ord']) },
        right: { type: target.uid, ref: targetId, ...(field.inverse === undefined ? {} : { field: field.inverse }), pos: Number(link['inverse_ord']) },
      });
      tick();
    }
  }
}

async function rowsById(db: Queryable, table: string, ids: readonly number[]): Promise<Map<number, Row>> {
  const list = inIds(db.dialect, 'id', [...new Set(ids)], 'integer');
  const rows = await db.query(`SELECT * FROM ${quote(table)} WHERE ${list.sql}`, list.params);
  return new Map(rows.map((r) => [Number(r['id']), r]));
}

interface Version {
  readonly id: number;
  readonly published: boolean;
  readonly locale: string | undefined;
}

async function versionsOf(db: Queryable, target: ContentTypeSchema, documentIds: readonly string[]): Promise<Map<string, Version[]>> {
  const list = inIds(db.dialect, 'document_id', documentIds, 'text');
  const rows = await db.query(`SELECT id, document_id, published_at${target.localized ? ', locale' : ''} FROM ${quote(target.table)} WHERE ${list.sql} ORDER BY id`, list.params);
  const out = new Map<string, Version[]>();
  for (const row of rows) {
    const key = String(row['document_id']);
    const versions = out.get(key) ?? [];
    versions.push({ id: Number(row['id']), published: row['published_at'] !== null, locale: target.localized ? String(row['locale']) : undefined });
    out.set(key, versions);
  }
  return out;
}

/** The target version a read of the owner row would return, else the first one. */
function pickVersion(versions: readonly Version[], owner: Row | undefined, sameLocale: boolean): number | undefined {
  const published = owner === undefined || owner['published_at'] !== null;
  const score = (v: Version): number => (v.published === published ? 2 : 0) + (sameLocale && v.locale === owner?.['locale'] ? 1 : 0);
  let best: Version | undefined;
  for (const version of versions) if (best === undefined || score(version) > score(best)) best = version;
  return best?.id;
}

/** Strapi's name of the relation from its owning side. */
function relationKind(model: ModelSchema, field: Field & { kind: 'relation' }): string {
  const inverse = field.inverse === undefined ? undefined : model.contentTypes[field.target]?.attributes[field.inverse];
  const inverseMany = inverse?.kind === 'relation' ? inverse.cardinality === 'many' : false;
  if (field.cardinality === 'one') return inverseMany ? 'manyToOne' : 'oneToOne';
  return inverseMany ? 'manyToMany' : 'oneToMany';
}

async function exportMedia(db: Queryable, out: JsonlWriter, tick: () => void): Promise<void> {
  for await (const page of pages(db, FILE_LINK_TABLE)) {
    for (const link of page) {
      await out.write({
        kind: 'relation.morph',
        relation: 'morphToMany',
        left: { type: UPLOAD_FILE_UID, field: 'related', ref: Number(link['file_id']) },
        right: { type: String(link['related_type']), ref: Number(link['related_id']), field: String(link['field']), pos: Number(link['ord']) },
      });
      tick();
    }
  }
}
