/**
 * `capi import`: brings a Strapi 5 data-transfer archive (`strapi export --no-encrypt`) into a
 * capi project, all or nothing.
 *
 * 1. A checking pass reads the whole archive without writing: schemas compared with the
 *    project's, every line checked, every reference resolved. It is the dry run's report, and any
 *    problem stops the import before a single row is written.
 * 2. A writing pass reads it again inside ONE database transaction: rows with their ids, links,
 *    and asset files streamed into a work folder inside the upload folder. Last inside the
 *    transaction the files are stored through the project's upload provider (the local folder,
 *    or an S3 bucket) under the archive's names; a failure anywhere (a row the database refuses,
 *    a full disk, an object the bucket refuses, the commit itself) rolls the rows back, deletes
 *    the stored objects and removes the staged files, so the database and the storage are as
 *    before. Local file rows get the provider's name and URLs, as Strapi's import gives them.
 *
 * A project that already has content is refused unless `force`, which replaces it: its rows are
 * deleted in the same transaction and the objects its file rows own (those of the configured
 * provider) are copied aside, restored if the import fails.
 */
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { lstat, mkdir, writeFile } from 'node:fs/promises';
import type { Database, Queryable } from '../database.ts';
import { quote } from '../engine/sql.ts';
import type { ModelSchema } from '../schema.ts';
import { FILE_LINK_TABLE } from '../upload/file-schema.ts';
import type { UploadProviderConfig } from '../upload/provider-config.ts';
import { createUploadProvider, storedNames, type UploadProvider } from '../upload/provider.ts';
import { serializeFile, type FileRow } from '../upload/serialize.ts';
import { forgetCommitted, markCommitted, removeJournal, writeJournal } from '../upload/placement-journal.ts';
import { storedNameFromUrl } from '../upload/safety.ts';
import { tmpFolderName, UploadFolder } from '../upload/storage.ts';
import { storeFiles, type Placement } from '../upload/stored-files.ts';
import { ImportWalk, type WalkOptions } from './import-walk.ts';
import { ImportError } from './insert-batches.ts';
import { brokenInvariants } from './invariants.ts';
import type { ImportReport } from './report.ts';
import { contentTables, linkTables } from './tables.ts';
import { writeLocaleIdentities } from '../rest/locales.ts';

export interface ImportOptions extends WalkOptions {
  readonly db: Database;
  /** The local upload folder (`<project>/public/uploads`): the local provider's files, and the work folders. */
  readonly uploadDir: string;
  /** config/plugins.json `upload.config`: where the files go. Default: the local provider. */
  readonly uploadProvider?: UploadProviderConfig;
  /** Report only: nothing is written. */
  readonly dryRun?: boolean;
  /** Replace the project's content instead of refusing a project that has some. */
  readonly force?: boolean;
}

/** The import was refused: the report says why. */
export class ImportRefusedError extends Error {
  override readonly name = 'ImportRefusedError';
  constructor(readonly report: ImportReport) {
    super(`the import was refused: ${report.problems.length} problem(s)`);
  }
}

