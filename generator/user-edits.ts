/**
 * Files capi writes and the user also edits: package.json. capi owns the keys it emits (name,
 * scripts it defines, the dependencies the runtime needs, at capi's versions); what the user
 * added beside them (dependencies, scripts, other top-level keys) is carried into every
 * regeneration, so `capi generate` never silently reverts it.
 */
import { join } from 'node:path';
import type { EmittedFile } from './emit/files.ts';
import { read } from './write.ts';

const PACKAGE_JSON = 'package.json';
/** Objects whose entries are merged one by one: capi's entries win, the user's others stay. */
const MERGED = ['scripts', 'dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const;

export function keepUserEdits(outDir: string, files: readonly EmittedFile[]): EmittedFile[] {
  return files.map((file) => {
    if (file.path !== PACKAGE_JSON) return file;
    const current = read(join(outDir, file.path));
    return current === undefined ? file : { ...file, contents: mergePackageJson(current, file.contents) };
  });
}

type JsonObject = Record<string, unknown>;

export function mergePackageJson(current: string, emitted: string): string {
  let user: unknown;
  try {
    user = JSON.parse(current);
  } catch {
    return emitted; // an unreadable package.json has no edits to keep
  }
  if (!isObject(user)) return emitted;
  const ours = JSON.parse(emitted) as JsonObject;
  const merged: JsonObject = { ...ours };
  for (const [key, value] of Object.entries(user)) if (!(key in ours)) merged[key] = value;
  for (const key of MERGED) {
    const theirs = user[key];
    if (!isObject(theirs)) continue;
    const base = isObject(ours[key]) ? ours[key] : {};
    merged[key] = { ...base, ...Object.fromEntries(Object.entries(theirs).filter(([name]) => !(name in base))) };
  }
  return `${JSON.stringify(merged, null, 2)}\n`;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
