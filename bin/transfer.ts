/**
 * `capi import` and `capi export`: move a project's content in and out as Strapi 5's
 * data-transfer archive. The work is the runtime's (templates/runtime/transfer, copied into every
 * generated project, next to the database layer and upload folder it uses); this shell opens the
 * project (its config, DATABASE_URL, pending migrations), draws the progress bars and prints the
 * report.
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import cliProgress from 'cli-progress';
import { loadConfig, type AppConfig } from '../templates/runtime/config.ts';
import { openDatabase, type Database } from '../templates/runtime/database.ts';
import { createLogger } from '../templates/runtime/logger.ts';
import { applyMigrations } from '../templates/runtime/migrate.ts';
import type { ModelSchema } from '../templates/runtime/schema.ts';
import { exportArchive } from '../templates/runtime/transfer/export.ts';
import { importArchive, ImportRefusedError } from '../templates/runtime/transfer/import.ts';
import { importLimitSpecs, type ImportLimitName, type ImportLimits } from '../templates/runtime/transfer/limits.ts';
import { formatReport, type ProgressListener, type TransferStage } from '../templates/runtime/transfer/report.ts';

/** A refused import or export, for exit code 1 (the report was printed). */
export class TransferCommandError extends Error {
  override readonly name = 'TransferCommandError';
}

interface Project {
  readonly root: string;
  readonly model: ModelSchema;
  readonly config: AppConfig;
  readonly db: Database;
}

async function withProject<T>(dir: string, run: (project: Project) => Promise<T>): Promise<T> {
  const root = resolve(dir);
  const { model } = (await import(pathToFileURL(join(root, 'src', 'model.ts')).href)) as { model: ModelSchema };
  const config = loadConfig({ projectRoot: root, model });
  const db = await openDatabase(config.database);
  try {
    await applyMigrations(db, join(root, 'prisma', 'migrations'), createLogger({ level: 'warn' }));
    return await run({ root, model, config, db });
  } finally {
    await db.close();
  }
}

const stageNames: Readonly<Record<TransferStage, string>> = { check: 'check', entities: 'entities', links: 'links', assets: 'assets', export: 'export' };

/** One bar per stage on a terminal; one line per finished stage otherwise (logs, CI). */
function progressReporter(stream: NodeJS.WriteStream): { listener: ProgressListener; stop: () => void } {
  if (!stream.isTTY) {
    return {
      listener: (event) => {
        if (event.finished) stream.write(`  ✓ ${stageNames[event.stage].padEnd(9)} ${event.done}\n`);
      },
      stop: () => undefined,
    };
  }
  const bars = new cliProgress.MultiBar({ stream, format: ' {stage} [{bar}] {value}/{total}', hideCursor: true, clearOnComplete: false, etaBuffer: 50 }, cliProgress.Presets.shades_classic);
  const byStage = new Map<TransferStage, cliProgress.SingleBar>();
  return {
    listener: (event) => {
      let bar = byStage.get(event.stage);
      const total = event.total ?? Math.max(event.done, 1);
      if (bar === undefined) {
        bar = bars.create(total, 0, { stage: stageNames[event.stage].padEnd(9) });
        byStage.set(event.stage, bar);
      }
      bar.setTotal(Math.max(total, event.done));
      bar.update(event.done);
    },
    stop: () => bars.stop(),
  };
}

export interface ImportFlags extends Partial<ImportLimits> {
  readonly project: string;
  readonly dryRun: boolean;
  readonly force: boolean;
  readonly allowMissing: boolean;
}

/** The limits given on the command line (or in their environment variables), over the defaults. */
function importLimits(flags: ImportFlags, config: AppConfig): Partial<ImportLimits> {
  // An asset larger than the project accepts as an upload is one it would not have stored.
  const limits: Partial<Record<ImportLimitName, number>> = { maxFileBytes: config.plugins.upload.sizeLimit };
  for (const name of Object.keys(importLimitSpecs) as ImportLimitName[]) {
    const value = flags[name];
    if (value !== undefined) limits[name] = value;
  }
  return limits;
}

export async function runImport(file: string, flags: ImportFlags): Promise<void> {
  const err = process.stderr;
  err.write(`capi import ${file} → ${flags.project}${flags.dryRun ? ' (dry run)' : ''}\n`);
  await withProject(flags.project, async ({ root, model, config, db }) => {
    const progress = progressReporter(err);
    try {
      const report = await importArchive({
        archive: resolve(file),
        db,
        model,
        uploadDir: join(root, 'public', 'uploads'),
        uploadProvider: config.plugins.upload.provider,
        locales: config.plugins.i18n.locales.map((l) => l.code),
        roles: Object.keys(config.permissions),
        allowMissing: flags.allowMissing,
        limits: importLimits(flags, config),
        dryRun: flags.dryRun,
        force: flags.force,
        progress: progress.listener,
      });
      progress.stop();
      process.stdout.write(`${formatReport(report).join('\n')}\n`);
      const blocking = report.problems.some((p) => p.kind === 'error' || !flags.allowMissing);
      if (flags.dryRun) {
        err.write(
          blocking
            ? 'dry run: the import would be refused (problems above)\n'
            : `dry run: every line and file checked, nothing written (${report.durationMs} ms); the import also checks its rows together (one draft and one published version per document, unique values, users, media links) when it writes them\n`,
        );
        if (blocking) process.exitCode = 1;
        return;
      }
      err.write(
        `imported ${total(report.counts.entities)} entries, ${total(report.counts.components)} components, ${total(report.counts.links)} links, ${report.counts.assets} files in ${(report.durationMs / 1000).toFixed(1)} s\n`,
      );
    } catch (error) {
      progress.stop();
      if (error instanceof ImportRefusedError) {
        process.stdout.write(`${formatReport(error.report).join('\n')}\n`);
        throw new TransferCommandError('nothing was imported: fix the problems above (or see --force, --allow-missing)');
      }
      throw error;
    }
  });
}

function total(record: Record<string, number>): number {
  return Object.values(record).reduce((sum, n) => sum + n, 0);
}

export interface ExportFlags {
  readonly project: string;
  readonly compress: boolean;
}

export async function runExport(file: string, flags: ExportFlags): Promise<void> {
  const err = process.stderr;
  await withProject(flags.project, async ({ root, model, config, db }) => {
    const progress = progressReporter(err);
    let result;
    try {
      result = await exportArchive({
        file: resolve(file),
        db,
        model,
        uploadDir: join(root, 'public', 'uploads'),
        uploadProvider: config.plugins.upload.provider,
        compress: flags.compress,
        progress: progress.listener,
      });
    } finally {
      progress.stop();
    }
    if (result.missingAssets.length > 0) {
      err.write(`warning: ${result.missingAssets.length} file(s) of the media library are not in the upload storage (their rows are exported): ${result.missingAssets.slice(0, 10).join(', ')}\n`);
    }
    err.write(`exported ${result.entities} entries, ${result.links} links, ${result.assets} files to ${result.file} in ${(result.durationMs / 1000).toFixed(1)} s\n`);
  });
}