export async function importArchive(options: ImportOptions): Promise<ImportReport> {
  const started = performance.now();
  // An import killed while it stored files left them half replaced: they are put back before
  // anything is read (a dry run included), as the server does when it starts.
  if (isFolder(join(options.uploadDir, tmpFolderName))) await UploadFolder.openSync(options.uploadDir).sweep({ db: options.db });
  const check = new ImportWalk(options);
  await check.run();
  const existing = await existingRows(options.db, options.model);
  if (existing > 0 && !options.force) check.problems.add('error', `the project already has content (${existing} rows): --force replaces it`);
  if ((options.uploadProvider?.provider ?? 'local') === 'local') {
    for (const obstacle of await obstacles(options.uploadDir, check.expectedAssets, await localNames(options.db))) check.problems.add('error', obstacle);
  }
  const report = (written: boolean, walk: ImportWalk = check): ImportReport => ({
    ...(check.strapiVersion === undefined ? {} : { strapiVersion: check.strapiVersion }),
    counts: walk.counts,
    problems: check.problems.list(),
    notes: [...check.notes],
    written,
    durationMs: Math.round(performance.now() - started),
  });
  if (check.problems.blocking(options.allowMissing)) {
    if (options.dryRun) return report(false);
    throw new ImportRefusedError(report(false));
  }
  if (options.dryRun) return report(false);
  // The writing pass builds its own maps; only the check's counts and messages are kept.
  const expectedAssets = check.expectedAssets;
  check.release();

  const folder = UploadFolder.openSync(options.uploadDir);
  const provider = createUploadProvider(options.uploadProvider ?? { provider: 'local' }, folder);
  const work = await folder.createWorkDir();
  const stagedDir = join(work.path, 'staged');
  const displacedDir = join(work.path, 'displaced');
  await mkdir(stagedDir);
  await mkdir(displacedDir);
  let placement: Placement | undefined;
  let walk: ImportWalk | undefined;
  const journalId = provider.name === 'local' ? randomUUID() : undefined;
  const pause = testPause();
  try {
    await options.db.transaction(async (tx) => {
      const displaced = await storedFileNames(tx, provider);
      await clearContent(tx, options.model);
      walk = new ImportWalk(options, { db: tx, workDir: stagedDir, storage: provider, expectedAssets }, check.seen);
      await walk.run();
      // The archive changed between the passes (it is being written to?): nothing is kept.
      if (walk.problems.blocking(options.allowMissing)) throw new ImportError(`the archive changed while it was imported: ${walk.problems.list()[0]?.message ?? ''}`);
      // Lines that were each fine may still break the storage's promises together: refused before commit.
      const broken = await brokenInvariants(tx, options.model);
      if (broken.length > 0) {
        for (const message of broken) check.problems.add('error', message);
        throw new ImportRefusedError(report(false, walk));
      }
      await resetSequences(tx, walk.tablesWithIds);
      // The locales' ids go with the content that names them: replaced, or cleared by an archive without any.
      await writeLocaleIdentities(tx, walk.localeIdentities);
      // Last, so that no file is stored unless every row is in; undone if the commit fails, or
      // by the next start or import if this process is killed before it commits.
      // The row commits with the transaction: it tells the recovery after a kill whether to keep
      // the new files or put the old ones back.
      if (journalId !== undefined) {
        await markCommitted(tx, journalId);
        await writeJournal(work.path, { id: journalId, root: folder.root, stagedDir, backupDir: displacedDir, names: walk.staged.map((file) => file.fileName) });
      }
      placement = await storeFiles(provider, walk.staged, { names: displaced, backupDir: displacedDir }, pause);
    });
    await pause.afterCommit?.();
    await removeJournal(work.path);
    // Nothing asks about a change without a journal: a row left by a failure here is harmless.
    if (journalId !== undefined) await forgetCommitted(options.db, [journalId]).catch(() => undefined);
  } catch (error) {
    await placement?.undo();
    throw error;
  } finally {
    await work.remove();
    provider.close();
  }
  // After the commit: MySQL's ANALYZE TABLE commits implicitly, so inside the transaction it
  // would keep the rows of an import that fails afterwards.
  await analyze(options.db, options.model);
  return report(true, walk);
}

/**
 * What stands where the local provider would put the archive's files, found before anything is
 * written (and said by the dry run): the upload folder or its work folder being a file, a folder
 * under a file's name, or a file no file row owns (which an import never overwrites; one a row
 * owns is replaced by --force, and put back if the import fails).
 */
