/**
 * Migrations: the SQL difference between the last generated Prisma schema and the new one becomes
 * a numbered folder under prisma/migrations/. Prisma computes the SQL (offline, see
 * prisma/offline.config.ts); capi decides whether the change may lose data, because Prisma's
 * `migrate diff --script` prints no warnings of its own.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DATABASES, type DatabaseKind } from './databases.ts';
import { mysqlMigration } from './mysql-ddl.ts';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const OFFLINE_CONFIG = join(dirname(fileURLToPath(import.meta.url)), 'prisma', 'offline.config.ts');

export interface Migration {
  /** Folder name, e.g. `0002_add_articles_subtitle`. */
  readonly name: string;
  readonly sql: string;
}

/** What a schema change would destroy; empty for an additive change. */
export type DataLoss = readonly string[];

export class DataLossError extends Error {
  override readonly name = 'DataLossError';
  constructor(readonly losses: DataLoss) {
    super(['the schema change would lose data:', ...losses.map((l) => `  - ${l}`), 'rerun with --accept-data-loss to generate the migration anyway'].join('\n'));
  }
}

export class MigrationDiffError extends Error {
  override readonly name = 'MigrationDiffError';
}

/** Runs `prisma migrate diff --script` between two schema texts (`undefined` = empty database). */
export async function diffSchemas(previous: string | undefined, next: string, database: DatabaseKind): Promise<string> {
  if (DATABASES[database].migrations === 'capi') return mysqlMigration(previous, next);
  const dir = await mkdtemp(join(tmpdir(), 'capi-diff-'));
  try {
    // The CLI reads ./prisma/schema.prisma at start-up to pick its engine; without it (or without
    // a resolvable DATABASE_URL) it falls back to downloading a query engine, which is offline here.
    await mkdir(join(dir, 'prisma'));
    await writeFile(join(dir, 'prisma', 'schema.prisma'), next);
    const from = previous === undefined ? ['--from-empty'] : ['--from-schema-datamodel', join(dir, 'previous.prisma')];
    if (previous !== undefined) await writeFile(join(dir, 'previous.prisma'), previous);
    const prisma = require.resolve('prisma/build/index.js');
    const args = [prisma, 'migrate', 'diff', '--config', OFFLINE_CONFIG, ...from, '--to-schema-datamodel', join(dir, 'prisma', 'schema.prisma'), '--script'];
    const env = { ...process.env, DATABASE_URL: DATABASES[database].offlineUrl, PRISMA_HIDE_UPDATE_MESSAGE: '1' };
    const { stdout } = await run(process.execPath, args, { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    // Prisma's validation errors span several lines (the message, then the schema excerpt with a
    // caret); the last line alone is often just the excerpt's frame.
    const lines =
      (error as { stderr?: string }).stderr
        ?.trim()
        .split('\n')
        .filter((line) => line.trim() !== '') ?? [];
    const detail = lines.length === 0 ? String(error) : lines.slice(-12).join('\n');
    throw new MigrationDiffError(`prisma migrate diff failed: ${detail}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** True when Prisma's script holds no statement (it prints a comment for an empty migration). */
export function isEmptyScript(sql: string): boolean {
  return sql
    .split('\n')
    .map((line) => line.trim())
    .every((line) => line === '' || line.startsWith('--'));
}

/** A column of the storage layout, as read back from an emitted schema.prisma. */
interface Column {
  readonly type: string;
  readonly field: string;
}

type Layout = ReadonlyMap<string, { readonly model: string; readonly columns: ReadonlyMap<string, Column> }>;

/**
 * Reads tables and columns out of a schema.prisma that capi emitted. Relation fields (list types
 * and `@relation` fields) are not columns and are skipped.
 */
export function readLayout(schema: string): Layout {
  const layout = new Map<string, { model: string; columns: Map<string, Column> }>();
  for (const block of schema.matchAll(/^model (\w+) \{\n([\s\S]*?)\n\}/gm)) {
    const [, model = '', body = ''] = block;
    const columns = new Map<string, Column>();
    let table = model;
    for (const line of body.split('\n').map((l) => l.trim())) {
      const mapped = /^@@map\("([^"]+)"\)/.exec(line);
      if (mapped) table = mapped[1] ?? table;
      const field = /^(\w+)\s+([\w?[\]]+)(.*)$/.exec(line);
      if (!field || line.startsWith('@@')) continue;
      const [, name = '', type = '', rest = ''] = field;
      if (type.endsWith('[]') || rest.includes('@relation')) continue;
      const column = /@map\("([^"]+)"\)/.exec(rest)?.[1] ?? name;
      const dbType = /@db\.\w+(\(\d+\))?/.exec(rest)?.[0] ?? '';
      columns.set(column, { type: `${type.replace('?', '')}${dbType}`, field: `${model}.${name}` });
    }
    layout.set(table, { model, columns });
  }
  return layout;
}

/** Lists what going from `previous` to `next` would drop or rewrite. */
export function findDataLoss(previous: string, next: string): DataLoss {
  const before = readLayout(previous);
  const after = readLayout(next);
  const losses: string[] = [];
  for (const [table, { model, columns }] of before) {
    const kept = after.get(table);
    if (!kept) {
      losses.push(`table "${table}" (model ${model}) would be dropped with all its rows`);
      continue;
    }
    for (const [column, { type, field }] of columns) {
      const now = kept.columns.get(column);
      if (!now) losses.push(`column "${table}"."${column}" (${field}) would be dropped with its values`);
      else if (now.type !== type) losses.push(`column "${table}"."${column}" (${field}) would change type from ${type} to ${now.type}; values that do not convert are lost`);
    }
  }
  return losses;
}

/** Names the next migration after the first change it makes, e.g. `0003_add_articles_subtitle`. */
export function migrationName(sequence: number, previous: string | undefined, next: string): string {
  const prefix = String(sequence).padStart(4, '0');
  if (previous === undefined) return `${prefix}_init`;
  const before = readLayout(previous);
  const after = readLayout(next);
  const changes: string[] = [];
  for (const [table, { columns }] of after) {
    const old = before.get(table);
    if (!old) changes.push(`add_${table}`);
    else for (const column of columns.keys()) if (!old.columns.has(column)) changes.push(`add_${table}_${column}`);
  }
  for (const table of before.keys()) if (!after.has(table)) changes.push(`drop_${table}`);
  for (const [table, { columns }] of before) {
    const now = after.get(table);
    if (now) for (const column of columns.keys()) if (!now.columns.has(column)) changes.push(`drop_${table}_${column}`);
  }
  const first = (changes[0] ?? 'change').slice(0, 60);
  return `${prefix}_${first}${changes.length > 1 ? '_and_more' : ''}`;
}

export interface PlanInput {
  readonly previous: string | undefined;
  readonly next: string;
  readonly database: DatabaseKind;
  /** Names of the migration folders already on disk. */
  readonly existing: readonly string[];
  readonly acceptDataLoss: boolean;
}

/** Computes the migration for a schema change, or `undefined` when nothing in the database changes. */
export async function planMigration(input: PlanInput): Promise<Migration | undefined> {
  if (input.previous === input.next && input.existing.length > 0) return undefined;
  const previous = input.existing.length === 0 ? undefined : input.previous;
  if (previous !== undefined) {
    const losses = findDataLoss(previous, input.next);
    if (losses.length > 0 && !input.acceptDataLoss) throw new DataLossError(losses);
  }
  const sql = await diffSchemas(previous, input.next, input.database);
  if (isEmptyScript(sql)) return undefined;
  const sequence = input.existing.length + 1;
  const name = migrationName(sequence, previous, input.next);
  return { name, sql: `-- Migration ${name}, generated by capi from the schema change.\n${sql.trimEnd()}\n` };
}
