/**
 * write: puts emitted files on disk, touching only what changed, and removes files capi wrote
 * before but no longer emits. Ownership is recorded in capi-manifest.json, so a user's own files
 * in the output directory are never deleted. The same comparison, without writing, is `--check`.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, readdirSync, rmdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { EmittedFile } from './emit/files.ts';

export const MANIFEST = 'capi-manifest.json';

export interface FileChanges {
  readonly created: readonly string[];
  readonly updated: readonly string[];
  readonly removed: readonly string[];
  readonly unchanged: number;
}

/** The manifest is itself an owned file: the sorted list of every owned path. */
export function manifestFile(files: readonly EmittedFile[]): EmittedFile {
  const owned = files.filter((f) => f.policy === 'owned').map((f) => f.path);
  const contents = `${JSON.stringify({ generatedBy: 'capi', files: [...owned, MANIFEST].sort() }, null, 2)}\n`;
  return { path: MANIFEST, contents, policy: 'owned' };
}

export function compareWithDisk(outDir: string, files: readonly EmittedFile[]): FileChanges {
  const created: string[] = [];
  const updated: string[] = [];
  let unchanged = 0;
  for (const file of files) {
    const current = read(join(outDir, file.path));
    if (current === undefined) created.push(file.path);
    else if (file.policy === 'owned' && current !== file.contents) updated.push(file.path);
    else unchanged++;
  }
  const emitted = new Set(files.map((f) => f.path));
  const removed = previouslyOwned(outDir).filter((path) => !emitted.has(path) && existsSync(join(outDir, path)));
  return { created, updated, removed, unchanged };
}

export function applyChanges(outDir: string, files: readonly EmittedFile[], changes: FileChanges): void {
  const toWrite = new Set([...changes.created, ...changes.updated]);
  for (const file of files) {
    if (!toWrite.has(file.path)) continue;
    const target = join(outDir, file.path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.contents);
  }
  for (const path of changes.removed) {
    rmSync(join(outDir, path), { force: true });
    pruneEmptyDirs(outDir, dirname(path));
  }
}

function previouslyOwned(outDir: string): string[] {
  const text = read(join(outDir, MANIFEST));
  if (text === undefined) return [];
  try {
    const parsed = JSON.parse(text) as { files?: unknown };
    return Array.isArray(parsed.files) ? parsed.files.filter((f): f is string => typeof f === 'string' && !f.includes('..')) : [];
  } catch {
    return []; // a broken manifest only means nothing is known to be stale
  }
}

function pruneEmptyDirs(outDir: string, dir: string): void {
  for (let d = dir; d !== '.' && d !== ''; d = dirname(d)) {
    const abs = join(outDir, d);
    if (!existsSync(abs) || readdirSync(abs).length > 0) return;
    rmdirSync(abs);
  }
}

export function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