async function obstacles(uploadDir: string, names: ReadonlySet<string>, owned: ReadonlySet<string>): Promise<string[]> {
  const found: string[] = [];
  for (const folder of [uploadDir, join(uploadDir, tmpFolderName)]) {
    const kind = await kindOf(folder);
    if (kind !== undefined && kind !== 'folder') return [`the upload folder ${folder} is a ${kind}, not a folder: move it away`];
  }
  for (const name of names) {
    const kind = await kindOf(join(uploadDir, name));
    if (kind === undefined || (kind === 'file' && owned.has(name))) continue;
    found.push(`/uploads/${name}: a ${kind === 'file' ? 'file no file row owns' : kind} is where the archive's file goes: move it away`);
  }
  return found;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

async function kindOf(path: string): Promise<'file' | 'folder' | 'link or special file' | undefined> {
  try {
    const stats = await lstat(path);
    return stats.isFile() ? 'file' : stats.isDirectory() ? 'folder' : 'link or special file';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The names of the local provider's files the project's file rows own (originals and formats). */
async function localNames(db: Queryable): Promise<Set<string>> {
  const rows = await db.query<FileRow>('SELECT * FROM files');
  const names = new Set<string>();
  for (const file of rows.map(serializeFile)) {
    if (file.provider !== 'local') continue;
    for (const { url } of [file, ...Object.values(file.formats ?? {})]) {
      const name = storedNameFromUrl(url);
      if (name !== undefined) names.add(name);
    }
  }
  return names;
}

/** Where an import can be paused for a test: after its first file is stored, or after its commit. */
const pausePoints = { store: 'afterStore', commit: 'afterCommit' } as const;

/**
 * `CAPI_IMPORT_TEST_PAUSE=<file>`: at the pause point (`CAPI_IMPORT_TEST_PAUSE_AT`, `store` by
 * default, or `commit`: after the commit, before the journal is removed), write `<file>` and wait
 * forever. Only for tests that kill an import at that step (test/transfer/): it makes the moment
 * of the kill certain.
 */
function testPause(): { afterStore?: () => Promise<void>; afterCommit?: () => Promise<void> } {
  const marker = process.env['CAPI_IMPORT_TEST_PAUSE'];
  if (marker === undefined || marker === '') return {};
  const at = (process.env['CAPI_IMPORT_TEST_PAUSE_AT'] ?? 'store') as keyof typeof pausePoints;
  const point = pausePoints[at];
  if (point === undefined) throw new Error(`CAPI_IMPORT_TEST_PAUSE_AT: expected ${Object.keys(pausePoints).join(' or ')}`);
  return {
    [point]: async () => {
      await writeFile(marker, String(process.pid));
      await new Promise<never>(() => setInterval(() => undefined, 60_000));
    },
  };
}

/** Rows of content the project has (the roles a server creates from config/permissions.json do not count). */
async function existingRows(db: Queryable, model: ModelSchema): Promise<number> {
  let total = 0;
  for (const table of contentTables(model)) {
    if (table === 'up_roles') continue;
    const [row] = await db.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${quote(table)}`);
    total += Number(row?.n ?? 0);
  }
  return total;
}

/** The stored names the project's file rows own (originals and formats) that `provider` stored. */
async function storedFileNames(db: Queryable, provider: UploadProvider): Promise<string[]> {
  const rows = await db.query<FileRow>('SELECT * FROM files');
  return rows.map(serializeFile).flatMap((file) => (file.provider === provider.name ? storedNames(provider, file).names : []));
}

/** Deletes every row of content: links first, then the rows they hang on. */
async function clearContent(db: Queryable, model: ModelSchema): Promise<void> {
  for (const table of [...linkTables(model), FILE_LINK_TABLE, ...contentTables(model)]) await db.execute(`DELETE FROM ${quote(table)}`);
}

/**
 * PostgreSQL plans queries from table statistics, which a bulk load leaves stale: without them the
 * first reads (the server's, an export's) may scan whole tables. SQLite plans from its indexes.
 */
async function analyze(db: Queryable, model: ModelSchema): Promise<void> {
  const script = [...contentTables(model), ...linkTables(model), FILE_LINK_TABLE].flatMap((table) => db.dialect.analyzeTable(table) ?? []);
  if (script.length > 0) await db.exec(script.join('\n'));
}

/**
 * PostgreSQL's id sequences do not move when rows are inserted with explicit ids: without this,
 * the next row created through the API would collide with an imported one. (SQLite's
 * AUTOINCREMENT follows the largest id by itself.)
 */
async function resetSequences(db: Queryable, tables: ReadonlySet<string>): Promise<void> {
  for (const table of tables) {
    const reset = db.dialect.resetIdSequence(table);
    if (reset !== undefined) await db.query(reset.sql, reset.params);
  }
}
