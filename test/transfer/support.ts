/**
 * Shared by the transfer tests: the real Strapi export, import options for the example project
 * (the conformance model, locales en and fr), archives rewritten from the fixture (hostile or
 * broken on purpose) and a snapshot of every content table.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '../../templates/runtime/database.ts';
import type { ModelSchema } from '../../templates/runtime/schema.ts';
import { archiveEntries, readJsonEntry } from '../../templates/runtime/transfer/archive-reader.ts';
import { ArchiveWriter } from '../../templates/runtime/transfer/archive-writer.ts';
import { importArchive, type ImportOptions } from '../../templates/runtime/transfer/import.ts';
import type { ImportReport } from '../../templates/runtime/transfer/report.ts';
import { contentTables, linkTables } from '../../templates/runtime/transfer/tables.ts';
import { strapiExportDir } from '../support/fixtures.ts';

export const fixtureArchive = join(strapiExportDir, 'conformance-seed.tar');

/** What the fixture holds, as the import counts it. */
export const fixtureTotals = { entities: 79, components: 40, links: 83, assets: 7 };

export function scratchDir(prefix: string): { dir: string; dispose: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

export function runImport(db: Database, model: ModelSchema, uploadDir: string, options: Partial<ImportOptions> = {}): Promise<ImportReport> {
  return importArchive({ archive: fixtureArchive, db, model, uploadDir, locales: ['en', 'fr'], roles: ['public', 'authenticated'], allowMissing: false, ...options });
}

export function sum(record: Record<string, number>): number {
  return Object.values(record).reduce((a, b) => a + b, 0);
}

/**
 * Copies an archive entry by entry, letting `edit` replace an entry's content (or drop it with
 * null) and `extra` add entries at the end.
 */
export async function rewriteArchive(
  source: string,
  target: string,
  edit: (path: string, content: Buffer) => Buffer | null = (_path, content) => content,
  extra: ReadonlyArray<readonly [string, Buffer]> = [],
  compress = false,
): Promise<void> {
  const writer = new ArchiveWriter(target, compress);
  for await (const item of archiveEntries(source)) {
    const chunks: Buffer[] = [];
    for await (const chunk of item.entry as AsyncIterable<Buffer>) chunks.push(chunk);
    const content = edit(item.path, Buffer.concat(chunks));
    if (content !== null) await writer.file(item.path, content);
  }
  for (const [path, content] of extra) await writer.file(path, content);
  await writer.finish();
}

export { readJsonEntry };

/** Every row of every content and link table, ordered; link rows without their surrogate id. */
export async function snapshot(db: Database, model: ModelSchema): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of contentTables(model)) out[table] = normalize(await db.query(`SELECT * FROM "${table}" ORDER BY id`));
  for (const table of [...linkTables(model), 'files_related_mph']) {
    const rows = await db.query(`SELECT * FROM "${table}" ORDER BY id`);
    out[table] = normalize(rows.map(({ id: _id, ...rest }) => rest));
  }
  return out;
}

/** Driver values as comparable JSON (Dates, bigints, JSONB objects). */
function normalize(rows: readonly Record<string, unknown>[]): unknown[] {
  return JSON.parse(JSON.stringify(rows, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value))) as unknown[];
}
